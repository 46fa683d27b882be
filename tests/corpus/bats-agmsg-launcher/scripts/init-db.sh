#!/usr/bin/env bash
# Create the message store: one SQLite database in WAL mode.
set -euo pipefail
SKILL_DIR="$(cd "$(dirname "$0")/.." && pwd)"
sqlite3 "$SKILL_DIR/db/messages.db" >/dev/null <<'SQL'
PRAGMA journal_mode=WAL;
CREATE TABLE IF NOT EXISTS messages (id INTEGER PRIMARY KEY, sender TEXT, body TEXT);
SQL
