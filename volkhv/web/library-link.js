// The board's ties to the library: the address names the game shown, so
// that a reload (or a bookmark) reopens it; an earlier position of a game
// can become a new game.

// Puts `?game=ID` in the address without reloading.
export function keepInAddress(id) {
  const url = new URL(location.href);
  for (const k of [...url.searchParams.keys()]) url.searchParams.delete(k);
  url.searchParams.set("game", id);
  history.replaceState(null, "", url);
}

// The body of POST /api/games for a new game that starts like `state`'s
// game and goes on from its ply `ply`.
export function branchBody(state, ply) {
  return {
    variant: state.variant,
    fen: state.start,
    moves: state.history.slice(0, ply).map((h) => h.move),
  };
}
