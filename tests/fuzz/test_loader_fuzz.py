"""Fuzzing the drill loader: random text and bytes, and structure-aware mutations of the bundled drills.

Property: ``load_drill_text`` / ``load_drill`` return a drill or raise ``DrillLoadError`` whose every problem is at
a position inside the file with a message that never says "internal error"; never any other exception. The
``warroom validate``, ``check`` and ``cost`` commands on such a file exit 0 or 1 with no traceback.
Budgets: tests/fuzz/budget.py.

The tests after "bugs found by the fuzzer" each reach one kind of bug this fuzzer found (issue 12), now fixed;
they keep their own inputs so that a regression names its kind.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from warroom.cli import main
from warroom.core.load import DrillLoadError, load_drill

from .budget import budget
from .drill_mutations import (
    CONTROL_CHARS,
    KNOWN_BUG_SCALARS,
    ODD_BREAKS,
    ODD_CHARS,
    ODD_SCALARS,
    PLAIN_CHARS,
    keyed_event_drill,
    mutated_drill,
    probed_drill,
    yamlish_text,
)
from .properties import RAW_CONTROL, check_loader, forbidden_words

OVERFLOW_AND_BOOL = [v for values in KNOWN_BUG_SCALARS.values() for v in values]


@budget(400)
@given(st.one_of(yamlish_text(), st.text(PLAIN_CHARS, max_size=200)))
def test_random_text_loads_or_is_refused_with_positions_inside_the_file(text: str):
    check_loader(text)


@budget(60)
@given(st.one_of(st.binary(max_size=300), yamlish_text().map(lambda t: t.encode("utf-8", "surrogatepass"))))
def test_random_bytes_from_a_file_load_or_are_refused(data: bytes):
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "drill.yaml"
        path.write_bytes(data)
        try:
            load_drill(path)
        except DrillLoadError as e:
            assert e.problems
            for p in e.problems:
                assert p.path == str(path) and p.line >= 1 and p.column >= 1 and p.message.strip()
                assert not forbidden_words(p.message, data.decode("utf-8", "replace")), p


@budget(400)
@given(mutated_drill())
def test_mutated_bundled_drills_load_or_are_refused_with_positions_inside_the_file(text: str):
    check_loader(text)


@budget(100)
@given(probed_drill())
def test_a_problem_is_reported_at_its_line_and_column_whatever_odd_text_comes_before(probe: tuple[str, int, int]):
    _check_probe(probe)


def _check_probe(probe: tuple[str, int, int]) -> None:
    """The probe's ``!!python/object`` tag is reported at exactly its line and column."""
    text, line, column = probe
    error = check_loader(text)
    assert isinstance(error, DrillLoadError)
    assert any((p.line, p.column) == (line, column) and "!!python/object" in p.message for p in error.problems), (
        line, column, [str(p) for p in error.problems],
    )


COMMANDS = [("validate",), ("validate", "--format", "json"), ("check",), ("cost",)]


@budget(80)
@given(mutated_drill(), st.sampled_from(COMMANDS))
def test_commands_exit_0_or_1_with_clean_output_and_no_traceback(text: str, command: tuple[str, ...]):
    _check_command(text, command)


def _check_command(text: str, command: tuple[str, ...]) -> None:
    """``warroom COMMAND FILE`` on ``text``: exit status 0 or 1, no traceback or "internal error", no raw control
    character in the output; ``validate --format json`` prints one JSON problem object per line."""
    named = re.search(r"^id: ([a-z0-9][a-z0-9_.-]{0,60})$", text, flags=re.MULTILINE)
    with tempfile.TemporaryDirectory() as d:
        # named after the drill's id when it has one (validate wants them equal), so a valid drill can pass
        path = Path(d) / f"{named.group(1) if named else 'fuzzed'}.yaml"
        path.write_text(text, encoding="utf-8")
        result = CliRunner().invoke(main, [*command, str(path)])
    assert result.exit_code in (0, 1), (result.exit_code, result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert not forbidden_words(result.output, text), result.output
    assert not RAW_CONTROL.search(result.output), repr(result.output)
    if command[1:] == ("--format", "json"):
        for line in result.stdout.splitlines():
            problem = json.loads(line)
            keys = {"path", "line", "column", "severity", "message"}  # and a warning's rule (`validate` groups by it)
            assert keys <= set(problem) <= keys | {"rule"} and problem["line"] >= 1, problem


@budget(120)
@given(keyed_event_drill())
def test_an_odd_value_in_an_event_the_answer_key_names_is_refused_cleanly(text: str):
    check_loader(text)


@budget(40)
@given(keyed_event_drill(), st.sampled_from(COMMANDS))
def test_commands_on_an_odd_value_in_an_event_the_answer_key_names_exit_0_or_1(text: str, command: tuple[str, ...]):
    _check_command(text, command)


# -- bugs found by the fuzzer (issue 12), fixed ----------------------------------------------------------------------


@budget(40)
@given(mutated_drill(scalars=OVERFLOW_AND_BOOL), st.sampled_from(COMMANDS))
def test_overflowing_numbers_and_odd_boolean_tags_are_refused_cleanly(text: str, command: tuple[str, ...]):
    check_loader(text)
    _check_command(text, command)


@budget(60)
@given(probed_drill(chars=PLAIN_CHARS | st.sampled_from(ODD_BREAKS)))
def test_problem_positions_ignore_the_line_breaks_editors_do_not_count(probe: tuple[str, int, int]):
    _check_probe(probe)


@budget(60)
@given(mutated_drill(chars=[prefix + c for c in CONTROL_CHARS for prefix in ("", "é", "😀 ")]))
def test_a_control_character_is_reported_where_it_is(text: str):
    check_loader(text)


@budget(60)
@given(mutated_drill(), st.integers(0, 10_000))
def test_a_syntax_error_at_the_end_of_a_file_is_inside_the_file(text: str, cut: int):
    check_loader(text[: len(text) * cut // 10_000].rstrip("\n"), allow_past_end=False)


@budget(30)
@given(yamlish_text(extra_tokens=["\ud800", "\udfff", "x\udc80y"]))
def test_text_with_lone_surrogates_is_refused_cleanly(text: str):
    check_loader(text)


def test_the_mutations_cover_odd_scalars_and_the_known_bug_values_separately():
    assert not set(OVERFLOW_AND_BOOL) & set(ODD_SCALARS)
    assert not set(CONTROL_CHARS + ODD_BREAKS) & set(ODD_CHARS)
