#!/bin/sh
# A UCI engine that never answers `go` (but keeps reading, so only the
# runner's clock can notice).
while read -r cmd rest; do
  case "$cmd" in
    uci) echo "id name hang"; echo "uciok" ;;
    isready) echo "readyok" ;;
    quit) exit 0 ;;
  esac
done
