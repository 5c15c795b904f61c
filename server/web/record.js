// Recording at the table: the board now, the events the rules accept now as buttons, a line
// to type any other event (with completions), the verdict of each line at once, and undo.
// Every append names the sequence it expects, so two tablets on one session never
// overwrite each other: the second is told, and its page catches up.

import * as api from "./api.js";
import { h } from "./svg.js";
import { board } from "./boards.js";
import { violationCard } from "./views.js";

export async function recordView(name) {
  const info = await api.get(`/sessions/${api.seg(name)}`);
  let records = info.records;
  const picture = h("div", { class: "picture" });
  const offers = h("div", { class: "offers", "aria-label": "legal next events" });
  const options = h("datalist", { id: "completions" });
  const input = h("input", { name: "line", list: "completions", autocomplete: "off", autocapitalize: "off", spellcheck: "false", placeholder: "type an event", "data-testid": "line" });
  const strict = h("input", { type: "checkbox", name: "strict" });
  const verdict = h("div", { class: "verdicts", "data-testid": "verdict", role: "status" });
  const position = h("p", { class: "position" });
  const recent = h("ol", { class: "records recent" });
  let busy = false;

  async function refresh() {
    const [state, offer, log] = await Promise.all([
      api.get(`/sessions/${api.seg(name)}/state`),
      api.get(`/sessions/${api.seg(name)}/suggest`, { limit: 12 }),
      api.get(`/sessions/${api.seg(name)}/log`),
    ]);
    position.textContent = `${log.entries.length} records; the next is #${log.entries.length}`;
    records = log.entries.length;
    picture.replaceChildren(board(info.game, state));
    const legal = offer.legal.map((line) =>
      h("button", { type: "button", class: line === offer.next_consequence ? "offer required" : "offer", "data-line": line, onclick: () => submit(line) }, line, line === offer.next_consequence ? h("small", {}, " required next") : null),
    );
    offers.replaceChildren(
      ...(offer.stopped ? [h("p", { class: "error" }, `nothing can follow: ${offer.stopped}`)] : []),
      ...(legal.length ? legal : [h("p", { class: "muted" }, "no offer: type the event")]),
    );
    options.replaceChildren(...offer.completions.map((c) => h("option", { value: c })));
    recent.replaceChildren(
      ...log.entries.slice(-8).map((e) => h("li", { value: e.index, class: e.retracted_by != null ? "retracted" : "" }, h("code", {}, e.notation))),
    );
  }

  function show(result) {
    const parts = [];
    if (result.error) parts.push(h("div", { class: "verdict error" }, `cannot be applied: ${result.error.message}; not recorded`));
    parts.push(...result.violations.map(violationCard));
    for (const u of result.unverified) parts.push(h("div", { class: "verdict unverified" }, `unverified: ${u.effect}`));
    if (result.written && result.retracted != null) parts.push(h("div", { class: "verdict clean" }, `recorded #${result.record.index}: undo (retracts record ${result.retracted})`));
    else if (result.written && !result.violations.length) parts.push(h("div", { class: "verdict clean", "data-testid": "clean" }, `recorded #${result.record.index}: ${result.record.notation} — no rule broken`));
    else if (result.written) parts.push(h("div", { class: "verdict recorded" }, `recorded #${result.record.index}: ${result.record.notation}`));
    else if (!result.error) parts.push(h("div", { class: "verdict refused" }, "refused (strict): nothing was recorded"));
    if (result.next_consequence) parts.push(h("div", { class: "next" }, "next, the rules require: ", h("code", {}, result.next_consequence)));
    verdict.replaceChildren(...parts);
  }

  async function submit(line) {
    if (busy || !line.trim()) return;
    busy = true;
    try {
      const result = await api.post(`/sessions/${api.seg(name)}/records`, { expected: records, line, strict: strict.checked });
      records = result.records;
      show(result);
      input.value = "";
    } catch (e) {
      verdict.replaceChildren(h("div", { class: "verdict error", role: "alert" }, e.message));
    } finally {
      busy = false;
    }
    await refresh();
    input.focus();
  }

  const form = h(
    "form",
    { class: "record-line", onsubmit: (e) => { e.preventDefault(); submit(input.value); } },
    input,
    options,
    h("button", { type: "submit", "data-testid": "submit" }, "Record"),
    h("button", { type: "button", class: "undo", "data-testid": "undo", onclick: () => submit("undo") }, "Undo"),
    h("label", { class: "strict" }, strict, " refuse illegal events"),
  );
  const node = h(
    "section",
    { class: "record", "data-session": name },
    h("h1", {}, "Recording ", name, " ", h("span", { class: "muted" }, info.game), " ", h("a", { href: `#/s/${api.seg(name)}`, class: "button" }, "replay")),
    position,
    h("div", { class: "split" }, h("div", { class: "main-col" }, h("h2", {}, "Next"), offers, form, verdict, picture), h("aside", {}, h("h2", {}, "Latest records"), recent)),
  );
  await refresh();
  // Another tablet's append moves the session on: show the table as it is.
  const stop = api.watch(name, (n) => {
    if (n !== records && !busy) refresh();
  });
  return { node, leave: stop };
}
