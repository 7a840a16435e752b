#!/bin/sh
# An XBoard engine that never sends `feature done=1` (the runner must go on
# after the protocol's two-second grace) and resigns instead of moving.
while read -r cmd rest; do
  case "$cmd" in
    protover) echo 'feature ping=1 myname="Resigner"' ;;
    ping) echo "pong $rest" ;;
    go) echo "resign" ;;
    quit) exit 0 ;;
  esac
done
