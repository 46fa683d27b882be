import pytest

import minilt


@pytest.fixture
def lt_ctx_fast():
    return minilt.fast_context()
