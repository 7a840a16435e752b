#!/usr/bin/env bash
# GUI check (not run in CI): XBoard 4.9 from Debian plays volkhv against itself
# under Xvfb in each variant, and a screenshot of each game is saved.
#
#   tests/gui/xboard.sh OUTDIR [VOLKHV]
#
# OUTDIR   receives <variant>.png, <variant>.debug (XBoard's engine log) and
#          <variant>.pgn for normal, plunder and tavreli.
# VOLKHV   the engine binary (default: target/release/volkhv; build it first
#          with `cargo build --release -p engine`).
# Installs nothing. Needs: xboard, Xvfb, import + convert (imagemagick):
#   apt-get install -y xboard xvfb imagemagick
# Environment: SECONDS_PER_GAME (default 20) is how long each game runs
# before the screenshot; TC (default 0:30) is the time control per side.
#
# Checks per variant: the XBoard debug file shows the engine's `setup` line
# (plunder, tavreli), at least 4 engine moves, and no "Illegal move" answer.
set -u

out=${1:?usage: tests/gui/xboard.sh OUTDIR [VOLKHV]}
engine=${2:-target/release/volkhv}
per_game=${SECONDS_PER_GAME:-20}
tc=${TC:-0:30}

# Debian installs xboard under /usr/games, often not on PATH.
export PATH="$PATH:/usr/games"

missing=0
for tool in xboard Xvfb import convert; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "missing: $tool (apt-get install -y xboard xvfb imagemagick)" >&2
        missing=1
    fi
done
if [ ! -x "$engine" ]; then
    echo "missing: engine binary $engine (cargo build --release -p engine)" >&2
    missing=1
fi
[ "$missing" = 0 ] || exit 2

mkdir -p "$out"
out=$(cd "$out" && pwd)
engine=$(cd "$(dirname "$engine")" && pwd)/$(basename "$engine")

display=:${DISPLAY_NUMBER:-97}
Xvfb "$display" -screen 0 1024x768x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null' EXIT
sleep 2
if ! kill -0 "$xvfb" 2>/dev/null; then
    echo "Xvfb could not start on $display (set DISPLAY_NUMBER to a free one)" >&2
    exit 2
fi
export DISPLAY=$display

failed=0
for variant in normal plunder tavreli; do
    home=$(mktemp -d)
    debug=$out/$variant.debug
    rm -f "$debug" "$out/$variant.pgn" "$out/$variant.png"
    # TwoMachines: volkhv against volkhv; -testLegality false because XBoard
    # does not know plunder's vests or tavreli's towers (the engine is the
    # rules authority and rejects illegal moves itself).
    HOME=$home xboard -fcp "$engine" -fd "$(dirname "$engine")" \
        -scp "$engine" -sd "$(dirname "$engine")" \
        -variant "$variant" -testLegality false -mode TwoMachines \
        -tc "$tc" -inc 0 -xexit -saveSettingsOnExit false -soundProgram "" \
        -messageSuppress "Right-clicking menu item or dialog text pops up help on it" \
        -debug -nameOfDebugFile "$debug" -sgf "$out/$variant.pgn" \
        >"$home/xboard.log" 2>&1 &
    xb=$!
    sleep "$per_game"
    import -window root png:- | convert png:- -trim +repage "$out/$variant.png"
    kill -TERM "$xb" 2>/dev/null
    wait "$xb" 2>/dev/null
    rm -rf "$home"

    moves=$(grep -c -E '<(first|second) *: move ' "$debug" 2>/dev/null || true)
    setup=$(grep -c -E ': setup \(' "$debug" 2>/dev/null || true)
    illegal=$(grep -c -E ': Illegal move' "$debug" 2>/dev/null || true)
    status=ok
    if [ "$variant" != normal ] && [ "${setup:-0}" -eq 0 ]; then status="FAIL (no setup)"; fi
    if [ "${moves:-0}" -lt 4 ]; then status="FAIL (only ${moves:-0} engine moves)"; fi
    if [ "${illegal:-0}" -gt 0 ]; then status="FAIL ($illegal illegal-move answers)"; fi
    [ "$status" = ok ] || failed=1
    echo "$variant: $status; setup lines ${setup:-0}, engine moves ${moves:-0}; screenshot $out/$variant.png"
done
exit "$failed"
