"""The results store's ``response`` column (schema version 12, warroom.store.results._responses): written with the
scorecard whenever a session is stored, re-scored or imported, recorded by scoring rules 4 or approximated from the
outcome before, never taken from the caller; on both back ends (tests/pg_support.py)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from store_support import add_session, scorecard

from warroom.core.model import PlayedAs, Response
from warroom.store.results import ResultsStore
from warroom.store.results._responses import played_as_of, recorded_response, response_column


def _response(store: ResultsStore, sid: str) -> str | None:
    return store.db.conn.execute("SELECT response FROM sessions WHERE session_id = ?", (sid,)).fetchone()[0]


def _v4(outcome: str, response: Response, played_as: PlayedAs = PlayedAs.SIGNAL, **kw):
    return dataclasses.replace(scorecard(outcome=outcome, **kw), scoring_version="4", played_as=played_as,
                               response=response)  # fmt: skip


def test_the_column_follows_the_scorecard_on_every_write(tmp_path: Path, backend_url: str | None):
    with ResultsStore(tmp_path, url=backend_url) as store:
        add_session(store, "a", trainee="ann", outcome="contained", total=90)
        add_session(store, "b", trainee="ann", outcome="contained", total=60, false_escalations=1)
        add_session(store, "c", trainee="ann", drill_id="clear", all_clear=True, outcome="abandoned", total=0, ttd=None)
        assert [_response(store, s) for s in "abc"] == ["hit", "localisation_error", "abandoned"]  # approximated
        assert store.get("a").response == "hit"  # listed with the session (scores list --format json, csv)
        # re-scored by rules 4: the recorded response, whatever the outcome would give
        store.update_scorecard("a", _v4("contained", Response.LOCALISATION_ERROR, total=40))
        assert _response(store, "a") == "localisation_error"
        # re-scored by older rules again: approximated, for what the stored row was played as (a noise trial here)
        store.update_scorecard("c", scorecard(outcome="false_alarm", total=40, ttd=None, false_escalations=1))
        assert _response(store, "c") == "false_alarm"
        store.update_scorecard("c", scorecard(outcome="all_clear_held", total=100, ttd=None))
        assert _response(store, "c") == "correct_rejection"


def test_an_import_never_takes_the_response_from_the_caller(tmp_path: Path, backend_url: str | None):
    """``store import`` stores whole rows: the response column is the scorecard's, not the row's."""
    from warroom.store.results import export_lines, import_lines

    source = tmp_path / "source"
    with ResultsStore(source) as store:
        add_session(store, "a", trainee="ann", outcome="missed", total=0, ttd=None)
        lines = list(export_lines(store))
    forged = [line.replace('"response": "miss"', '"response": "hit"').replace('"session_id": "a"', '"session_id": "f"')
              for line in lines]  # fmt: skip
    assert forged != lines
    with ResultsStore(tmp_path / "target", url=backend_url) as store:
        result = import_lines(store, forged, "export.jsonl")
        assert (result.imported, result.refusals) == (1, [])
        assert _response(store, "f") == "miss"


def test_played_as_is_read_from_one_place():
    """The scorecard's ``played_as`` when it records one, else the all-clear column: the place to switch when the
    store gets a ``played_as`` column of its own."""
    assert played_as_of({"played_as": "noise"}, all_clear=False) is PlayedAs.NOISE
    assert played_as_of({}, all_clear=True) is PlayedAs.NOISE and played_as_of({}, all_clear=False) is PlayedAs.SIGNAL
    assert recorded_response('{"response": "hit"}') == "hit" and recorded_response("{not json") is None
    assert recorded_response({"response": "maybe"}) is None
    # a scorecard of rules 4 that played a fault drill's healthy twin as noise: its own response stands
    card = {"played_as": "noise", "response": "correct_rejection"}
    assert response_column(card, "all_clear_held", all_clear=False, false_escalations=0) == "correct_rejection"
    assert response_column({"played_as": "noise"}, "abandoned", all_clear=False, false_escalations=0) == "abandoned"
    assert response_column({}, "contained", all_clear=True, false_escalations=0) is None  # does not fit


def test_the_scoring_versions_of_rows_read_for_the_figures_are_not_kept_for_the_processs_life():
    """Whether a session's response is approximated is decided per row from its ``scoring_version``, a column a
    trainee role writes as it likes; the decision was cached by that text, so each forged version read by the
    figures (the console reads them at every request) stayed in the server's memory for its life."""
    import tracemalloc

    from warroom.store.cohort._facts import approximated

    assert approximated("3") and not approximated("4") and not approximated("9" * 5000)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for n in range(2000):
            assert approximated(f"{n:04d}-forged-" + "x" * 2000)
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert kept < 1_000_000, kept
