// Flame & Forge: the city's 21 tiles in six lines (4 and 3 alternating, Outskirts, Valley,
// Wastelands bottom up) and the Dragon's Castle above them; each tile with its fire, scorched
// state, dwarf spots, gems and monsters; then each player's health and gems. Read from the
// game's facts: `TILE.fire`, `TILE.spots` (`. r .`), `scorched.tiles`, `gems`
// (`O1a:y1,b0,r0 ...`), `monsters` (`goblin@O1a ...`), and `COLOUR.health`, `COLOUR.gems`.

import { s, svg, text, COLORS } from "./svg.js";

const LINES = [
  ["O1", 4], ["O2", 3], ["V1", 4], ["V2", 3], ["W1", 4], ["W2", 3],
];

function perTile(list, split) {
  const out = new Map();
  for (const item of (list || "").split(/\s+/).filter((t) => t && t !== "-")) {
    const [a, b] = split(item);
    if (!out.has(b)) out.set(b, []);
    out.get(b).push(a);
  }
  return out;
}

export function flameAndForge(facts, _board, changed) {
  const w = 120;
  const h = 78;
  const left = 20;
  const bottom = 60 + 7 * (h + 8);
  const scorched = new Set((facts.get("scorched.tiles") || "").split(/\s+/));
  const monsters = perTile(facts.get("monsters"), (t) => t.split("@"));
  const gems = new Map((facts.get("gems") || "").split(/\s+/).filter((t) => t.includes(":")).map((t) => t.split(":")));
  const parts = [text(10, 22, `Flame & Forge — ${facts.get("phase") ?? ""} · turn ${facts.get("turn") ?? "?"} · ${facts.get("outcome") ?? ""} · active ${facts.get("active") ?? "-"}`, { class: "title" })];
  const tile = (name, x, y) => {
    const fire = Number(facts.get(`${name}.fire`) || 0);
    const spots = (facts.get(`${name}.spots`) || "").split(/\s+/).filter(Boolean);
    const burnt = scorched.has(name);
    const hot = [...changed].some((k) => k.startsWith(`${name}.`));
    return s(
      "g",
      { class: `tile${burnt ? " scorched" : ""}${hot ? " changed" : ""}`, "data-tile": name, "data-fire": fire },
      s("rect", { x, y, width: w, height: h, rx: 8, fill: burnt ? "#5a4a44" : "#f8f1e2", stroke: "#8a7a60" }),
      text(x + 8, y + 16, name, { class: "label", fill: burnt ? "#fff" : "#222" }),
      Array.from({ length: fire }, (_, k) => s("path", { d: `M ${x + w - 14 - k * 13} ${y + 20} q 6 -8 0 -16 q -6 8 0 16 z`, fill: "#e8591a" })),
      spots.map((d, k) => s("circle", { cx: x + 14 + k * 18, cy: y + 36, r: 7, fill: d === "." ? "none" : COLORS[d] || "#777", stroke: "#555", "stroke-dasharray": d === "." ? "2 2" : null })),
      gems.has(name) ? text(x + 8, y + 58, gems.get(name).replace(/,/g, " "), { class: "small", fill: burnt ? "#fff" : "#222" }) : null,
      (monsters.get(name) || []).map((m, k) => text(x + 8, y + 72 - k * 0, m, { class: "small", fill: "#b3261e" })),
    );
  };
  LINES.forEach(([prefix, count], line) => {
    const y = bottom - (line + 1) * (h + 8);
    const shift = count === 3 ? (w + 8) / 2 : 0;
    for (let i = 0; i < count; i++) parts.push(tile(`${prefix}${String.fromCharCode(97 + i)}`, left + shift + i * (w + 8), y));
  });
  parts.push(tile("castle", left + 1.5 * (w + 8), bottom - 7 * (h + 8)));
  // Players beside the city.
  const players = [...facts.keys()].map((k) => /^([a-z]+)\.health$/.exec(k)).filter(Boolean).map((m) => m[1]);
  const px = left + 4 * (w + 8) + 20;
  players.forEach((p, k) => {
    const y = 50 + k * 60;
    parts.push(
      s(
        "g",
        { class: "player", "data-player": p },
        s("rect", { x: px, y, width: 190, height: 52, rx: 6, fill: "#fff", stroke: "#999" }),
        text(px + 8, y + 18, `${p} · health ${facts.get(`${p}.health`)}`, { class: "label" }),
        text(px + 8, y + 38, `gems ${facts.get(`${p}.gems`) ?? "-"}`, { class: "small" }),
      ),
    );
  });
  return svg(px + 210, bottom + 10, "Flame & Forge city", parts);
}
