"""The drill loader: every malformed drill in tests/malformed/ gives its exact line:col and an actionable message;
all problems of a file are reported together; valid drills load and round-trip. The rest of the loader's tests:
test_loader_values.py (what YAML values become, numbers), test_loader_limits.py (files, limits, robustness),
test_loader_syntax.py (syntax errors), test_loader_yaml12.py (YAML 1.2 meanings, warnings)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from malformed_cases import BASE, EXPECTED, MALFORMED

from warroom.core.library import bundled_drills_dir, find_drill_files
from warroom.core.load import DrillLoadError, Problem, load_drill, load_drill_text
from warroom.core.load._yaml import pos as yamlpos

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
    # a bad `after` blocks the deadline rule (no second problem about a deadline computed from it)
    "negative-deadline-after": (1, ["147 is fixed: the deadline comes at or after", "above are fixed: format 2 refer"]),
    # a rule waiting for a whole trace event names the line of that event's problem (the `t`), not the event's
    "negative-time-of-first-event": (1, ["38 is fixed: the fault's origin step", "above are fixed: format 2 refer"]),
}


@pytest.mark.parametrize("name", sorted(EXACT_COUNTS))
def test_problem_counts_and_rules_not_checked(name: str):
    count, notes = EXACT_COUNTS[name]
    with pytest.raises(DrillLoadError) as info:
        load_drill(MALFORMED / f"{name}.yaml")
    assert len(info.value.problems) == count, "\n".join(map(str, info.value.problems))
    assert len(info.value.blocked) == len(notes)
    for note, fragment in zip(info.value.blocked, notes, strict=True):
        # a rule waiting for one value names that value's line; the format-2 references wait for the whole drill
        assert note.startswith(f"{MALFORMED / name}.yaml: not checked until the problem") and fragment in note


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
    monkeypatch.setattr(yamlpos, "_YamlLoader", yaml.SafeLoader)
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
    text = BASE.replace("    step: s2\n    kind: log", "    step: s7\n    kind: log")
    text = text.replace("  cascade: [s2]", "  cascade: [s8]")
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
