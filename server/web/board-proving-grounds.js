// Proving Grounds: the enemy row with each enemy's track (bottom, start, the spaces and the
// dice they require, the battle marker) and the dice attacking it; the health track with the
// color stack; the exhaustion track; the dice pool.

import { s, svg, text, die, dice, COLORS } from "./svg.js";

// The track labels of each enemy line of the text board: `#4 green-warden  B 2 [*2] 2g 3 ...`.
function tracks(board) {
  const out = new Map();
  for (const line of board.split("\n")) {
    const m = /^\s*#(\d+)\s+(\S+)\s+(.*?)\s+icon\b/.exec(line);
    if (!m) continue;
    const spaces = m[3].split(/\s+/).filter(Boolean).map((t) => {
      const marker = t.startsWith("[") && t.endsWith("]");
      const bare = marker ? t.slice(1, -1) : t;
      return { marker, start: bare.startsWith("*"), label: bare.replace(/^\*/, "") };
    });
    out.set(Number(m[1]), spaces);
  }
  return out;
}

export function provingGrounds(facts, board, changed) {
  const labels = tracks(board);
  const slots = [];
  for (let i = 1; facts.has(`slot.${i}.enemy`) || labels.has(i); i++) slots.push(i);
  const colWidth = 112;
  const width = Math.max(640, 20 + slots.length * colWidth);
  const space = 34;
  const trackTop = 70;
  const maxSpaces = Math.max(4, ...slots.map((i) => (labels.get(i) || []).length, ...slots.map((i) => Number(facts.get(`slot.${i}.top`) || 0) + 1)));
  const trackBottom = trackTop + maxSpaces * space;
  const parts = [];
  const head = `round ${facts.get("round") ?? "?"} · ${facts.get("phase") ?? ""} · ${facts.get("outcome") ?? ""} · defeated ${facts.get("defeated") ?? 0}`;
  parts.push(text(10, 22, `Proving Grounds — ${head}`, { class: "title" }));

  for (const [n, i] of slots.entries()) {
    const x = 20 + n * colWidth;
    const named = facts.get(`slot.${i}.enemy`);
    const enemy = named && named !== "-" ? named : "(empty)";
    const marker = Number(facts.get(`slot.${i}.marker`));
    const spaces = labels.get(i) || Array.from({ length: Number(facts.get(`slot.${i}.top`) || 0) + 1 }, (_, k) => ({ label: k === 0 ? "B" : "", marker: k === marker, start: false }));
    const hot = [...changed].some((k) => k.startsWith(`slot.${i}.`));
    parts.push(
      s(
        "g",
        { class: hot ? "enemy changed" : "enemy", "data-slot": i, "data-enemy": enemy, "data-marker": Number.isNaN(marker) ? "" : marker },
        text(x + 40, 44, `#${i}`, { "text-anchor": "middle", class: "slot-number" }),
        text(x + 40, 60, enemy, { "text-anchor": "middle", class: "enemy-name" }),
        spaces.map((sp, k) => {
          const y = trackBottom - (k + 1) * space;
          const isMarker = sp.marker || (!labels.has(i) && k === marker);
          const [num, color] = /^(\d+)([gybr]?)$/.test(sp.label) ? [sp.label.replace(/[gybr]$/, ""), sp.label.slice(-1)] : [sp.label, ""];
          return s(
            "g",
            { class: isMarker ? "space marker" : "space" },
            s("rect", { x: x + 16, y, width: 48, height: space - 4, rx: 5, fill: isMarker ? "#f2b33d" : sp.start ? "#e8e3d6" : "#fff", stroke: "#666", "stroke-width": sp.start ? 2.4 : 1 }),
            text(x + 40, y + 20, sp.label === "B" ? "bottom" : num, { "text-anchor": "middle", class: "space-label" }),
            COLORS[color] ? s("circle", { cx: x + 58, cy: y + 8, r: 5, fill: COLORS[color], stroke: "#333" }) : null,
          );
        }),
        dice(facts.get(`slot.${i}.dice`)).map(([v, c], k) => die(x + 4 + (k % 3) * 25, trackBottom + 8 + Math.floor(k / 3) * 25, 22, v, c)),
      ),
    );
  }

  // Health, bottom of the picture.
  const y0 = trackBottom + 70;
  const health = Number(facts.get("health") || 0);
  const last = Number(facts.get("health.last") || 8);
  const stackAt = Number(facts.get("stack.at") || 0);
  const stack = (facts.get("stack") || "").split(/\s+/).filter((c) => c && c !== "-");
  parts.push(text(10, y0, "health", { class: "label" }));
  for (let k = 1; k <= last; k++) {
    const x = 100 + (k - 1) * 44;
    parts.push(
      s(
        "g",
        { class: k === health ? "health current" : "health", "data-health": k },
        s("rect", { x, y: y0 - 18, width: 38, height: 26, rx: 4, fill: k === health ? "#c4453a" : "#fff", stroke: "#666" }),
        text(x + 19, y0, k, { "text-anchor": "middle", fill: k === health ? "#fff" : "#222" }),
        k === stackAt ? stack.map((c, j) => s("circle", { cx: x + 8 + j * 11, cy: y0 + 16, r: 5, fill: COLORS[c] || "#999", stroke: "#333" })) : null,
      ),
    );
  }

  // Exhaustion track and pool.
  const y1 = y0 + 50;
  parts.push(text(10, y1, "exhaustion", { class: "label" }));
  for (let k = 1; facts.has(`exhaustion.${k}`); k++) {
    const c = facts.get(`exhaustion.${k}`);
    parts.push(c === "-" ? s("rect", { x: 100 + (k - 1) * 30, y: y1 - 18, width: 24, height: 24, rx: 4, fill: "none", stroke: "#aaa", "stroke-dasharray": "3 2" }) : die(100 + (k - 1) * 30, y1 - 18, 24, "", c, { class: "die exhausted" }));
  }
  const y2 = y1 + 44;
  parts.push(text(10, y2, "pool", { class: "label" }));
  dice(facts.get("pool")).forEach(([v, c], k) => parts.push(die(100 + k * 30, y2 - 18, 26, v, c)));
  return svg(width, y2 + 24, "Proving Grounds board", parts);
}
