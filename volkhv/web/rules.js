// The rules page of one variant (/rules.html?variant=V): text from
// lessons.json and small live boards. Each board's position and legal moves
// come from the server (GET /api/legal), so a lesson cannot disagree with
// the engine's rules; the person plays both sides, step by step.

import { get } from "./api.js";
import { render } from "./board.js";

const $ = (id) => document.getElementById(id);
const NAMES = { chess: "Chess", plunder: "PlunderChess", tavreli: "Tavreli" };

function para(parent, text, tag = "p") {
  const p = document.createElement(tag);
  p.textContent = text;
  parent.appendChild(p);
  return p;
}

// One lesson's board: its moves so far, the server's view after them, and
// the square picked.
class Lesson {
  constructor(variant, lesson, index, box) {
    this.variant = variant;
    this.lesson = lesson;
    this.moves = [];
    this.selected = lesson.select || null;
    this.data = null;
    this.box = box;
    this.svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    this.svg.classList.add("lesson-board");
    this.svg.dataset.lesson = String(index);
    box.appendChild(this.svg);
    this.choices = document.createElement("div");
    this.choices.className = "choices";
    box.appendChild(this.choices);
    this.caption = para(box, "", "p");
    this.caption.className = "caption";
    const tools = document.createElement("div");
    for (const [label, fn] of [["Back", () => this.back()], ["Start again", () => this.reset()]]) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = label;
      b.addEventListener("click", fn);
      tools.appendChild(b);
    }
    box.appendChild(tools);
    this.svg.addEventListener("click", (e) => {
      const sq = e.target.closest && e.target.closest("[data-square]");
      if (sq) this.click(sq.getAttribute("data-square"));
    });
  }

  async load(said) {
    const q = new URLSearchParams({ variant: this.variant, fen: this.lesson.fen, moves: this.moves.join(",") });
    try {
      this.data = await get(`/api/legal?${q}`);
    } catch (e) {
      this.caption.textContent = e.message;
      return;
    }
    const status = this.data.status ? ` ${this.data.status.text}.` : "";
    this.caption.textContent = (said || `${this.data.turn === "white" ? "White" : "Black"} to move.`) + status;
    this.draw();
  }

  legalFrom(sq) {
    return this.data ? this.data.legal.filter((m) => m.from === sq) : [];
  }

  draw() {
    const d = this.data;
    const targets = new Set(this.selected ? this.legalFrom(this.selected).map((m) => m.to) : []);
    render(this.svg, { variant: d.variant, fen: d.fen, board: d.board, check: d.check, last: d.last },
      { orientation: "w", selected: this.selected, targets, arrows: [] });
  }

  click(sq) {
    if (!this.data) return;
    this.choices.textContent = "";
    if (this.selected && this.selected !== sq) {
      const moves = this.legalFrom(this.selected).filter((m) => m.to === sq);
      if (moves.length === 1) return this.play(moves[0]);
      if (moves.length > 1) return this.choose(moves);
    }
    this.selected = this.legalFrom(sq).length ? sq : null;
    this.draw();
  }

  choose(moves) {
    para(this.choices, `${moves.length} moves join these squares:`);
    for (const m of moves) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.move = m.move;
      b.textContent = m.text;
      b.addEventListener("click", () => this.play(m));
      this.choices.appendChild(b);
    }
  }

  play(m) {
    this.choices.textContent = "";
    this.moves.push(m.move);
    this.selected = null;
    return this.load(`${m.text}.`);
  }

  back() {
    this.moves.pop();
    this.selected = this.moves.length ? null : this.lesson.select || null;
    this.choices.textContent = "";
    this.load();
  }

  reset() {
    this.moves = [];
    this.selected = this.lesson.select || null;
    this.choices.textContent = "";
    this.load();
  }
}

async function start() {
  const variant = new URLSearchParams(location.search).get("variant") || "chess";
  const nav = $("variants");
  for (const [name, title] of Object.entries(NAMES)) {
    const a = document.createElement("a");
    a.href = `/rules.html?variant=${name}`;
    a.textContent = title;
    if (name === variant) a.className = "current";
    nav.appendChild(a);
  }
  let all;
  try {
    all = await get("/lessons.json");
  } catch (e) {
    $("message").textContent = e.message;
    return;
  }
  const v = all[variant];
  if (!v) {
    $("message").textContent = `no rules page for "${variant}"`;
    return;
  }
  document.title = `Volkhv — how to play ${v.title}`;
  $("title").textContent = `How to play ${v.title}`;
  for (const t of v.intro) para($("intro"), t);
  const boards = [];
  v.lessons.forEach((lesson, i) => {
    const sec = document.createElement("section");
    sec.className = "lesson";
    para(sec, lesson.title, "h2");
    const row = document.createElement("div");
    row.className = "lesson-row";
    const box = document.createElement("div");
    box.className = "lesson-box";
    row.appendChild(box);
    para(row, lesson.text).className = "lesson-text";
    sec.appendChild(row);
    $("lessons").appendChild(sec);
    boards.push(new Lesson(variant, lesson, i, box).load());
  });
  await Promise.all(boards);
  document.body.dataset.ready = "1";
}

start();
