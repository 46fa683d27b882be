#!/usr/bin/env bats
# A test whose body passes and whose teardown fails: the body starts a detached background writer
# (an "indexer") that outlives the test and keeps writing into the test's work dir while teardown
# removes it. bats prints only "not ok" for the test, which sends readers to debug the body;
# holdwatch names the detached writer, reparented yet attributed to the test that spawned it.
# Run: holdwatch run --watch "$EXAMPLE_DIR" -- bats examples/bats-detached

setup() {
  WORK="$EXAMPLE_DIR/work-$BATS_TEST_NUMBER"
  mkdir -p "$WORK"
}

@test "starts the indexer" {
  # The bug: a detached writer holding indexer.log and creating files, never stopped (bounded here to 6 s).
  # Builtins only, so it writes fast; it cycles through 64 names, so what it leaves behind stays small.
  setsid bash -c 'exec 3>"$1/indexer.log"; i=0
    while [ "$SECONDS" -lt 6 ]; do i=$((i+1)); echo "$i" > "$1/doc$((i % 64)).idx"; echo "$i" >&3; done' _ "$WORK" </dev/null >/dev/null 2>&1 &
  INDEXER_STARTED=1
  sleep 0.5
  [ -f "$WORK/indexer.log" ]
}

@test "a later test" {
  true
}

teardown() {
  # A cleanup deletes what it listed, then the folder; the indexer writes in between. After a test that
  # started one, it waits for the indexer's next file (at most 5 s), so the removal fails on every run,
  # not only when the race is lost; a test without an indexer has nothing to wait for.
  rm -f "$WORK"/*
  if [ -n "${INDEXER_STARTED:-}" ]; then
    for _ in $(seq 500); do [ -z "$(ls -A "$WORK")" ] || break; sleep 0.01; done
  fi
  rmdir "$WORK"
}
