#!/usr/bin/env bash
# Runs the Windows node.exe under Wine with koffi's win32 binary reachable (NODE_PATH), for manual
# runs: scripts/wine-node.sh bin/holdwatch.js scan 'Z:\tmp\x' --json
# Wine's node.exe fails with EBADF on Linux pipes, so stdio goes through files unless on a terminal.
set -euo pipefail
CACHE="${HOLDWATCH_WINE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/holdwatch-wine}"
export WINEPREFIX="$CACHE/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
export NODE_PATH="Z:${CACHE//\//\\}\\koffi\\node_modules"
NODE_WIN_VERSION="$(sed -n 's/^NODE_WIN_VERSION=//p' "$(dirname "$0")/wine-setup.sh")"
NODE_EXE="$CACHE/node-$NODE_WIN_VERSION/node.exe"
# The wineserver the suite runs (wine-setup.sh), should this start one.
if [ -x "$CACHE/wineserver64" ]; then export WINESERVER="$CACHE/wineserver64"; fi
if [ -t 1 ]; then exec wine "$NODE_EXE" "$@"; fi
out="$(mktemp)"; err="$(mktemp)"
trap 'rm -f "$out" "$err"' EXIT
set +e
wine "$NODE_EXE" "$@" </dev/null >"$out" 2>"$err"
rc=$?
set -e
cat "$out"; cat "$err" >&2
exit $rc
