#!/usr/bin/env bash
# Every commit since this check was added that touches move generation, evaluation or search
# must say what it did to the bench signature: a `Bench: <nodes>` line, or `No functional
# change`. The signature changes exactly when behaviour does, so the message is the record.
# History that cannot be rewritten is listed, with its reason, in .ci/bench-lines-exempt.
set -euo pipefail
cd "$(dirname "$0")/.."

paths=(movegen/src eval/src eval/params engine/src)
since=$(git log --diff-filter=A --format=%H -- .ci/bench-lines.sh | tail -n 1)
if [ -z "$since" ]; then
  echo "bench-lines: this check is not committed yet; nothing to check"
  exit 0
fi
bad=0
checked=0
# The commit that added the check is held to it too.
for c in $since $(git rev-list --reverse "$since..HEAD"); do
  [ -n "$(git diff-tree --no-commit-id --name-only -r "$c" -- "${paths[@]}")" ] || continue
  checked=$((checked + 1))
  if grep -q "^$(git rev-parse --short=7 "$c") " .ci/bench-lines-exempt 2>/dev/null; then
    continue
  fi
  msg=$(git log -1 --format=%B "$c")
  if ! grep -Eq '^Bench: [0-9]+$|No functional change' <<<"$msg"; then
    echo "bench-lines: $(git log -1 --format='%h %s' "$c")"
    echo "  touches ${paths[*]} but says neither 'Bench: <nodes>' nor 'No functional change'"
    bad=1
  fi
done
echo "bench-lines: $checked commit(s) touching search, eval or move generation checked"
exit $bad
