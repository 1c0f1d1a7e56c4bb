"""warroom.store.results._transfer's grouped refusals: lines refused for the same reason share one line of output,
grouped by
the reason's template (the session id kept apart, :class:`~warroom.store.errors.SessionReason`), so a session id
that is also a word of the reason ("a", "session", "stored") changes nothing else in it."""

from __future__ import annotations

import json
from pathlib import Path

from store_support import add_session

from warroom.store.errors import SessionReason
from warroom.store.results import ImportResult, ResultsStore, export_lines, import_lines

_INVALID = "was not stored: total: Input should be a valid integer (got '80')"


def _line(tmp_path: Path) -> dict:
    with ResultsStore(tmp_path / "src") as store:
        add_session(store, "seed", trainee="ann", total=40)
        return json.loads(next(export_lines(store)))


def test_ids_that_are_words_of_the_reason_group_with_the_others(tmp_path: Path):
    good = _line(tmp_path)
    ids = ["a", "session", "stored", "x-1"]
    lines = [json.dumps(good | {"session_id": sid, "total": "80"}) for sid in ids]
    with ResultsStore(tmp_path / "new") as store:
        result = import_lines(store, lines, "in.jsonl")
    assert result.refused == [f"in.jsonl:{n}: session {sid} {_INVALID}" for n, sid in enumerate(ids, start=1)]
    assert result.refused_grouped() == [
        f"in.jsonl:1, 2, 3, 4 (4 lines; S is each line's session id): session S {_INVALID}"
    ]


def test_a_clash_with_a_stored_id_that_is_a_word_of_the_reason(tmp_path: Path):
    """DuplicateSession names the id once and the word "session" twice: only the id's place is written S."""
    good = _line(tmp_path)
    ids = ["session", "a"]
    with ResultsStore(tmp_path / "new") as store:
        for sid in ids:  # stored under these ids by another trainee
            add_session(store, sid, trainee="bob", started_at=good["started_at"], total=10)
        result = import_lines(store, [json.dumps(good | {"session_id": sid}) for sid in ids], "in.jsonl")
        location = store.location
    [grouped] = result.refused_grouped()
    assert grouped == (
        f"in.jsonl:1, 2 (2 lines; S is each line's session id): cannot store session S (ann, {good['drill_id']}, "
        f"started {good['started_at']}) in {location}: another session is stored under this id (bob, "
        f"{good['drill_id']}, started {good['started_at']})"
    )
    assert result.refused[0].startswith("in.jsonl:1: cannot store session session (ann, ")


def test_a_reason_without_the_id_is_not_templated_and_a_single_line_keeps_its_id():
    result = ImportResult()
    result.refuse("f", 1, "not a JSON object")
    result.refuse("f", 2, SessionReason.of("a", "session ", " was not stored: a reason of a"))
    result.refuse("f", 3, "not a JSON object")
    assert result.refused_grouped() == [
        "f:1, 3 (2 lines): not a JSON object",
        "f:2: session a was not stored: a reason of a",
    ]
    reason = SessionReason.of("s", "x ", " y ", "")
    assert (reason.text, reason.template("ID")) == ("x s y s", "x ID y ID")
