"""Helpers shared by the store tests (test_journal, test_results, test_scores_cli, test_review)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from warroom.core.library import bundled_drills_dir
from warroom.core.scoring import Scorecard
from warroom.store.results import ResultsStore, SessionInfo

DRILL_ID = "duplicate-charge-refunds"


def bundled_drill_path() -> Path:
    return bundled_drills_dir() / f"{DRILL_ID}.yaml"


def copy_drill(dest_dir: Path, new_id: str | None = None) -> Path:
    """A private copy of the bundled drill (tests may edit it to simulate a changed drill file), with its id
    changed to ``new_id`` if given (so the bundled library cannot stand in for it)."""
    dest_dir.mkdir(parents=True, exist_ok=True)
    dest = dest_dir / f"{new_id or DRILL_ID}.yaml"
    shutil.copyfile(bundled_drill_path(), dest)
    if new_id:
        text = dest.read_text()
        assert f"\nid: {DRILL_ID}\n" in text
        dest.write_text(text.replace(f"\nid: {DRILL_ID}\n", f"\nid: {new_id}\n"))
    return dest


def load(path: Path) -> Any:
    from warroom.store.review import load_drill_file

    return load_drill_file(path)


def scorecard(
    outcome: str = "contained",
    total: int = 80,
    ttd: float | None = 5.0,
    damage: float = 0.0,
    false_escalations: int = 0,
    drill_id: str = DRILL_ID,
    damage_unit: str = "USD refunded in error",
) -> Scorecard:
    """A hand-made :class:`Scorecard` (not computed from a drill: the store only keeps it)."""
    return Scorecard.from_dict({
        "drill_id": drill_id,
        "scoring_version": "test",
        "outcome": outcome,
        "outcome_text": f"The session ended {outcome}.",
        "total": total,
        "components": [{"name": "outcome", "points": total, "max_points": 100, "explanation": "test"}],
        "time_to_detect": ttd,
        "damage": damage,
        "full_damage": 14021.0,
        "damage_unit": damage_unit,
        "false_escalations": false_escalations,
        "cost_usd": 0.05,
        "lines": [f"{outcome}: {total}/100"],
    })


def add_session(
    store: ResultsStore,
    session_id: str,
    *,
    trainee: str,
    drill_id: str = DRILL_ID,
    started_at: str = "2026-11-01T10:00:00.000000+00:00",
    all_clear: bool = False,
    actions: list[Any] = (),  # type: ignore[assignment]
    drill_path: str | None = None,
    drill_sha256: str | None = None,
    **card: Any,
) -> None:
    info = SessionInfo(
        session_id=session_id,
        trainee=trainee,
        drill_id=drill_id,
        drill_version=1,
        drill_sha256=drill_sha256,
        drill_path=drill_path,
        started_at=started_at,
        all_clear=all_clear,
    )
    insert_literally(store, info, scorecard(drill_id=drill_id, **card), list(actions), ended_at=started_at)


def insert_literally(store: ResultsStore, info: SessionInfo, card: Scorecard, actions: list[Any], **kw: Any) -> None:
    """``store.insert``, except that a trainee name, a drill id or a set id the store refuses on write (control
    characters, an id that is no id) is written by SQL afterwards: a row forged by SQL or stored before the rule,
    which every page and command must still show literally."""
    import dataclasses

    from warroom.core.settings import trainee_name_problem
    from warroom.core.text import is_valid_id

    refused = (trainee_name_problem(info.trainee) is not None or not is_valid_id(info.drill_id)
               or (info.set_id is not None and not is_valid_id(info.set_id)))  # fmt: skip
    written = (dataclasses.replace(info, trainee="placeholder", drill_id="placeholder", set_id=None)
               if refused else info)  # fmt: skip
    written_card = dataclasses.replace(card, drill_id=written.drill_id)
    assert store.insert(written, written_card, actions, **kw)
    if refused:
        sql = "UPDATE sessions SET trainee = ?, drill_id = ?, set_id = ?, scorecard = ? WHERE session_id = ?"
        text = json.dumps(card.to_dict(), ensure_ascii=False, sort_keys=True)
        store.db.conn.execute(sql, (info.trainee, info.drill_id, info.set_id, text, info.session_id))


def known_sessions(store: ResultsStore) -> None:
    """Seven sessions of two trainees on three drills (C is an all-clear control)."""
    day = "2026-11-0{}T10:00:00.000000+00:00".format
    add_session(store, "s1", trainee="ann", drill_id="A", started_at=day(1), outcome="contained", total=90, ttd=4.0)
    add_session(store, "s2", trainee="ann", drill_id="A", started_at=day(2), outcome="contained_late", total=60,
                ttd=10.0, false_escalations=1)  # fmt: skip
    add_session(store, "s3", trainee="ann", drill_id="B", started_at=day(3), outcome="missed", total=0, ttd=None,
                false_escalations=2, damage=500.0)  # fmt: skip
    add_session(store, "s4", trainee="ann", drill_id="C", started_at=day(4), all_clear=True,
                outcome="all_clear_held", total=100, ttd=None)  # fmt: skip
    add_session(store, "s5", trainee="bob", drill_id="A", started_at=day(5), outcome="wrong_step", total=20,
                ttd=None, false_escalations=1, damage=14021.0)  # fmt: skip
    add_session(store, "s6", trainee="bob", drill_id="B", started_at=day(6), outcome="contained", total=85, ttd=6.0)
    add_session(store, "s7", trainee="bob", drill_id="C", started_at=day(7), all_clear=True, outcome="false_alarm",
                total=30, ttd=None, false_escalations=1)  # fmt: skip


def set_version(store: ResultsStore, version: int) -> None:
    """Mark the open store as of schema ``version`` (its tables left as they are: the migrations after it add only
    what is missing)."""
    if store.dialect.name == "sqlite":
        store.db.conn.execute(f"PRAGMA user_version = {int(version)}")
    else:
        store.db.conn.execute("UPDATE warroom_schema SET version = ?", (version,))


def make_attempts_index(store: ResultsStore, key: str) -> None:
    """Create the first-attempt index ``ix_sessions_attempts`` on the key columns ``key`` (an older version's key, to
    put a store back to it), its other columns carried as the store's migrations carry them."""
    from warroom.store.results._migrations import ATTEMPT_COLUMNS

    index, columns = f"CREATE INDEX ix_sessions_attempts ON sessions({key}", ", ".join(ATTEMPT_COLUMNS)
    sqlite = store.dialect.name == "sqlite"
    store.db.conn.execute(f"{index}, {columns})" if sqlite else f"{index}) INCLUDE ({columns})")


def notice_box(data_dir: Path, trainee: str) -> Path:
    """The notice box file of ``trainee`` in ``data_dir`` (``journals/notices/<hash>.jsonl``)."""
    from warroom.store.datadir import journals_dir
    from warroom.store.journal._notices import NOTICES, _box_name

    return journals_dir(data_dir) / NOTICES / _box_name(trainee)


def refused_unchanged(data_dir: Path, *statements: str) -> str:
    """What opening a results store says of another program's SQLite database at the store's name (made in
    ``data_dir`` by ``statements``), after checking that it was refused (StoreError) and left byte for byte, with
    no file written beside it."""
    import hashlib
    import sqlite3

    import pytest

    from warroom.store.errors import StoreError

    path = data_dir / "results.sqlite3"
    with sqlite3.connect(path) as conn:
        for statement in statements:
            conn.execute(statement)
    conn.close()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    with pytest.raises(StoreError) as caught:
        ResultsStore(data_dir)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in data_dir.iterdir()) == ["results.sqlite3"]
    return str(caught.value)
