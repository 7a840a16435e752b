#!/bin/sh
# A UCI engine that answers every `go` with a move no position allows.
while read -r cmd rest; do
  case "$cmd" in
    uci) echo "id name illegal"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go) echo "info depth 1 score cp 0"; echo "bestmove e2e5" ;;
    quit) exit 0 ;;
  esac
done
