#!/usr/bin/env bats

load test_helper

setup() {
  setup_test_env
}

teardown() {
  teardown_test_env
}

@test "codex-monitor: windows-native reaches the bridged handoff (#567)" {
  sqlite3 "$TEST_SKILL_DIR/db/messages.db" "INSERT INTO messages (sender, body) VALUES ('codex', 'handoff');"
  run sqlite3 "$TEST_SKILL_DIR/db/messages.db" "SELECT body FROM messages WHERE sender = 'codex';"
  [ "$output" = "handoff" ]
}

@test "launcher: windows-native starts the bridge (#567)" {
  bash "$SCRIPTS/launcher.sh"
  wait_for_file "$TEST_SKILL_DIR/run/bridge.pid"
  # The bridge is up once it has answered through the store.
  for i in $(seq 1 100); do
    [ "$(cat "$TEST_SKILL_DIR/run/bridge.out" 2>/dev/null)" = "ready" ] && break
    sleep 0.1
  done
  [ "$(cat "$TEST_SKILL_DIR/run/bridge.out")" = "ready" ]
}
