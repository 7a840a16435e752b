#!/bin/sh
# An XBoard engine whose rules differ from the arbiter's: it rejects every
# move it is told (and opens with e2e4 when it moves first as white).
while read -r cmd rest; do
  case "$cmd" in
    protover) echo 'feature usermove=1 ping=1 done=1' ;;
    ping) echo "pong $rest" ;;
    usermove) echo "Illegal move: $rest" ;;
    go) echo "move e2e4" ;;
    quit) exit 0 ;;
  esac
done
