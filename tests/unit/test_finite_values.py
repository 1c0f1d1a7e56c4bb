"""Every number in every model is finite and in range, and no journal line or note is unbounded (issue 30, item 6):
a trainee action, a journal line, a scorecard and a stored row; one bad stored value never breaks ``warroom scores
--format json`` for the whole store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError
from scores_support import run
from store_support import add_session, scorecard

from warroom.core.model import Action, ActionKind
from warroom.core.scoring import Scorecard
from warroom.store.journal import _file as journal_file
from warroom.store.journal import read_journal, recover_unfinished
from warroom.store.results import ResultsStore, strict_json

START = {
    "type": "start", "format": 1, "session_id": "20260101-000000-abcd", "trainee": "ann",
    "drill_id": "duplicate-charge-refunds", "drill_version": 1, "drill_sha256": None, "drill_path": None,
    "all_clear": False, "scoring_version": None, "started_at": "2026-01-01T00:00:00+00:00", "mode": "practice",
    "set_id": None, "seed": None, "pid": 1,
}  # fmt: skip


def journal(data_dir: Path, *lines: str) -> Path:
    path = data_dir / "journals" / f"{START['session_id']}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join([json.dumps(START), *lines]) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "fields",
    [
        {"t": 1.0, "kind": "speed", "speed": float("inf")},
        {"t": 1.0, "kind": "speed", "speed": float("nan")},
        {"t": 1.0, "kind": "speed", "speed": 1e9},
        {"t": float("inf"), "kind": "pause"},
        {"t": float("nan"), "kind": "pause"},
        {"t": 3e6, "kind": "pause"},
        {"t": 1.0, "kind": "flag", "event": "e01", "note": "x" * 2_001},
        {"t": 1.0, "kind": "inspect", "event": "e" * 201},
        {"t": 1.0, "kind": "escalate", "step": "s1", "cites": ["e01"] * 1_001},
    ],
    ids=["speed-inf", "speed-nan", "speed-huge", "t-inf", "t-nan", "t-huge", "long-note", "long-id", "many-cites"],
)
def test_an_action_refuses_numbers_out_of_range_and_unbounded_text(fields: dict):
    with pytest.raises(ValidationError):
        Action.model_validate(fields)


@pytest.mark.parametrize(
    "fields",
    [
        {"t": True, "kind": "quit"},
        {"t": "12", "kind": "pause"},
        {"t": "12.5", "kind": "escalate", "step": "s1"},
        {"t": 1.0, "kind": "speed", "speed": True},
        {"t": 1.0, "kind": "speed", "speed": "2"},
    ],
    ids=["t-true", "t-text", "t-text-escalate", "speed-true", "speed-text"],
)
def test_an_action_refuses_a_boolean_or_text_where_a_number_goes(fields: dict):
    """A journal or action log holding ``"t": true`` or ``"t": "12"`` is refused (the mutation fuzz campaign): it
    was read as an action at 1 s or 12 s, scored and stored as such."""
    with pytest.raises(ValidationError, match="valid number"):
        Action.model_validate(fields)
    assert Action.model_validate({**fields, "t": 12, **({"speed": 2} if "speed" in fields else {})}).t == 12.0


def test_a_journal_action_whose_time_is_true_is_a_corrupt_line_not_an_action_at_1_s(tmp_path: Path):
    path = journal(
        tmp_path,
        '{"type":"action","seq":1,"at":"2026-01-01T00:00:01+00:00","action":{"t":true,"kind":"inspect","event":"e01"}}',
        '{"type":"action","seq":2,"at":"2026-01-01T00:00:02+00:00","action":{"t":"3","kind":"inspect","event":"e02"}}',
        '{"type":"action","seq":3,"at":"2026-01-01T00:00:03+00:00","action":{"t":4,"kind":"inspect","event":"e02"}}',
    )
    contents = read_journal(path)
    assert [(a.t, a.event) for a in contents.actions] == [(4.0, "e02")]
    assert [p.line for p in contents.problems] == [2, 3]


def test_the_largest_action_values_the_war_room_writes_are_accepted():
    Action(t=2_000_000.0, kind=ActionKind.SPEED, speed=32.0)
    Action(t=1.0, kind=ActionKind.FLAG, event="e01", note="n" * 2_000)


@pytest.mark.parametrize("text", ["Infinity", "-Infinity", "NaN", "1e999", '{"a": [1e400]}'])
def test_strict_json_refuses_what_json_itself_refuses(text: str):
    with pytest.raises(ValueError):
        strict_json(text)


def test_a_journal_action_with_an_infinite_speed_is_a_corrupt_line_and_the_session_exports(tmp_path: Path):
    path = journal(
        tmp_path,
        '{"type":"action","seq":1,"at":"2026-01-01T00:00:01+00:00","action":{"t":1.0,"kind":"speed","speed":Infinity}}',
        '{"type":"action","seq":2,"at":"2026-01-01T00:00:02+00:00","action":{"t":1e999,"kind":"pause"}}',
        '{"type":"action","seq":3,"at":"2026-01-01T00:00:03+00:00","action":{"t":4.0,"kind":"inspect","event":"e02"}}',
    )
    contents = read_journal(path)
    assert [a.kind for a in contents.actions] == ["inspect"]
    assert [p.line for p in contents.problems] == [2, 3]
    assert all("corrupt" in p.message for p in contents.problems)
    (rec,) = recover_unfinished(tmp_path)
    assert rec.stored
    result = run(tmp_path, "--format", "json")
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)
    assert [a["kind"] for a in row["actions"]] == ["inspect", "quit"]


def test_an_over_long_journal_line_is_skipped_and_an_over_large_journal_is_not_read(tmp_path: Path, monkeypatch):
    note = "x" * 5_000
    path = journal(
        tmp_path,
        json.dumps({"type": "action", "seq": 1, "at": "2026-01-01T00:00:01+00:00",
                    "action": {"t": 1.0, "kind": "flag", "event": "e02", "note": note}}),
        '{"type":"action","seq":2,"at":"2026-01-01T00:00:02+00:00","action":{"t":4.0,"kind":"inspect","event":"e02"}}',
    )  # fmt: skip
    contents = read_journal(path)
    assert [a.kind for a in contents.actions] == ["inspect"]  # the 5,000-character note does not validate
    monkeypatch.setattr(journal_file, "MAX_LINE_BYTES", 1_000)
    (problem,) = read_journal(path).problems
    assert problem.line == 2 and "longer than 1,000 bytes" in problem.message
    monkeypatch.setattr(journal_file, "MAX_JOURNAL_BYTES", 1_000)
    with pytest.raises(journal_file.JournalError, match="over the limit of 1,000"):
        read_journal(path)


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("actions", '[{"t": 1.0, "kind": "speed", "speed": Infinity}]'),
        ("actions", '[{"t": 1e999, "kind": "pause"}]'),
        ("scorecard", None),  # filled below: a scorecard whose damage is Infinity
        ("notes", '["fine", NaN]'),
    ],
    ids=["action-speed-infinity", "action-t-overflow", "scorecard-infinity", "notes-nan"],
)
def test_one_bad_stored_value_never_breaks_the_json_export_of_the_whole_store(tmp_path: Path, column, value):
    with ResultsStore(tmp_path) as store:
        add_session(store, "good", trainee="ann")
        add_session(store, "bad", trainee="bob")
        if value is None:
            card = json.dumps(scorecard().to_dict()).replace('"damage": 0.0', '"damage": Infinity')
            assert "Infinity" in card
            value = card
        store.db.conn.execute(f"UPDATE sessions SET {column} = ? WHERE session_id = 'bad'", (value,))
    for _ in range(2):  # every time, not only the first
        result = run(tmp_path, "--format", "json")
        assert result.exit_code == 1, result.output
        rows = json.loads(result.stdout)
        assert [r["session_id"] for r in rows] == ["good"]
        assert "stored session bad cannot be read" in result.stderr


def test_a_scorecard_with_a_number_out_of_range_is_refused():
    d = scorecard().to_dict()
    for key, value in (("damage", float("inf")), ("cost_usd", float("nan")), ("first_evidence_at", 1e300)):
        with pytest.raises(ValueError, match="out of range"):
            Scorecard.from_dict({**d, key: value})
    components = [{**d["components"][0], "points": 10**400}]
    with pytest.raises(ValueError, match="out of range"):
        Scorecard.from_dict({**d, "components": components})
    assert Scorecard.from_dict(d) == scorecard()
