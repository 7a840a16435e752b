// The library page: every kept game, newest first, a page at a time,
// filtered by variant and result; open one (at any move), export, delete,
// import PGN files (with a report of what was kept, skipped and unreadable).

import { get, request } from "./api.js";

const $ = (id) => document.getElementById(id);
const TITLES = { chess: "Chess", plunder: "PlunderChess", tavreli: "Tavreli" };

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
  cell(tr, TITLES[g.variant] || g.variant);
  cell(tr, g.white);
  cell(tr, g.black);
  const res = cell(tr, g.result);
  res.className = "result";
  if (g.reason) res.title = g.reason;
  const plies = cell(tr, String(Math.ceil(g.plies / 2)));
  plies.className = "plies";
  plies.title = `${g.plies} plies`;
  const open = cell(tr);
  link(open, "Open", `/?game=${g.id}`, { class: "open" });
  open.append(" at ply ");
  const at = document.createElement("input");
  at.type = "number";
  at.min = 0;
  at.max = g.plies;
  at.value = g.plies;
  at.title = "ply (half-move) to show";
  at.className = "at";
  open.appendChild(at);
  const go = link(open, "Go", `/?game=${g.id}&ply=${g.plies}`, { class: "open-at" });
  at.addEventListener("input", () => { go.href = `/?game=${g.id}&ply=${Number(at.value) || 0}`; });
  const tools = cell(tr);
  link(tools, "PGN", `/api/games/${g.id}/pgn`, { download: `volkhv-${g.id}.pgn` });
  tools.append(" ");
  const del = document.createElement("button");
  del.type = "button";
  del.textContent = "Delete";
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
    $("count").textContent = `${page.total} game${page.total === 1 ? "" : "s"}${shown < page.total ? `, ${shown} shown` : ""}`;
    $("more").hidden = shown >= page.total;
    document.body.dataset.ready = "1";
  } catch (e) {
    say(e.message);
  }
}

async function remove(id) {
  if (!window.confirm(`Delete game ${id} from the library?`)) return;
  try {
    await request("DELETE", `/api/library/${id}`);
    say(`game ${id} deleted`);
    await refresh();
  } catch (e) {
    say(e.message);
  }
}

// What an import did, in words, with every unreadable game by its number.
function showReport(r, name) {
  const box = $("import-report");
  const plural = (n, one) => `${n} ${one}${n === 1 ? "" : "s"}`;
  const head = document.createElement("p");
  head.textContent = `${name}: ${plural(r.imported.length, "game")} imported` +
    (r.skipped ? `, ${plural(r.skipped, "game")} already in the library (skipped)` : "") +
    (r.error_count ? `, ${plural(r.error_count, "game")} not readable` : "") +
    (r.error ? ` — ${r.error}` : "");
  box.append(head);
  if (r.errors.length) {
    const ul = document.createElement("ul");
    for (const e of r.errors) {
      const li = document.createElement("li");
      li.dataset.game = String(e.game);
      li.textContent = `game ${e.game}: ${e.error}`;
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
  if (pasted.trim()) sends.push(["pasted text", JSON.stringify({ pgn: pasted }), "application/json"]);
  if (!sends.length) return say("choose PGN files or paste PGN first");
  $("import-report").replaceChildren();
  say("importing…");
  for (const [name, body, type] of sends) {
    try {
      const res = await fetch("/api/library/import", { method: "POST", headers: { "Content-Type": type }, body });
      const r = await res.json();
      if (!Array.isArray(r.imported)) throw new Error(r.error || `HTTP ${res.status}`);
      showReport(r, name);
    } catch (e) {
      showReport({ imported: [], skipped: 0, errors: [], error_count: 0, error: e.message }, name);
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
