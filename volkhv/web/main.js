// The page: one state (the server's game plus what the person is doing),
// changed only by the functions below and drawn by board.js and panel.js.
// The server is the rules authority: legal moves, FENs and results come from
// it; the page only matches clicks against the legal moves it was sent.

import { get, post, stream } from "./api.js";
import { keepInAddress, branchBody } from "./library-link.js";
import { render, squareIndex } from "./board.js";
import { attachInput, closeChooser, legalFrom, targetsOf } from "./input.js";
import {
  renderStatus, renderClocks, renderMoves, renderLines, renderEvalBar, renderGraph, renderInspector,
  renderWdl, renderReview, BAD_MARKS,
} from "./panel.js";

const $ = (id) => document.getElementById(id);

const app = {
  state: null,        // the server's state of the game
  stateAt: 0,         // performance.now() when it came (clocks)
  viewPly: 0,         // ply shown; state.history.length = the live position
  view: null,         // {variant, fen, board, check, last} of the shown ply
  orientation: "w",
  selected: null,     // square picked as the origin
  lines: new Map(),   // multipv -> info of the newest search
  lineGen: null,
  scores: [],         // per ply: white-view score of the best line
  hint: null,         // {ply, move, text} of the last hint, while its position is on
  review: null,       // the game review (GET /api/games/ID/review), for gameKey
  reviewKey: null,
  reviewTimer: null,
  es: null,
};

// The moves a review belongs to: a new move or takeback makes it stale.
function gameKey(s) {
  return `${s.id} ${s.start} ${s.history.map((h) => h.move).join(" ")}`;
}

function live() {
  return app.state && app.viewPly === app.state.history.length;
}

function canMove() {
  return live() && app.state.human_to_move;
}

function say(text) {
  $("message").textContent = text || "";
}

// ---- state from the server ------------------------------------------------

function liveView(s) {
  return { variant: s.variant, fen: s.fen, board: s.board, check: s.check, last: s.last };
}

function setState(s) {
  const old = app.state;
  if (old && old.id === s.id && s.version < old.version) return;
  const wasLive = !old || old.id !== s.id || live() || app.viewPly > s.history.length;
  app.state = s;
  app.stateAt = performance.now();
  app.scores = s.scores.map((x) => x || undefined);
  if (wasLive) {
    app.viewPly = s.history.length;
    app.view = liveView(s);
  }
  if (app.selected && !legalFrom(app.state, app.selected).length) app.selected = null;
  if (app.hint && app.hint.ply !== s.history.length) app.hint = null;
  if (app.review && app.reviewKey !== gameKey(s)) app.review = null;
  syncControls(s);
  draw();
}

function onInfo(info) {
  if (info.gen !== app.lineGen) {
    app.lineGen = info.gen;
    app.lines = new Map();
  }
  app.lines.set(info.multipv, info);
  if (info.multipv === 1) app.scores[info.ply] = info.white;
  draw();
}

async function act(path, body) {
  if (app.gone && path === "new") {
    try {
      await openGame({ ...body, ...settingsBody() });
      app.gone = false;
      say("");
      return true;
    } catch (e) {
      say(e.message);
      return false;
    }
  }
  try {
    const s = await post(`/api/games/${app.state.id}/${path}`, body);
    setState(s);
    say("");
    return true;
  } catch (e) {
    say(e.message);
    draw();
    return false;
  }
}

async function openGame(body) {
  attach(await post("/api/games", body));
}

// Shows game `s` and follows its stream; a reload of the page reopens it.
function attach(s) {
  if (app.es) app.es.close();
  app.state = null;
  app.lines = new Map();
  app.scores = [];
  app.gone = false;
  setState(s);
  app.es = stream(s.id, {
    state: setState,
    info: onInfo,
    message: (m) => say(m),
    error: streamError,
  });
  keepInAddress(s.id);
  app.hint = null;
  app.review = null;
  loadReview();
}

// ---- hint and review -----------------------------------------------------------

async function askHint() {
  try {
    const h = await post(`/api/games/${app.state.id}/hint`);
    app.hint = h;
    say(`Hint: ${h.text}`);
    draw();
  } catch (e) {
    say(e.message);
  }
}

async function startReview() {
  try {
    app.reviewKey = gameKey(app.state);
    app.review = await post(`/api/games/${app.state.id}/review`);
    say("");
    draw();
    pollReview();
  } catch (e) {
    say(e.message);
  }
}

function pollReview() {
  clearTimeout(app.reviewTimer);
  app.reviewTimer = setTimeout(loadReview, 300);
}

// The game's review as the server has it (none: nothing is shown).
async function loadReview() {
  if (!app.state) return;
  const key = gameKey(app.state);
  try {
    const r = await get(`/api/games/${app.state.id}/review`);
    if (!app.state || gameKey(app.state) !== key) return;
    app.review = r;
    app.reviewKey = key;
    if (r.error) say(r.error);
    else if (!r.done) pollReview();
  } catch (_) {
    // 409: no review of these moves.
    app.review = null;
  }
  draw();
}

// A game of the library: `?game=ID[&ply=N]` opens it (at ply N).
async function reopen(id, ply) {
  const s = await get(`/api/games/${id}`);
  if (s.settings.engine === "white") app.orientation = "b";
  attach(s);
  if (ply !== null && ply !== "") await goto(Number(ply));
}

// New games (and set-ups) are new games of the library, so the one on the
// board stays in it as it was.
async function fresh(body) {
  try {
    await openGame({ ...body, ...settingsBody() });
    say("");
  } catch (e) {
    say(e.message);
  }
}

// The stream failed: EventSource retries by itself, unless the game is gone
// (the server keeps a limited number of games and drops the oldest idle).
async function streamError(es) {
  try {
    await get(`/api/games/${app.state.id}`);
  } catch (e) {
    es.close();
    app.gone = true;
    say(`${e.message} — New game starts a fresh one`);
  }
}

// ---- navigation -------------------------------------------------------------

async function goto(ply) {
  const s = app.state;
  if (!s) return;
  ply = Math.max(0, Math.min(ply, s.history.length));
  app.selected = null;
  closeChooser();
  if (ply === s.history.length) {
    app.viewPly = ply;
    app.view = liveView(s);
    draw();
    return;
  }
  try {
    const p = await get(`/api/games/${s.id}/position?ply=${ply}`);
    app.viewPly = ply;
    app.view = { variant: s.variant, fen: p.fen, board: p.board, check: p.check, last: p.last };
    draw();
  } catch (e) {
    say(e.message);
  }
}

// ---- moves: board gestures are in input.js -----------------------------------

async function play(mv) {
  closeChooser();
  await act("move", { move: mv });
}

function showInspector(sq) {
  if (!app.view) return;
  renderInspector($("inspector"), sq, app.view.board[squareIndex(sq)]);
}

// ---- controls ---------------------------------------------------------------

function syncControls(s) {
  const set = s.settings;
  const active = document.activeElement;
  const keep = (el) => el === active;
  const menu = $("variant");
  if (menu.options.length !== s.variants.length) {
    menu.replaceChildren(...s.variants.map((v) => new Option(v.title, v.name)));
  }
  if (!keep(menu)) menu.value = s.variant;
  if (!keep($("engine-side"))) $("engine-side").value = set.engine;
  const kind = Object.keys(set.limit).find((k) => k !== "inc");
  if (!keep($("limit-kind")) && !keep($("limit-value"))) {
    $("limit-kind").value = kind;
    $("limit-value").value = kind === "clock" ? set.limit.clock / 1000 : set.limit[kind];
    $("limit-inc").value = kind === "clock" ? set.limit.inc / 1000 : $("limit-inc").value;
    $("limit-inc").hidden = kind !== "clock";
  }
  if (!keep($("threads"))) $("threads").value = set.threads;
  $("threads").max = set.max_threads;
  if (!keep($("hash"))) $("hash").value = set.hash;
  if (!keep($("multipv"))) $("multipv").value = set.multipv;
  const level = $("level");
  if (level.options.length !== s.levels.named.length + 1) {
    level.replaceChildren(
      new Option("Full strength", ""),
      ...s.levels.named.map((l) => new Option(`${l.name} (${l.elo})`, String(l.elo))),
    );
  }
  if (!keep(level)) {
    const v = set.elo === null ? "" : String(set.elo);
    // A level set by a script need not be a named one.
    if (![...level.options].some((o) => o.value === v)) level.add(new Option(`Elo ${set.elo}`, v));
    level.value = v;
  }
  $("analyse").textContent = set.analyse ? "Analysing…" : "Analyse";
  $("stop").disabled = !s.searching && !set.analyse;
}

function settingsBody() {
  const kind = $("limit-kind").value;
  const value = Number($("limit-value").value);
  const body = {
    engine: $("engine-side").value,
    threads: Number($("threads").value),
    hash: Number($("hash").value),
    multipv: Number($("multipv").value),
  };
  if (kind === "clock") {
    body.clock = Math.round(value * 1000);
    body.inc = Math.round(Number($("limit-inc").value) * 1000);
  } else {
    body[kind] = value;
  }
  return body;
}

function wire() {
  const board = $("board");
  attachInput(board, app, { canMove, live, say, draw, play, inspect: showInspector });
  board.addEventListener("mouseover", (e) => {
    const sq = e.target.closest && e.target.closest("[data-square]");
    if (sq) showInspector(sq.getAttribute("data-square"));
  });
  $("chooser-cancel").addEventListener("click", () => { closeChooser(); draw(); });
  $("move-play").addEventListener("click", async () => {
    const mv = $("move-input").value.trim();
    if (mv && (await act("move", { move: mv }))) $("move-input").value = "";
  });
  $("move-input").addEventListener("keydown", (e) => { if (e.key === "Enter") $("move-play").click(); });
  $("undo").addEventListener("click", () => act("undo"));
  $("flip").addEventListener("click", () => { app.orientation = app.orientation === "w" ? "b" : "w"; draw(); });
  $("new-game").addEventListener("click", () => fresh({ variant: $("variant").value }));
  $("variant").addEventListener("change", () => fresh({ variant: $("variant").value }));
  $("set-fen").addEventListener("click", () => fresh({ variant: $("variant").value, fen: $("fen-input").value }));
  $("branch").addEventListener("click", () => fresh(branchBody(app.state, app.viewPly)));
  $("apply").addEventListener("click", () => act("settings", settingsBody()));
  $("level").addEventListener("change", () => {
    const v = $("level").value;
    act("settings", { elo: v === "" ? null : Number(v) });
  });
  $("hint").addEventListener("click", askHint);
  $("review").addEventListener("click", startReview);
  $("engine-side").addEventListener("change", () => {
    // The person's side at the bottom.
    const side = $("engine-side").value;
    if (side === "white") app.orientation = "b";
    if (side === "black") app.orientation = "w";
    act("settings", { ...settingsBody(), analyse: false });
  });
  $("limit-kind").addEventListener("change", () => {
    const kind = $("limit-kind").value;
    $("limit-inc").hidden = kind !== "clock";
    $("limit-value").value = { movetime: 1000, depth: 12, nodes: 1000000, clock: 300 }[kind];
  });
  $("analyse").addEventListener("click", () => act("settings", { ...settingsBody(), engine: "none", analyse: true }));
  $("stop").addEventListener("click", () => act("stop"));
  $("pgn-export").addEventListener("click", async () => {
    try {
      const text = await get(`/api/games/${app.state.id}/pgn`);
      $("pgn").value = text;
      const a = $("pgn-download");
      a.href = URL.createObjectURL(new Blob([text], { type: "application/x-chess-pgn" }));
      a.hidden = false;
    } catch (e) { say(e.message); }
  });
  $("pgn-import").addEventListener("click", async () => {
    try {
      const r = await post("/api/library/import", { pgn: $("pgn").value });
      const ids = [...r.imported, ...r.existing];
      if (!ids.length) throw new Error(r.errors.length ? `game ${r.errors[0].game}: ${r.errors[0].error}` : "no game in the PGN text");
      await reopen(ids[ids.length - 1], null);
      say(r.imported.length > 1 ? `${r.imported.length} games imported into the library; the last is shown`
        : r.skipped ? "this game was already in the library" : "");
    } catch (e) { say(e.message); }
  });
  document.addEventListener("keydown", (e) => {
    if (["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName)) return;
    const n = app.state ? app.state.history.length : 0;
    const to = { ArrowLeft: app.viewPly - 1, ArrowRight: app.viewPly + 1, Home: 0, End: n }[e.key];
    if (to !== undefined) { e.preventDefault(); goto(to); }
    if (e.key === "Escape") { closeChooser(); app.selected = null; draw(); }
  });
  setInterval(() => { if (app.state) renderClocks($("clocks"), app.state, app.stateAt); }, 200);
}

// ---- drawing ----------------------------------------------------------------

function draw() {
  const s = app.state;
  if (!s || !app.view) return;
  const best = app.lines.get(1);
  const arrows = [];
  if (best && best.ply === app.viewPly && best.pv.length && live()) {
    const m = best.pv[0];
    arrows.push({ from: m.slice(0, 2), to: m.slice(2, 4), color: "#1f6feb" });
  }
  if (app.hint && app.hint.ply === app.viewPly && live()) {
    const m = app.hint.move;
    arrows.push({ from: m.slice(0, 2), to: m.slice(2, 4), color: "#2e9e44", kind: "hint", width: 18 });
  }
  const review = app.review && app.review.done ? app.review : null;
  const marked = review && app.viewPly > 0 ? review.moves[app.viewPly - 1] : null;
  if (marked && BAD_MARKS.includes(marked.mark) && marked.best) {
    const m = marked.best;
    arrows.push({ from: m.slice(0, 2), to: m.slice(2, 4), color: "#d9822b", kind: "better" });
  }
  app.overLayer = render($("board"), app.view, {
    orientation: app.orientation,
    selected: app.selected,
    targets: app.selected && canMove() ? targetsOf(app.state, app.selected) : new Set(),
    arrows,
  });
  $("board").setAttribute("data-game", s.id);
  renderStatus($("status"), s);
  $("branch").hidden = live();
  $("rules-link").href = `/rules.html?variant=${s.variant}`;
  renderClocks($("clocks"), s, app.stateAt);
  renderMoves($("moves"), s, app.viewPly, goto, review && review.moves);
  renderLines($("lines"), app.lines, s.searching);
  const shown = app.scores[app.viewPly] || (best && best.white);
  renderEvalBar($("evalbar-fill"), $("evalbar-text"), shown, app.orientation);
  renderGraph($("graph"), app.scores, s.history.length, app.viewPly, review);
  renderWdl($("wdl"), best && best.ply === app.viewPly ? best.wdl : null, app.orientation);
  renderReview($("review-box"), app.review, app.viewPly);
  $("hint").disabled = !canMove();
  if (document.activeElement !== $("fen-input")) $("fen-input").value = app.view.fen;
}

// ---- start: /?variant=V&fen=FEN&engine=white|black|both&movetime=MS ----------

async function start() {
  wire();
  const q = new URLSearchParams(location.search);
  if (q.get("game")) {
    try {
      return await reopen(q.get("game"), q.get("ply"));
    } catch (e) {
      say(`${e.message} — a new game is shown instead`);
    }
  }
  const body = {};
  if (q.get("variant")) body.variant = q.get("variant");
  if (q.get("fen")) body.fen = q.get("fen");
  if (q.get("engine")) body.engine = q.get("engine");
  for (const k of ["movetime", "depth", "nodes", "threads", "hash", "multipv", "elo"]) {
    if (q.get(k)) body[k] = Number(q.get(k));
  }
  if (q.get("analyse") === "1") body.analyse = true;
  if (q.get("moves")) body.moves = q.get("moves").split(/[\s,]+/).filter(Boolean);
  if (q.get("flip") === "1" || q.get("engine") === "white") app.orientation = "b";
  try {
    await openGame(body);
  } catch (e) {
    say(`${e.message} — the start position is shown instead`);
    try {
      await openGame({ variant: body.variant });
    } catch (_) {
      // The library may refuse every new game (a read-only file): its
      // reason stays on the page.
      await openGame({}).catch((e2) => say(e2.message));
    }
  }
}

start();
