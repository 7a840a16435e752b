#!/bin/sh
# A UCI engine that exits when asked to think.
while read -r cmd rest; do
  case "$cmd" in
    uci) echo "id name crash"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go) exit 3 ;;
    quit) exit 0 ;;
  esac
done
