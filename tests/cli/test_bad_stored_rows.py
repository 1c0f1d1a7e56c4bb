"""One bad row already in a SQLite store (changed by hand) is skipped and reported by every command that reads it,
never a traceback: a ``distractor_escalations`` nested too deeply to parse, a ``time_to_detect`` that is infinite."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from click.testing import CliRunner, Result
from store_support import known_sessions

from warroom.cli import main
from warroom.store.results import ResultsStore

DEEP = "[" * 100_000 + "]" * 100_000


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def damaged(data: Path, column: str, value: object) -> Path:
    """The known sessions, with ``column`` of session s1 set to ``value`` by hand."""
    with ResultsStore(data) as store:
        known_sessions(store)
    with sqlite3.connect(data / "results.sqlite3") as conn:
        conn.execute(f"UPDATE sessions SET {column} = ? WHERE session_id = 's1'", (value,))
    return data


def test_deep_distractor_escalations_is_skipped_by_summary_and_report(tmp_path: Path):
    data = damaged(tmp_path / "d", "distractor_escalations", DEEP)
    summary = run("scores", "summary", "--data-dir", str(data))
    assert "s1" in summary.output and "Traceback" not in summary.output
    report = run("report", "-o", str(tmp_path / "r.html"), "--data-dir", str(data))
    assert "s1" in report.output and "Traceback" not in report.output
    assert (tmp_path / "r.html").exists()


def test_infinite_time_to_detect_is_skipped_by_export(tmp_path: Path):
    data = damaged(tmp_path / "d", "time_to_detect", float("inf"))
    out = tmp_path / "x.jsonl"
    result = run("store", "export", "-o", str(out), "--data-dir", str(data))
    assert result.exit_code == 0, result.output
    assert "skipped: stored session s1 cannot be exported: a number in it is not finite" in result.stderr
    assert "6 sessions exported" in result.stderr
    assert len(out.read_text().splitlines()) == 6
