// What belongs to the player, not to one game: the opponent, the level,
// the colour, the engine's time and the engine settings. Kept in this
// browser (localStorage), so that New game, Continue from here, a variant
// switch and a reload all keep them; and the last game this browser had
// open, so that the board link always leads back to it.

const KEY = "volkhv.prefs";
const LAST = "volkhv.lastGame";

const DEFAULTS = {
  opponent: "person",   // computer | person | both
  color: "white",       // the person's colour against the computer
  elo: null,            // the computer's level, null = full strength
  limit: { movetime: 1000 },
  threads: 1,
  hash: 16,
  multipv: 1,
};

function read(key) {
  try {
    return JSON.parse(localStorage.getItem(key));
  } catch (_) {
    return null;
  }
}

// The player's choices (defaults for what was never chosen).
export function prefs() {
  return { ...DEFAULTS, ...(read(KEY) || {}) };
}

// `true` before the player ever chose anything here: a first visit.
export function firstVisit() {
  return read(KEY) === null;
}

// Keeps `changes` among the player's choices.
export function remember(changes) {
  try {
    localStorage.setItem(KEY, JSON.stringify({ ...prefs(), ...changes }));
  } catch (_) {
    // A browser that keeps nothing (private mode): choices last the page.
  }
}

// The engine's sides for the player's choices.
export function engineSides(p) {
  if (p.opponent === "person") return "none";
  if (p.opponent === "both") return "both";
  return p.color === "white" ? "black" : "white";
}

// The settings of a new game (POST /api/games) from the player's choices.
export function gameSettings(p = prefs()) {
  return {
    engine: engineSides(p),
    elo: p.opponent === "person" ? null : p.elo,
    ...p.limit,
    threads: p.threads,
    hash: p.hash,
    multipv: p.multipv,
  };
}

export function lastGame() {
  return read(LAST);
}

export function keepLastGame(id) {
  try {
    localStorage.setItem(LAST, JSON.stringify(id));
  } catch (_) {
    // As above.
  }
}

export function forgetLastGame() {
  try {
    localStorage.removeItem(LAST);
  } catch (_) {
    // As above.
  }
}
