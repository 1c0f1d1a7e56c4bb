"""The loader's YAML reading: YAML 1.2 core-schema meanings, free text and tool data kept as written, warnings
where other YAML readers disagree or a ` #` comment cuts text, line numbers as editors count them, %YAML
directives, positions through aliases. The warnings corpus is tests/warnings/ (each file loads, with warnings)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from locations import WARNINGS
from malformed_cases import BASE

from warroom.cli import main
from warroom.core.author import skeleton_text
from warroom.core.library import bundled_drills_dir, find_drill_files
from warroom.core.load import DrillLoadError, load_drill_text, load_drill_with_warnings, load_yaml_text
from warroom.core.load._loader import load_drill_text_with_warnings
from warroom.core.load._yaml import pos as yamlpos

WARNINGS = WARNINGS

#: Each drill of tests/warnings (file stem) -> (line, column, fragment) of a warning it must give; it must load.
EXPECTED_WARNINGS: dict[str, tuple[int, int, str]] = {
    "bool-word-in-text": (4, 8, '`no` in free text is read as the text "no", but YAML 1.1 reads it as the boolean '
                          'false: write "no" in quotes so that every YAML reader agrees'),
    "float-in-text": (18, 12, '`1.10` in free text is read as the text "1.10", as written, but YAML 1.1 and 1.2 read '
                      "it as the number 1.1"),
    "sexagesimal-in-text": (49, 14, "`12:30` in free text is read as the text \"12:30\", but YAML 1.1 reads it as the "
                            "base-60 number 750"),
    "comment-cuts-title": (4, 8, "the text stops before `#ar-team`: an unquoted ` #` starts a comment, so this is "
                           '`Report to`; if the rest belongs to the text, put it all in quotes: "Report to #ar-team"'),
    "comment-cuts-objective": (19, 16, "so this is `A summary posted to`"),
    "comment-cuts-tool-data": (40, 13, '"see #ops-alerts for the limits"'),
    "yaml11-words-in-tool-data": (38, 74, '`off` in tool data is read as the text "off", but YAML 1.1 reads it as the '
                                  "boolean false"),
    "leading-zero-in-tool-data": (31, 36, '`04413` in tool data is read as the text "04413", as written, but YAML 1.1 '
                                  "reads it as the octal number 2,315, YAML 1.2 reads it as the number 4413"),
}


def test_every_warnings_file_has_an_expectation():
    assert {p.stem for p in WARNINGS.glob("*.yaml")} == set(EXPECTED_WARNINGS)


@pytest.mark.parametrize("name", sorted(EXPECTED_WARNINGS))
def test_warnings_file_loads_and_warns_at_the_value(name: str, monkeypatch):
    line, column, fragment = EXPECTED_WARNINGS[name]
    path = WARNINGS / f"{name}.yaml"
    _, warnings = load_drill_with_warnings(path)
    assert any((w.line, w.column) == (line, column) and fragment in w.message for w in warnings), warnings
    for w in warnings:
        assert w.severity == "warning" and str(w).startswith(f"{path}:{w.line}:{w.column}: warning: ")
    monkeypatch.setattr(yamlpos, "_YamlLoader", yaml.SafeLoader)
    assert load_drill_with_warnings(path)[1] == warnings


def test_validate_prints_warnings_keeps_exit_0_and_gives_json_a_severity():
    result = CliRunner().invoke(main, ["validate", str(WARNINGS)], catch_exceptions=False)
    assert result.exit_code == 0
    lines = result.output.splitlines()
    for name, (line, column, fragment) in EXPECTED_WARNINGS.items():
        start = f"{WARNINGS / name}.yaml:{line}:{column}: warning: "
        assert any(ln.startswith(start) and fragment in ln for ln in lines), start
    n_warnings = sum(1 for ln in lines if ": warning: " in ln)
    n = len(EXPECTED_WARNINGS)
    assert lines[-1] == f"{n} drills checked: {n} valid, 0 invalid ({n_warnings} warnings)"
    result = CliRunner().invoke(main, ["validate", "--format", "json", str(WARNINGS / "comment-cuts-title.yaml")])
    assert result.exit_code == 0
    (obj,) = [json.loads(ln) for ln in result.stdout.splitlines()]
    assert obj["severity"] == "warning" and (obj["line"], obj["column"]) == (4, 8)


def test_a_file_with_errors_and_warnings_lists_both_in_order():
    text = BASE.replace("title: Minimal drill", "title: Report to #ar-team").replace("difficulty: 1", "difficulty: 9")
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text)
    assert [(p.line, p.severity) for p in info.value.problems] == [(5, "error")]
    assert [(p.line, p.severity) for p in info.value.warnings] == [(4, "warning")]


@pytest.mark.parametrize("path", find_drill_files([bundled_drills_dir()]), ids=lambda p: p.stem)
def test_bundled_drills_lose_no_text_and_give_no_warning(path: Path):
    assert load_drill_with_warnings(path)[1] == []


def test_the_skeleton_of_warroom_new_gives_no_warning():
    assert load_drill_text_with_warnings(skeleton_text("weekly-signups"))[1] == []


def test_bundled_texts_with_a_hash_are_kept_whole():
    drill, _ = load_drill_with_warnings(bundled_drills_dir() / "clickstream-backfill.yaml")
    assert drill.step("s5").objective.endswith("a summary posted to #analytics.")


# -- YAML 1.2 meanings ---------------------------------------------------------------------------------------------


def test_tool_data_reaches_the_trainee_as_written():
    text = BASE.replace(
        "    output: {error: rate limited, tickets: []}",
        "    output: {country: NO, pickup_cutoff: 12:30, wms_version: 1.10, dock: off, zip: 04413, n: 1_150, "
        "d: 1:30, h: 0x1F, plus: +5, money: 48391.40, ok: true, t: True, x: 2.5, lr: 3.0e-5, small: 0.00003, "
        "big: 1e3, count: 42, neg: -3, none: ~, nul: null, day: 2026-11-19, y: yes, inf: .inf}",
    )
    drill = load_drill_text(text)
    assert drill.trace[2].output == {
        "country": "NO", "pickup_cutoff": "12:30", "wms_version": "1.10", "dock": "off", "zip": "04413",
        "n": "1_150", "d": "1:30", "h": "0x1F", "plus": "+5", "money": "48391.40", "ok": True, "t": True, "x": 2.5,
        "lr": 3e-05, "small": 3e-05, "big": 1000.0, "count": 42, "neg": -3, "none": None, "nul": None,
        "day": "2026-11-19", "y": "yes", "inf": ".inf",
    }


def test_free_text_is_taken_as_written_whatever_yaml_makes_of_it():
    text = (
        BASE.replace("title: Minimal drill", "title: 1.10")
        .replace("    title: Search tickets", "    title: true")
        .replace("    objective: A summary names every open ticket.", "    objective: 12:30")
        .replace("difficulty: 1", "difficulty: 1\ntags: [no, 2.50, 0x1F]")
    )
    drill, warnings = load_drill_text_with_warnings(text)
    assert (drill.title, drill.plan[0].title, drill.plan[1].objective) == ("1.10", "true", "12:30")
    assert drill.tags == ["no", "2.50", "0x1F"]
    assert len(warnings) == 6


def test_yaml_1_2_forms_of_numbers_are_numbers_in_number_fields():
    text = BASE.replace("  deadline: 12", "  deadline: 1.2e1").replace("input_tokens: 3000", "input_tokens: 0xBB8")
    drill, warnings = load_drill_text_with_warnings(text)
    assert drill.answer_key.deadline == 12.0 and drill.trace[0].usage.input_tokens == 3000
    assert warnings == []


def test_load_yaml_text_reads_yaml_1_2():
    assert load_yaml_text("a: [yes, no, on, off, y, n, True, FALSE, ~, Null]\n")["a"] == [
        "yes", "no", "on", "off", "y", "n", True, False, None, None
    ]


def test_an_explicit_str_tag_keeps_text_without_a_warning():
    text = BASE.replace("    output: {error: rate limited, tickets: []}", "    output: {v: !!str 1.10, w: '1.10'}")
    drill, warnings = load_drill_text_with_warnings(text)
    assert drill.trace[2].output == {"v": "1.10", "w": "1.10"} and warnings == []


def test_a_comment_after_a_number_or_an_id_is_an_ordinary_comment():
    text = BASE.replace("difficulty: 1", "difficulty: 1  # easy").replace("  - id: s1", "  - id: s1  # the search")
    assert load_drill_text_with_warnings(text)[1] == []


# -- directives -----------------------------------------------------------------------------------------------------


def test_a_yaml_1_2_directive_is_accepted_and_honoured():
    text = "%YAML 1.2\n---\n" + BASE.split("\n", 1)[1].replace("title: Minimal drill", "title: yes")
    drill, warnings = load_drill_text_with_warnings(text)
    assert drill.title == "yes" and drill.difficulty == 1
    assert [(w.line, w.column) for w in warnings] == [(5, 8)]


def test_a_directive_after_comments_is_found_and_a_percent_in_text_is_not_one():
    with pytest.raises(DrillLoadError) as info:
        load_drill_text("# a drill\n\n%YAML 1.1\n---\n" + BASE)
    assert [(p.line, p.column) for p in info.value.problems] == [(3, 1)]
    text = BASE.replace("  goal: Find the customer's open tickets.", "  goal: |-\n    %YAML 1.1 is old")
    assert text != BASE
    assert load_drill_text(text).briefing.goal == "%YAML 1.1 is old"


# -- line numbers as editors count them ----------------------------------------------------------------------------


@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\x85"])
def test_unusual_line_separators_are_characters_not_line_breaks(char: str):
    # VS Code (and YAML 1.2) break lines at LF, CRLF and a lone CR only; U+2028, U+2029 and U+0085 stay in the text.
    text = BASE.replace("title: Minimal drill", f"title: Minimal{char}drill").replace("difficulty: 1", "difficulty: 9")
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text)
    (p,) = info.value.problems
    assert (p.line, p.column) == (5, 13)
    assert load_drill_text(BASE.replace("title: Minimal drill", f"title: Minimal{char}drill")).title == (
        f"Minimal{char}drill"
    )


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_lf_crlf_and_a_lone_cr_each_end_a_line(newline: str):
    text = BASE.replace("difficulty: 1", "difficulty: 9").replace("\n", newline)
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text)
    (p,) = info.value.problems
    assert (p.line, p.column) == (5, 13)


def test_a_stray_cr_counts_as_a_line_break_as_in_editors():
    text = BASE.replace("# Malformed", "# a comment\r# Malformed", 1).replace("difficulty: 1", "difficulty: 9")
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text)
    # The CR splits the first line in two, as VS Code shows it: the difficulty moves from line 5 to line 6.
    assert [(p.line, p.column) for p in info.value.problems] == [(6, 13)]


def test_a_control_character_after_a_lone_cr_is_placed_by_lines_and_columns_as_editors_show_them():
    text = BASE.replace("title: Minimal drill", "title: Minimal\rdr\x1bill")
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text)
    (p,) = info.value.problems
    assert (p.line, p.column) == (5, 3)


# -- aliases --------------------------------------------------------------------------------------------------------


def test_a_problem_reached_through_an_alias_is_reported_at_the_alias():
    text = BASE.replace(
        "    usage: {input_tokens: 3000, output_tokens: 800}",
        "    usage: &u {input_tokens: 3000, output_tokens: 800}",
    ).replace("      content: Retry s1 after the rate limit clears.", "      content: Retry s1.\n      usage: *u")
    assert load_drill_text(text).answer_key.replan[0].usage.input_tokens == 3000
    bad = text.replace("{input_tokens: 3000,", "{input_tokens: -1,")
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(bad)
    # once at the anchor (the trace event's own usage), once where the alias uses it (the re-plan event)
    assert sorted((p.line, p.column) for p in info.value.problems) == [(25, 30), (75, 14)]


# -- the whole kind: odd scalars anywhere give problems, never another exception ---------------------------------------

_ODD_SCALARS = [
    "1e400", "-1e400", "2E308", ".NaN", "-.inf", "+.inf", "!!bool maybe", "!!bool yes", "!!int x", "!!int 1.5",
    "!!int 1e400", "!!float x", "!!float 1e400", "!!float 0x10", "!!null x", "!!timestamp x", "!!seq x", "!!map x",
    "!!binary x", "!!set x", "!!merge x", "!!python/name:os.system", "!<tag:yaml.org,2002:int> 5", "!local x",
    "9" * 5000, "-" + "9" * 5000, "0x" + "f" * 5000, "0o" + "7" * 5000, "1" + "0" * 400 + ".5",
    "04413", "09", "1:30", "1_150", "0b101", "=", "<<", "~", "", "null", "[]", "{}", "'\\x1b'", '"\\x1b[31m"',
    '"\\u202e"', "1.7976931348623157e308", "4.9e-324", "-0", "-0.0", "0x8000000000000000", "yes", "Off", "y",
]
_KEYS = [
    "schema_version", "id", "title", "difficulty", "goal", "objective", "t", "step",
    "kind", "content", "tool", "call", "status", "source", "level", "origin_step", "summary", "unit", "deadline",
    "debrief", "event", "why_harmless",
]


@pytest.mark.parametrize("key", _KEYS)
def test_odd_scalars_at_any_key_give_problems_with_positions_never_another_exception(key: str):
    lines = BASE.split("\n")
    where = next(i for i, ln in enumerate(lines) if re.match(rf"\s*(- )?{key}: \S", ln) and "{" not in ln)
    prefix = re.match(rf"(\s*(?:- )?{key}: )", lines[where]).group(1)
    for form in _ODD_SCALARS:
        text = "\n".join([*lines[:where], prefix + form, *lines[where + 1 :]])
        try:
            load_drill_text_with_warnings(text, "odd.yaml")
        except DrillLoadError as e:
            for p in e.problems:
                assert p.line >= 1 and p.column >= 1 and "internal" not in p.message, (form, str(p))


@pytest.mark.parametrize("form", _ODD_SCALARS)
def test_odd_scalars_in_flow_mappings_give_problems_never_another_exception(form: str):
    for old in ("input_tokens: 3000", "output_tokens: 800}", "amount: 1}", "customer: 42}", "tickets: []}", "name: big",
                "input_usd_per_mtok: 5,"):
        key = old.split(":")[0]
        new = f"{key}: {form}{old[-1]}" if old[-1] in "}," else f"{key}: {form}"
        try:
            load_drill_text_with_warnings(BASE.replace(old, new, 1), "odd.yaml")
        except DrillLoadError as e:
            assert e.problems and all(p.line >= 1 and "internal" not in p.message for p in e.problems)


@pytest.mark.parametrize(
    ("output", "where"),
    [("{tickets: [], retry}", (38, 27)), ("{retry, tickets: []}", (38, 14))],
)
def test_a_flow_mapping_entry_without_a_colon_is_a_problem_not_a_silent_null(output: str, where: tuple[int, int]):
    text = BASE.replace("    output: {error: rate limited, tickets: []}", f"    output: {output}")
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text)
    (p,) = info.value.problems
    assert (p.line, p.column) == where
    assert p.message.startswith("`retry` has no value: inside {...} each entry is `key: value`")
    fine = BASE.replace("    output: {error: rate limited, tickets: []}", "    output: {a: 1, b: }")
    assert load_drill_text(fine).trace[2].output == {"a": 1, "b": None}


def test_a_problem_in_a_merged_mapping_is_reported_at_the_merge_alias():
    text = BASE.replace(
        "    usage: {input_tokens: 3000, output_tokens: 800}",
        "    usage: &u {input_tokens: 3000, output_tokens: 800}",
    ).replace(
        "      content: Retry s1 after the rate limit clears.",
        "      content: Retry s1.\n      usage:\n        <<: *u\n        estimated: true",
    )
    assert load_drill_text(text).answer_key.replan[0].usage.input_tokens == 3000
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text.replace("{input_tokens: 3000,", "{input_tokens: -1,"))
    # at the anchor (the trace event's own usage) and at `<<: *u` (line 76, column 13), where the re-plan uses it
    assert sorted((p.line, p.column) for p in info.value.problems) == [(25, 30), (76, 13)]


def test_an_unpaired_surrogate_in_text_given_as_a_str_is_a_problem(monkeypatch):
    text = BASE.replace("title: Minimal drill", "title: Minimal \ud800 drill")
    for base in (yaml.CSafeLoader, yaml.SafeLoader):
        monkeypatch.setattr(yamlpos, "_YamlLoader", base)
        with pytest.raises(DrillLoadError) as info:
            load_drill_text(text)
        (p,) = info.value.problems
        assert (p.line, p.column) == (4, 16) and p.message.startswith("an unpaired surrogate (U+D800)")


def test_stand_ins_for_unusual_breaks_never_collide_with_private_use_characters_in_the_text():
    used = "".join(chr(cp) for cp in range(0xE000, 0xE010))
    text = BASE.replace("title: Minimal drill", f"title: {used}\u2028{used}")
    assert load_drill_text(text).title == f"{used}\u2028{used}"


def test_a_byte_that_is_not_utf8_after_a_lone_cr_is_placed_as_editors_show_it(tmp_path: Path):
    from warroom.core.load import load_drill

    f = tmp_path / "cr.yaml"
    f.write_bytes(b"# one\r# two\r\ntitle: caf\xe9\n")
    with pytest.raises(DrillLoadError) as info:
        load_drill(f)
    (p,) = info.value.problems
    assert (p.line, p.column) == (3, 11) and "not UTF-8" in p.message


@pytest.mark.parametrize("cut", ["1,840 subscribers told", "2.5, then 3", "no, never"])
def test_the_text_a_comma_cut_in_a_flow_mapping_gets_the_error_and_no_warning_of_its_own(cut: str):
    """`note: 1,840 subscribers` is cut into `1` and a key `840 subscribers`: the error says to quote the whole
    text; a warning to quote the `1` alone would tell the author to do the wrong thing."""
    text = BASE.replace("{event: e5, amount: 1}", f"{{event: e5, amount: 1, note: {cut}}}")
    assert text != BASE
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text)
    (problem,) = info.value.problems
    assert f'put text with a comma in quotes: "{cut}"' in problem.message
    assert info.value.warnings == []
