# Tests/test_MafIO_index.py::NewIndexTest of biopython/biopython (Biopython License / BSD-3), before
# PR #4365 closed the index, on the reproduction in site-packages/mafindex.py.
import os
import shutil
import tempfile
import unittest

from mafindex import MafIndex


class NewIndexTest(unittest.TestCase):
    """Test creation of new indices."""

    def setUp(self):
        self.tmpdir = tempfile.mkdtemp()
        self.tmpfile = self.tmpdir + "/database.sqlite3"

    def tearDown(self):
        if os.path.isdir(self.tmpdir):
            shutil.rmtree(self.tmpdir)

    def test_good_small(self):
        idx = MafIndex(self.tmpfile, "MAF/small.maf", "mm9.chr10")
        self.assertEqual(len(idx), 2)

    def test_good_big(self):
        idx = MafIndex(self.tmpfile, "MAF/small.maf", "mm9.chr10")
        self.assertEqual(len(idx), 2)


if __name__ == "__main__":
    unittest.main()
