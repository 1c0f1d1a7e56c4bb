"""The drill loader: every malformed drill in tests/malformed/ gives its exact line:col and an actionable message;
valid drills load and round-trip; limits and odd inputs never raise anything but DrillLoadError."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from malformed_cases import BASE, EXPECTED, MALFORMED

import warroom.core.loader as loader_mod
from warroom.core.library import bundled_drills_dir, find_drill_files
from warroom.core.loader import DrillLoadError, Problem, load_drill, load_drill_text, load_yaml_text

#: Malformed drills that have exactly this many problems (a typo is one problem, not two) and these notes of rules
#: that wait for a problem to be fixed (not counted).
EXACT_COUNTS: dict[str, tuple[int, list[str]]] = {
    "unknown-key-typo": (1, ["62 is fixed: the deadline comes at or after", "62 is fixed: damage comes after"]),
    "typo-hides-nothing": (2, []),
    "typo-and-time-backwards": (2, []),
    "typo-in-required-key-is-one-problem": (1, ["68 is fixed: the deadline comes at or after the earliest evidence"]),
    "answer-key-typo": (1, ["57 is fixed: the drill has an answer_key or all_clear"]),
    "cyrillic-letter-in-id": (1, ["17 is fixed: references to plan steps"]),
    "bad-evidence-time-blocks-deadline-rule": (
        1, ["34 is fixed: the deadline comes at or after", "34 is fixed: damage comes after"]
    ),
    "bad-plan-title-and-duplicate-step-id": (5, []),
}


@pytest.mark.parametrize("name", sorted(EXACT_COUNTS))
def test_problem_counts_and_rules_not_checked(name: str):
    count, notes = EXACT_COUNTS[name]
    with pytest.raises(DrillLoadError) as info:
        load_drill(MALFORMED / f"{name}.yaml")
    assert len(info.value.problems) == count, "\n".join(map(str, info.value.problems))
    assert len(info.value.blocked) == len(notes)
    for note, fragment in zip(info.value.blocked, notes):
        assert note.startswith(f"{MALFORMED / name}.yaml: not checked until the problem on line ") and fragment in note


def _problems(path: Path) -> list[Problem]:
    with pytest.raises(DrillLoadError) as info:
        load_drill(path)
    return info.value.problems


def test_every_malformed_file_has_an_expectation_and_there_are_at_least_30():
    stems = {p.stem for p in MALFORMED.glob("*.yaml")}
    assert stems == set(EXPECTED)
    assert len(stems) >= 30


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_malformed_drill_reports_exact_position_and_message(name: str):
    line, column, fragment = EXPECTED[name]
    path = MALFORMED / f"{name}.yaml"
    problems = _problems(path)
    hits = [p for p in problems if (p.line, p.column) == (line, column) and fragment in p.message]
    assert hits, f"expected {line}:{column} '{fragment}', got:\n" + "\n".join(map(str, problems))
    assert all(p.path == str(path) for p in problems)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_malformed_drill_gives_the_same_problems_with_the_pure_python_yaml_loader(name, monkeypatch):
    path = MALFORMED / f"{name}.yaml"
    with_c = _problems(path)
    monkeypatch.setattr(loader_mod, "_YamlLoader", yaml.SafeLoader)
    assert _problems(path) == with_c


def test_str_of_error_is_one_path_line_col_message_line_per_problem():
    path = MALFORMED / "unknown-key-typo.yaml"
    with pytest.raises(DrillLoadError) as info:
        load_drill(path)
    lines = str(info.value).splitlines()
    assert lines == [str(p) for p in info.value.problems]
    assert len(lines) == 1 and lines[0].startswith(f"{path}:62:3: unknown key `evidnce`")
    assert Problem("a.yaml", 3, 4, "boom").to_dict() == {
        "path": "a.yaml", "line": 3, "column": 4, "severity": "error", "message": "boom"
    }
    warning = Problem("a.yaml", 3, 4, "careful", "warning")
    assert str(warning) == "a.yaml:3:4: warning: careful" and warning.to_dict()["severity"] == "warning"


def test_all_problems_of_a_file_are_reported_at_once_sorted_by_position():
    text = (
        BASE.replace("title: Minimal drill", "title: [no]")
        .replace("difficulty: 1", "difficulty: 9")
        .replace("    step: s2\n    kind: log", "    step: s7\n    kind: log")
        .replace("  deadline: 12", "  dedline: 12")
    )
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text, "many.yaml")
    got = [(p.line, p.column) for p in info.value.problems]
    assert got == sorted(got)
    messages = " | ".join(p.message for p in info.value.problems)
    assert "`title` must be text, got a list" in messages
    assert "`difficulty` must be at most 5" in messages
    assert "unknown key `dedline`" in messages and "did you mean `deadline`?" in messages
    # One typo, one problem: the unknown key stands for the missing required key it was meant to be.
    assert "missing the required key `deadline`" not in messages
    assert "(`deadline` is required and missing, so this is the one to fix)" in messages
    # The rules still run on what did load: the bad step reference is reported in the same round.
    assert "step `s7` is not a plan step" in messages
    assert len(info.value.problems) == 4
    # The deadline rule needs the deadline: named as not checked, pointing at the typo's line.
    assert info.value.blocked == [
        "many.yaml: not checked until the problem on line 68 is fixed: "
        "the deadline comes at or after the earliest evidence"
    ]


def test_a_typo_in_one_key_hides_neither_a_bad_step_nor_a_time_going_backwards():
    text = (
        BASE.replace("    tool: crm.search\n", "    tol: crm.search\n")  # a typo in a required key of e2
        .replace("    step: s2\n    kind: log", "    step: s7\n    kind: log")  # e6 names a step that does not exist
        .replace("  - id: e5\n    t: 15", "  - id: e5\n    t: 9")  # e5 goes back in time (e4 is at 10)
    )
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text, "layers.yaml")
    got = [(p.line, p.column, p.message.split(";")[0]) for p in info.value.problems]
    assert got == [
        (30, 5, "unknown key `tol` in a `tool_call` event"),
        (46, 8, "trace event `e5` at t=9 s is earlier than the event before it, `e4` at t=10 s: times must not "
                "decrease (see line 40)"),
        (52, 11, "step `s7` is not a plan step"),
    ]
    assert info.value.blocked == []


def test_rules_that_need_a_value_with_a_type_problem_are_named_not_run():
    text = (
        BASE.replace("  - id: s2\n", "  - id: s 2\n")  # a plan step id of the wrong form: step references wait
        .replace("    step: s2\n    kind: log", "    step: s7\n    kind: log")
        .replace("  - id: e3\n    t: 8", "  - id: e3\n    t: soon")  # the evidence's time: the deadline rule waits
        .replace("  cascade: [s2]", "  cascade: [s1, s1]")  # a duplicate is certain whatever the plan holds
    )
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text, "blocked.yaml")
    messages = [p.message for p in info.value.problems]
    assert not any("`s7`" in m for m in messages)  # maybe the bad id `s 2` was meant to be s7: not a problem yet
    assert any("cascade step `s1` is listed twice" in m for m in messages)
    assert len(messages) == 3
    notes = "\n".join(info.value.blocked)
    assert "line 17 is fixed: references to plan steps" in notes
    assert "line 34 is fixed: the deadline comes at or after the earliest evidence" in notes
    assert "line 34 is fixed: damage comes after the earliest evidence" in notes


def test_semantic_problems_of_one_file_are_all_reported():
    text = BASE.replace("    step: s2\n    kind: log", "    step: s7\n    kind: log").replace("  cascade: [s2]", "  cascade: [s8]")
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text, "two.yaml")
    assert [(p.line, p.column) for p in info.value.problems] == [(52, 11), (63, 13)]


# -- valid drills ------------------------------------------------------------------------------------------------


def test_base_of_the_corpus_is_valid():
    drill = load_drill_text(BASE)
    assert drill.id == "mini" and len(drill.trace) == 6


@pytest.mark.parametrize("path", find_drill_files([bundled_drills_dir()]), ids=lambda p: p.stem)
def test_bundled_drill_loads_and_round_trips(path: Path):
    drill = load_drill(path)
    assert drill.id == path.stem
    again = load_drill_text(yaml.safe_dump(drill.model_dump(mode="json", exclude_none=True), sort_keys=False))
    assert again == drill
    # JSON is YAML too: the same drill written as JSON loads to the same model.
    assert load_drill_text(drill.model_dump_json()) == drill


def test_load_accepts_str_paths_a_byte_order_mark_and_crlf_line_endings(tmp_path: Path):
    f = tmp_path / "crlf.yaml"
    f.write_bytes(b"\xef\xbb\xbf" + BASE.replace("\n", "\r\n").encode())
    assert load_drill(str(f)).id == "mini"
    bad = tmp_path / "crlf-bad.yaml"
    bad.write_bytes(BASE.replace("difficulty: 1", "difficulty: 0").replace("\n", "\r\n").encode())
    (problem,) = _problems(bad)
    assert (problem.line, problem.column) == (5, 13)


def test_columns_count_characters_not_bytes():
    text = BASE.replace("title: Minimal drill", "title: Ünïcødé drill").replace(
        "  goal: Find the customer's open tickets.", "  goal: Trouvé: ça"
    )
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text)
    (p,) = info.value.problems
    assert (p.line, p.column) == (8, 15) and "colon" in p.message


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


def test_duplicate_keys_in_tool_payloads_are_reported_too():
    text = BASE.replace("    arguments: {customer: 42}", "    arguments: {customer: 42, customer: 43}")
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text)
    (p,) = info.value.problems
    assert (p.line, p.column) == (31, 31) and "duplicate key `customer`" in p.message


def test_a_mapping_used_as_a_key_is_a_problem():
    text = BASE.replace("    arguments: {customer: 42}", "    arguments: {[a, b]: 42}")
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text)
    (p,) = info.value.problems
    assert (p.line, p.column) == (31, 17) and "a key must be plain text" in p.message


def test_load_yaml_text_returns_the_plain_data():
    data = load_yaml_text("a: 2026-01-02\nb: [1, 2.5, no, true]\n")
    assert data == {"a": "2026-01-02", "b": [1, 2.5, "no", True]}
    with pytest.raises(DrillLoadError):
        load_yaml_text("a: 1\na: 2\n")


# -- files and limits -------------------------------------------------------------------------------------------------


def test_missing_file_and_folder_are_problems_not_tracebacks(tmp_path: Path):
    (p,) = _problems(tmp_path / "nope.yaml")
    assert str(p) == f"{tmp_path / 'nope.yaml'}:1:1: no such file"
    (p,) = _problems(tmp_path)
    assert "this is a folder, not a drill file" in p.message


def test_file_over_the_size_limit_is_refused_before_parsing(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(loader_mod, "MAX_FILE_BYTES", 1024 * 1024)
    big = tmp_path / "big.yaml"
    big.write_text("# " + "x" * (1024 * 1024) + "\n")
    (p,) = _problems(big)
    assert (p.line, p.column) == (1, 1) and "drill files are limited to 1 MiB" in p.message


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "the file is empty"),
        ("   \n\n", "the file is empty"),
        ("# only a comment\n", "the file is empty"),
        ("just some words\n", "but this one is a single value"),
        ("- 1\n- 2\n", "but this one is a list"),
        ("{", "YAML syntax error"),
    ],
)
def test_odd_documents_give_one_clear_problem(text: str, fragment: str):
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text, "odd.yaml")
    assert len(info.value.problems) == 1 and fragment in info.value.problems[0].message


def test_deep_nesting_with_the_pure_python_loader_is_a_problem(monkeypatch):
    monkeypatch.setattr(loader_mod, "_YamlLoader", yaml.SafeLoader)
    with pytest.raises(DrillLoadError) as info:
        load_drill_text("a: " + "[" * 5000 + "]" * 5000 + "\n")
    assert "nested too deeply" in str(info.value)


def test_alias_expansion_is_counted_not_performed():
    # 9 levels of 9 aliases: 387 million values if expanded; rejected after about 100,000.
    levels = "\n".join(f"l{i}: &l{i} [" + ",".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 10))
    text = "l0: &l0 [a, b, c, d, e, f, g, h, i]\n" + levels + "\n"
    with pytest.raises(DrillLoadError) as info:
        load_yaml_text(text)
    assert "billion laughs" in str(info.value)
    # Below the limit, aliases are fine: 3 levels (about 800 values) of the same shape load.
    small = "l0: &l0 [a, b, c, d, e, f, g, h, i]\n" + "\n".join(levels.splitlines()[:3]) + "\n"
    assert len(load_yaml_text(small)["l3"]) == 9


# -- robustness: mutated drills only ever raise DrillLoadError ------------------------------------------------------

_TOKENS = ["", " ", "\t", ":", "- ", "[", "]", "{", "}", '"', "'", "&a ", "*a", "!!int ", "!!float ", "!!bool ",
           "? ", "<<: ", "no", "1.10", "12:30", "~", "\n", "#", "|", ">", "%", "@", "`", ".inf", "kind: [x]",
           "{kind: 5}", "step: [s1]", "id: {a: 1}", "\x85", "\u2028", "\ufeff", "é", "\x00"]


def _check_only_problems(text: str) -> None:
    try:
        load_drill_text(text, "fuzz.yaml")
    except DrillLoadError as e:
        assert e.problems
        for p in e.problems:
            assert p.line >= 1 and p.column >= 1 and p.message


def test_text_mutations_never_escape_as_other_exceptions():
    import random

    rng = random.Random(20260527)
    big = (bundled_drills_dir() / "duplicate-charge-refunds.yaml").read_text()
    for _ in range(400):
        text = rng.choice([BASE, big])
        for _ in range(rng.randint(1, 4)):
            pos = rng.randrange(len(text))
            op = rng.random()
            if op < 0.5:
                text = text[:pos] + rng.choice(_TOKENS) + text[pos:]
            elif op < 0.8:
                text = text[:pos] + text[pos + rng.randint(1, 20) :]
            else:
                lines = text.splitlines(True)
                a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[a], lines[b] = lines[b], lines[a]
                text = "".join(lines)
        _check_only_problems(text)


def test_value_mutations_never_escape_as_other_exceptions():
    import copy
    import random

    rng = random.Random(7)
    source = load_yaml_text(BASE)
    junk = [None, 1, -1, 2.5, True, "", "s1", "e3", [], {}, [1], {"a": 1}, {"kind": "tool_call"}, {"kind": [1]},
            "tool_call", "stale", {"id": "e1", "t": 0, "kind": "log"}, "12:30"]

    def paths(d, p=()):
        if p:
            yield p
        items = d.items() if isinstance(d, dict) else enumerate(d) if isinstance(d, list) else ()
        for k, v in items:
            yield from paths(v, (*p, k))

    for _ in range(150):
        data = copy.deepcopy(source)
        for _ in range(rng.randint(1, 3)):
            p = rng.choice(list(paths(data)))
            parent = data
            for el in p[:-1]:
                parent = parent[el]
            if rng.random() < 0.7:
                parent[p[-1]] = copy.deepcopy(rng.choice(junk))
            else:
                parent.pop(p[-1])
        _check_only_problems(yaml.safe_dump(data, sort_keys=rng.random() < 0.5))


def test_an_explicit_tag_that_does_not_fit_its_value_is_a_problem():
    text = BASE.replace("      - {event: e5, amount: 1}", "      - {event: !!int e5, amount: 1}")
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text)
    (p,) = info.value.problems
    assert (p.line, p.column) == (67, 17) and "`e5` is not a valid !!int" in p.message


# -- numbers: never booleans or quoted text, and within the format's bounds ------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "where", "fragment"),
    [
        ("difficulty: 1", "difficulty: on", (5, 13), "`difficulty` must be a whole number, got `on`; `on` is text in "
         "YAML 1.2, which warroom reads (YAML 1.1 read it as the boolean true)"),
        ("difficulty: 1", "difficulty: true", (5, 13), "`difficulty` must be a whole number, got `true`"),
        ("difficulty: 1", "difficulty: '2'", (5, 13), "got the text `2`; remove the quotes to write a number"),
        ("schema_version: 1", "schema_version: yes", (2, 17), "schema_version must be 1, got `yes` (this warroom "
         "reads format version 1); `yes` is text in YAML 1.2"),
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


# -- syntax errors a new author makes in the `warroom new` skeleton -------------------------------------------------


def _skeleton_problem(edit) -> tuple[Problem, str]:
    from warroom.core.skeleton import skeleton_text

    text = skeleton_text("weekly-signups")
    edited = edit(text)
    assert edited != text
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(edited, "weekly-signups.yaml")
    (p,) = info.value.problems
    return p, edited


def test_an_unclosed_quote_points_at_the_opening_quote_not_where_yaml_gives_up():
    # YAML reads on to the next " (four lines down, in `tags`) and fails there, at 20:54.
    p, text = _skeleton_problem(lambda t: t.replace('title: "Weekly signup report"', 'title: "Weekly signup report', 1))
    line = text.splitlines().index(next(l for l in text.splitlines() if l.startswith('title: "Weekly')))
    assert (p.line, p.column) == (line + 1, 8) == (16, 8)
    assert p.message.startswith('this quoted text is never closed: add the closing " where the text ends')
    assert "on line 20, column 53" in p.message


def test_a_single_quoted_text_never_closed_is_found_too():
    text = BASE.replace("    title: Search tickets", "    title: 'Search tickets").replace(
        "    content: No open tickets.", "    content: 'No open tickets.'"
    )
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text)
    (p,) = info.value.problems
    assert (p.line, p.column) == (15, 12) and "never closed: add the closing '" in p.message


def test_a_key_indented_deeper_than_its_siblings_says_so():
    p, _ = _skeleton_problem(lambda t: t.replace("  - id: s2\n    title:", "  - id: s2\n      title:", 1))
    assert (p.line, p.column) == (44, 7)
    assert p.message == (
        "this line is indented deeper than the key `id` above it (line 43, column 5): indent `title` like `id`; "
        "if `title: ...` was meant as part of the text above, put that whole text in quotes"
    )


def test_a_deeper_key_like_line_in_text_gets_both_fixes_and_text_at_the_same_depth_the_colon_hint():
    text = BASE.replace("    content: No open tickets.", "    content: No open tickets,\n      see: the log")
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text)
    (p,) = info.value.problems
    assert (p.line, p.column) == (45, 7)
    assert "indented deeper than the key `content` above it" in p.message
    assert "put that whole text in quotes" in p.message
    flat = BASE.replace("    content: No open tickets.", "    content: No open tickets,\n      more\n      see: the log")
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(flat)
    (p,) = info.value.problems
    assert "a colon followed by a space inside unquoted text" in p.message


def test_many_type_problems_cost_one_type_walk_per_shape_and_one_key_index_per_mapping(monkeypatch):
    events = "\n".join(
        f"  - {{id: x{i}, t: 20, kind: log, source: a, content: b, level: warn}}" for i in range(2_000)
    )
    keys = "\n".join(f"  goal{i}: x" for i in range(2_000))
    text = BASE.replace("answer_key:", events + "\nanswer_key:").replace("briefing:\n", "briefing:\n" + keys + "\n")
    built = 0
    real_index = loader_mod._key_index

    def counting(node):
        nonlocal built
        built += not hasattr(node, "_warroom_keys")
        return real_index(node)

    monkeypatch.setattr(loader_mod, "_key_index", counting)
    loader_mod._walk_shape.cache_clear()
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text, "many.yaml")
    assert len(info.value.problems) == 4_000
    assert loader_mod._walk_shape.cache_info().misses < 20  # one walk per shape of path, not one per error
    assert built < 2_020  # each mapping's keys indexed at most once: not 2,000 scans of a 2,000-key mapping


@pytest.mark.parametrize(
    ("text", "where"),
    [("a: [1,", "<string>:1:7: "), ("a: b\ni", "<string>:2:2: "), ("title: x\nb: {c: d", "<string>:2:9: ")],
)
def test_a_syntax_error_at_the_end_of_a_file_without_a_final_newline_is_placed_inside_the_file(text: str, where: str):
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text)
    first = str(info.value.problems[0])
    assert first.startswith(where), first
    assert "line 2, column 1)" not in first or "\n" in text, first  # the context's position is inside too
