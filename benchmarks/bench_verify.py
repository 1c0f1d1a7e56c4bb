"""Benchmark: ``warroom scores verify`` over a store of thousands of real sessions (goal: 3,000 sessions < 10 s).

Run: ``.venv/bin/python benchmarks/bench_verify.py [--sessions N] [--repeat R] [--keep DIR] [--profile]``

A data directory is filled with N sessions played on the bundled library's drills (each drill in turn; every
second session with a seed of its own, so variants and, for a drill with a twin, noise trials are made), each
from a real action log (its first releases inspected, then an escalation of the fault's origin citing the first
evidence, or a quit on an all-clear drill) scored by ``warroom.core.scoring.score`` and stored with
``ResultsStore.insert`` in one transaction (filling is not what is measured); one session in ten is marked as
stored without a check (``submitted_by``: a trainee role), so verify also looks each of those up among the
trainees' sessions of its drill for copies. Then ``warroom scores verify --data-dir D`` runs as a whole process
(median of R, wall-clock and the process's own CPU time, and the CPU time a session: on a shared machine the
figure to compare); every session must come out verified. ``--profile``
runs verify once in this process under cProfile and prints the 25 costliest functions (cumulative).

Issue 30 measured 65 s for 3,030 sessions. Each session's drill file was found (a drill folder walked for a
session stored without a check), hashed, and made into its variant or twin again, and its verification record and
figure columns read with a query of their own; now once a pass (``warroom.store.review.DrillCache``), one query,
verdicts recorded 500 to a transaction. Figures in benchmarks/README.md. Figures only: nothing here asserts on
timing.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench_results

#: The goal: seconds for 3,000 sessions.
GOAL_S = 10.0


def _actions(drill, rng: random.Random) -> list:
    """A real action log on ``drill`` (a Drill): a few inspections (a random moment after each event is out), then
    an escalation of its origin citing its first evidence (a fault drill), or a quit (an all-clear drill, a
    twin)."""
    from warroom.core.model import Action, ActionKind, detection_events

    trace = drill.trace
    out, t = [], 0.0
    for ev in trace[:3]:  # read a moment after each is out: no two logs alike (a copy is what verify looks for)
        t = max(t, ev.t) + round(rng.uniform(0.1, 2.0), 3)
        out.append(Action(t=t, kind=ActionKind.INSPECT, event=ev.id))
    key = drill.answer_key
    found = detection_events(drill)
    if key is not None and found and rng.random() < 0.8:
        ref, ev = found[0]
        t = max(ev.t, out[-1].t if out else 0.0)
        out.append(Action(t=t, kind=ActionKind.ESCALATE, step=key.fault.target, cites=tuple(ref.events)))
    else:
        out.append(Action(t=out[-1].t if out else 0.0, kind=ActionKind.QUIT))
    return out


def fill(data_dir: Path, n: int, seed: int = 30) -> int:
    """``n`` sessions on the bundled drills in ``data_dir``'s store; returns how many were marked as stored without
    a check."""
    from warroom.core.library import bundled_drills_dir
    from warroom.core.load import load_drill
    from warroom.core.model import PlayedAs
    from warroom.core.scoring import ScoringError, score
    from warroom.core.variants import draw_played_as, session_drill
    from warroom.store.results import ResultsStore, SessionInfo
    from warroom.store.review import file_sha256

    rng = random.Random(seed)
    paths = sorted(bundled_drills_dir().glob("*.yaml"))
    drills = [(p, load_drill(p), file_sha256(p)) for p in paths]
    start = datetime(2026, 1, 1, tzinfo=UTC)
    unchecked = 0
    with ResultsStore(data_dir) as store:
        store.db.conn.execute("BEGIN")
        i = stored = 0
        while stored < n:
            path, drill, sha = drills[i % len(drills)]
            i += 1
            seed_of = rng.randrange(1, 1_000_000) if i % 2 else None
            played = PlayedAs.NOISE if drill.is_all_clear else draw_played_as(drill, seed_of)
            try:
                played_drill = session_drill(drill, seed_of, played)
                actions = _actions(played_drill, rng)
                card = score(played_drill, actions)
            except (ScoringError, ValueError):
                continue
            when = (start + timedelta(seconds=stored * 600)).isoformat(timespec="microseconds")
            info = SessionInfo(session_id=f"{stored:08x}-verify", trainee=f"trainee-{rng.randrange(300):03d}",
                               drill_id=drill.id, drill_version=drill.version, drill_sha256=sha,
                               drill_path=str(path), started_at=when, all_clear=played_drill.is_all_clear,
                               scoring_version=card.scoring_version, mode="practice", seed=seed_of,
                               played_as=played.value)
            store.insert(info, card, actions, ended_at=when)
            if stored % 10 == 3:
                store.mark(info.session_id, "unverified", "stored by a trainee role", submitted_by="trainee-role")
                unchecked += 1
            stored += 1
        store.db.conn.execute("COMMIT")
    return unchecked


def measure(sessions: int, repeat: int, keep: Path | None = None) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        data = keep if keep is not None else Path(tmp) / "data"
        if not (data / "results.sqlite3").exists():
            fill(data, sessions)
        wall, cpu, text = bench_results.run_cli_cpu(["scores", "verify", "--data-dir", str(data)], repeat)
        assert f"verified {sessions} of {sessions:,} sessions: 0 disagree, 0 cannot be verified" in text, text[-800:]
    return {"wall": wall, "cpu": cpu}


def profile(sessions: int, keep: Path | None = None) -> None:
    import cProfile
    import pstats

    from warroom.store.results import ResultsStore
    from warroom.store.review import default_drill_resolver, verify_sessions

    with tempfile.TemporaryDirectory() as tmp:
        data = keep if keep is not None else Path(tmp) / "data"
        if not (data / "results.sqlite3").exists():
            fill(data, sessions)
        with ResultsStore(data) as store:
            prof = cProfile.Profile()
            t0 = time.perf_counter()
            prof.enable()
            out = verify_sessions(store, default_drill_resolver(), record=False)
            prof.disable()
            print(f"{len(out)} sessions in {time.perf_counter() - t0:.2f} s (under the profiler)")
            print({v.value: sum(1 for r in out if r.verdict is v) for v in {r.verdict for r in out}})
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)


def results(sessions: int = 3_000, repeat: int = 3) -> list[dict]:
    """Rows for ``run.py``."""
    m = measure(sessions, repeat)
    goal = GOAL_S * sessions / 3_000
    return [
        {
            "name": f"scores verify ({sessions:,} sessions of the bundled drills)",
            "value": f"{m['wall']:.2f} s (CPU {m['cpu']:.2f} s)",
            "goal": f"< {goal:g} s",
            "ratio": f"{m['wall'] / sessions * 1000:.2f} ms a session ({m['cpu'] / sessions * 1000:.2f} ms CPU)",
            "ok": m["wall"] < goal,
        }
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=3_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="a data directory to fill once and reuse")
    parser.add_argument("--profile", action="store_true", help="run verify once under cProfile")
    args = parser.parse_args()
    if args.profile:
        profile(args.sessions, args.keep)
        return
    m = measure(args.sessions, args.repeat, args.keep)
    print(f"scores verify, {args.sessions:,} sessions: {m['wall']:.2f} s wall, {m['cpu']:.2f} s CPU "
          f"({m['cpu'] / args.sessions * 1000:.2f} ms CPU a session; goal < {GOAL_S:g} s for 3,000)")


if __name__ == "__main__":
    main()
