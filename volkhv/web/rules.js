// The rules page of one variant (/rules.html?variant=V): lessons made of
// steps, all their words and positions in lessons.json. Each board's
// position and legal moves come from the server (GET /api/legal) and the
// opponent's moves from the engine (GET /api/reply), so a lesson cannot
// disagree with the engine's rules; the page only compares the person's
// move with the step's lists of right and wrong moves.

import { get } from "./api.js";
import { render, squareIndex } from "./board.js";
import { t, lessonWords } from "./i18n.js";
import { moveSentence, pieceName, resultText, errorText } from "./words.js";

// A lesson's words in the reader's language: the catalogue's overlay has
// the shape of lessons.json's words (titles, texts, steps' sentences under
// the same move keys); lessons.json itself is English.
function translated(english, overlay) {
  if (overlay === undefined || overlay === null) return english;
  if (Array.isArray(english)) return english.map((e, i) => translated(e, overlay[i]));
  if (typeof english === "object") {
    const out = {};
    for (const [k, v] of Object.entries(english)) out[k] = translated(v, overlay[k]);
    return out;
  }
  return typeof english === "string" && typeof overlay === "string" ? overlay : english;
}

const $ = (id) => document.getElementById(id);

function add(parent, tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  parent.appendChild(e);
  return e;
}

// The colour of a piece token: upper case is white (`P=N`, `Q~` too).
const colorOf = (token) => (token[0] === token[0].toUpperCase() ? "white" : "black");

// One lesson: its steps, the position of the current step (a FEN and the
// moves played since), and what the board shows.
class Lesson {
  constructor(variant, lesson, index, section, box) {
    this.variant = variant;
    this.lesson = lesson;
    this.section = section;
    this.answers = 0;
    this.count = add(box, "p", "step-count");
    this.stepEl = add(box, "p", "step");
    this.svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    this.svg.classList.add("lesson-board");
    this.svg.dataset.lesson = String(index);
    box.appendChild(this.svg);
    this.choices = add(box, "div", "choices");
    this.caption = add(box, "p", "caption");
    this.answer = add(box, "p", "answer");
    this.answer.setAttribute("role", "status");
    this.doneEl = add(box, "p", "done", t("rules.done"));
    this.doneEl.hidden = true;
    const again = add(add(box, "div", "tools"), "button", "again", t("rules.again"));
    again.type = "button";
    again.addEventListener("click", () => this.start());
    this.svg.addEventListener("click", (e) => {
      const sq = e.target.closest && e.target.closest("[data-square]");
      if (sq) this.click(sq.getAttribute("data-square"));
    });
  }

  get steps() {
    return this.lesson.steps;
  }

  start() {
    // A reply still on its way belongs to the old run and is dropped.
    this.run = (this.run || 0) + 1;
    this.answers = 0;
    this.answer.textContent = "";
    delete this.answer.dataset.verdict;
    delete this.answer.dataset.answer;
    this.fen = this.lesson.fen;
    this.moves = [];
    this.played = [];
    this.section.dataset.played = "[]";
    this.doneEl.hidden = true;
    delete this.section.dataset.done;
    return this.enter(0);
  }

  async enter(k) {
    this.k = k;
    this.busy = false;
    this.choices.textContent = "";
    if (k >= this.steps.length) {
      this.section.dataset.done = "1";
      this.doneEl.hidden = false;
      this.stepEl.dataset.step = String(k);
      this.stepEl.textContent = this.lesson.done || "";
      this.count.textContent = "";
      this.selected = null;
      this.draw();
      return;
    }
    const step = this.steps[k];
    if (step.fen) {
      this.fen = step.fen;
      this.moves = [];
    }
    this.selected = step.select || null;
    await this.load();
    this.count.textContent = t("rules.step_of", { k: k + 1, n: this.steps.length });
    this.stepEl.textContent = step.say;
    this.stepEl.dataset.step = String(k);
  }

  async load() {
    const q = new URLSearchParams({ variant: this.variant, fen: this.fen, moves: this.moves.join(",") });
    this.data = await get(`/api/legal?${q}`);
    const status = this.data.status ? resultText(this.data.status) : t(`to_move.${this.data.turn}`);
    this.caption.textContent = status;
    this.draw();
  }

  legalFrom(sq) {
    return this.data ? this.data.legal.filter((m) => m.from === sq) : [];
  }

  // The top piece on `sq` (the server's token), or null.
  top(sq) {
    const pieces = this.data.board[squareIndex(sq)] || [];
    return pieces.length ? pieces[pieces.length - 1] : null;
  }

  draw() {
    const d = this.data;
    if (!d) return;
    const targets = new Set(this.selected ? this.legalFrom(this.selected).map((m) => m.to) : []);
    render(this.svg, { variant: d.variant, fen: d.fen, board: d.board, check: d.check, last: d.last },
      { orientation: "w", selected: this.selected, targets, arrows: [] });
  }

  say(verdict, text) {
    this.answers += 1;
    this.answer.textContent = `${t(`rules.verdict.${verdict}`)} ${text}`;
    this.answer.dataset.verdict = verdict;
    this.answer.dataset.answer = String(this.answers);
  }

  click(sq) {
    if (!this.data || this.busy || this.k >= this.steps.length) return;
    this.choices.textContent = "";
    const from = this.selected;
    if (from === sq) return;
    const top = this.top(sq);
    const own = top && colorOf(top.piece) === this.data.turn;
    if (from) {
      const moves = this.legalFrom(from).filter((m) => m.to === sq);
      if (moves.length === 1) return this.judge(moves[0]);
      if (moves.length > 1) return this.choose(moves);
      const known = (this.steps[this.k].illegal || {})[from + sq];
      if (known === undefined && own) {
        this.select(sq);
        return;
      }
      const piece = pieceName(this.variant, this.top(from).parts, false);
      const why = known || t(this.legalFrom(from).length ? "rules.cannot_go" : "rules.stuck", { piece });
      this.say("illegal", t("rules.no_move", { from, to: sq, why }));
      this.select(null);
      return;
    }
    if (own) {
      this.select(sq);
      return;
    }
    this.say("illegal", t(`rules.not_yours.${this.data.turn}`, { square: sq }));
  }

  select(sq) {
    this.selected = sq;
    this.draw();
  }

  choose(moves) {
    add(this.choices, "p", "", t("rules.join", { n: moves.length }));
    for (const m of moves) {
      const b = add(this.choices, "button", "", moveSentence(this.variant, m));
      b.type = "button";
      b.dataset.move = m.move;
      b.addEventListener("click", () => this.judge(m));
    }
  }

  // Answers the person's legal move `m`: a right one is played (and the
  // engine replies where the step says so), a wrong one is only explained.
  async judge(m) {
    this.choices.textContent = "";
    const step = this.steps[this.k];
    const wrong = (step.wrong || {})[m.move];
    const right = wrong === undefined ? step.right[m.move] ?? step.right["*"] : undefined;
    if (right === undefined) {
      this.say("wrong", `${moveSentence(this.variant, m)}: ${wrong || step.other || t("rules.other")}`);
      this.select(null);
      return;
    }
    const run = this.run;
    this.busy = true;
    this.selected = null;
    this.say("right", `${moveSentence(this.variant, m)}: ${right}`);
    try {
      await this.push(m.move, run);
      if (step.reply) await this.reply(run);
    } catch (e) {
      this.caption.textContent = errorText(e);
      this.busy = false;
      return;
    }
    if (run === this.run) await this.enter(this.k + 1);
  }

  async reply(run) {
    this.caption.textContent = t("rules.thinking");
    const q = new URLSearchParams({ variant: this.variant, fen: this.fen, moves: this.moves.join(",") });
    const r = await get(`/api/reply?${q}`);
    if (run !== this.run) return;
    if (!r.move) {
      this.answer.textContent += ` ${t("rules.no_reply")}`;
      await this.load();
      return;
    }
    this.answer.textContent += ` ${t("rules.replied", { move: r.text })}`;
    await this.push(r.move, run);
  }

  // Plays `mv` on the board. Every move shown is logged on the lesson's
  // element (data-played: before, move, after), so that a test can check
  // each one, the engine's too, with the rules.
  async push(mv, run) {
    const before = this.data.fen;
    this.moves.push(mv);
    await this.load();
    if (run !== this.run) return;
    this.played.push({ before, move: mv, after: this.data.fen });
    this.section.dataset.played = JSON.stringify(this.played);
  }
}

async function start() {
  const variant = new URLSearchParams(location.search).get("variant") || "chess";
  let all;
  try {
    all = await get("/lessons.json");
  } catch (e) {
    $("message").textContent = errorText(e);
    return;
  }
  for (const name of Object.keys(all)) all[name] = translated(all[name], lessonWords(name));
  for (const [name, v] of Object.entries(all)) {
    const a = add($("variants"), "a", name === variant ? "current" : "", v.title);
    a.href = `/rules.html?variant=${name}`;
  }
  const v = all[variant];
  if (!v) {
    $("message").textContent = t("rules.no_page", { variant });
    return;
  }
  document.title = t("page.rules", { title: v.title });
  $("title").textContent = t("rules.title", { title: v.title });
  for (const t of v.intro) add($("intro"), "p", "", t);
  const boards = v.lessons.map((lesson, i) => {
    const sec = add($("lessons"), "section", "lesson");
    sec.dataset.lesson = String(i);
    add(sec, "h2", "", lesson.title);
    const row = add(sec, "div", "lesson-row");
    const box = add(row, "div", "lesson-box");
    add(row, "p", "lesson-text", lesson.text);
    return new Lesson(variant, lesson, i, sec, box).start().catch((e) => {
      $("message").textContent = errorText(e);
    });
  });
  await Promise.all(boards);
  document.body.dataset.ready = "1";
}

start();
