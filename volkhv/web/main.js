// The page: one state (the server's game plus what the person is doing),
// changed only by the functions below and drawn by board.js and panel.js.
// The server is the rules authority: legal moves, FENs and results come from
// it; the page only matches clicks against the legal moves it was sent.

import { get, post, stream, unreachable } from "./api.js";
import { keepInAddress, branchBody } from "./library-link.js";
import {
  prefs, remember, firstVisit, engineSides, gameSettings, lastGame, keepLastGame, forgetLastGame,
} from "./prefs.js";
import { render, squareIndex } from "./board.js";
import { t, lang } from "./i18n.js";
import { statusText, errorText, useFigurines, notation } from "./words.js";
import { enterRole, renderSeat, wireSeat, wireInvite } from "./seat.js";
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
  online: true,       // the stream is up
  pending: null,      // {move, ply, fen}: a move clicked while the server was away
  wdl: null,          // the last win/draw/loss seen, {wdl, ply}
  you: "host",        // this page's role: host, white, black (a seat) or watch
};

// The moves a review belongs to: a new move or takeback makes it stale.
function gameKey(s) {
  return `${s.id} ${s.start} ${s.history.map((h) => h.move).join(" ")}`;
}

function live() {
  return app.state && app.viewPly === app.state.history.length;
}

// A seat moves its own side only; a watcher nothing.
function canMove() {
  return live() && app.state.human_to_move && (app.you === "host" || app.state.turn === app.you);
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
  if (info.multipv === 1 && info.wdl) app.wdl = { wdl: info.wdl, ply: info.ply };
  draw();
}

async function act(path, body) {
  if (app.gone && path === "new") {
    try {
      await openGame({ ...body, ...gameSettings() });
      app.gone = false;
      say("");
      return true;
    } catch (e) {
      say(errorText(e, "new"));
      return false;
    }
  }
  try {
    const s = await post(`/api/games/${app.state.id}/${path}`, body);
    setState(s);
    say("");
    return true;
  } catch (e) {
    if (unreachable(e) && path === "move") {
      // Not lost: sent once the server is back, if the game is still where
      // it was when the move was made.
      app.pending = { move: body.move, ply: app.state.history.length, fen: app.state.fen };
      say(t("msg.pending", { move: body.move }));
    } else {
      say(unreachable(e) ? t("msg.away") : errorText(e, path, body));
    }
    draw();
    return false;
  }
}

// Back online: the move made meanwhile is played if the game has not
// changed since, or refused with a word.
async function sendPending(s) {
  const p = app.pending;
  if (!p) return;
  app.pending = null;
  if (s.history.length === p.ply && s.fen === p.fen) {
    await act("move", { move: p.move });
  } else {
    say(t("msg.not_sent", { move: p.move }));
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
  app.wdl = null;
  setState(s);
  app.es = stream(s.id, {
    state: (st) => {
      setState(st);
      sendPending(st);
    },
    info: onInfo,
    message: (m) => say(t("msg.engine", { text: m })),
    connection: showConnection,
    gone: (e) => {
      app.gone = true;
      forgetLastGame();
      say(t("msg.gone", { error: errorText(e) }));
    },
  });
  keepInAddress(s.id);
  keepLastGame(s.id);
  $("board-link").href = `/?game=${s.id}`;
  app.hint = null;
  app.review = null;
  loadReview();
}

// The header says when the page has lost the server, and when it is back.
function showConnection(up) {
  // Back from a restart: whatever the server now says is the game.
  if (up && !app.online && app.state) app.state = { ...app.state, version: -1 };
  app.online = up;
  const c = $("connection");
  c.hidden = up;
  c.textContent = up ? "" : t("connection.reconnecting");
  document.body.dataset.online = up ? "1" : "0";
}

// ---- hint and review -----------------------------------------------------------

async function askHint() {
  try {
    const h = await post(`/api/games/${app.state.id}/hint`);
    app.hint = h;
    say(t("msg.hint", { move: notation(h.text) }));
    draw();
  } catch (e) {
    say(errorText(e, "hint"));
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
    say(errorText(e, "review"));
  }
}

function pollReview() {
  clearTimeout(app.reviewTimer);
  app.reviewTimer = setTimeout(() => loadReview(true), 300);
}

// The game's review as the server has it (none: nothing is shown).
// `started`: a review was just asked for (the game's state does not say so
// until it next changes); otherwise only a review the state names is asked
// for, so that a plain page load asks nothing that answers 409.
async function loadReview(started = false) {
  if (!app.state) return;
  if (!started && !app.state.review) {
    app.review = null;
    draw();
    return;
  }
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
  app.you = s.you || "host";
  enterRole(app.you);
  // A seat faces its own colour.
  app.orientation = s.settings.engine === "white" || app.you === "black" ? "b" : "w";
  attach(s);
  if (ply !== null && ply !== "") await goto(Number(ply));
}

// New games (and set-ups) are new games of the library, so the one on the
// board stays in it as it was.
async function fresh(body) {
  const p = prefs();
  app.orientation = p.opponent === "computer" && p.color === "black" ? "b" : "w";
  try {
    await openGame({ ...body, ...gameSettings(p) });
    say("");
  } catch (e) {
    say(errorText(e, body.fen ? "fen" : "new"));
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
    say(errorText(e));
  }
}

// ---- moves: board gestures are in input.js -----------------------------------

async function play(mv) {
  closeChooser();
  await act("move", { move: mv });
}

function showInspector(sq) {
  if (!app.view) return;
  renderInspector($("inspector"), sq, app.view.board[squareIndex(sq)], app.view.variant);
}

// ---- controls ---------------------------------------------------------------

// Figurines need no language: the default where letters would be English.
const DEFAULT_NOTATION = lang === "en" ? "letters" : "figurines";

// A named level in the reader's language ("Strong club" is `level.strong_club`).
function levelName(l) {
  return t("level.named", { name: t(`level.${l.name.toLowerCase().replace(/ /g, "_")}`), elo: String(l.elo) });
}

// The Play box from a game's settings.
function opponentOf(engine) {
  if (engine === "none") return "person";
  if (engine === "both") return "both";
  return "computer";
}

function syncControls(s) {
  const set = s.settings;
  const active = document.activeElement;
  const keep = (el) => el === active;
  const menu = $("variant");
  if (menu.options.length !== s.variants.length) {
    menu.replaceChildren(...s.variants.map((v) => new Option(t(`variant.${v.name}`), v.name)));
  }
  if (!keep(menu)) menu.value = s.variant;
  const opponent = set.analyse ? "person" : opponentOf(set.engine);
  if (!keep($("opponent"))) $("opponent").value = opponent;
  if (!keep($("color")) && opponent === "computer") $("color").value = set.engine === "white" ? "black" : "white";
  // Level and colour stay in sight whoever the opponent is: choosing a
  // level is how a person starts playing the computer.
  const kind = Object.keys(set.limit).find((k) => k !== "inc");
  if (!keep($("limit-kind")) && !keep($("limit-value")) && !keep($("limit-inc"))) {
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
  if (level.options.length < s.levels.named.length + 1) {
    level.replaceChildren(
      new Option(t("level.full", { elo: String(s.levels.max) }), ""),
      ...s.levels.named.map((l) => new Option(levelName(l), String(l.elo))),
    );
  }
  if (!keep(level)) {
    const v = set.elo === null ? "" : String(set.elo);
    // A level set by a script need not be a named one.
    if (![...level.options].some((o) => o.value === v)) level.add(new Option(t("level.elo", { elo: String(set.elo) }), v));
    level.value = v;
  }
  $("analyse").textContent = t(set.analyse ? "analysis.analysing" : "analysis.analyse");
  $("stop").disabled = !s.searching && !set.analyse;
}

// The engine's time as the controls say it.
function limitBody() {
  const kind = $("limit-kind").value;
  const value = Number($("limit-value").value);
  if (kind === "clock") {
    return { clock: Math.round(value * 1000), inc: Math.round(Number($("limit-inc").value) * 1000) };
  }
  return { [kind]: value };
}

// One apply model: every control of the Play and Analysis boxes applies to
// the game at once and is kept for the player's next games; none resets
// another's value.
function choose(changes, settings) {
  remember(changes);
  return act("settings", settings);
}

function onOpponent() {
  const opponent = $("opponent").value;
  const p = { ...prefs(), opponent };
  if (opponent === "computer") app.orientation = p.color === "black" ? "b" : "w";
  choose({ opponent }, { engine: engineSides(p), elo: opponent === "person" ? null : p.elo, analyse: false });
}

function onLevel() {
  const v = $("level").value;
  const elo = v === "" ? null : Number(v);
  const p = prefs();
  // Choosing a level means playing the computer at it.
  const opponent = p.opponent === "person" ? "computer" : p.opponent;
  const next = { ...p, elo, opponent };
  if (p.opponent === "person") app.orientation = next.color === "black" ? "b" : "w";
  choose({ elo, opponent }, { engine: engineSides(next), elo, analyse: false });
}

function onColor() {
  const color = $("color").value;
  app.orientation = color === "black" ? "b" : "w";
  const next = { ...prefs(), color };
  choose({ color }, { engine: engineSides(next) });
}

function onLimit() {
  const limit = limitBody();
  choose({ limit }, limit);
}

function onEngineNumber(id) {
  const n = Number($(id).value);
  choose({ [id]: n }, { [id]: n });
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
  $("opponent").addEventListener("change", onOpponent);
  $("level").addEventListener("change", onLevel);
  $("color").addEventListener("change", onColor);
  $("limit-kind").addEventListener("change", () => {
    const kind = $("limit-kind").value;
    $("limit-inc").hidden = kind !== "clock";
    // A value means something else in another unit: the unit's usual one.
    $("limit-value").value = { movetime: 1000, depth: 12, nodes: 1000000, clock: 300 }[kind];
    onLimit();
  });
  $("limit-value").addEventListener("change", onLimit);
  $("limit-inc").addEventListener("change", onLimit);
  for (const id of ["threads", "hash", "multipv"]) $(id).addEventListener("change", () => onEngineNumber(id));
  $("hint").addEventListener("click", askHint);
  wireSeat(app, setState, say);
  wireInvite(app, say);
  $("notation").value = prefs().notation || DEFAULT_NOTATION;
  useFigurines($("notation").value === "figurines");
  $("notation").addEventListener("change", () => {
    remember({ notation: $("notation").value });
    useFigurines($("notation").value === "figurines");
    draw();
  });
  $("review").addEventListener("click", startReview);
  $("analyse").addEventListener("click", () => act("settings", { engine: "none", analyse: true }));
  $("stop").addEventListener("click", () => act("stop"));
  $("welcome-play").addEventListener("click", () => {
    remember({ opponent: "computer", elo: prefs().elo === null ? 1350 : prefs().elo });
    $("welcome").hidden = true;
    fresh({ variant: $("variant").value });
  });
  $("welcome-analyse").addEventListener("click", () => {
    remember({ opponent: "person" });
    $("welcome").hidden = true;
    act("settings", { engine: "none", analyse: true });
  });
  $("welcome-close").addEventListener("click", () => {
    remember({});
    $("welcome").hidden = true;
  });
  $("pgn-export").addEventListener("click", async () => {
    try {
      const text = await get(`/api/games/${app.state.id}/pgn`);
      $("pgn").value = text;
      const a = $("pgn-download");
      a.href = URL.createObjectURL(new Blob([text], { type: "application/x-chess-pgn" }));
      a.hidden = false;
    } catch (e) { say(errorText(e)); }
  });
  $("pgn-import").addEventListener("click", async () => {
    try {
      const r = await post("/api/library/import", { pgn: $("pgn").value });
      const ids = [...r.imported, ...r.existing];
      if (!ids.length) {
        const bad = r.errors[0];
        say(bad ? t("msg.pgn_game", { n: bad.game, error: bad.error }) : t("msg.no_pgn_game"));
        return;
      }
      await reopen(ids[ids.length - 1], null);
      say(r.imported.length > 1 ? t("msg.imported", { n: r.imported.length }) : r.skipped ? t("msg.already") : "");
    } catch (e) { say(errorText(e, "pgn")); }
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
  renderSeat(app);
  $("branch").hidden = live();
  $("rules-link").href = `/rules.html?variant=${s.variant}`;
  renderClocks($("clocks"), s, app.stateAt);
  renderMoves($("moves"), s, app.viewPly, goto, review && review.moves);
  renderLines($("lines"), app.lines, s.searching);
  const shown = app.scores[app.viewPly] || (best && best.white);
  renderEvalBar($("evalbar-fill"), $("evalbar-text"), shown, app.orientation);
  renderGraph($("graph"), app.scores, s.history.length, app.viewPly, review);
  // The last chances stay on the player's turn, marked as of an earlier
  // position, until a search of the position shown gives new ones.
  const current = app.wdl && app.wdl.ply === app.viewPly && s.searching;
  renderWdl($("wdl"), app.wdl && app.wdl.wdl, app.orientation, !current);
  $("wdl-legend").hidden = !app.wdl;
  $("wdl-age").textContent = app.wdl && !current ? t("wdl.age", { n: Math.ceil(app.wdl.ply / 2) || 0 }) : "";
  renderReview($("review-box"), app.review, app.viewPly);
  $("hint").disabled = !canMove();
  if (document.activeElement !== $("fen-input")) $("fen-input").value = app.view.fen;
}

// ---- start ---------------------------------------------------------------------
// /?game=ID[&ply=N] reopens a game; /?variant=V&fen=FEN&engine=…&movetime=MS…
// opens that position with those settings (scripts, tests); /?new=1 a new
// game with the player's choices; / the game in progress (this browser's
// last, else the library's newest unfinished), or a new one.

const URL_SETTINGS = ["variant", "fen", "engine", "movetime", "depth", "nodes", "threads", "hash", "multipv", "elo", "analyse", "moves", "flip"];

// The game to go back to, if there is one.
async function gameInProgress() {
  const last = lastGame();
  if (last) return last;
  try {
    const page = await get("/api/library?result=*&limit=1");
    return page.games.length ? page.games[0].id : null;
  } catch (_) {
    return null;
  }
}

async function start() {
  wire();
  const q = new URLSearchParams(location.search);
  $("welcome").hidden = !firstVisit() || q.has("game") || URL_SETTINGS.some((k) => q.has(k));
  let resume = q.get("game");
  if (!resume && !q.has("new") && !URL_SETTINGS.some((k) => q.has(k))) resume = await gameInProgress();
  if (resume) {
    try {
      return await reopen(resume, q.get("ply"));
    } catch (e) {
      forgetLastGame();
      if (q.get("game")) say(t("msg.instead_new", { error: errorText(e) }));
    }
  }
  if (!URL_SETTINGS.some((k) => q.has(k))) return fresh({});
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
    say(t("msg.instead_start", { error: errorText(e, "fen") }));
    try {
      await openGame({ variant: body.variant });
    } catch (_) {
      // The library may refuse every new game (a read-only file): its
      // reason stays on the page.
      await openGame({}).catch((e2) => say(errorText(e2, "new")));
    }
  }
}

start();
