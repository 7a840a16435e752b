// The library page: every kept game, newest first, filtered by variant and
// result; open one (at any move), export, delete, import PGN files.

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

async function refresh() {
  const q = filters();
  $("export-all").href = `/api/library/pgn${q ? "?" + q : ""}`;
  try {
    const games = await get(`/api/library${q ? "?" + q : ""}`);
    $("games").replaceChildren(...games.map(row));
    $("count").textContent = `${games.length} game${games.length === 1 ? "" : "s"}`;
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

async function importPgn() {
  const texts = [];
  for (const f of $("import-files").files) texts.push(await f.text());
  if ($("import-text").value.trim()) texts.push($("import-text").value);
  if (!texts.length) return say("choose PGN files or paste PGN first");
  try {
    const r = await request("POST", "/api/library/import", { pgn: texts.join("\n\n") });
    say(`${r.imported.length} game${r.imported.length === 1 ? "" : "s"} imported`);
    $("import-text").value = "";
    $("import-files").value = "";
    await refresh();
  } catch (e) {
    say(e.message);
  }
}

const q = new URLSearchParams(location.search);
if (q.get("variant")) $("filter-variant").value = q.get("variant");
if (q.get("result")) $("filter-result").value = q.get("result");
$("filter-variant").addEventListener("change", refresh);
$("filter-result").addEventListener("change", refresh);
$("import").addEventListener("click", importPgn);
refresh();
