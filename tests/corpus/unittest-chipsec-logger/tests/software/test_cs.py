import unittest

from chipsec.chipset import UnknownChipsetError
from tests.software import cs
from tests.software import mock_helper


class TestPlatformChipsecCs(cs.TestChipsecCs, unittest.TestCase):
    """Test the platform commands exposed by chipsec chipset."""

    def test_platform(self):
        p = self._chipsec_cs("get_chipset_code", mock_helper.ValidChipsetHelper)
        self.assertEqual('ADL', p)

    def test_platform_invalid(self):
        self.assertRaises(UnknownChipsetError, self._chipsec_cs, "get_chipset_code", mock_helper.InvalidChipsetHelper)


if __name__ == '__main__':
    unittest.main()
