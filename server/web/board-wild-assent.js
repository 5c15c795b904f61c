// Wild Assent: the grid with every miniature on its field, facing shown by an arrow (the
// frontal arc is the half of the board it points to), health and damage, obstacles, and the
// attack in progress. Read from the game's facts: `NAME.field` (algebraic, `c4`),
// `NAME.facing` (n, e, s, w), `NAME.health`, `NAME.damage`, `NAME.threat` (creatures),
// `NAME.exhausted` (seekers), `obstacles` (`c3:rock ...`), `active`, `attack.by`,
// `attack.targets` (lists space- or comma-separated); the board's size from the text board.

import { s, svg, text } from "./svg.js";

// `c4` as [2, 3].
function field(name) {
  const m = /^([a-z])(\d{1,2})$/.exec(name || "");
  return m ? [m[1].charCodeAt(0) - 97, Number(m[2]) - 1] : null;
}

const ARROW = { n: [0, -1], e: [1, 0], s: [0, 1], w: [-1, 0] };

// The board's columns and rows, from the text board's column letters and row numbers (the
// size is a setup value, `board=WxH`, not a fact); `null` when the text gives none.
function size(board) {
  const lines = (board || "").split("\n");
  const header = lines.find((l) => /^\s+a(\s+[a-p])+\s*$/.test(l));
  const rows = Math.max(0, ...lines.map((l) => /^\s*(\d{1,2})\s+\S/.exec(l)).filter(Boolean).map((m) => Number(m[1])));
  return header && rows ? [header.trim().split(/\s+/).length, rows] : null;
}

// A fact's list: space- or comma-separated, `-` when empty.
const list = (value) => String(value ?? "").split(/[,\s]+/).filter((t) => t && t !== "-");

export function wildAssent(facts, board, changed) {
  const units = [];
  for (const [key, value] of facts) {
    const m = /^(.+)\.field$/.exec(key);
    if (m && field(value)) units.push({ name: m[1], at: field(value) });
  }
  const obstacles = list(facts.get("obstacles")).map((o) => o.split(":")).filter(([f]) => field(f)).map(([f, kind]) => ({ at: field(f), kind }));
  const all = [...units.map((u) => u.at), ...obstacles.map((o) => o.at)];
  // The book's board when the text board does not say (10x10, the setup's default).
  const [w, h] = size(board) || [10, 10];
  const cols = Math.max(w, ...all.map(([x]) => x + 1));
  const rows = Math.max(h, ...all.map(([, y]) => y + 1));
  const cell = 56;
  const left = 30;
  const top = 40;
  const px = (x) => left + x * cell;
  const py = (y) => top + (rows - 1 - y) * cell; // row 1 at the bottom
  const parts = [text(10, 22, `Wild Assent — ${facts.get("mode") ?? ""} · round ${facts.get("round") ?? "?"} · ${facts.get("phase") ?? ""}${facts.get("turn") && facts.get("turn") !== "-" ? " · " + facts.get("turn") + "' turn" : ""}`, { class: "title" })];
  for (let x = 0; x < cols; x++) {
    parts.push(text(px(x) + cell / 2, top + rows * cell + 16, String.fromCharCode(97 + x), { "text-anchor": "middle", class: "small" }));
    for (let y = 0; y < rows; y++) {
      parts.push(s("rect", { x: px(x), y: py(y), width: cell, height: cell, fill: (x + y) % 2 ? "#efe9dc" : "#f8f5ee", stroke: "#d6cfbf" }));
    }
  }
  for (let y = 0; y < rows; y++) parts.push(text(left - 8, py(y) + cell / 2 + 4, y + 1, { "text-anchor": "end", class: "small" }));
  for (const o of obstacles) {
    parts.push(s("g", { class: "obstacle", "data-field": `${String.fromCharCode(97 + o.at[0])}${o.at[1] + 1}` }, s("rect", { x: px(o.at[0]) + 4, y: py(o.at[1]) + 4, width: cell - 8, height: cell - 8, rx: 6, fill: "#8d8577" }), text(px(o.at[0]) + cell / 2, py(o.at[1]) + cell / 2 + 4, o.kind || "", { "text-anchor": "middle", fill: "#fff", "font-size": 10 })));
  }
  const active = facts.get("active");
  const attacker = facts.get("attack.by");
  const targets = new Set(list(facts.get("attack.targets")));
  for (const u of units) {
    const cx = px(u.at[0]) + cell / 2;
    const cy = py(u.at[1]) + cell / 2;
    const creature = facts.has(`${u.name}.threat`);
    const facing = facts.get(`${u.name}.facing`);
    const [dx, dy] = ARROW[facing] || [0, 0];
    const hot = [...changed].some((k) => k.startsWith(`${u.name}.`));
    const ring = u.name === active ? "#c98a00" : targets.has(u.name) ? "#b3261e" : "#333";
    parts.push(
      s(
        "g",
        { class: `unit${creature ? " creature" : " seeker"}${hot ? " changed" : ""}`, "data-unit": u.name, "data-facing": facing || "" },
        // The frontal arc: the half-plane the miniature faces, lightly shaded.
        dx || dy ? s("path", { d: `M ${cx} ${cy} L ${cx + (dx * 2 - dy) * cell * 0.45} ${cy + (dy * 2 + dx) * cell * 0.45} L ${cx + (dx * 2 + dy) * cell * 0.45} ${cy + (dy * 2 - dx) * cell * 0.45} Z`, fill: creature ? "#c4453a" : "#3a6fc4", opacity: 0.18 }) : null,
        s("circle", { cx, cy, r: cell * 0.32, fill: creature ? "#c4453a" : "#3a6fc4", stroke: ring, "stroke-width": u.name === active || u.name === attacker || targets.has(u.name) ? 3 : 1 }),
        dx || dy ? s("line", { x1: cx, y1: cy, x2: cx + dx * cell * 0.42, y2: cy + dy * cell * 0.42, stroke: "#fff", "stroke-width": 3, class: "facing" }) : null,
        text(cx, cy - cell * 0.36, u.name, { "text-anchor": "middle", "font-size": 10 }),
        text(cx, cy + 4, facts.get(`${u.name}.health`) ?? "", { "text-anchor": "middle", fill: "#fff", "font-size": 12, "font-weight": 700 }),
      ),
    );
  }
  return svg(left + cols * cell + 20, top + rows * cell + 30, "Wild Assent board", parts);
}
