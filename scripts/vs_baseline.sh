#!/usr/bin/env bash
# The strength check of issue 15 for one variant: this build against the
# frozen baseline (scripts/baseline.sh), 5 s + 0.05 s, one thread each, seeded
# random openings played with both colours. First an SPRT elo0=0 elo1=10
# (stops when it decides), then a fixed 300-game match for the Elo estimate.
#
#   scripts/vs_baseline.sh VARIANT [NEW_BINARY] [OUT_DIR]
#   BASELINE=--first scripts/vs_baseline.sh VARIANT   against the first baseline, b0095fb
set -euo pipefail
variant=${1:?usage: scripts/vs_baseline.sh chess|plunder|tavreli [NEW_BINARY] [OUT_DIR]}
root=$(cd "$(dirname "$0")/.." && pwd)
new=${2:-$root/target/release/volkhv}
out=${3:-$root/target/strength}
base=$("$root/scripts/baseline.sh" ${BASELINE:-} | tail -n1)
mkdir -p "$out"
common=(--variant "$variant" --tc 5+0.05 --concurrency 2 --repeat --random-plies 8
        --engine "cmd=$new name=volkhv" --engine "cmd=$base name=baseline")
"$new" match "${common[@]}" --games 2000 --seed 21 --sprt elo0=0,elo1=10 \
    --pgn "$out/$variant-sprt.pgn" | tail -n 6
"$new" match "${common[@]}" --games 300 --seed 22 \
    --pgn "$out/$variant-300.pgn" | tail -n 5
