"""The control suite: the same resources, each closed by the code. holdwatch reports none as closed-by-gc."""
import unittest

import leaks


class ClosesEverything(unittest.TestCase):
    def test_closes_everything(self):
        leaks.prepare()
        leaks.closes_everything()
