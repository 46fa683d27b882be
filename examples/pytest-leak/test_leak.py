"""A suite with a test that leaves a file open past its own scope.

On Windows the next cleanup of this directory fails with WinError 32; on Linux the delete
succeeds and the bug hides. holdwatch reports `test_writes_log` as leaked-past-test.
Run: holdwatch run --watch "$EXAMPLE_DIR" -- python3 -m pytest examples/pytest-leak
"""
import os
import time
from pathlib import Path

_KEEP = []  # the bug: a module-level list keeps the file object (and its handle) alive


def work_dir():
    path = Path(os.environ["EXAMPLE_DIR"])
    path.mkdir(parents=True, exist_ok=True)
    return path


def test_writes_log():
    log = open(work_dir() / "session.log", "w")
    log.write("started\n")
    log.flush()
    _KEEP.append(log)
    time.sleep(1.0)  # the test's other work; holdwatch sees the handle during this test


def test_later_work():
    time.sleep(0.5)  # the handle from test_writes_log is still open here
    assert (work_dir() / "session.log").exists()
