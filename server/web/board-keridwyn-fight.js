// Keridwyn tourney fights: the fighters in their seats with Grit, Fame and ailments, the
// priority token's holder, and the priority track (what acts next, what already acted).

import { s, svg, text } from "./svg.js";

const AILMENTS = [["burn", "#d9622b"], ["dazzle", "#e3c440"], ["slow", "#5c8fd6"], ["weak", "#8a6bb8"]];

export function keridwynFight(facts, _board, changed) {
  const seats = [];
  for (const key of facts.keys()) {
    const m = /^(.+)\.grit$/.exec(key);
    if (m) seats.push(m[1]);
  }
  const width = Math.max(640, 20 + seats.length * 190);
  const parts = [text(10, 22, `Keridwyn — round ${facts.get("round") ?? "?"} · ${facts.get("phase") ?? ""}`, { class: "title" })];
  const holder = facts.get("priority");
  const maxGrit = Math.max(10, ...seats.map((x) => Number(facts.get(`${x}.grit`) || 0)));
  seats.forEach((seat, n) => {
    const x = 10 + n * 190;
    const y = 40;
    const grit = Number(facts.get(`${seat}.grit`) || 0);
    const defeated = facts.get(`${seat}.defeated`) === "true";
    const hot = [...changed].some((k) => k.startsWith(`${seat}.`));
    const ailments = AILMENTS.map(([a, color]) => [a, color, Number(facts.get(`${seat}.${a}`) || 0)]).filter(([, , v]) => v > 0);
    parts.push(
      s(
        "g",
        { class: `fighter${defeated ? " defeated" : ""}${hot ? " changed" : ""}`, "data-seat": seat, "data-grit": grit },
        s("rect", { x, y, width: 180, height: 170, rx: 8, fill: defeated ? "#ddd" : "#fbfaf7", stroke: seat === holder ? "#c98a00" : "#999", "stroke-width": seat === holder ? 3 : 1 }),
        text(x + 10, y + 20, `${seat} · ${facts.get(`${seat}.card`) || ""}`, { class: "fighter-name" }),
        seat === holder ? s("g", { class: "priority-token" }, s("circle", { cx: x + 160, cy: y + 18, r: 11, fill: "#f2b33d", stroke: "#7a5300" }), text(x + 160, y + 23, "P", { "text-anchor": "middle" })) : null,
        text(x + 10, y + 44, `Grit ${grit}`, { class: "label" }),
        s("rect", { x: x + 70, y: y + 34, width: 100, height: 12, fill: "#eee", stroke: "#999" }),
        s("rect", { x: x + 70, y: y + 34, width: (100 * Math.min(grit, maxGrit)) / maxGrit, height: 12, fill: grit > 0 ? "#3f9b4f" : "#999" }),
        text(x + 10, y + 66, `Fame ${facts.get(`${seat}.fame`) ?? "-"}`, { class: "label" }),
        ailments.length
          ? ailments.map(([a, color, v], k) => s("g", { class: "ailment", "data-ailment": a }, s("rect", { x: x + 10 + k * 42, y: y + 78, width: 38, height: 22, rx: 4, fill: color }), text(x + 29 + k * 42, y + 94, `${a.slice(0, 3)} ${v}`, { "text-anchor": "middle", fill: "#fff", "font-size": 11 })))
          : text(x + 10, y + 94, "no ailments", { class: "muted" }),
        text(x + 10, y + 122, `effects: ${facts.get(`${seat}.effects`) ?? "-"}`, { class: "small" }),
        text(x + 10, y + 140, `hand: ${facts.get(`${seat}.hand`) ?? "-"}`, { class: "small" }),
        defeated ? text(x + 10, y + 160, "defeated", { class: "defeated-label" }) : text(x + 10, y + 160, `trophies: ${facts.get(`${seat}.trophies`) ?? "-"}`, { class: "small" }),
      ),
    );
  });
  // The priority track: pending tokens left to right in the order they resolve, then done.
  const y = 240;
  parts.push(text(10, y, "priority track", { class: "label" }));
  const entries = (list, done) => (list && list !== "-" ? list.split(/\s+/).filter(Boolean).map((t) => ({ t, done })) : []);
  const track = [...entries(facts.get("track"), false), ...entries(facts.get("track.done"), true)];
  track.forEach(({ t, done }, k) => {
    const [value, seat, action] = t.split(":");
    const x = 120 + k * 110;
    parts.push(
      s(
        "g",
        { class: done ? "token done" : "token", "data-token": t },
        s("rect", { x, y: y - 18, width: 104, height: 40, rx: 6, fill: done ? "#eee" : "#fff3d6", stroke: done ? "#bbb" : "#c98a00" }),
        text(x + 8, y, `${value} · ${seat}`, { class: "token-head" }),
        text(x + 8, y + 16, action || "", { class: "small" }),
      ),
    );
  });
  if (!track.length) parts.push(text(120, y, "empty", { class: "muted" }));
  return svg(Math.max(width, 140 + track.length * 110), y + 40, "Keridwyn fight board", parts);
}
