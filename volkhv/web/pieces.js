// Piece glyphs, drawn for Volkhv (MIT, like the project): simple silhouettes
// on a 100 x 100 grid. Helgi (queen + knight) is a crowned knight. Tokens are
// FEN tokens: "Q", "p", "H", "Q~" (promoted pawn), "P=N" (pawn whose
// promotion piece is a knight).

const SVG = "http://www.w3.org/2000/svg";

export function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

const KNIGHT =
  "M66 86 L30 86 C29 72 37 63 47 56 C40 56 34 60 28 63 C21 60 20 53 25 48 " +
  "L42 30 L40 17 L50 25 C64 23 76 37 76 57 C76 70 70 78 66 86 Z";

// Each role: a list of [shape, attributes] drawn in the piece's colours.
const SHAPES = {
  p: [
    ["circle", { cx: 50, cy: 30, r: 12 }],
    ["path", { d: "M37 50 Q50 42 63 50 L59 58 Q67 70 71 80 L29 80 Q33 70 41 58 Z" }],
    ["rect", { x: 24, y: 78, width: 52, height: 9, rx: 3 }],
  ],
  r: [
    ["path", { d: "M28 18 h10 v8 h7 v-8 h10 v8 h7 v-8 h10 v18 l-6 6 v28 l6 6 v8 h-44 v-8 l6 -6 v-28 l-6 -6 Z" }],
    ["rect", { x: 22, y: 80, width: 56, height: 8, rx: 3 }],
  ],
  b: [
    ["circle", { cx: 50, cy: 14, r: 6 }],
    ["path", { d: "M50 20 C63 31 69 43 63 58 L37 58 C31 43 37 31 50 20 Z" }],
    ["path", { d: "M44 34 L56 46", fill: "none", detail: 1 }],
    ["rect", { x: 36, y: 58, width: 28, height: 8, rx: 2 }],
    ["path", { d: "M24 86 C30 72 70 72 76 86 Z" }],
  ],
  n: [
    ["path", { d: KNIGHT }],
    ["circle", { cx: 50, cy: 36, r: 3.5, detail: 1 }],
  ],
  q: [
    ["path", { d: "M32 68 L21 32 L38 50 L35 23 L47 46 L50 18 L53 46 L65 23 L62 50 L79 32 L68 68 Z" }],
    ["circle", { cx: 21, cy: 30, r: 5 }],
    ["circle", { cx: 35, cy: 21, r: 5 }],
    ["circle", { cx: 50, cy: 16, r: 5 }],
    ["circle", { cx: 65, cy: 21, r: 5 }],
    ["circle", { cx: 79, cy: 30, r: 5 }],
    ["rect", { x: 28, y: 68, width: 44, height: 16, rx: 4 }],
  ],
  k: [
    ["rect", { x: 46.5, y: 8, width: 7, height: 28, rx: 1 }],
    ["rect", { x: 38, y: 15, width: 24, height: 7, rx: 1 }],
    ["path", { d: "M30 72 C20 56 24 40 37 40 C45 40 48 48 50 55 C52 48 55 40 63 40 C76 40 80 56 70 72 Z" }],
    ["rect", { x: 27, y: 72, width: 46, height: 13, rx: 4 }],
  ],
  h: [
    ["path", { d: KNIGHT }],
    ["path", { d: "M44 24 L45 6 L53 15 L60 4 L65 16 L74 8 L72 30 Z" }],
    ["circle", { cx: 50, cy: 38, r: 3.5, detail: 1 }],
    ["path", { d: "M36 74 L62 74", fill: "none", detail: 1 }],
  ],
};

const COLORS = {
  w: { fill: "#fbfaf5", stroke: "#1d1d1d", detail: "#1d1d1d" },
  b: { fill: "#262626", stroke: "#050505", detail: "#e8e8e8" },
};

// Vest colours, one per vest type; the letter always goes with it.
export const VEST_COLORS = { p: "#2e7d32", n: "#e65100", b: "#1565c0", r: "#c62828", q: "#6a1b9a" };

export const ROLE_NAMES = { p: "pawn", n: "knight", b: "bishop", r: "rook", q: "queen", k: "king", h: "helgi" };

// Reads a FEN token: role letter, colour, promoted (~), promotion piece (=X).
export function parseToken(token) {
  const letter = token[0];
  const white = letter === letter.toUpperCase();
  const eq = token.indexOf("=");
  return {
    role: letter.toLowerCase(),
    color: white ? "w" : "b",
    promoted: token.endsWith("~"),
    promotion: eq >= 0 ? token[eq + 1].toLowerCase() : null,
  };
}

function drawRole(g, role, color) {
  const c = COLORS[color];
  for (const [shape, attrs] of SHAPES[role] || SHAPES.p) {
    const a = { ...attrs };
    const detail = a.detail;
    delete a.detail;
    if (detail) {
      a.stroke = c.detail;
      a["stroke-width"] = 3;
      if (shape === "circle") a.fill = c.detail;
    } else {
      a.fill = a.fill || c.fill;
      a.stroke = c.stroke;
      a["stroke-width"] = 3;
      a["stroke-linejoin"] = "round";
    }
    el(shape, a, g);
  }
}

// A small round badge with a letter (promotion piece, vest, tower disc).
export function badge(parent, cx, cy, r, letter, fill, ink, stroke = "#111") {
  el("circle", { cx, cy, r, fill, stroke, "stroke-width": Math.max(1, r / 6) }, parent);
  const t = el("text", {
    x: cx, y: cy + r * 0.36, "text-anchor": "middle",
    "font-size": r * 1.1, "font-weight": "700", fill: ink, "font-family": "sans-serif",
  }, parent);
  t.textContent = letter;
}

// The full glyph of a token in a 100 x 100 box, drawn into `g`.
export function drawGlyph(g, token) {
  const t = parseToken(token);
  drawRole(g, t.role, t.color);
  if (t.promoted) {
    // A promoted pawn: the piece with a small pawn on a disc.
    const mini = el("g", { transform: "translate(64 60) scale(0.34)" }, g);
    el("circle", { cx: 50, cy: 52, r: 46, fill: "#f3d36b", stroke: "#111", "stroke-width": 6 }, mini);
    drawRole(mini, "p", t.color);
  }
  if (t.promotion) {
    badge(g, 80, 80, 13, t.promotion.toUpperCase(), "#f3d36b", "#111");
  }
}

// A tower disc: the piece's letter on a disc of its colour.
export function drawDisc(g, token, cx, cy, r) {
  const t = parseToken(token);
  const letter = t.role === "p" && t.promotion ? "P" : t.role.toUpperCase();
  const fill = t.color === "w" ? "#fbfaf5" : "#262626";
  const ink = t.color === "w" ? "#111" : "#f0f0f0";
  badge(g, cx, cy, r, t.promoted ? letter + "~" : letter, fill, ink);
}

// A vest: a ring in the vest's colour and its letter on a badge.
export function drawVest(g, vest) {
  const v = vest.toLowerCase();
  const color = VEST_COLORS[v] || "#555";
  el("circle", { cx: 50, cy: 50, r: 45, fill: "none", stroke: color, "stroke-width": 6, "stroke-dasharray": "14 5" }, g);
  badge(g, 84, 16, 14, vest.toUpperCase(), color, "#fff", "#fff");
}

export function pieceName(token) {
  const t = parseToken(token);
  return ROLE_NAMES[t.role] || "piece";
}
