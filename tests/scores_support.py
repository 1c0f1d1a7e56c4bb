"""Support for the ``warroom scores`` tests: running the command on a data directory, a store of known sessions,
a played session."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result
from store_support import known_sessions, load

from warroom.cli import main
from warroom.store.journal import SessionRecorder
from warroom.store.results import ResultsStore


def run(data_dir: Path, *args: str, env: dict[str, str] | None = None) -> Result:
    """``warroom scores --data-dir DATA_DIR ARGS...`` (the bare form and the old flags)."""
    return CliRunner().invoke(main, ["scores", "--data-dir", str(data_dir), *args], env=env, catch_exceptions=False)


def run_sub(
    data_dir: Path, subcommand: str, *args: str, env: dict[str, str] | None = None, input: str | None = None
) -> Result:
    """``warroom scores SUBCOMMAND --data-dir DATA_DIR ARGS...``."""
    argv = ["scores", subcommand, "--data-dir", str(data_dir), *args]
    return CliRunner().invoke(main, argv, env=env, input=input, catch_exceptions=False)


def known_store(data_dir: Path) -> Path:
    """``data_dir`` with the sessions of :func:`store_support.known_sessions` stored."""
    with ResultsStore(data_dir) as store:
        known_sessions(store)
    return data_dir


def played_session(
    data_dir: Path, drill_path: Path, cites: tuple[str, ...] | None = ("e04",), rules: str | None = None
) -> str:
    """Play the drill at ``drill_path`` as ann (escalating s1 at 12 s citing ``cites``: e04 is the evidence of the
    bundled duplicate-charge-refunds drill; None: an escalation recorded before citations existed), scored by
    ``rules`` (default the current), store it; returns its session id."""
    from warroom.core.play import Replay
    from warroom.core.scoring import SCORING_VERSION, score

    drill = load(drill_path)
    rec = SessionRecorder.start(data_dir, "ann", drill_path, drill)
    replay = Replay(drill, on_action=rec.record)
    replay.advance(12)
    replay.escalate("s1", "stale snapshot", cites)
    rec.finish(score(drill, rec.actions, rules=rules or SCORING_VERSION))
    return rec.session_id
