#!/usr/bin/env bash
# Start the bridge detached from the caller and record its pid for whoever stops it.
set -euo pipefail
SKILL_DIR="$(cd "$(dirname "$0")/.." && pwd)"
setsid bash "$SKILL_DIR/scripts/bridge.sh" </dev/null >/dev/null 2>&1 &
echo "$!" > "$SKILL_DIR/run/bridge.pid"
