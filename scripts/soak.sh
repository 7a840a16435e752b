#!/usr/bin/env bash
# Protocol soak: volkhv against itself at bullet speed, one side on two
# threads, two games at once, every variant; then count the games that did
# not end on the board. A forfeit, time loss or illegal move here is a bug in
# the shim, the clock or the search's stop path, not a weak move.
#
#   scripts/soak.sh [GAMES_PER_VARIANT] [OUT_DIR]
set -euo pipefail
games=${1:-300}
out=${2:-target/soak}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cargo build --release --quiet --bin volkhv
bin=$root/target/release/volkhv
mkdir -p "$out"
variants="chess plunder tavreli"
status=0
for v in $variants; do
    "$bin" match --variant "$v" --games "$games" --tc 1+0.01 --concurrency 2 \
        --repeat --random-plies 6 --seed 7 --maxmoves 200 \
        --engine "cmd=$bin name=one-thread" \
        --engine "cmd=$bin name=two-threads option.Threads=2" \
        --pgn "$out/$v.pgn" > "$out/$v.log" 2>&1 || status=$?
    played=$(grep -c '^\[Result ' "$out/$v.pgn" || true)
    time=$(grep -c '^\[Termination "time forfeit"\]' "$out/$v.pgn" || true)
    illegal=$(grep -c '^\[Termination "rules infraction"\]' "$out/$v.pgn" || true)
    abandoned=$(grep -c '^\[Termination "abandoned"\]' "$out/$v.pgn" || true)
    printf '%-8s games %4s  time forfeits %s  illegal moves %s  abandoned %s  | %s\n' \
        "$v" "$played" "$time" "$illegal" "$abandoned" "$(grep -m1 '^Elo:' "$out/$v.log" || true)"
    if [ "$time" != 0 ] || [ "$illegal" != 0 ] || [ "$abandoned" != 0 ]; then status=1; fi
done
exit "$status"
