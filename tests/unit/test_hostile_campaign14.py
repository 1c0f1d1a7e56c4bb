"""Campaign 14 of issue 30: today's new code attacked (chosen trials, runs of projections, and their interplay).
Each test is a break found, asserting the right value."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner
from stats_support import add

from warroom.cli import main
from warroom.store.results import ResultsStore


def test_the_reports_time_to_detect_figure_draws_no_chosen_first_attempt(tmp_path: Path):
    """A ``--as signal`` session contained was drawn as a trial in the report's time-to-detect figure (``n=2`` for a
    drill of one trial): a chosen trial is in no figure, the report's drawn ones too."""
    with ResultsStore(tmp_path) as store:
        add(store, "a1", "ann", "drill-x", "contained", 90, ttd=3.0, mode="practice")
        add(store, "b1", "bob", "drill-x", "contained", 90, ttd=5.0, mode="practice")
        store.db.conn.execute("UPDATE sessions SET chosen = 1 WHERE session_id = 'a1'")
    out = tmp_path / "report.html"
    r = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "report", "--output", str(out)])
    assert r.exit_code == 0, r.output
    assert "1 trial (" in r.output
    assert re.findall(r"drill-x \(n=\d+\)", out.read_text()) == ["drill-x (n=1)"]
