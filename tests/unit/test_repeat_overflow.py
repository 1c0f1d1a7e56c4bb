"""A repetition too large for a float on a damage event (found by a mutation fuzz campaign, issue 30 item 5): the
drill rules judge a repeated damage event by its last repetition, ``t + (count - 1) * interval``; with a count or
interval of hundreds of digits (refused by its field's own check) that sum raised OverflowError, and `validate`
said "internal error". Now the field's problem is reported at its line and column, and nothing else breaks; a whole
number too large for a float is called too large, not "must be a number"."""

from __future__ import annotations

import pytest
from locations import TESTS

from warroom.core.load import DrillLoadError, load_drill_text

SHAPE = TESTS / "fixtures" / "shapes" / "shape-05-repetition.yaml"
BIG = "1" + "0" * 400
# e07's repeat (line 46) is the drill's damage event: {count: 100, interval: 2}
REPEATS = {
    "interval": (f"{{count: 100, interval: {BIG}}}", 36, "`repeat.interval` of trace event `e07` is too large"),
    "count": (f"{{count: {BIG}, interval: 2}}", 21, "`repeat.count` of trace event `e07` must be at most 10,000"),
    "count-float-interval": (f"{{count: {BIG}, interval: 1.5}}", 21, "`repeat.count` of trace event `e07`"),
}


@pytest.mark.parametrize("name", sorted(REPEATS))
def test_a_damage_event_repeated_past_what_a_float_holds_is_refused_at_its_field(name: str):
    repeat, column, message = REPEATS[name]
    lines = SHAPE.read_text(encoding="utf-8").split("\n")
    assert lines[45] == "    repeat: {count: 100, interval: 2}"
    lines[45] = "    repeat: " + repeat
    with pytest.raises(DrillLoadError) as caught:
        load_drill_text("\n".join(lines), "shape.yaml")
    (problem,) = caught.value.problems
    assert (problem.line, problem.column) == (46, column), problem
    assert problem.message.startswith(message), problem


def test_a_whole_number_too_large_for_a_float_is_called_too_large_not_not_a_number():
    """It was "`t` of trace event `e07` must be a number, got `1000…`": a number said not to be one."""
    text = SHAPE.read_text(encoding="utf-8").replace("\n    t: 126\n", f"\n    t: {BIG}\n")
    with pytest.raises(DrillLoadError) as caught:
        load_drill_text(text, "shape.yaml")
    (problem,) = caught.value.problems
    assert (problem.line, problem.column) == (41, 8), problem
    assert problem.message.startswith("`t` of trace event `e07` is too large a number, got `1000"), problem
    assert "must be a number" not in problem.message
