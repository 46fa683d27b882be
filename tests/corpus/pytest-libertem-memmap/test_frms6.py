import os
import random

import pytest

from memmapfile import memmap, reshaped_view
from minilt import ValidationUDF

FRAMES = 64


@pytest.fixture(scope='module')
def default_frms6_uncorr():
    return [i * 7 % 1024 for i in range(FRAMES)]


@pytest.fixture(scope='module')
def default_frms6_raw(tmpdir_factory):
    fn = tmpdir_factory.mktemp("data").join("frms6.raw")
    # we use a memory mapped file to make this work
    # on machines that can't hold the full dataset in memory
    data = memmap(str(fn), mode='w+', shape=(FRAMES,), itemsize=2)
    view = reshaped_view(data, (FRAMES,))
    for i in range(FRAMES):
        view[i] = i * 7 % 1024

    yield data

    # Might be needed for Windows: make sure we don't keep any views or mmaps around:
    del view
    del data
    os.unlink(fn)


def test_comparison(default_frms6_uncorr, default_frms6_raw, lt_ctx_fast):
    udf = ValidationUDF(
        reference=reshaped_view(default_frms6_raw, (FRAMES,)),
        validation_function=lambda a, b: a == b,
    )
    assert lt_ctx_fast.run_udf(udf=udf, dataset=default_frms6_uncorr)


def test_comparison_roi(default_frms6_uncorr, default_frms6_raw, lt_ctx_fast):
    roi = [random.random() < 0.25 for _ in range(FRAMES)]
    udf = ValidationUDF(
        reference=default_frms6_raw,
        validation_function=lambda a, b: a == b,
    )
    assert lt_ctx_fast.run_udf(udf=udf, dataset=default_frms6_uncorr, roi=roi)
