// The library page: every kept game, newest first, a page at a time,
// filtered by variant and result; open one (at any move), export, delete,
// import PGN files (with a report of what was kept, skipped and unreadable).

import { get, request } from "./api.js";
import { t, has } from "./i18n.js";
import { errorText, said } from "./words.js";

const $ = (id) => document.getElementById(id);

// A player's name as the library keeps it; the board's own "Human" is
// said in the reader's language.
const playerName = (name) => (name === "Human" ? t("player.human") : name);

function say(text) {
  $("message").textContent = text || "";
}

function cell(tr, text) {
  const td = document.createElement("td");
  if (text !== undefined) td.textContent = text;
  tr.appendChild(td);
  return td;
}

function link(parent, text, href, attrs = {}) {
  const a = document.createElement("a");
  a.textContent = text;
  a.href = href;
  for (const [k, v] of Object.entries(attrs)) a.setAttribute(k, v);
  parent.appendChild(a);
  return a;
}

function filters() {
  const q = new URLSearchParams();
  if ($("filter-variant").value) q.set("variant", $("filter-variant").value);
  if ($("filter-result").value) q.set("result", $("filter-result").value);
  return q.toString();
}

function row(g) {
  const tr = document.createElement("tr");
  tr.dataset.game = g.id;
  cell(tr, g.started.replace("T", " ").replace("Z", ""));
  cell(tr, has(`variant.${g.variant}`) ? t(`variant.${g.variant}`) : g.variant);
  cell(tr, playerName(g.white));
  cell(tr, playerName(g.black));
  const res = cell(tr, g.result);
  res.className = "result";
  // The board's own reasons in the reader's words; an imported game's as
  // its file gave them.
  if (g.reason) res.title = g.reason_key ? t(`outcome.${g.reason_key}`) : g.reason;
  const plies = cell(tr, String(Math.ceil(g.plies / 2)));
  plies.className = "plies";
  plies.title = t("library.plies", { n: g.plies });
  const open = cell(tr);
  link(open, t("library.open"), `/?game=${g.id}`, { class: "open" });
  open.append(` ${t("library.at_ply")} `);
  const at = document.createElement("input");
  at.type = "number";
  at.min = 0;
  at.max = g.plies;
  at.value = g.plies;
  at.title = t("library.ply_title");
  at.className = "at";
  open.appendChild(at);
  const go = link(open, t("library.go"), `/?game=${g.id}&ply=${g.plies}`, { class: "open-at" });
  at.addEventListener("input", () => { go.href = `/?game=${g.id}&ply=${Number(at.value) || 0}`; });
  const tools = cell(tr);
  link(tools, t("library.pgn"), `/api/games/${g.id}/pgn`, { download: `volkhv-${g.id}.pgn` });
  tools.append(" ");
  const del = document.createElement("button");
  del.type = "button";
  del.textContent = t("library.delete");
  del.className = "delete";
  del.addEventListener("click", () => remove(g.id));
  tools.appendChild(del);
  return tr;
}

const PAGE = 50;
let shown = 0;

// The first page of the list (`more`: the next page, added below).
async function refresh(more = false) {
  const q = filters();
  $("export-all").href = `/api/library/pgn${q ? "?" + q : ""}`;
  const offset = more ? shown : 0;
  try {
    const page = await get(`/api/library?${q ? q + "&" : ""}limit=${PAGE}&offset=${offset}`);
    const rows = page.games.map(row);
    if (more) $("games").append(...rows);
    else $("games").replaceChildren(...rows);
    shown = offset + page.games.length;
    const count = t("library.count", { n: page.total });
    $("count").textContent = shown < page.total ? t("library.shown", { count, shown }) : count;
    $("more").hidden = shown >= page.total;
    document.body.dataset.ready = "1";
  } catch (e) {
    say(errorText(e));
  }
}

async function remove(id) {
  if (!window.confirm(t("library.confirm_delete", { id }))) return;
  try {
    await request("DELETE", `/api/library/${id}`);
    say(t("library.deleted", { id }));
    await refresh();
  } catch (e) {
    say(errorText(e));
  }
}

// What an import did, in words, with every unreadable game by its number.
function showReport(r, name) {
  const box = $("import-report");
  const games = (n) => t("import.games", { n });
  const head = document.createElement("p");
  head.textContent = t("import.head", { name, games: games(r.imported.length) }) +
    (r.skipped ? t("import.skipped", { games: games(r.skipped) }) : "") +
    (r.error_count ? t("import.unreadable", { games: games(r.error_count) }) : "") +
    (r.error ? ` — ${r.error}` : "");
  box.append(head);
  if (r.errors.length) {
    const ul = document.createElement("ul");
    for (const e of r.errors) {
      const li = document.createElement("li");
      li.dataset.game = String(e.game);
      const error = e.key && has(e.key) ? said(e.key, e.values) : e.error;
      li.textContent = t("msg.pgn_game", { n: e.game, error });
      ul.append(li);
    }
    box.append(ul);
  }
}

// Each file is sent as it is (PGN text, streamed by the server); pasted
// text as JSON.
async function importPgn() {
  const sends = [];
  for (const f of $("import-files").files) sends.push([f.name, f, "application/x-chess-pgn"]);
  const pasted = $("import-text").value;
  if (pasted.trim()) sends.push([t("import.pasted"), JSON.stringify({ pgn: pasted }), "application/json"]);
  if (!sends.length) return say(t("import.choose"));
  $("import-report").replaceChildren();
  say(t("import.importing"));
  for (const [name, body, type] of sends) {
    try {
      const res = await fetch("/api/library/import", { method: "POST", headers: { "Content-Type": type }, body });
      const r = await res.json();
      const refusal = { status: res.status, message: r.error, key: r.key, values: r.values };
      const error = Array.isArray(r.imported) ? null : errorText(refusal, "pgn");
      const report = { ...r, error: r.error && errorText(refusal, "pgn") };
      showReport(error ? { imported: [], skipped: 0, errors: [], error_count: 0, error } : report, name);
    } catch (e) {
      showReport({ imported: [], skipped: 0, errors: [], error_count: 0, error: errorText(e) }, name);
    }
  }
  say("");
  $("import-text").value = "";
  $("import-files").value = "";
  await refresh();
}

const q = new URLSearchParams(location.search);
if (q.get("variant")) $("filter-variant").value = q.get("variant");
if (q.get("result")) $("filter-result").value = q.get("result");
$("filter-variant").addEventListener("change", () => refresh());
$("filter-result").addEventListener("change", () => refresh());
$("import").addEventListener("click", importPgn);
$("more").addEventListener("click", () => refresh(true));
refresh();
