"""rstkit.jsontext writes what ``json.dumps(value, indent=2)`` writes (the reference is the standard library)."""
from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rstkit.jsontext import Table, dumps_indented

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


@pytest.mark.slow  # hypothesis: hundreds of examples
@given(JSON_VALUES)
@settings(max_examples=300, deadline=None)
def test_any_json_value_is_written_as_the_standard_library_writes_it(value):
    assert dumps_indented(value) == json.dumps(value, indent=2)


@pytest.mark.slow  # hypothesis: hundreds of examples
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


# -- Table: records of one shape given as columns --------------------------------------------------
SHAPES = st.recursive(st.none(), lambda inner: st.dictionaries(KEYS, inner, max_size=4), max_leaves=8)


def flat_fields(shape: dict) -> tuple:
    """The test's own reading of a shape as Table fields (None marks a scalar)."""
    return tuple(key if sub is None else (key, flat_fields(sub)) for key, sub in shape.items())


def fill(shape: dict, values) -> dict:
    return {key: next(values) if sub is None else fill(sub, values) for key, sub in shape.items()}


def n_leaves(shape: dict) -> int:
    return sum(1 if sub is None else n_leaves(sub) for sub in shape.values())


@st.composite
def tables(draw) -> tuple[list[dict], Table]:
    shape = draw(st.dictionaries(KEYS, SHAPES, min_size=1, max_size=4).filter(n_leaves))  # a column at least
    n_rows = draw(st.integers(0, 5))
    columns = []
    for _ in range(n_leaves(shape)):  # a column of one type, or mixed
        kind = draw(st.sampled_from([SCALARS, st.integers(-5, 5), st.floats(), st.text(max_size=4), st.booleans()]))
        columns.append(draw(st.lists(kind, min_size=n_rows, max_size=n_rows)))
    rows = [fill(shape, iter(values)) for values in zip(*columns)]
    return rows, Table(flat_fields(shape), tuple(columns))


@pytest.mark.slow  # hypothesis: hundreds of examples
@given(tables())
@settings(max_examples=400, deadline=None)
def test_a_table_is_written_as_its_records_are(case):
    rows, table = case
    assert table.records() == rows or any(math.isnan(v) for c in table.columns for v in c if type(v) is float)
    assert dumps_indented({"documents": table, "n": 1}) == json.dumps({"documents": rows, "n": 1}, indent=2)
