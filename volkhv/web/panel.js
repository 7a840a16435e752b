// Everything beside the board: status, clocks, move list, engine lines,
// eval bar, eval graph, tower inspector. Each function draws one part from
// the state it is given.

import { el } from "./pieces.js";

// A score from white's view as text: +0.35, -1.20, #3, #-2.
export function scoreText(s) {
  if (!s) return "";
  if (s.mate !== undefined) return `#${s.mate}`;
  const v = s.cp / 100;
  return (v > 0 ? "+" : "") + v.toFixed(2);
}

// A score mapped to -1..1 for the bar and the graph.
export function scoreUnit(s) {
  if (!s) return 0;
  if (s.mate !== undefined) return s.mate > 0 ? 1 : -1;
  return 2 / (1 + Math.exp(-s.cp / 250)) - 1;
}

export function renderStatus(div, state) {
  div.textContent = state.status ? state.status.text : state.to_move;
}

function clockText(ms) {
  const neg = ms < 0;
  const t = Math.abs(ms);
  const m = Math.floor(t / 60000);
  const s = Math.floor((t % 60000) / 1000);
  const tenths = Math.floor((t % 1000) / 100);
  return `${neg ? "-" : ""}${m}:${String(s).padStart(2, "0")}${t < 20000 ? "." + tenths : ""}`;
}

// Clocks tick on the page between states: `since` is when the state came.
export function renderClocks(div, state, since) {
  const c = state.clock;
  div.hidden = !c;
  if (!c) return;
  const spent = performance.now() - since;
  for (const side of ["white", "black"]) {
    const span = div.querySelector(`#clock-${side}`);
    const running = c.running === side;
    span.textContent = `${side === "white" ? "White" : "Black"} ${clockText(c[side] - (running ? spent : 0))}`;
    span.className = running ? "running" : "";
  }
}

// The move list: numbered pairs, the shown ply highlighted; a click on a
// move calls `goto(ply after it)`.
export function renderMoves(ol, state, viewPly, goto) {
  ol.textContent = "";
  const startFields = state.start.split(" ");
  let number = Number(startFields[5]) || 1;
  let black = startFields[1] === "b";
  let li = null;
  state.history.forEach((ply, i) => {
    if (!li || !black) {
      li = document.createElement("li");
      li.value = number;
      ol.appendChild(li);
      if (black) li.appendChild(document.createTextNode("… "));
    }
    const span = document.createElement("span");
    span.textContent = ply.text;
    span.dataset.ply = String(i + 1);
    span.title = ply.move;
    if (i + 1 === viewPly) span.className = "current";
    span.addEventListener("click", () => goto(i + 1));
    li.appendChild(span);
    li.appendChild(document.createTextNode(" "));
    if (black) number += 1;
    black = !black;
  });
  const cur = ol.querySelector(".current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
}

// The engine's lines, MultiPV order: score (white's view), depth, PV.
export function renderLines(div, lines, searching) {
  div.textContent = "";
  const sorted = [...lines.values()].sort((a, b) => a.multipv - b.multipv);
  if (sorted.length === 0) {
    div.textContent = searching ? "thinking…" : "no engine output";
    return;
  }
  for (const info of sorted) {
    const line = document.createElement("div");
    line.className = "line";
    line.dataset.multipv = String(info.multipv);
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = scoreText(info.white);
    const meta = document.createElement("span");
    meta.className = "meta";
    meta.textContent = `d${info.depth}/${info.seldepth} ${Math.round(info.nps / 1000)}kn/s `;
    line.append(score, meta, document.createTextNode(info.pv_text.join(" ")));
    div.appendChild(line);
  }
}

export function renderEvalBar(fill, text, score, orientation) {
  const u = scoreUnit(score);
  const white = 50 + 50 * u;
  fill.style.height = `${white}%`;
  // White's share grows from the side white plays from.
  fill.style.top = orientation === "w" ? "auto" : "0";
  fill.style.bottom = orientation === "w" ? "0" : "auto";
  text.textContent = score ? scoreText(score) : "";
}

// The eval graph over the game: one point per ply with a known score.
export function renderGraph(svg, scores, plies, viewPly) {
  svg.textContent = "";
  const w = 300;
  const h = 80;
  el("rect", { x: 0, y: 0, width: w, height: h / 2, fill: "#f4f1ea" }, svg);
  el("rect", { x: 0, y: h / 2, width: w, height: h / 2, fill: "#d8d0c2" }, svg);
  const n = Math.max(plies, 1);
  const x = (i) => (i / n) * w;
  const y = (s) => h / 2 - (scoreUnit(s) * h) / 2;
  const pts = [];
  scores.forEach((s, i) => { if (s) pts.push(`${x(i).toFixed(1)},${y(s).toFixed(1)}`); });
  if (pts.length > 1) el("polyline", { points: pts.join(" "), fill: "none", stroke: "#1b3a5c", "stroke-width": 2 }, svg);
  for (const p of pts) {
    const [px, py] = p.split(",");
    el("circle", { cx: px, cy: py, r: 2, fill: "#1b3a5c" }, svg);
  }
  el("line", { x1: x(viewPly), y1: 0, x2: x(viewPly), y2: h, stroke: "#c33", "stroke-width": 1 }, svg);
}

// The tower inspector: every piece of a square, top first, in words.
export function renderInspector(div, square, pieces) {
  if (!pieces || pieces.length === 0) {
    div.hidden = true;
    return;
  }
  div.hidden = false;
  div.textContent = "";
  const title = document.createElement("strong");
  title.textContent = pieces.length > 1 ? `Tower on ${square}, ${pieces.length} high (top first)` : `On ${square}`;
  const ol = document.createElement("ol");
  [...pieces].reverse().forEach((p, i) => {
    const li = document.createElement("li");
    li.dataset.token = p.piece;
    li.textContent = `${p.name}${i === 0 && pieces.length > 1 ? " — top, moves the tower" : ""}`;
    ol.appendChild(li);
  });
  div.append(title, ol);
}
