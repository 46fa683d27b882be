"""pytest: each test leaves one resource to the garbage collector (see leaks.py).

Run: EXAMPLE_DIR=/tmp/x holdwatch run --watch /tmp/x -- python3 -m pytest examples/python-gc-closed/test_gc_closed.py
holdwatch reports each under `closed-by-gc`, with this file's test and the line in leaks.py.
"""
import leaks


def setup_module():
    leaks.prepare()


def test_path_open():
    assert leaks.read_through_path_open() == "hello\n"


def test_owner():
    leaks.write_through_owner()


def test_cycle():
    leaks.read_through_cycle()


def test_sqlite():
    leaks.query_without_close()


def test_sqlite_collected():
    leaks.query_then_collect()
