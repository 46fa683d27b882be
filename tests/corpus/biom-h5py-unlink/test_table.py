import os
from datetime import datetime
from tempfile import NamedTemporaryFile
from unittest import TestCase, main

import h5py
import numpy as np

from minibiom import Table


class TableTests(TestCase):
    def test_to_from_hdf5_bug_861(self):
        t = Table(np.array([[0, 1, 2], [3, 4, 5]]), ['a', 'b'], ['c', 'd', 'e'])
        with NamedTemporaryFile(delete=False) as tmpfile:
            h5 = h5py.File(tmpfile.name, 'w')
            t.to_hdf5(h5, 'tests')
            h5.close()

            h5 = h5py.File(tmpfile.name, 'r')
            obs = Table.from_hdf5(h5)
        os.unlink(tmpfile.name)

        self.assertEqual(obs, t)

    def test_to_from_hdf5_creation_date(self):
        t = Table(np.array([[0, 1, 2], [3, 4, 5]]), ['a', 'b'], ['c', 'd', 'e'])
        current = datetime.now()
        with NamedTemporaryFile(delete=False) as tmpfile:
            h5 = h5py.File(tmpfile.name, 'w')
            t.to_hdf5(h5, 'tests', creation_date=current)
            h5.close()

            h5 = h5py.File(tmpfile.name, 'r')
            obs = Table.from_hdf5(h5)
            self.assertEqual(obs.create_date, current)
        os.unlink(tmpfile.name)

        self.assertEqual(obs, t)

    def test_to_hdf5_empty_table(self):
        """Successfully writes an empty OTU table in HDF5 format"""
        t = Table(np.zeros((0, 0)), [], [])
        with NamedTemporaryFile(delete=False) as tmpfile:
            h5 = h5py.File(tmpfile.name, 'w')
            t.to_hdf5(h5, 'tests')
            h5.close()
        os.unlink(tmpfile.name)


if __name__ == '__main__':
    main()
