#!/usr/bin/env bats
# Background writers that outlive their test: the shape of the shell suite in the first-time user
# test of the run view (shared/reviews/newcomer.md, "One UI run produced 128 holders"), rebuilt here
# from its description. Test 2 starts three writers, each keeping a log open and writing many small
# files with a 5 ms sleep between them, then returns; its teardown's rm -rf races the writers (on a
# loaded machine it often fails with "Directory not empty"). Under holdwatch it should read as one
# row per writer, not one per file or per forked sleep. Run with EXAMPLE_DIR set to the watched dir.

setup() { mkdir -p "$EXAMPLE_DIR/bats-$BATS_TEST_NUMBER/sub"; }
teardown() { rm -rf "$EXAMPLE_DIR/bats-$BATS_TEST_NUMBER"; }

@test "quick one" {
  true
}

@test "starts background writers that outlive the test" {
  d="$EXAMPLE_DIR/bats-$BATS_TEST_NUMBER"
  for n in 1 2 3; do
    # set +e: bats runs with set -e, and a write into the removed dir must not end the writer.
    ( set +e; exec 3>"$d/writer-$n.log"; for i in $(seq 1 300); do echo x > "$d/sub/f$n-$i" 2>/dev/null; sleep 0.005; done ) &
  done
  sleep 0.3
}

@test "writes many files" {
  d="$EXAMPLE_DIR/bats-$BATS_TEST_NUMBER"
  for i in $(seq 1 600); do echo y > "$d/sub/g$i"; done
}
