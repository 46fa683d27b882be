#!/usr/bin/env bash
# The bridge: holds a connection to the message store and serves the handoff through it (a bounded
# session here: it ends on its own a few seconds after it starts).
set -euo pipefail
SKILL_DIR="$(cd "$(dirname "$0")/.." && pwd)"
{
  echo "INSERT INTO messages (sender, body) VALUES ('bridge', 'ready');"
  echo "SELECT 'ready';"
  sleep 6
} | sqlite3 "$SKILL_DIR/db/messages.db" > "$SKILL_DIR/run/bridge.out"
