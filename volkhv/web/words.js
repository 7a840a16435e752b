// Pieces, moves and results in the reader's language, from the parts the
// server sends beside its English (`parts` of a piece or a legal move,
// `reason_key` of a result). The forms each language needs (a Russian
// genitive after "vest", a Kazakh dative after "promotes to", a colour that
// agrees with the piece) are catalogue entries; Tavreli's own piece names
// are `tavreli.role.*` entries, looked up first on a Tavreli board.

import { t, has, capital } from "./i18n.js";

// `form` (role, role_of, role_to, gender) of `role` on a `variant` board.
function roleWord(variant, form, role) {
  const own = `${variant}.${form}.${role}`;
  return has(own) ? t(own) : t(`${form}.${role}`);
}

// A piece in words; `withColor` names its side ("white knight").
export function pieceName(variant, p, withColor = true) {
  let name;
  if (p.promotes_to) {
    name = t("piece.promotes", { role: roleWord(variant, "role", p.role), to: roleWord(variant, "role_to", p.promotes_to) });
  } else if (p.promoted) {
    name = t("piece.promoted", { role: roleWord(variant, "role", p.role) });
  } else {
    name = roleWord(variant, "role", p.role);
  }
  if (withColor) {
    // A promoted pawn's words agree with the pawn it is.
    const agree = p.promotes_to || p.promoted ? "pawn" : p.role;
    const color = t(`color_adj.${p.color}.${roleWord(variant, "gender", agree)}`);
    name = t("piece.colored", { color, role: name });
  }
  if (p.vest) name = t("piece.vested", { piece: name, vest: roleWord(variant, "role_of", p.vest) });
  return name;
}

// The piece or group a move lifts: a lone piece (and the vest it moves
// by), or the whole tower, or its top k; pieces of the other side say so.
export function moverName(variant, mover) {
  const owner = mover.pieces[mover.pieces.length - 1].color;
  if (mover.height === 1) {
    const piece = pieceName(variant, { ...mover.pieces[0], vest: null }, false);
    if (mover.by_vest) return t("mover.by_vest", { piece, vest: roleWord(variant, "role_of", mover.by_vest) });
    return piece;
  }
  const pieces = mover.pieces.map((p) => pieceName(variant, p, p.color !== owner)).join(t("move.list"));
  const key = mover.k === mover.height ? "mover.whole" : "mover.top";
  return t(key, { k: mover.k, height: mover.height, pieces });
}

// A legal move as the chooser says it ("Knight takes on d5 and takes a
// pawn vest").
export function moveSentence(variant, m) {
  const p = m.parts;
  if (p.shape === "castle_kingside" || p.shape === "castle_queenside") {
    return capital(t(`move.${p.shape}`, { king: roleWord(variant, "role", "king"), to: m.to }));
  }
  let s = t(`move.${p.shape}`, { mover: moverName(variant, p.mover), to: m.to });
  const extras = [];
  if (p.promotion) extras.push(t("move.promotes", { role: roleWord(variant, "role_to", p.promotion) }));
  if (p.vest) extras.push(t("move.vest", { vest: roleWord(variant, "role_of", p.vest) }));
  else if (p.declines_vest) extras.push(t("move.declines"));
  if (extras.length === 1 && p.vest) s += t("move.and") + extras[0];
  else for (const e of extras) s += t("move.list") + e;
  return capital(s);
}

// A finished game's line ("1-0 — Black is mated").
export function resultText(status) {
  return t("status.result", { result: status.result, reason: t(`outcome.${status.reason_key}`) });
}

// Whose move it is, or how the game ended.
export function statusText(state) {
  if (state.status) return resultText(state.status);
  const text = t(`to_move.${state.turn}`);
  return state.engine_to_move ? t("to_move.engine", { text }) : text;
}

// Move-list notation: letters, or figurines, which need no language
// (the page's choice, `useFigurines`). PGN stays in letters.
const FIGURINES = { K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘" };
let figurines = false;

export function useFigurines(on) {
  figurines = on;
}

export function notation(text) {
  return figurines ? text.replace(/[KQRBN]/g, (c) => FIGURINES[c]) : text;
}

// The server's words for a refusal: `key` with `values`, where a value
// named `x_key` is itself a key, worded first (with the same values) and
// passed on as `x`. Words nest (a PGN's game, its tag line, the tag's
// fault), so the values are worded until none changes.
export function said(key, values = {}) {
  const all = { ...values };
  const nested = Object.entries(values).filter(([name, k]) => name.endsWith("_key") && has(k));
  for (let pass = 0; pass < 4; pass++) {
    for (const [name, k] of nested) all[name.slice(0, -4)] = t(k, all);
  }
  return t(key, all);
}

// A refused request in words: the server's own words where it names them
// (a FEN's or PGN's fault, a move, a seat), else the words for this kind
// of request and status where the catalogue has them (`error.move.400`),
// else the status's (`error.429`). `e` without a status never reached the
// server.
export function errorText(e, context = "", values = {}) {
  if (e.status === undefined) return t("error.unreachable");
  if (e.key && has(e.key)) return said(e.key, e.values || {});
  const all = { ...values, status: e.status, detail: e.message };
  for (const key of [`error.${context}.${e.status}`, `error.${e.status}`]) {
    if (has(key)) return t(key, all);
  }
  return t("error.other", all);
}
