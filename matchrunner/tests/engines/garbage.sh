#!/bin/sh
# A UCI engine whose output holds raw bytes (NUL, 0xFF, escape sequences).
while read -r cmd rest; do
  case "$cmd" in
    uci) printf 'id name garbage\001\nuciok\n' ;;
    isready) echo "readyok" ;;
    go) printf 'info string \033[2J\000\377\n'; printf 'bestmove e2\000\377}x\n' ;;
    quit) exit 0 ;;
  esac
done
