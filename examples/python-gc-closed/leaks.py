"""Ways a test leaves a file to the garbage collector, shared by the pytest and unittest suites: three
files and two sqlite connections.

On CPython each file is closed the moment its last reference drops (or at the suite's gc.collect() for
the cycle), and each connection at the next collection, so the suites pass everywhere; on PyPy, or on Windows when the collection comes late, the
file is still open when the teardown deletes the directory: WinError 32. No line below closes them.
The e2e test finds each open by its `# leak:` comment.
"""
import gc
import os
import sqlite3
from pathlib import Path


def work_dir():
    path = Path(os.environ["EXAMPLE_DIR"])
    path.mkdir(parents=True, exist_ok=True)
    return path


def read_through_path_open():
    return work_dir().joinpath("notes.txt").open().read()  # leak: path-open (Path.open, never closed)


class Report:
    def __init__(self, path):
        self.out = open(path, "w")  # leak: owner (the object owns the file and never closes it)

    def add(self, line):
        self.out.write(line + "\n")


def write_through_owner():
    report = Report(work_dir() / "report.txt")
    report.add("done")


class Node:
    pass


def read_through_cycle():
    node = Node()
    node.me = node  # a reference cycle: only the cyclic collector frees it
    node.file = open(work_dir() / "notes.txt")  # leak: cycle (freed with the cycle)
    node.file.read()
    del node
    gc.collect()  # the suite's own collection, so the example is deterministic


def query_without_close():
    db = sqlite3.connect(work_dir() / "data.db")  # leak: sqlite (the connection is never closed)
    db.execute("create table if not exists t (x)")


def query_then_collect():
    db = sqlite3.connect(work_dir() / "cache.db")  # leak: sqlite collected (freed by the collection below)
    db.execute("create table if not exists t (x)")
    del db
    # On CPython 3.11 a Connection sits in a cycle with its statement cache: only a collection frees
    # it. This one frees this connection inside its test, and the one query_without_close left open.
    gc.collect()


def prepare():
    (work_dir() / "notes.txt").write_text("hello\n")
    # Only the suite's own collections below free the connections' cycles: an automatic one comes
    # after so many allocations, wherever they are made, so its test would move with any code that
    # runs between the tests (a plugin's, a probe's).
    gc.disable()


def closes_everything():
    with work_dir().joinpath("notes.txt").open() as f:
        f.read()
    out = open(work_dir() / "report.txt", "w")
    out.write("done\n")
    out.close()
    db = sqlite3.connect(work_dir() / "data.db")
    db.execute("create table if not exists t (x)")
    db.close()
