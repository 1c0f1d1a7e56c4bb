"""Support for the ``warroom scores`` tests: running the command on a data directory, a store of known sessions,
a played session."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result
from store_support import copy_drill, known_sessions, load

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


def copy_drill_by_position(dest_dir: Path) -> Path:
    """A copy of the bundled drill in ``dest_dir`` with its trace events' ids renamed by position (e01, e02, ...) and
    every reference with them, so that a session of rules before 6 (authored ids) and one of the current recorder
    (ids by position) name the same events alike: the bundled file has its count query e30, e31 before e03."""
    import re

    path = copy_drill(dest_dir)
    names = {e.id: f"e{k:02d}" for k, e in enumerate(load(path).trace, start=1)}
    path.write_text(re.sub(r"\be\d{2}\b", lambda m: names.get(m.group(0), m.group(0)), path.read_text()))
    return path


def played_session(
    data_dir: Path, drill_path: Path, cites: tuple[str, ...] | str | None = "evidence", rules: str | None = None
) -> str:
    """Play the drill at ``drill_path`` as ann (escalating s1 at 12 s citing ``cites``, ids as a session of
    ``rules`` plays them: by position from the rules 6 on, as authored before; ``"evidence"``: the drill's first
    evidence, e06 as the bundled duplicate-charge-refunds is played by position, e04 as authored; None: an escalation
    recorded before citations existed), scored by ``rules`` (default the current), store it; returns its session
    id."""
    from warroom.core.model import PlayedAs
    from warroom.core.play import Replay
    from warroom.core.scoring import SCORING_VERSION, ids_by_position, score
    from warroom.core.variants import session_drill

    rules = rules or SCORING_VERSION
    drill = load(drill_path)
    rec = SessionRecorder.start(data_dir, "ann", drill_path, drill)
    played = session_drill(drill, None, PlayedAs.SIGNAL, by_position=ids_by_position(rules))
    if cites == "evidence":
        cites = (str(played.answer_key.evidence[0]),)
    replay = Replay(played, on_action=rec.record)
    replay.advance(12)
    replay.escalate("s1", "stale snapshot", cites)
    rec.finish(score(played, rec.actions, rules=rules))
    return rec.session_id
