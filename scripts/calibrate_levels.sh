#!/usr/bin/env bash
# Calibrates the levels against Stockfish 15.1's UCI_Elo (CCRL-anchored): for each X, volkhv
# at UCI_LimitStrength/UCI_Elo X plays Stockfish at the same X, 10+0.1, the repository's
# openings with both colours, and the table between the calibration markers of docs/levels.md
# gets a row per X played, with the build and the date (the rows of levels not played stay). Run
# it after every change to evaluation or search that moves the bench (docs/levels.md).
#
#   scripts/calibrate_levels.sh [X ...]            default: 1500 2000, 100 games each
#   GAMES=40 OPENINGS=FILE TC=10+0.1 CONCURRENCY=2 scripts/calibrate_levels.sh 1500 2500
#
# A level at or above volkhv's top of the scale (its UCI_Elo maximum: what full strength measured)
# is volkhv at full strength against Stockfish at that X.
#
# Needs target/release/volkhv (cargo build --release) and /usr/games/stockfish
# (scripts/install-peers.sh). The PGNs go to target/calibration/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
volkhv=${VOLKHV:-$root/target/release/volkhv}
stockfish=${STOCKFISH:-/usr/games/stockfish}
games=${GAMES:-100}
tc=${TC:-10+0.1}
openings=${OPENINGS:-$root/tests/data/openings-chess.txt}
concurrency=${CONCURRENCY:-2}
doc=${DOC:-$root/docs/levels.md}
out=$root/target/calibration
levels=("$@")
[ ${#levels[@]} -gt 0 ] || levels=(1500 2000)

for tool in "$volkhv" "$stockfish"; do
  [ -x "$tool" ] || { echo "calibrate_levels: $tool is missing" >&2; exit 2; }
done
# volkhv's top of the scale is what full strength measured (engine::levels::ELO_MAX); at or above
# it volkhv plays at full strength, and Stockfish's scale goes on to 2850.
top=$(printf 'uci\nquit\n' | "$volkhv" | sed -n 's/^option name UCI_Elo type spin .* max \([0-9]*\)$/\1/p')
[ -n "$top" ] || { echo "calibrate_levels: $volkhv names no UCI_Elo range" >&2; exit 2; }
for x in "${levels[@]}"; do
  [[ $x =~ ^[0-9]+$ ]] && [ "$x" -ge 500 ] && [ "$x" -le 2850 ] ||
    { echo "calibrate_levels: a level is a UCI_Elo from 500 to 2850, not \"$x\"" >&2; exit 2; }
done
grep -q '<!-- calibration:begin -->' "$doc" && grep -q '<!-- calibration:end -->' "$doc" ||
  { echo "calibrate_levels: $doc has no calibration markers" >&2; exit 2; }
mkdir -p "$out"

build=$(git -C "$root" rev-parse --short HEAD)
bench=$("$volkhv" bench 2>/dev/null | tail -n 1 | awk '{print $1}')
rows=""
for x in "${levels[@]}"; do
  echo "calibrate_levels: UCI_Elo $x, $games games at $tc" >&2
  if [ "$x" -ge "$top" ]; then ours="cmd=$volkhv name=volkhv-full" full="volkhv at full strength, "; else
    ours="cmd=$volkhv name=volkhv-$x option.UCI_LimitStrength=true option.UCI_Elo=$x" full=""; fi
  summary=$("$volkhv" match --variant chess \
    --engine "$ours" \
    --engine "cmd=$stockfish name=stockfish-$x option.UCI_LimitStrength=true option.UCI_Elo=$x" \
    --tc "$tc" --timemargin 500 --games "$games" --repeat --openings "$openings" \
    --concurrency "$concurrency" --pgn "$out/levels-$x.pgn" | tail -n 4)
  echo "$summary" >&2
  # "Games: 100, Wins: 44, Draws: 4, Losses: 52, Points: 46.0 (46.00%)"
  # "Elo: -27.85 +/- 68.10, 95% interval [-96.0, 39.1], LOS: ..."
  read -r w d l pct < <(sed -n 's/.*Wins: \([0-9]*\), Draws: \([0-9]*\), Losses: \([0-9]*\), Points: [0-9.]* (\([0-9.]*\)%).*/\1 \2 \3 \4/p' <<<"$summary")
  read -r elo err < <(sed -n 's/^Elo: \([-0-9.inf]*\) +\/- \([0-9.inf]*\).*/\1 \2/p' <<<"$summary")
  [ -n "${w:-}" ] && [ -n "${elo:-}" ] || { echo "calibrate_levels: no result for $x" >&2; exit 1; }
  verdict=$(awk -v p="$pct" 'BEGIN { print (p >= 36 && p <= 64) ? "yes" : "**no**" }')
  rows+="| $x | $games | +$w =$d −$l | $pct % | $elo ± $err | $verdict | \`$build\` (\`Bench: $bench\`), $full$(date -u +%Y-%m-%d), $tc, $(basename "$openings") |"$'\n'
done

# Each level played gets its new row; the other levels' rows stay, with their own build and date.
python3 - "$doc" "$rows" <<'PY'
import re, sys
path, new_rows = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8").read()
block = re.search(r"<!-- calibration:begin -->.*?<!-- calibration:end -->", text, flags=re.S)
rows = {}
for line in block.group(0).splitlines() + new_rows.strip().splitlines():
    m = re.match(r"\| (\d+) \| \d+ \|", line)
    if m:
        rows[int(m.group(1))] = line
table = "\n".join([
    "<!-- calibration:begin -->",
    "| X | games | W/D/L (volkhv) | score | Elo (95 %) | within ±100 (36–64 %) | build, date, time control, openings |",
    "|---|---|---|---|---|---|---|",
    *[rows[x] for x in sorted(rows)],
    "<!-- calibration:end -->",
])
open(path, "w", encoding="utf-8").write(text[:block.start()] + table + text[block.end():])
PY
echo "calibrate_levels: $doc rewritten" >&2
