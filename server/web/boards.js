// The board of any game as a picture. A game with a renderer of its own gets it; any other
// game (a new one, before its renderer exists) gets its facts drawn as a labelled sheet, so
// every game has a board from the day it lands.

import { h, s, svg, text } from "./svg.js";
import { provingGrounds } from "./board-proving-grounds.js";
import { keridwynFight } from "./board-keridwyn-fight.js";
import { wildAssent } from "./board-wild-assent.js";
import { flameAndForge } from "./board-flame-and-forge.js";

const RENDERERS = {
  "proving-grounds": provingGrounds,
  "keridwyn-fight": keridwynFight,
  "wild-assent": wildAssent,
  "flame-and-forge": flameAndForge,
};

// facts [{key, value}] as a Map.
export function factMap(facts) {
  return new Map((facts || []).map((f) => [f.key, f.value]));
}

// The picture of `state` ({board, facts, digest}) for `game`, with the text board beside it
// for anyone who wants the exact words.
export function board(game, state, changed = new Set()) {
  const facts = factMap(state.facts);
  const draw = RENDERERS[game] || generic;
  let picture;
  try {
    picture = draw(facts, state.board || "", changed);
  } catch (e) {
    picture = generic(facts, state.board || "", changed);
  }
  return h(
    "figure",
    { class: "board-figure", "data-game": game, "data-digest": state.digest },
    picture,
    h("details", {}, h("summary", {}, "as text"), h("pre", { class: "board-text" }, state.board || "")),
  );
}

// Every fact, grouped by the part of its key before the first dot, one panel per group.
export function generic(facts, _board, changed = new Set()) {
  const groups = new Map();
  for (const [key, value] of facts) {
    const group = key.includes(".") ? key.split(".")[0] : "table";
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push([key, value]);
  }
  const columns = 3;
  const width = 300;
  const rowHeight = 18;
  let heights = new Array(columns).fill(10);
  const panels = [];
  for (const [group, rows] of groups) {
    const col = heights.indexOf(Math.min(...heights));
    const x = 10 + col * (width + 10);
    const y = heights[col];
    const height = 26 + rows.length * rowHeight;
    panels.push(
      s(
        "g",
        { class: "panel" },
        s("rect", { x, y, width, height, rx: 6, fill: "#fbfaf7", stroke: "#bbb" }),
        text(x + 10, y + 18, group, { class: "panel-title" }),
        rows.map(([key, value], i) =>
          s(
            "g",
            { class: changed.has(key) ? "fact changed" : "fact" },
            text(x + 10, y + 38 + i * rowHeight, key.slice(group.length + 1) || key, { class: "fact-key" }),
            text(x + width - 10, y + 38 + i * rowHeight, value, { class: "fact-value", "text-anchor": "end" }),
          ),
        ),
      ),
    );
    heights[col] += height + 10;
  }
  return svg(10 + columns * (width + 10), Math.max(...heights), "the table's facts", panels);
}
