// Building DOM and SVG without markup strings, so no text from a log is ever parsed as HTML.

const SVG = "http://www.w3.org/2000/svg";

function fill(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG, tag), attrs, children);
}

export function svg(width, height, label, ...children) {
  return s("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img", "aria-label": label, class: "board" }, ...children);
}

export function text(x, y, content, attrs = {}) {
  return s("text", { x, y, ...attrs }, content);
}

// Die colors by the letters the notations use.
export const COLORS = { w: "#f4f1ea", g: "#3f9b4f", y: "#e3c440", b: "#3a6fc4", r: "#c4453a" };

// A die showing `value` (1-6 as pips, anything else as a number) in color letter `color`.
export function die(x, y, size, value, color = "w", attrs = {}) {
  const fillColor = COLORS[color] || COLORS.w;
  const ink = color === "w" || color === "y" ? "#222" : "#fff";
  const parts = [s("rect", { x, y, width: size, height: size, rx: size / 6, fill: fillColor, stroke: "#333", "stroke-width": 1.2 })];
  const n = Number(value);
  const pips = {
    1: [[0.5, 0.5]],
    2: [[0.27, 0.27], [0.73, 0.73]],
    3: [[0.27, 0.27], [0.5, 0.5], [0.73, 0.73]],
    4: [[0.27, 0.27], [0.73, 0.27], [0.27, 0.73], [0.73, 0.73]],
    5: [[0.27, 0.27], [0.73, 0.27], [0.5, 0.5], [0.27, 0.73], [0.73, 0.73]],
    6: [[0.27, 0.25], [0.73, 0.25], [0.27, 0.5], [0.73, 0.5], [0.27, 0.75], [0.73, 0.75]],
  }[n];
  if (pips) {
    for (const [px, py] of pips) parts.push(s("circle", { cx: x + px * size, cy: y + py * size, r: size / 11, fill: ink }));
  } else {
    parts.push(text(x + size / 2, y + size * 0.68, value, { "text-anchor": "middle", "font-size": size * 0.55, fill: ink }));
  }
  return s("g", { class: "die", "data-value": value, "data-color": color, ...attrs }, ...parts);
}

// `"1 1g 2y"` as [[1,"w"],[1,"g"],[2,"y"]].
export function dice(list) {
  if (!list || list === "-") return [];
  return list.split(/\s+/).filter(Boolean).map((t) => {
    const m = /^(\d+)([a-z]?)$/.exec(t);
    return m ? [m[1], m[2] || "w"] : [t, "w"];
  });
}
