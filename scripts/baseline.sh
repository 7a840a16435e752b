#!/usr/bin/env bash
# The frozen baseline every strength claim is measured against: commit
# f400009 (Bench: 7466339; the first one, b0095fb with Bench: 10135547, no
# longer measures anything: every variant beats it by 370 Elo or more),
# built from its own sources into its own directory, so that later changes
# to the workspace never leak into it.
#
#   scripts/baseline.sh            build once (reused afterwards), print the binary's path
#   scripts/baseline.sh --verify   also run `volkhv bench` and check the signature
#   scripts/baseline.sh --first    the first baseline, b0095fb, instead
#   scripts/baseline.sh --issue51  issue 51's baseline, 02951f1 (Bench: 5863464)
#
# Progress goes to stderr; the last line on stdout is the absolute path of
# the `volkhv` binary, so `BASE=$(scripts/baseline.sh | tail -n1)` works.
# Needs the repository's history (a normal clone has it; a shallow one may
# not: then `git fetch --unshallow` first).
set -euo pipefail

COMMIT=f400009
BENCH=7466339

verify=0
for arg in "$@"; do
  case "$arg" in
    --verify) verify=1 ;;
    --first)
      COMMIT=b0095fb
      BENCH=10135547
      ;;
    --issue51)
      COMMIT=02951f1
      BENCH=5863464
      ;;
    -h | --help)
      sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "baseline.sh: unknown argument \"$arg\" (expected --verify, --first or --issue51)" >&2
      exit 2
      ;;
  esac
done

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
if ! full=$(git -C "$root" rev-parse --verify --quiet "$COMMIT^{commit}"); then
  echo "baseline.sh: commit $COMMIT is not in this repository's history (shallow clone? try 'git fetch --unshallow')" >&2
  exit 1
fi

dest="$root/target/baseline-$COMMIT"
src="$dest/src"
bin="$dest/target/release/volkhv"
stamp="$dest/built-from"
mkdir -p "$dest"

# Two callers at once (a match script and a person) must not build into
# the same directory together.
exec 9>"$dest/.lock"
flock 9

if [ -x "$bin" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$full" ]; then
  echo "baseline.sh: reusing $bin" >&2
else
  echo "baseline.sh: building $COMMIT into $dest (release, one crate; takes a few minutes)" >&2
  rm -rf "$src" "$stamp"
  mkdir -p "$src"
  git -C "$root" archive "$full" | tar -x -C "$src"
  # Its own target directory: the workspace's build never sees these
  # objects and a `cargo clean` of the workspace keeps them.
  # The binary was in the `engine` package until the crates were split
  # (d2497bd); later baselines have it in `volkhv`.
  package=engine
  [ -f "$src/volkhv/Cargo.toml" ] && package=volkhv
  CARGO_TARGET_DIR="$dest/target" cargo build --release --locked -p "$package" \
    --manifest-path "$src/Cargo.toml" >&2
  echo "$full" >"$stamp"
fi

if [ "$verify" = 1 ]; then
  echo "baseline.sh: running bench (expect $BENCH nodes)" >&2
  nodes=$("$bin" bench | awk '/^Nodes searched/ {print $NF}')
  if [ "$nodes" != "$BENCH" ]; then
    echo "baseline.sh: bench gave '$nodes' nodes, expected $BENCH" >&2
    exit 1
  fi
  echo "baseline.sh: bench $nodes nodes, as expected" >&2
fi

echo "$bin"
