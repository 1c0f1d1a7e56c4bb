"""Hostile and careless use of the results (issue 30, campaign 16: the day's new code of the served room and the
results): what it found and what now holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from warroom.core.load import load_drill

BUNDLED = Path(__file__).resolve().parents[2] / "drills"


def _killed_while_storing(data: Path, trainee: str, played_as: str) -> str:
    """A session of duplicate-charge-refunds played as ``played_as``, escalated before any evidence and played to its
    end, whose process died while storing it: its journal holds the end line, not stored. Returns its id."""
    from warroom.core.model import PlayedAs
    from warroom.core.play import Replay
    from warroom.core.scoring import score
    from warroom.store.journal import SessionRecorder, Trial

    path = BUNDLED / "duplicate-charge-refunds.yaml"
    rec = SessionRecorder.start(data, trainee, path, load_drill(path), trial=Trial(PlayedAs(played_as)))
    replay = Replay(rec.drill, on_action=rec.record)
    replay.advance_to(1)
    replay.escalate("s1", "too early", [])
    replay.advance_to(100_000)
    card = score(rec.drill, rec.actions)
    assert card.outcome.value == "false_alarm"
    rec._append({"type": "end", "ended_at": rec.info.started_at, "outcome": "false_alarm", "total": card.total,
                 "scorecard": card.to_dict()})  # fmt: skip
    rec.close()  # died before the store took it
    return str(rec.session_id)


@pytest.mark.parametrize(("played_as", "label"), [("signal", "early escalation"), ("noise", "false alarm")])
def test_a_recovered_escalation_before_the_evidence_reads_as_the_scores_say_it(tmp_path: Path, played_as, label):
    """Recovery (its stderr line) and the trainee's notice at their next start said "recorded as false alarm" of a
    signal trial's escalation before the fault's evidence, which `warroom scores` lists as an early escalation
    (a false alarm is an escalation on a noise trial only: docs/scoring.md, "The outcome")."""
    from warroom.store.journal import recover_unfinished, take_notices
    from warroom.store.review import default_drill_resolver

    sid = _killed_while_storing(tmp_path, "ann", played_as)
    (recovered,) = recover_unfinished(tmp_path, default_drill_resolver([BUNDLED]), shown_to="bob")
    assert recovered.stored and f"recorded as {label} (" in str(recovered)
    (notice,) = take_notices(tmp_path, "ann")
    assert f"recovered session {sid} (duplicate-charge-refunds): its warroom stopped mid-drill; recorded as {label} (" \
        in notice


def test_deleting_a_first_attempt_whose_row_cannot_be_read_still_warns_of_the_next_session(tmp_path: Path):
    """A first attempt whose action log cannot be read (written over by SQL) is still counted as the trainee's trial
    (the figures read its columns), and `scores delete` of it made their next session the counted trial, silently:
    the warning looked only at the sessions it could read whole, and the listing named neither trainee nor drill."""
    import sqlite3

    from click.testing import CliRunner

    from unit.test_forgeries import GOOD, play
    from warroom.cli import main

    first = play(tmp_path, "ann", [], mode="assessment").session_id
    second = play(tmp_path, "ann", GOOD, mode="assessment").session_id
    with sqlite3.connect(tmp_path / "results.sqlite3") as conn:
        conn.execute("UPDATE sessions SET actions = '{not json' WHERE session_id = ?", (first,))
    result = CliRunner().invoke(main, ["scores", "delete", first, "--yes", "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert f"  {first}  ann  duplicate-charge-refunds  (a stored row that cannot be read)" in result.stdout
    said = " ".join(result.stderr.split())
    assert (f"warning: {first} is the first attempt of trainee 'ann' at drill 'duplicate-charge-refunds': once it is "
            f"deleted, their next session of it, {second}, becomes the first attempt") in said


def test_another_programs_sqlite_database_at_the_stores_name_is_refused_unchanged(tmp_path: Path):
    """A ``results.sqlite3`` of another program in the data directory (``--data-dir .`` in a folder of a tool with
    a file of that name) was taken for a new store: warroom's tables, indexes and triggers were written into it
    and it was put in WAL mode, though the docs say such a file is never changed. Now it is refused, named."""
    from store_support import refused_unchanged

    said = refused_unchanged(tmp_path, "CREATE TABLE runs (id INTEGER, score REAL)", "INSERT INTO runs VALUES (1, 0.5)")
    assert said.startswith(f"the results store {tmp_path / 'results.sqlite3'} is an SQLite database of another program "
                           "(its tables: runs; no warroom schema version): warroom did not use or change it")


def test_a_store_file_that_is_a_link_into_a_folder_that_does_not_exist_says_so(tmp_path: Path):
    """A data directory whose results file is a symbolic link into a folder that is gone (a disk not mounted) said
    SQLite's "unable to open database file" alone, nothing of the link nor what to do."""
    from warroom.store.errors import StoreError
    from warroom.store.results import ResultsStore

    (tmp_path / "results.sqlite3").symlink_to(tmp_path / "gone" / "results.sqlite3")
    with pytest.raises(StoreError) as caught:
        ResultsStore(tmp_path)
    assert str(caught.value) == (f"cannot open the results store {tmp_path / 'results.sqlite3'}: a symbolic link to "
                                 f"{tmp_path / 'gone' / 'results.sqlite3'}, which does not exist: point it at a file "
                                 "or remove it")
