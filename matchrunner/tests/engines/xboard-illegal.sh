#!/bin/sh
# A CECP v2 engine with quoted features and usermove=1 that answers `go`
# with an illegal move. It logs what it receives to $1 (if given) so the
# test can check the dialogue.
log=${1:-/dev/null}
while read -r cmd rest; do
  echo "$cmd $rest" >> "$log"
  case "$cmd" in
    protover)
      echo 'feature myname="Broken XB 1.0" usermove=1 ping=1 setboard=1 done=0'
      echo 'feature variants="normal,plunder" sigint=0 done=1' ;;
    ping) echo "pong $rest" ;;
    go) echo "1 -35 0 10 e2e5"; echo "move e2e5" ;;
    quit) exit 0 ;;
  esac
done
