"""Semantic rules of a drill: time order, and the numbers the model's types take (finite, never booleans or
numeric text, non-negative prices and token counts); each issue at its line; tags that would give the answer away."""

from __future__ import annotations

import copy

import pytest
from pydantic import ValidationError
from validation_support import BASE, BASE_TEXT, issues_of, only

from warroom.core.library import bundled_drills_dir
from warroom.core.load import DrillLoadError, load_drill, load_drill_text
from warroom.core.model import Drill

# -- time order and numbers ---------------------------------------------------------------------------------------


def test_trace_times_do_not_decrease():
    def edit(d):
        d["trace"][4]["t"] = 9.5

    issue = only(issues_of(edit))
    assert issue.loc == ("trace", 4, "t") and issue.related == ("trace", 3, "t")


def test_equal_trace_times_are_fine():
    def edit(d):
        d["trace"][4]["t"] = 10

    assert issues_of(edit) == []


def test_replan_times_do_not_decrease():
    def edit(d):
        d["answer_key"]["replan"].append({"id": "r2", "t": 1, "kind": "executor_message", "content": "Retrying."})

    assert only(issues_of(edit)).loc == ("answer_key", "replan", 1, "t")


@pytest.mark.parametrize(
    ("where", "loc"),
    [
        (lambda d: d["trace"][5].__setitem__("t", float("inf")), ("trace", 5, "log", "t")),
        (lambda d: d["answer_key"].__setitem__("deadline", float("nan")), ("answer_key", "deadline")),
        (lambda d: d["answer_key"]["damage"]["entries"][0].__setitem__("amount", float("inf")),
         ("answer_key", "damage", "entries", 0, "amount")),
        (lambda d: d["models"]["planner"].__setitem__("input_usd_per_mtok", float("-inf")),
         ("models", "planner", "input_usd_per_mtok")),
        (lambda d: d["trace"][2].__setitem__("duration_ms", float("inf")), ("trace", 2, "tool_result", "duration_ms")),
    ],
)
def test_numbers_are_finite_by_type_before_the_rules_run(where, loc):
    data = copy.deepcopy(BASE)
    where(data)
    with pytest.raises(ValidationError) as info:
        Drill.model_validate(data)
    (err,) = info.value.errors()
    assert (err["type"], err["loc"]) == ("finite_number", loc)


@pytest.mark.parametrize(
    ("where", "loc", "error"),
    [
        (lambda d: d.__setitem__("difficulty", True), ("difficulty",), "int_type"),
        (lambda d: d.__setitem__("version", False), ("version",), "int_type"),
        (lambda d: d.__setitem__("schema_version", True), ("schema_version",), "literal_error"),
        (lambda d: d["trace"][0]["usage"].__setitem__("input_tokens", True),
         ("trace", 0, "planner_call", "usage", "input_tokens"), "int_type"),
        (lambda d: d["trace"][0]["usage"].__setitem__("estimated", 1),
         ("trace", 0, "planner_call", "usage", "estimated"), "bool_type"),
        (lambda d: d["models"]["executor"].__setitem__("output_usd_per_mtok", True),
         ("models", "executor", "output_usd_per_mtok"), "float_type"),
        (lambda d: d["trace"][1].__setitem__("t", True), ("trace", 1, "tool_call", "t"), "float_type"),
        (lambda d: d["trace"][1].__setitem__("t", "5"), ("trace", 1, "tool_call", "t"), "float_type"),
        (lambda d: d["answer_key"].__setitem__("deadline", True), ("answer_key", "deadline"), "float_type"),
        (lambda d: d["answer_key"]["damage"]["entries"][0].__setitem__("amount", True),
         ("answer_key", "damage", "entries", 0, "amount"), "float_type"),
        (lambda d: d["trace"][2].__setitem__("duration_ms", False), ("trace", 2, "tool_result", "duration_ms"),
         "float_type"),
    ],
)
def test_no_number_takes_a_boolean_or_a_numeric_text(where, loc, error):
    data = copy.deepcopy(BASE)
    where(data)
    with pytest.raises(ValidationError) as info:
        Drill.model_validate(data)
    (err,) = info.value.errors()
    assert (err["type"], err["loc"]) == (error, loc)


def test_floats_still_take_whole_numbers():
    def edit(d):
        d["answer_key"]["deadline"] = 12
        d["models"]["planner"]["input_usd_per_mtok"] = 5

    assert issues_of(edit) == []



# -- non-negative prices and token counts (enforced by the model's types) ---------------------------------------------


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d["models"]["planner"].__setitem__("input_usd_per_mtok", -5),
        lambda d: d["models"]["executor"].__setitem__("output_usd_per_mtok", -0.01),
        lambda d: d["trace"][0]["usage"].__setitem__("input_tokens", -1),
        lambda d: d["trace"][1]["usage"].__setitem__("output_tokens", -150),
        lambda d: d["models"].__setitem__("replan_usage", {"input_tokens": -3, "output_tokens": 1}),
    ],
)
def test_prices_and_token_counts_are_non_negative(edit):
    data = copy.deepcopy(BASE)
    edit(data)
    with pytest.raises(ValidationError) as info:
        Drill.model_validate(data)
    assert [e["type"] for e in info.value.errors()] == ["greater_than_equal"]


def test_zero_prices_and_tokens_are_fine():
    def edit(d):
        d["models"]["executor"]["input_usd_per_mtok"] = 0
        d["trace"][0]["usage"] = {"input_tokens": 0, "output_tokens": 0}

    assert issues_of(edit) == []


def test_loader_points_each_issue_at_its_line():
    text = BASE_TEXT.replace("  deadline: 12", "  deadline: 1").replace("  - event: e6", "  - event: e3")
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text, "x.yaml")
    assert [str(p).split(": ", 1)[0] for p in info.value.problems] == ["x.yaml:68:13", "x.yaml:76:12"]


def test_public_tags_hide_fault_kind_taxonomy_and_control_tags():
    """Tags that name the fault (vocabulary, MAST/TRAIL/AgentRx terms) or mark a control drill stay hidden."""

    drill = load_drill(bundled_drills_dir() / "duplicate-charge-refunds.yaml")
    assert "stale_data" in drill.tags
    assert drill.public_tags == ["finance-ops"]
    control = load_drill(bundled_drills_dir() / "clickstream-backfill.yaml")
    assert not any("clear" in t or "control" in t or t.startswith("TRAIL") for t in control.public_tags)
    assert control.public_tags  # the domain tags stay
    for path in sorted(bundled_drills_dir().glob("*.yaml")):
        d = load_drill(path)
        kind = d.answer_key.fault.kind.value if d.answer_key else None
        assert kind not in d.public_tags and (kind or "").replace("_", "-") not in d.public_tags, path.name
