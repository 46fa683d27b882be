# Two 1 ms tests: the first leaves a file open in a module-level list, the second opens and closes
# one. Shorter than any poll: only the scan at each test's end can tell them apart.
import os

_KEEP = []


def test_leaks(tmp_path):
    _KEEP.append(open(tmp_path / "leaked.txt", "w"))


def test_closes(tmp_path):
    with open(tmp_path / "closed.txt", "w") as f:
        f.write("x")
