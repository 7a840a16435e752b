// Draws one position as SVG, from the server's view of it (FEN and the
// per-square token lists) and the page's UI state (orientation, selection,
// legal targets, arrows). Nothing here knows the rules.
//
// Contract (docs/web.md): the root <svg id="board"> carries data-variant and
// data-fen; each square is <g data-square="e4">; each piece drawn on it is a
// <g data-piece="TOKEN" [data-vest="V"]> inside it, bottom to top in
// document order. Nothing else carries data-piece.

import { el, drawGlyph, drawDisc, drawVest } from "./pieces.js";

const FILES = "abcdefgh";
const LIGHT = "#eed9b6";
const DARK = "#b3875d";

export function squareName(index) {
  return FILES[index % 8] + String(Math.floor(index / 8) + 1);
}

export function squareIndex(name) {
  return FILES.indexOf(name[0]) + 8 * (Number(name[1]) - 1);
}

// Top-left corner of a square in board units (100 per square).
export function squareXY(name, orientation) {
  const f = FILES.indexOf(name[0]);
  const r = Number(name[1]) - 1;
  return orientation === "w" ? [f * 100, (7 - r) * 100] : [(7 - f) * 100, r * 100];
}

function drawPieces(g, pieces) {
  const h = pieces.length;
  if (h === 0) return;
  if (h === 1) {
    drawPiece(g, pieces[0], "translate(6 6) scale(0.88)");
    return;
  }
  // A tower: the pieces below the top as lettered discs rising from the
  // square's bottom-left corner, bottom first (row by row, left to right,
  // in two columns when there are more than five), then the top piece
  // large, then the height.
  const below = h - 1;
  const cols = below > 5 ? 2 : 1;
  const rows = Math.ceil(below / cols);
  const spacing = Math.min(21, 74 / Math.max(1, rows - 1));
  const r = Math.min(12, spacing * 0.62);
  for (let i = 0; i < below; i++) {
    const p = el("g", { "data-piece": pieces[i].piece, class: "disc" }, g);
    if (pieces[i].vest) p.setAttribute("data-vest", pieces[i].vest);
    const [col, row] = [i % cols, Math.floor(i / cols)];
    drawDisc(p, pieces[i].piece, 13 + col * 2.1 * r, 86 - row * spacing, r);
  }
  const top = cols === 1 ? "translate(24 14) scale(0.76)" : "translate(36 22) scale(0.64)";
  drawPiece(g, pieces[h - 1], top);
  const badge = el("g", { class: "height" }, g);
  el("rect", { x: 72, y: 2, width: 26, height: 20, rx: 6, fill: "#1b3a5c", stroke: "#fff", "stroke-width": 1.5 }, badge);
  const t = el("text", { x: 85, y: 17, "text-anchor": "middle", "font-size": 15, "font-weight": 700, fill: "#fff", "font-family": "sans-serif" }, badge);
  t.textContent = String(h);
}

function drawPiece(g, piece, transform) {
  const p = el("g", { "data-piece": piece.piece, transform }, g);
  if (piece.vest) p.setAttribute("data-vest", piece.vest);
  drawGlyph(p, piece.piece);
  if (piece.vest) drawVest(p, piece.vest);
}

function mark(layer, name, ui, attrs) {
  const [x, y] = squareXY(name, ui.orientation);
  el("rect", { x, y, width: 100, height: 100, ...attrs }, layer);
}

function drawArrow(layer, from, to, ui, color, width, kind) {
  // Tests and styles tell the arrows apart: best (analysis), hint, better (review).
  layer = el("g", { "data-arrow": kind || "best", "data-from": from, "data-to": to }, layer);
  const [x1, y1] = squareXY(from, ui.orientation);
  const [x2, y2] = squareXY(to, ui.orientation);
  const [ax, ay, bx, by] = [x1 + 50, y1 + 50, x2 + 50, y2 + 50];
  const len = Math.hypot(bx - ax, by - ay) || 1;
  const [ux, uy] = [(bx - ax) / len, (by - ay) / len];
  const head = 26;
  const [ex, ey] = [bx - ux * head, by - uy * head];
  el("line", { x1: ax, y1: ay, x2: ex, y2: ey, stroke: color, "stroke-width": width, "stroke-linecap": "round", opacity: 0.8 }, layer);
  const [px, py] = [-uy * head * 0.6, ux * head * 0.6];
  el("polygon", { points: `${bx},${by} ${ex + px},${ey + py} ${ex - px},${ey - py}`, fill: color, opacity: 0.8 }, layer);
}

// Redraws the whole board. `view`: {variant, fen, board[64], check, last};
// `ui`: {orientation, selected, targets (Set of squares), arrows [{from,to,color,kind}]}.
export function render(svg, view, ui) {
  svg.setAttribute("data-variant", view.variant);
  svg.setAttribute("data-fen", view.fen);
  svg.setAttribute("viewBox", "0 0 800 800");
  while (svg.firstChild) svg.removeChild(svg.firstChild);

  const squares = el("g", { class: "squares" }, svg);
  for (let i = 0; i < 64; i++) {
    const name = squareName(i);
    const [x, y] = squareXY(name, ui.orientation);
    const light = (i % 8 + Math.floor(i / 8)) % 2 === 1;
    const g = el("g", { "data-square": name, transform: `translate(${x} ${y})`, class: "square" }, squares);
    el("rect", { width: 100, height: 100, fill: light ? LIGHT : DARK, class: "bg" }, g);
    if (view.last && (view.last.from === name || view.last.to === name)) {
      el("rect", { width: 100, height: 100, fill: "rgba(255, 214, 10, 0.42)" }, g);
    }
    if (ui.selected === name) el("rect", { width: 100, height: 100, fill: "rgba(30, 120, 255, 0.45)" }, g);
    if (view.check === name) el("circle", { cx: 50, cy: 50, r: 48, fill: "rgba(230, 20, 20, 0.55)" }, g);
    const ink = light ? DARK : LIGHT;
    const bottomRow = ui.orientation === "w" ? name[1] === "1" : name[1] === "8";
    const leftCol = ui.orientation === "w" ? name[0] === "a" : name[0] === "h";
    if (bottomRow) coord(g, 92, 96, name[0], ink);
    if (leftCol) coord(g, 3, 16, name[1], ink, "start");
    drawPieces(g, view.board[i] || []);
  }
  const over = el("g", { class: "over", "pointer-events": "none" }, svg);
  for (const t of ui.targets || []) {
    const [x, y] = squareXY(t, ui.orientation);
    const occupied = (view.board[squareIndex(t)] || []).length > 0;
    if (occupied) {
      el("circle", { cx: x + 50, cy: y + 50, r: 46, fill: "none", stroke: "rgba(20, 90, 30, 0.6)", "stroke-width": 7 }, over);
    } else {
      el("circle", { cx: x + 50, cy: y + 50, r: 15, fill: "rgba(20, 90, 30, 0.55)" }, over);
    }
  }
  for (const a of ui.arrows || []) drawArrow(over, a.from, a.to, ui, a.color || "#1f6feb", a.width || 14, a.kind);
  return over;
}

function coord(g, x, y, text, ink, anchor = "end") {
  const t = el("text", { x, y, "text-anchor": anchor, "font-size": 15, "font-weight": 700, fill: ink, "font-family": "sans-serif", class: "coord" }, g);
  t.textContent = text;
}

// The ghost of a dragged piece, following the pointer (board units).
export function ghost(layer, piece, x, y) {
  const g = el("g", { transform: `translate(${x - 45} ${y - 45}) scale(0.9)`, opacity: 0.85, class: "ghost" }, layer);
  drawGlyph(g, piece.piece);
  return g;
}
