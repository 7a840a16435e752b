// A game between two people: a seat's own box (both names, who is online,
// resign, a draw or a takeback offered and answered) and the host's
// invitation (a link for each side and one for watchers). What a seat may
// do is the server's to decide; the page only shows what applies.

import { get, post } from "./api.js";
import { t, lang } from "./i18n.js";
import { errorText } from "./words.js";

const $ = (id) => document.getElementById(id);

// The page's role: the host's board, a player's seat or a watcher's.
// A seat's page shows the game only (CSS: body[data-seat]).
export function enterRole(you) {
  if (you && you !== "host") document.body.dataset.seat = you;
  else delete document.body.dataset.seat;
}

const other = (side) => (side === "white" ? "black" : "white");

// "white", "белые", "ақ": a side's name inside a sentence.
const sideWord = (side) => t(`color.${side}`).toLocaleLowerCase(lang);

// The offer of the other side that `mine` is to answer, if any.
function incoming(s, mine) {
  if (!mine || s.status) return null;
  if (s.offers.draw === other(mine)) return "draw";
  if (s.offers.takeback === other(mine)) return "takeback";
  return null;
}

export function renderSeat(app) {
  const s = app.state;
  if (s.status) document.body.dataset.over = "1";
  else delete document.body.dataset.over;
  $("seat-box").hidden = !s.players;
  if (!s.players) return;
  const line = $("players");
  line.textContent = "";
  for (const side of ["white", "black"]) {
    const p = s.players[side];
    const span = document.createElement("span");
    span.dataset.side = side;
    span.className = p.online ? "online" : "away";
    span.textContent = t("seat.player", {
      name: p.name,
      side: sideWord(side),
      state: t(p.online ? "seat.online" : "seat.away"),
    });
    line.append(span);
    if (side === "white") line.append(" · ");
  }
  const mine = app.you === "white" || app.you === "black" ? app.you : null;
  $("seat-actions").hidden = !mine || Boolean(s.status);
  const kind = incoming(s, mine);
  $("seat-offer").hidden = !kind;
  $("seat-offer").dataset.kind = kind || "";
  if (kind) {
    const name = s.players[other(mine)].name;
    $("offer-text").textContent = t(kind === "draw" ? "seat.draw_offered" : "seat.takeback_asked", { name });
  }
  const drawSent = s.offers.draw === mine;
  const takebackSent = s.offers.takeback === mine;
  $("offer-draw").disabled = drawSent;
  $("offer-draw").textContent = t(drawSent ? "seat.draw_sent" : "seat.offer_draw");
  $("ask-takeback").disabled = takebackSent;
  $("ask-takeback").textContent = t(takebackSent ? "seat.takeback_sent" : "seat.ask_takeback");
}

// The seat's buttons; `apply(state)` shows the server's answer.
export function wireSeat(app, apply, say) {
  const send = async (action, body) => {
    try {
      apply(await post(`/api/games/${app.state.id}/${action}`, body));
      say("");
    } catch (e) {
      say(errorText(e, action));
    }
  };
  $("resign").addEventListener("click", () => {
    if (window.confirm(t("seat.confirm_resign"))) send("resign", {});
  });
  $("offer-draw").addEventListener("click", () => send("draw", { action: "offer" }));
  $("ask-takeback").addEventListener("click", () => send("takeback", { action: "ask" }));
  $("offer-accept").addEventListener("click", () => send($("seat-offer").dataset.kind, { action: "accept" }));
  $("offer-decline").addEventListener("click", () => send($("seat-offer").dataset.kind, { action: "decline" }));
}

// Copies `text`; where the clipboard API is not allowed (plain HTTP
// beyond loopback), by selecting the field.
async function copy(input, button) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch (_) {
    input.select();
    document.execCommand("copy");
  }
  button.textContent = t("invite.copied");
}

function showLinks(links) {
  const ul = $("invite-links");
  ul.textContent = "";
  const rows = [
    ["white", t("invite.link", { name: links.white.name, side: sideWord("white") })],
    ["black", t("invite.link", { name: links.black.name, side: sideWord("black") })],
    ["watch", t("invite.watch")],
  ];
  for (const [key, label] of rows) {
    const li = document.createElement("li");
    const name = document.createElement("span");
    name.textContent = label;
    const input = document.createElement("input");
    input.readOnly = true;
    input.id = `invite-${key}-link`;
    input.value = location.origin + links[key].path;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "copy";
    button.textContent = t("invite.copy");
    button.addEventListener("click", () => copy(input, button));
    li.append(name, input, button);
    ul.append(li);
  }
}

// The host's *Invite a friend*: names, then the three links (again, for a
// game that has its seats).
export function wireInvite(app, say) {
  $("invite").addEventListener("click", async () => {
    const box = $("invite-box");
    box.hidden = !box.hidden;
    if (box.hidden || !app.state.players) return;
    try {
      showLinks(await get(`/api/games/${app.state.id}/seats`));
    } catch (e) {
      say(errorText(e));
    }
  });
  $("invite-create").addEventListener("click", async () => {
    const body = {
      white: $("invite-white-name").value.trim() || t("color.white"),
      black: $("invite-black-name").value.trim() || t("color.black"),
    };
    try {
      showLinks(await post(`/api/games/${app.state.id}/seats`, body));
      say("");
    } catch (e) {
      say(errorText(e, "seats"));
    }
  });
}
