#!/usr/bin/env bash
# The docs quote the bench signature in two ways: as the record of an old commit (a frozen
# baseline's `Bench: 7466339`, a table of matches, history), which must stay as it was, and
# as the signature of the code as it is, which must follow `engine::bench::SIGNATURE`. Only
# the writer knows which is which, so the current figure is marked:
#
#   <!-- current-bench -->`Bench: 5863464`       (or **5 863 464**, 5,863,464)
#
# The marker is an HTML comment (invisible when rendered) right before the figure; the figure
# is the first number after it on the same line, its digits possibly grouped by spaces or
# commas. This check, over README.md and docs/*.md:
#   1. every marked figure equals SIGNATURE, read from engine/src/bench.rs;
#   2. README.md and docs/openbench.md, which state the current signature, each hold a
#      marker (so deleting one does not silence the check);
#   3. no unmarked figure claims to be current: a number of six digits or more followed by
#      "today", or "current bench"/"current signature" followed by a number, fails unless
#      the line carries the marker. Sample outputs in code blocks are not checked.
set -euo pipefail
cd "$(dirname "$0")/.."

marker='<!-- current-bench -->'
sig=$(sed -nE 's/^pub const SIGNATURE: u64 = ([0-9_]+);.*/\1/p' engine/src/bench.rs | tr -d _)
if [ -z "$sig" ]; then
  echo "bench-quoted: no 'pub const SIGNATURE: u64 = <n>;' in engine/src/bench.rs" >&2
  exit 1
fi
files=(README.md docs/*.md)
bad=0
marked=0

# 1. Marked figures.
while IFS= read -r hit; do
  where=${hit%%:*}
  hit=${hit#*:}
  where="$where:${hit%%:*}"
  rest=${hit#*:}
  while [[ $rest == *"$marker"* ]]; do
    rest=${rest#*"$marker"}
    figure=$(grep -oE '[0-9]{1,3}([ ,][0-9]{3})+|[0-9]+' <<<"$rest" | head -n 1 || true)
    marked=$((marked + 1))
    if [ "$(tr -d ' ,' <<<"$figure")" != "$sig" ]; then
      echo "bench-quoted: $where quotes ${figure:-no figure} as the current bench; SIGNATURE is $sig"
      bad=1
    fi
  done
done < <(grep -nF -- "$marker" "${files[@]}" || true)

# 2. The places that state the current signature keep their marker.
for f in README.md docs/openbench.md; do
  if ! grep -qF -- "$marker" "$f"; then
    echo "bench-quoted: $f has no '$marker' before its current bench figure"
    bad=1
  fi
done

# 3. Unmarked figures that claim to be current.
while IFS= read -r hit; do
  echo "bench-quoted: ${hit%%:*}:$(cut -d: -f2 <<<"$hit") calls a figure current without '$marker'"
  bad=1
done < <(grep -niE '[0-9]{6,}`?\)? today|current (bench|signature)[^0-9]*[0-9]' "${files[@]}" |
  grep -vF -- "$marker" || true)

echo "bench-quoted: $marked marked figure(s) checked against SIGNATURE $sig"
exit $bad
