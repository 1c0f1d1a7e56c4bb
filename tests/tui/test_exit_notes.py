"""A session whose result cannot be stored as the war room leaves (a quit, SIGTERM) is kept in its journal, and the
terminal is told so once the UI has gone: a notification made while the app exits is never seen.

These run ``warroom run`` as a real process on a pseudo-terminal. The store is made unusable mid-drill by putting a
folder where the results file was (``results.sqlite3``), which no user, root included, can open as a database."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from pg_support import PostgresServer
from pty_support import WARROOM, on_pty


def _journals(data_dir: Path) -> list[Path]:
    jdir = data_dir / "journals"
    return sorted(jdir.glob("*.jsonl")) if jdir.is_dir() else []


def _block_the_results_file(data_dir: Path) -> None:
    for name in os.listdir(data_dir):
        if name.startswith("results.sqlite3"):
            os.remove(data_dir / name)
    (data_dir / "results.sqlite3").mkdir()


def _play_with_the_store_gone(data_dir: Path, leave: str, store: list[str] | None = None,
                              break_store: Callable[[], None] | None = None) -> tuple[int, str]:
    """Start a drill (``store``: the options naming a shared store), pause it (one action), make the store unusable
    (``break_store``; by default a folder in place of the results file), then leave with ``leave`` (``"q"``: q and
    y; ``"SIGTERM"``). Returns the exit status and everything the process wrote to the terminal."""
    store = store or []
    made = subprocess.run([WARROOM, "--data-dir", str(data_dir), *store, "scores"], capture_output=True)
    assert made.returncode == 0, made.stderr
    with on_pty(["--data-dir", str(data_dir), *store, "run", "duplicate-charge-refunds"]) as run:
        deadline = time.monotonic() + 20
        while "Start the drill" not in run.text():  # the briefing's footer: one enter then starts the drill
            assert run.proc.poll() is None and time.monotonic() < deadline, "the briefing did not open"
            time.sleep(0.1)
        run.write(b"\r")  # once: a second enter on a loaded machine would reach the war room as an action
        while not _journals(data_dir):
            assert run.proc.poll() is None and time.monotonic() < deadline, "the war room did not open"
            time.sleep(0.1)
        time.sleep(0.8)
        run.write(b" ")  # pause: one action in the journal
        time.sleep(0.5)
        (break_store or (lambda: _block_the_results_file(data_dir)))()
        if leave == "q":
            run.write(b"q")
            time.sleep(0.5)
            run.write(b"y")
        else:
            run.proc.send_signal(signal.SIGTERM)
        status = run.wait_exit(10, "warroom")
        time.sleep(0.3)
        return status, run.text()


@pytest.mark.parametrize("leave", ["q", "SIGTERM"])
def test_a_result_not_stored_on_leaving_is_said_on_the_terminal_and_kept(tmp_path, leave):
    data_dir = tmp_path / "data"
    status, shown = _play_with_the_store_gone(data_dir, leave)
    assert status == 0
    [journal] = _journals(data_dir)  # kept for the next start, with the pause and the quit
    kinds = [json.loads(line).get("action", {}).get("kind") for line in journal.read_text().splitlines()]
    assert "pause" in kinds and "quit" in kinds
    words = " ".join(shown.split())
    assert "warroom: Your result was NOT stored:" in words and "is not a regular file" in words
    assert f"The session is kept in {journal}" in words


def test_a_result_queued_for_a_shared_store_that_went_away_is_said_and_delivered_later(
    tmp_path, own_postgres_server: PostgresServer
):
    """The PostgreSQL store stops mid-drill: leaving queues the session (its journal kept, with every action), the
    terminal is told so, and `warroom store sync` delivers it once the server is back."""
    data_dir = tmp_path / "data"
    url = own_postgres_server.url()
    assert subprocess.run([str(WARROOM), "--store", url, "store", "migrate"], capture_output=True).returncode == 0
    status, shown = _play_with_the_store_gone(data_dir, "q", ["--store", url],
                                              lambda: own_postgres_server.stop("immediate"))
    assert status == 0
    [journal] = _journals(data_dir)
    words = " ".join(shown.split())
    assert f"warroom: The results store cannot be reached: your result is kept in {journal}" in words
    down = subprocess.run([str(WARROOM), "--data-dir", str(data_dir), "--store", url, "store", "sync"],
                          capture_output=True, text=True)
    assert down.returncode == 1 and "1 session still waiting" in down.stderr
    own_postgres_server.start()
    up = subprocess.run([str(WARROOM), "--data-dir", str(data_dir), "--store", url, "store", "sync"],
                        capture_output=True, text=True)
    assert up.returncode == 0 and "1 session delivered" in up.stdout, up.stderr
    listed = subprocess.run([str(WARROOM), "--data-dir", str(data_dir), "--store", url, "scores", "--format", "json"],
                            capture_output=True, text=True)
    [row] = json.loads(listed.stdout)
    actions = row["actions"] if isinstance(row["actions"], list) else json.loads(row["actions"])
    assert [a["kind"] for a in actions] == ["pause", "quit"] and row["outcome"] == "abandoned"
