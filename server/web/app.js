// The web app's entry: a router over the address's fragment, and the token box.
//   #/                     the sessions
//   #/s/NAME?at=N          the replay of a session, after N records
//   #/s/NAME/record        recording at the table
//   #/diff?a=A&b=B         where two replays split

import * as api from "./api.js";
import { sessionsView, replayView, diffView } from "./views.js";
import { recordView } from "./record.js";
import { h } from "./svg.js";

let leave = () => {};

async function route() {
  leave();
  leave = () => {};
  const main = document.getElementById("view");
  const [path, query = ""] = location.hash.replace(/^#/, "").split("?");
  const params = new URLSearchParams(query);
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  try {
    let view;
    if (parts[0] === "s" && parts[1] && parts[2] === "record") view = await recordView(parts[1]);
    else if (parts[0] === "s" && parts[1]) view = await replayView(parts[1], params);
    else if (parts[0] === "diff") view = await diffView(params);
    else view = await sessionsView();
    main.replaceChildren(view.node);
    leave = view.leave || leave;
  } catch (e) {
    main.replaceChildren(h("p", { class: "error", role: "alert" }, e.message));
  }
}

async function start() {
  const box = document.getElementById("token-box");
  const input = document.getElementById("token");
  try {
    const health = await api.get("/health");
    box.hidden = !health.token_required;
  } catch {
    box.hidden = false;
  }
  input.value = api.token();
  input.addEventListener("change", () => api.setToken(input.value.trim()));
  window.addEventListener("hashchange", route);
  await route();
}

start();
