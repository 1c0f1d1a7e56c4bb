"""Fuzzing the session journal reader and session recovery with damaged copies of a real journal.

Properties: ``read_journal`` returns the journal's contents or raises ``JournalError``, and never loses a
well-formed action line (``journal_mutations.expected_actions`` states the contract independently of the reader);
``recover_unfinished`` never raises on a usable store, keeps the journal byte for byte (in ``done/``,
``unreadable/`` or in place), and a session it says it stored is in the store with every well-formed action and
can be listed by ``warroom scores``. Budgets: tests/fuzz/budget.py.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from warroom.cli import main
from warroom.store.journal import JournalError, read_journal, recover_unfinished
from warroom.store.results import ResultsStore

from .budget import budget
from .journal_mutations import (
    DEEP_LINE,
    DRILL_ID,
    HUGE_TIME_LINES,
    LINE_OPS,
    ODD_LINES,
    damaged_journal,
    drill_path,
    expected_actions,
    random_action_journal,
    real_journal,
)
from .properties import FORBIDDEN_WORDS, RAW_CONTROL

JOURNAL_NAME = "20261130-120000-abcd.jsonl"


def check_reader(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / JOURNAL_NAME
        path.write_bytes(data)
        expected = expected_actions(data)
        try:
            contents = read_journal(path)
        except JournalError as e:
            assert expected is None, f"{e}, but the journal has a start line"
            assert str(e).strip()
            return
    assert expected is not None, "read a journal that has no start line first"
    assert contents.actions == expected
    n_lines = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
    for p in contents.problems:
        assert 1 <= p.line <= n_lines and p.message.strip(), p
        assert not p.truncated or p.line == n_lines, p


def resolver(drill_id: str, _recorded_path: str | None) -> Path:
    if drill_id != DRILL_ID:
        raise FileNotFoundError(f"no drill {drill_id!r}")
    return drill_path()


def check_recovery(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as d:
        data_dir = Path(d)
        journal = data_dir / "journals" / JOURNAL_NAME
        journal.parent.mkdir()
        journal.write_bytes(data)
        expected = expected_actions(data)
        (rec,) = recover_unfinished(data_dir, resolver)
        assert rec.journal.read_bytes() == data, "the journal was not kept byte for byte"
        kept = [p for p in (data_dir / "journals").rglob("*.jsonl") if p.read_bytes() == data]
        assert kept == [rec.journal]
        if not rec.stored:
            assert rec.error and rec.error.strip()
            assert rec.journal.parent.name != "done"
            if expected is None:
                assert rec.journal.parent.name == "unreadable"
            return
        assert expected is not None and rec.journal.parent.name == "done"
        with ResultsStore(data_dir) as store:
            stored = store.get(rec.session_id)
        assert stored.actions[: len(expected)] == expected and len(stored.actions) <= len(expected) + 1
        for fmt in ("table", "json"):
            result = CliRunner().invoke(main, ["--data-dir", str(data_dir), "scores", "--format", fmt])
            assert result.exit_code == 0 and result.exception is None, (result.output, result.exception)
            assert rec.session_id in result.output
            assert not any(w in result.output for w in FORBIDDEN_WORDS)
            assert not RAW_CONTROL.search(result.output), repr(result.output)


def test_the_real_journal_reads_and_recovers_whole():
    data = real_journal()
    assert len(expected_actions(data)) == 7
    check_reader(data)
    check_recovery(data)


@budget(300)
@given(damaged_journal())
def test_reading_a_damaged_journal_never_loses_a_well_formed_action(data: bytes):
    check_reader(data)


@budget(60)
@given(damaged_journal(ops=LINE_OPS))
def test_recovering_a_damaged_journal_keeps_it_and_stores_every_well_formed_action(data: bytes):
    check_recovery(data)


@budget(30)
@given(random_action_journal())
def test_recovering_a_journal_of_random_actions_keeps_it_and_never_raises(data: bytes):
    check_recovery(data)


# -- bugs found by the fuzzer (issue 12) ---------------------------------------------------------------------------


@budget(60)
@given(damaged_journal(odd_lines=ODD_LINES + HUGE_TIME_LINES))
def test_recovering_a_journal_with_corrupt_values_keeps_it_and_never_raises(data: bytes):
    check_recovery(data)


@budget(10)
@given(damaged_journal(odd_lines=[DEEP_LINE], ops=("insert", "replace")))
def test_reading_a_journal_with_a_deeply_nested_line_reports_it(data: bytes):
    check_reader(data)


@budget(20)
@given(
    st.sampled_from(["trainee", "drill_id", "session_id"]),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=12),
)
def test_recovery_messages_show_journal_text_without_terminal_escapes(key: str, value: str):
    start = json.loads(real_journal().split(b"\n")[0])
    start[key] = value
    data = json.dumps(start).encode() + b"\n" + real_journal().split(b"\n", 1)[1]
    with tempfile.TemporaryDirectory() as d:
        journal = Path(d) / "journals" / JOURNAL_NAME
        journal.parent.mkdir()
        journal.write_bytes(data)
        result = CliRunner().invoke(main, ["--data-dir", d, "--drills", str(drill_path().parent), "scores"])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert not any(w in result.output for w in FORBIDDEN_WORDS), result.output
    assert not RAW_CONTROL.search(result.output), repr(result.output)
