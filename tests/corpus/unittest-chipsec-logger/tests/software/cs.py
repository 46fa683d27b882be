import os
import tempfile
import unittest

from tests.software import mock_helper

from chipsec import logger
from chipsec import chipset


class TestChipsecCs(unittest.TestCase):
    """Test the commands exposed by chipsec_utils.

    Each test may define its virtual helper and then call the _chipsec_util
    method with the command line arguments.
    """

    def setUp(self):
        """Setup the environment for the utils tests.

        We mock the helper registry to only contain our emulated helper.
        """
        fileno, self.log_file = tempfile.mkstemp()
        os.close(fileno)
        chipset._chipset = None

    def tearDown(self):
        os.remove(self.log_file)
        chipset._chipset = None

    def _chipsec_cs(self, arg, helper_class=mock_helper.ValidChipsetHelper, platform=None, pch=None):
        """Run the chipsec chipset commands

        Each test may setup a virtual helper to emulate the expected behaviour
        from the hardware. If no helper is provided, ValidChipsetHelper will be used.
        It verifies that no error is being reported. self.log will be populated
        with the output.
        """
        _cs = chipset.cs()
        _cs.helper.helper = helper_class()
        _cs.init_xml_configuration()
        logger.logger().HAL = True
        logger.logger().VERBOSE = True
        logger.logger().set_log_file(self.log_file)
        _cs.init(platform, pch, True)
        ret = getattr(_cs, arg.split()[0])()
        logger.logger().close()
        log = open(self.log_file, 'rb')
        self.log = log.read()
        log.close()
        return ret
