# tests/test_recreate.py::test_recreate of simonw/sqlite-utils at 7b2d1c0 (Apache-2.0), as it failed in
# issue #503, on the reproduction in minidb.py.
import pathlib

import pytest

from minidb import Database


@pytest.mark.parametrize("use_path,file_exists", [(True, True), (True, False), (False, True), (False, False)])
def test_recreate(tmp_path, use_path, file_exists):
    filepath = str(tmp_path / "data.db")
    if use_path:
        filepath = pathlib.Path(filepath)
    if file_exists:
        Database(filepath).insert("t1", {"foo": "bar"})
        assert ["t1"] == Database(filepath).table_names()
    Database(filepath, recreate=True).insert("t2", {"foo": "bar"})
    assert ["t2"] == Database(filepath).table_names()
