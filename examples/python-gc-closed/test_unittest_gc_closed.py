"""unittest: the same four leaks (see leaks.py), run by `python3 -m unittest`.

Run: EXAMPLE_DIR=/tmp/x holdwatch run --watch /tmp/x -- python3 -m unittest test_unittest_gc_closed
(from this folder). unittest shows ResourceWarnings by default; holdwatch leaves them as they are.
"""
import unittest

import leaks


class GcClosed(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        leaks.prepare()

    def test_path_open(self):
        self.assertEqual(leaks.read_through_path_open(), "hello\n")

    def test_owner(self):
        leaks.write_through_owner()

    def test_cycle(self):
        leaks.read_through_cycle()

    def test_sqlite(self):
        leaks.query_without_close()

    def test_sqlite_collected(self):
        leaks.query_then_collect()


if __name__ == "__main__":
    unittest.main()
