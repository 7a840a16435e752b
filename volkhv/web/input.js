// Moves by click, drag and the chooser. A gesture names two squares; the
// legal moves the server sent that join them decide: none gives a message,
// one is played, several open the chooser with every one of them.

import { ghost, squareIndex } from "./board.js";
import { t } from "./i18n.js";
import { moveSentence } from "./words.js";

const $ = (id) => document.getElementById(id);

export function legalFrom(state, sq) {
  return state ? state.legal.filter((m) => m.from === sq) : [];
}

export function targetsOf(state, sq) {
  return new Set(legalFrom(state, sq).map((m) => m.to));
}

export function closeChooser() {
  $("chooser").hidden = true;
  $("chooser-moves").textContent = "";
}

function openChooser(variant, from, to, moves, play) {
  const box = $("chooser-moves");
  box.textContent = "";
  $("chooser-title").textContent = t("chooser.moves", { n: moves.length, from, to });
  for (const m of moves) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.move = m.move;
    b.textContent = moveSentence(variant, m);
    const code = document.createElement("code");
    code.textContent = m.move;
    b.appendChild(code);
    b.addEventListener("click", () => play(m.move));
    box.appendChild(b);
  }
  $("chooser").hidden = false;
}

function squareAt(clientX, clientY) {
  const hit = document.elementFromPoint(clientX, clientY);
  const sq = hit && hit.closest && hit.closest("[data-square]");
  return sq ? sq.getAttribute("data-square") : null;
}

// Wires the board's pointer events. `app` holds {state, view, selected,
// overLayer}; `hooks` are {canMove, live, say, draw, play, inspect}.
export function attachInput(board, app, hooks) {
  let drag = null; // {from, start, moved, again, ghost}

  function tryMove(from, to) {
    const moves = app.state.legal.filter((m) => m.from === from && m.to === to);
    app.selected = null;
    if (moves.length === 0) {
      hooks.say(t("msg.no_move", { from, to }));
    } else if (moves.length === 1) {
      hooks.play(moves[0].move);
    } else {
      openChooser(app.state.variant, from, to, moves, hooks.play);
    }
    hooks.draw();
  }

  function boardPoint(e) {
    const r = board.getBoundingClientRect();
    return [((e.clientX - r.left) / r.width) * 800, ((e.clientY - r.top) / r.height) * 800];
  }

  board.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || !$("chooser").hidden) return;
    const sq = squareAt(e.clientX, e.clientY);
    if (!sq) return;
    hooks.inspect(sq);
    if (!hooks.canMove()) {
      if (!hooks.live()) hooks.say(t("msg.earlier"));
      return;
    }
    const from = app.selected;
    if (from && from !== sq && targetsOf(app.state, from).has(sq)) {
      tryMove(from, sq);
      return;
    }
    if (from && from !== sq && !legalFrom(app.state, sq).length) {
      hooks.say(t("msg.no_move", { from, to: sq }));
      app.selected = null;
    } else if (legalFrom(app.state, sq).length) {
      drag = { from: sq, start: [e.clientX, e.clientY], moved: false, again: from === sq, ghost: null };
      app.selected = sq;
      board.setPointerCapture(e.pointerId);
    } else {
      app.selected = null;
    }
    hooks.draw();
  });

  board.addEventListener("pointermove", (e) => {
    if (!drag) return;
    if (!drag.moved && Math.hypot(e.clientX - drag.start[0], e.clientY - drag.start[1]) > 6) drag.moved = true;
    if (drag.moved) {
      const pieces = app.view.board[squareIndex(drag.from)];
      const [x, y] = boardPoint(e);
      if (drag.ghost) drag.ghost.remove();
      drag.ghost = ghost(app.overLayer, pieces[pieces.length - 1], x, y);
    }
  });

  board.addEventListener("pointerup", (e) => {
    const d = drag;
    if (!d) return;
    drag = null;
    if (d.ghost) d.ghost.remove();
    const sq = squareAt(e.clientX, e.clientY);
    if (d.moved && sq && sq !== d.from) {
      tryMove(d.from, sq);
    } else if (!d.moved && d.again) {
      app.selected = null;
      hooks.draw();
    }
  });

  board.addEventListener("pointercancel", () => {
    if (drag && drag.ghost) drag.ghost.remove();
    drag = null;
    hooks.draw();
  });
}
