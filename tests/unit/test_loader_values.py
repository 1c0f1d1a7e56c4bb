"""The loader's values: what YAML becomes (keys and dates as text, numbers in tool data, anchors and merge keys),
and the format's numbers (never booleans or quoted text, within their bounds)."""

from __future__ import annotations

import json

import pytest
from malformed_cases import BASE

from warroom.core.load import DrillLoadError, load_drill_text, load_yaml_text

# -- what the builder makes of YAML ---------------------------------------------------------------------------------


def test_keys_and_dates_stay_text_and_numbers_stay_numbers_in_tool_payloads():
    text = BASE.replace(
        "    output: {error: rate limited, tickets: []}",
        "    output: {on: 1, 200: ok, created: 2026-11-19T22:14:07Z, day: 2026-11-19, n: 31, ok: true, x: ~, f: 2.5}",
    )
    drill = load_drill_text(text)
    assert drill.trace[2].output == {
        "on": 1, "200": "ok", "created": "2026-11-19T22:14:07Z", "day": "2026-11-19", "n": 31, "ok": True, "x": None,
        "f": 2.5,
    }
    json.dumps(drill.model_dump(mode="json"))  # JSON-ready, as the terminal UI pretty-prints it


def test_anchors_aliases_and_merge_keys_work_for_real_reuse():
    text = BASE.replace(
        "    usage: {input_tokens: 3000, output_tokens: 800}",
        "    usage: &planner_usage {input_tokens: 3000, output_tokens: 800}",
    ).replace(
        "    arguments: {customer: 42}",
        "    arguments:\n      <<: &defaults {customer: 1, limit: 50}\n      customer: 42",
    ).replace(
        "      content: Retry s1 after the rate limit clears.",
        "      content: Retry s1 after the rate limit clears.\n      usage: *planner_usage",
    )
    drill = load_drill_text(text)
    assert drill.trace[1].arguments == {"customer": 42, "limit": 50}  # the key written in the mapping wins
    assert drill.answer_key.replan[0].usage == drill.trace[0].usage


def test_merge_key_needs_a_mapping():
    text = BASE.replace("    arguments: {customer: 42}", "    arguments: {<<: [1, 2], customer: 42}")
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text)
    assert [(p.line, p.column) for p in info.value.problems] == [(31, 22), (31, 25)]
    assert "a merge key (<<) needs a mapping" in info.value.problems[0].message


@pytest.mark.parametrize(
    ("arguments", "where", "fragment"),
    [
        ("{customer: 42, customer: 43}", (31, 31), "duplicate key `customer`"),  # reported in tool payloads too
        ("{[a, b]: 42}", (31, 17), "a key must be plain text"),  # a mapping used as a key
    ],
)
def test_a_bad_key_in_tool_arguments_is_one_problem_at_its_place(arguments, where, fragment):
    text = BASE.replace("    arguments: {customer: 42}", f"    arguments: {arguments}")
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text)
    (p,) = info.value.problems
    assert (p.line, p.column) == where and fragment in p.message


def test_load_yaml_text_returns_the_plain_data():
    data = load_yaml_text("a: 2026-01-02\nb: [1, 2.5, no, true]\n")
    assert data == {"a": "2026-01-02", "b": [1, 2.5, "no", True]}
    with pytest.raises(DrillLoadError):
        load_yaml_text("a: 1\na: 2\n")



# -- numbers: never booleans or quoted text, and within the format's bounds ------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "where", "fragment"),
    [
        ("difficulty: 1", "difficulty: on", (5, 13), "`difficulty` must be a whole number, got `on`; `on` is text in "
         "YAML 1.2, which warroom reads (YAML 1.1 read it as the boolean true)"),
        ("difficulty: 1", "difficulty: true", (5, 13), "`difficulty` must be a whole number, got `true`"),
        ("difficulty: 1", "difficulty: '2'", (5, 13), "got the text `2`; remove the quotes to write a number"),
        ("schema_version: 1", "schema_version: yes", (2, 17), "schema_version must be 1 or 2, got `yes` (this warroom "
         "reads format versions 1 and 2); `yes` is text in YAML 1.2"),
        ("difficulty: 1", "difficulty: 1\nversion: no", (6, 10), "`version` must be a whole number, got `no`; `no` "
         "is text in YAML 1.2, which warroom reads (YAML 1.1 read it as the boolean false)"),
        ("input_tokens: 3000", "input_tokens: off", (25, 27), "`usage.input_tokens` of trace event `e1` must be a "
         "whole number, got `off`"),
        ("output_tokens: 800}", "output_tokens: 800, estimated: 1}", (25, 64), "`usage.estimated` of trace event "
         "`e1` must be true or false, got `1`"),
        ("input_usd_per_mtok: 5,", "input_usd_per_mtok: yes,", (11, 44), "`models.planner.input_usd_per_mtok` must "
         "be a number, got `yes`; `yes` is text in YAML 1.2"),
        ("output_tokens: 800}", "output_tokens: 800, estimated: yes}", (25, 64), "`usage.estimated` of trace event "
         "`e1` must be true or false, got `yes`; `yes` is text in YAML 1.2, which warroom reads (YAML 1.1 read it as "
         "the boolean true): write true or false for a boolean"),
        ("    t: 5\n", "    t: y\n", (27, 8), "`t` of trace event `e2` must be a number, got `y`"),
        ("  deadline: 12", "  deadline: off", (68, 13), "`answer_key.deadline` must be a number, got `off`"),
        ("{event: e5, amount: 1}", "{event: e5, amount: yes}", (67, 29), "`amount` of damage entry #1 must be a "
         "number, got `yes`; `yes` is text in YAML 1.2"),
        ("{event: e5, amount: 1}", "{event: e5, amount: 1:30}", (67, 29), "`amount` of damage entry #1 must be a "
         "number, got `1:30`; `1:30` is text in YAML 1.2, which warroom reads (YAML 1.1 read it as the base-60 number "
         "90): write 90 if you meant that number"),
        ("{event: e5, amount: 1}", "{event: e5, amount: 1_150}", (67, 29), "`amount` of damage entry #1 must be a "
         "number, got `1_150`; YAML 1.2 numbers have no `_` (YAML 1.1 read `1_150` as 1150): write 1150"),
        ("{event: e5, amount: 1}", "{event: e5, amount: 04413}", (67, 29), "`04413` has a leading zero: YAML 1.1 "
         "reads it as the octal number 2,315, YAML 1.2 as the number 4,413; write 4413 without the leading zero"),
        ("difficulty: 1", "difficulty: 09", (5, 13), "`09` has a leading zero: YAML 1.1 reads it as text (it is not "
         "a valid octal number), YAML 1.2 as the number 9; write 9"),
        ("  deadline: 12", "  deadline: 1:30", (68, 13), "base-60 number 90"),
        ("    call: e2\n", "    call: e2\n    duration_ms: on\n", (38, 18), "`duration_ms` of trace event `e3` must "
         "be a number, got `on`"),
    ],
)
def test_no_number_of_the_format_takes_a_boolean_or_quoted_text(old, new, where, fragment):
    assert old in BASE
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(BASE.replace(old, new, 1))
    (p,) = info.value.problems
    assert (p.line, p.column) == where and fragment in p.message, str(p)


def test_the_y_of_yaml_1_1_is_not_a_boolean_in_pyyaml():
    # PyYAML reads y/n as text; the message for `t: y` above is therefore a plain type error, without the hint.
    assert load_yaml_text("a: y\n") == {"a": "y"}


@pytest.mark.parametrize(
    ("old", "new", "where", "fragment"),
    [
        ("input_tokens: 3000", "input_tokens: 10000001", (25, 27), "must be at most 10,000,000 (the drill format's "
         "limit for tokens in one model call), got `10000001`"),
        ("output_tokens: 800}", "output_tokens: 99999999999999999999999999}", (25, 48), "`usage.output_tokens` of "
         "trace event `e1` must be at most 10,000,000"),
        ("output_usd_per_mtok: 5}", "output_usd_per_mtok: 10000.5}", (12, 71), "`models.executor.output_usd_per_mtok` "
         "must be at most 10,000 (the drill format's limit for a price, in USD per million tokens)"),
        ("    t: 18\n", "    t: 1000001\n", (51, 8), "`t` of trace event `e6` must be at most 1,000,000 (the drill "
         "format's limit for drill time, in seconds), got `1000001`"),
        ("  deadline: 12", "  deadline: 2.0e+6", (68, 13), "`answer_key.deadline` must be at most 1,000,000"),
        ("    t: 2\n", "    t: 1000000.5\n", (72, 10), "`t` of re-plan event `r1` must be at most 1,000,000"),
        ("    call: e2\n", "    call: e2\n    duration_ms: 1.0e+10\n", (38, 18), "`duration_ms` of trace event `e3` "
         "must be at most 1,000,000,000 (the drill format's limit for one tool call's duration, in milliseconds)"),
        ("difficulty: 1", "difficulty: 1\nversion: 1000000001", (6, 10), "`version` must be at most 1,000,000,000"),
    ],
)
def test_numbers_above_the_formats_bounds_are_problems(old, new, where, fragment):
    assert old in BASE
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(BASE.replace(old, new, 1))
    (p,) = info.value.problems
    assert (p.line, p.column) == where and fragment in p.message, str(p)


def test_numbers_at_the_bounds_are_accepted():
    text = (
        BASE.replace("input_tokens: 3000", "input_tokens: 10000000")
        .replace("input_usd_per_mtok: 5,", "input_usd_per_mtok: 10000,")
        .replace("{event: e5, amount: 1}", "{event: e5, amount: 1000000000000}")
        .replace("    call: e2\n", "    call: e2\n    duration_ms: 1000000000\n")
    )
    drill = load_drill_text(text)
    assert drill.trace[0].usage.input_tokens == 10_000_000
    assert drill.answer_key.damage.entries[0].amount == 1e12


@pytest.mark.parametrize("value", [".inf", "-.inf", ".nan"])
def test_infinite_and_nan_numbers_are_problems(value):
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(BASE.replace("  deadline: 12", f"  deadline: {value}"))
    (p,) = info.value.problems
    assert (p.line, p.column) == (68, 13)
    assert p.message == f"`answer_key.deadline` must be a finite number, got `{value}`"
