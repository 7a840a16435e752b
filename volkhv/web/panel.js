// Everything beside the board: status, clocks, move list, engine lines,
// eval bar, eval graph, tower inspector. Each function draws one part from
// the state it is given.

import { el } from "./pieces.js";
import { t, num } from "./i18n.js";
import { statusText, notation, pieceName } from "./words.js";

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
  div.textContent = statusText(state);
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
    span.textContent = t("clock.side", { side: t(`color.${side}`), time: clockText(c[side] - (running ? spent : 0)) });
    span.className = running ? "running" : "";
  }
}

// A review's mark as a symbol and a colour class (CSS `.mark-…`).
const MARK_SYMBOL = { best: "★", good: "", inaccuracy: "?!", mistake: "?", blunder: "??" };
const MARK_COLOR = { best: "#2e8b57", good: "#7a9", inaccuracy: "#d4a017", mistake: "#e07020", blunder: "#c62828" };
export const BAD_MARKS = ["inaccuracy", "mistake", "blunder"];

// A review's mark on `move` in words, with the better move after a bad one.
function markNote(move, m) {
  const mark = t(`mark.${m.mark}`);
  return BAD_MARKS.includes(m.mark) ? t("review.better", { move, mark, best: notation(m.best_text) }) : t("review.note", { move, mark });
}

// The move list: numbered pairs, the shown ply highlighted; a click on a
// move calls `goto(ply after it)`. `marks`: a finished review's moves.
export function renderMoves(ol, state, viewPly, goto, marks) {
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
    span.textContent = notation(ply.text);
    span.dataset.ply = String(i + 1);
    span.title = ply.move;
    if (i + 1 === viewPly) span.className = "current";
    const m = marks && marks[i];
    if (m) {
      span.dataset.mark = m.mark;
      span.classList.add(`mark-${m.mark}`);
      span.title = markNote(ply.move, m);
      if (MARK_SYMBOL[m.mark]) {
        const sym = document.createElement("sup");
        sym.className = "mark";
        sym.textContent = MARK_SYMBOL[m.mark];
        span.appendChild(sym);
      }
    }
    span.addEventListener("click", () => goto(i + 1));
    li.appendChild(span);
    li.appendChild(document.createTextNode(" "));
    if (black) number += 1;
    black = !black;
  });
  // The list scrolls to the move shown; the page never does (on a phone a
  // page that jumps under the finger turns a tap on the board into a tap on
  // the button that slid beneath it).
  const cur = ol.querySelector(".current");
  if (cur) {
    const top = cur.offsetTop - ol.offsetTop;
    if (top < ol.scrollTop) ol.scrollTop = top;
    else if (top + cur.offsetHeight > ol.scrollTop + ol.clientHeight) ol.scrollTop = top + cur.offsetHeight - ol.clientHeight;
  }
}

// The engine's lines, MultiPV order: score (white's view), depth, PV.
export function renderLines(div, lines, searching) {
  div.textContent = "";
  const sorted = [...lines.values()].sort((a, b) => a.multipv - b.multipv);
  if (sorted.length === 0) {
    div.textContent = t(searching ? "lines.thinking" : "lines.none");
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
    meta.textContent = `${t("lines.meta", { depth: info.depth, seldepth: info.seldepth, knps: Math.round(info.nps / 1000) })} `;
    line.append(score, meta, document.createTextNode(info.pv_text.map(notation).join(" ")));
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

// Win/draw/loss of the best line, White's view, in per cent.
// White's share sits on White's side of the board, as in the eval bar.
// `stale`: the chances of an earlier position (or a search that ended),
// kept in sight but marked so.
export function renderWdl(div, wdl, orientation, stale = false) {
  div.hidden = !wdl;
  if (!wdl) return;
  div.style.flexDirection = orientation === "w" ? "column-reverse" : "column";
  div.dataset.stale = stale ? "1" : "0";
  const pct = (x) => `${Math.round(x / 10)}%`;
  for (const [k, key] of [["win", "wdl.white"], ["draw", "wdl.draw"], ["loss", "wdl.black"]]) {
    const label = t(key);
    const span = div.querySelector(`#wdl-${k}`);
    span.textContent = pct(wdl[k]);
    span.dataset.permille = String(wdl[k]);
    span.title = `${label} ${pct(wdl[k])}${stale ? ` ${t("wdl.earlier")}` : ""}`;
    span.style.flexGrow = String(Math.max(wdl[k], 120));
  }
}

// The review's progress, accuracy and the note on the move shown.
export function renderReview(box, review, viewPly) {
  const running = review && !review.done && !review.error;
  box.querySelector("#review").textContent = t(running ? "review.running" : "review.button");
  const bar = box.querySelector("#review-progress");
  bar.hidden = !running;
  bar.value = review ? review.progress : 0;
  const acc = box.querySelector("#accuracy");
  const done = review && review.done;
  acc.hidden = !done;
  const fmt = (x) => (x === null || x === undefined ? "–" : num(Number(x.toFixed(1))));
  if (done) {
    box.querySelector("#accuracy-white").textContent = fmt(review.accuracy.white);
    box.querySelector("#accuracy-black").textContent = fmt(review.accuracy.black);
  }
  const note = box.querySelector("#review-note");
  const m = done && viewPly > 0 ? review.moves[viewPly - 1] : null;
  note.textContent = m ? markNote(notation(m.text), m) : "";
  note.dataset.mark = m ? m.mark : "";
}

// The eval graph over the game: one point per ply with a known score; a
// finished review adds White's winning chances and its marks.
export function renderGraph(svg, scores, plies, viewPly, review) {
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
  if (review && review.done && review.moves.length) {
    const yw = (p) => h / 2 - ((2 * p - 1) * h) / 2;
    const chances = [review.moves[0].white_win_before, ...review.moves.map((m) => m.white_win_after)];
    const line = chances.map((p, i) => `${x(i).toFixed(1)},${yw(p).toFixed(1)}`).join(" ");
    el("polyline", { points: line, fill: "none", stroke: "#8a6d3b", "stroke-width": 1.5, "stroke-dasharray": "4 2", class: "review-line" }, svg);
    for (const m of review.moves) {
      if (!BAD_MARKS.includes(m.mark)) continue;
      el("circle", {
        cx: x(m.ply).toFixed(1), cy: yw(m.white_win_after).toFixed(1), r: 4,
        fill: MARK_COLOR[m.mark], class: "review-mark", "data-review-ply": m.ply, "data-mark": m.mark,
      }, svg);
    }
  }
  el("line", { x1: x(viewPly), y1: 0, x2: x(viewPly), y2: h, stroke: "#c33", "stroke-width": 1 }, svg);
}

// The tower inspector: every piece of a square, top first, in words.
export function renderInspector(div, square, pieces, variant) {
  if (!pieces || pieces.length === 0) {
    div.hidden = true;
    return;
  }
  div.hidden = false;
  div.textContent = "";
  const title = document.createElement("strong");
  title.textContent = pieces.length > 1 ? t("inspector.tower", { square, n: pieces.length }) : t("inspector.one", { square });
  const ol = document.createElement("ol");
  [...pieces].reverse().forEach((p, i) => {
    const li = document.createElement("li");
    li.dataset.token = p.piece;
    const name = pieceName(variant, p.parts);
    li.textContent = i === 0 && pieces.length > 1 ? t("inspector.top", { piece: name }) : name;
    ol.appendChild(li);
  });
  div.append(title, ol);
}
