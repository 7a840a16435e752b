#!/bin/sh
# A wrapper whose engine is not there: the shell says so on stderr and exits 127.
exec /nonexistent/volkhv-engine "$@"
