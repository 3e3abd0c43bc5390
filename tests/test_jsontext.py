"""rstkit.jsontext writes what ``json.dumps(value, indent=2)`` writes (the reference is the standard library)."""
from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rstkit.jsontext import dumps_indented

NASTY_KEYS = st.sampled_from(["{", "}", "{}", "a{0}b", "}}", "", "doc_id", "é", "\n", '"', "\\"])
SCALARS = (st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=True)
           | st.text(max_size=8))
KEYS = NASTY_KEYS | st.text(max_size=6)


def records(depth: int) -> st.SearchStrategy[dict]:
    values = SCALARS if depth == 0 else SCALARS | records(depth - 1)
    return st.dictionaries(KEYS, values, max_size=4)


JSON_VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(KEYS | st.integers(-3, 3) | st.booleans() | st.none()
                                             | st.floats(allow_nan=False), inner, max_size=4), max_leaves=25)


@given(JSON_VALUES)
@settings(max_examples=300, deadline=None)
def test_any_json_value_is_written_as_the_standard_library_writes_it(value):
    assert dumps_indented(value) == json.dumps(value, indent=2)


@given(st.lists(records(2), max_size=6), st.integers(0, 3))
@settings(max_examples=300, deadline=None)
def test_lists_of_records_many_of_one_shape(rows, copies):
    """The per-shape templates: rows repeated (same shape, other values) and mixed with other shapes."""
    value = {"results": [{"documents": rows + [dict(r) for r in rows] * copies}]}
    assert dumps_indented(value) == json.dumps(value, indent=2)


def test_special_values_and_types():
    value = [{"f1": math.nan, "x": math.inf, "y": -math.inf, "t": True, "n": None, "i": 3}] * 2 + [
        (1, 2), {"a": (3, {"b": []})}, {1: "one", 2.5: "x", None: 0, False: 1}, {"empty": {}}, [{}, {}], "é\u2028"]
    assert dumps_indented(value) == json.dumps(value, indent=2)


def test_what_json_cannot_write_is_still_an_error():
    with pytest.raises(TypeError):
        dumps_indented([{"a": object()}])
