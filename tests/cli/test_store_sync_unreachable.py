"""`warroom store sync` while the shared store is down: the error says the queued sessions are still waiting."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from warroom.cli import main


def test_sync_to_an_unreachable_store_says_how_many_sessions_still_wait(tmp_path: Path) -> None:
    url = f"postgresql://ann:hunter2@/cohort?host={tmp_path}/no-server&connect_timeout=2"
    journals = tmp_path / "data" / "journals"
    journals.mkdir(parents=True)
    for name in ("20261201-083938-sven.jsonl", "20261201-084001-abcd.jsonl"):
        (journals / name).write_text("{}\n", encoding="utf-8")  # queued sessions (never opened: no store to reach)
    result = CliRunner().invoke(main, ["--store", url, "store", "sync", "--data-dir", str(tmp_path / "data")])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and "hunter2" not in result.output
    assert result.output.strip().splitlines()[-1].endswith(f"; 2 sessions still waiting in {journals}"), \
        result.output
    assert sorted(p.name for p in journals.glob("*.jsonl")) == ["20261201-083938-sven.jsonl",
                                                                 "20261201-084001-abcd.jsonl"]
