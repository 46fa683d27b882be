# Shared setup/teardown for agmsg BATS tests.
# Each test gets an isolated skill directory with its own DB.

setup_test_env() {
  # mktemp's folder is the watched dir; bats keeps its own run files in TMPDIR, outside it.
  export TEST_SKILL_DIR="$(TMPDIR="${AGMSG_TEST_TMPDIR:-${TMPDIR:-/tmp}}" mktemp -d)"
  mkdir -p "$TEST_SKILL_DIR"/{scripts,db,run}

  # Copy all scripts to isolated skill dir.
  cp -R "$BATS_TEST_DIRNAME"/../scripts/. "$TEST_SKILL_DIR/scripts/"
  chmod +x "$TEST_SKILL_DIR/scripts/"*.sh

  # Initialize DB
  bash "$TEST_SKILL_DIR/scripts/init-db.sh"

  export SCRIPTS="$TEST_SKILL_DIR/scripts"
}

# Stop what the test started (the pids its launchers recorded), then remove the skill dir.
teardown_test_env() {
  local pf pid rc=0
  for pf in "$TEST_SKILL_DIR"/run/*.pid; do
    [ -f "$pf" ] || continue
    pid="$(cat "$pf")"
    kill "$pid" 2>/dev/null || true
    wait_for_pid_exit "$pid" || true
  done
  rm -rf "$TEST_SKILL_DIR" || rc=$?
  return "$rc"
}

_WAIT_TICKS=100    # x 0.1s = 10s ceiling
_WAIT_INTERVAL=0.1

wait_for_file() {
  local file="$1" i
  for i in $(seq 1 $_WAIT_TICKS); do
    [ -f "$file" ] && return 0
    sleep $_WAIT_INTERVAL
  done
  return 1
}

wait_for_pid_exit() {
  local pid="$1" i
  for i in $(seq 1 $_WAIT_TICKS); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep $_WAIT_INTERVAL
  done
  return 1
}
