// The header's board link on every page: back to the game in progress —
// the last game this browser had open, or else the newest unfinished game
// of the library — never a new empty one.

import { lastGame } from "./prefs.js";

async function boardLink() {
  const a = document.getElementById("board-link");
  if (!a) return;
  const last = lastGame();
  if (last) {
    a.href = `/?game=${last}`;
    return;
  }
  try {
    const res = await fetch("/api/library?result=*&limit=1");
    const page = await res.json();
    if (page.games && page.games.length) a.href = `/?game=${page.games[0].id}`;
  } catch (_) {
    // No library: the link opens the board as it is.
  }
}

boardLink();
