"""The plain-tree walk (warroom.core.load._fast.load._plain_tree) looks for the scalars read otherwise in the same walk:
its verdict with ``readings`` is the plain-tree verdict and ``_holds(_scalars(...))`` together."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from warroom.core.library import bundled_drills_dir
from warroom.core.load._fast import load as fastload

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 70), st.sampled_from([0.4, 1.6, "yes", "no", "x", ""]))
TREES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["a", "b", "c"]), inner, max_size=3),
    max_leaves=25,
)
READINGS = st.sets(st.one_of(st.integers(0, 70), st.sampled_from([0.4, 1.6, "yes", True, None])), max_size=4)


def _both(data: dict[str, Any], depth: int, has_flow: bool, readings: set[Any]) -> bool:
    plain = fastload._plain_tree(data, depth, has_flow)
    return plain and not (readings and fastload._holds(fastload._scalars(data), readings))


@settings(max_examples=400, deadline=None)
@given(
    st.dictionaries(st.sampled_from(["a", "b", "id"]), TREES, max_size=4), READINGS, st.booleans(), st.integers(1, 6)
)
def test_one_walk_gives_both_verdicts(data: dict[str, Any], readings: set[Any], has_flow: bool, depth: int) -> None:
    assert fastload._plain_tree(data, depth, has_flow, readings) == _both(data, depth, has_flow, readings)


def test_bundled_drills_with_their_readings() -> None:
    looked = 0
    for path in sorted(bundled_drills_dir().glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        readings = fastload._token_readings(text)
        data = fastload._parse(text)
        if readings is None or data.__class__ is not dict:
            continue
        anywhere = readings[0] | {"x"}  # a text most drills hold, so that some verdicts are "holds one"
        for found in (readings[0], anywhere):
            verdict = fastload._plain_tree(data, 64, "{" in text, found)
            assert verdict == _both(data, 64, "{" in text, found), path.name
            looked += not verdict
    assert looked  # some drills hold a reading: the comparison is not vacuous
