"""Benchmark: the results store at 100,000 sessions: ``warroom scores`` as whole processes, and insert cost.

Run: ``.venv/bin/python benchmarks/bench_results.py [--sessions N] [--repeat R] [--keep DIR]``

A data directory is filled with N finished sessions (500 trainees x 40 drills, every outcome, scorecards and
action logs of the real shape, start times spread over a year), through :meth:`ResultsStore.insert` inside one
transaction (filling is not what is measured). Then, as whole processes (``warroom ... --data-dir``, median of R):

- ``warroom scores --summary``: the cohort statistics per trainee and per drill over every session (goal < 1 s),
  once with scorecards of scoring rules 1 and once after giving every scorecard the distractor figures later rules
  record (scorecards and their columns, schema version 4); both as wall-clock and the process's own CPU time;
- ``warroom scores --trainee T``: one trainee's sessions, newest first (goal < 1 s);
- ``warroom scores --drill D --sort score``: one drill's sessions, best first (goal < 1 s);

and, in process, the time to store one finished session the way the war room does (``insert`` in autocommit with
``synchronous = FULL``) into an empty store and into the full one: the goal is a flat cost (ratio <= 1.5).
Figures only: nothing here asserts on timing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

OUTCOMES = ["contained", "contained", "contained_late", "wrong_step", "false_alarm", "missed", "abandoned"]
CLEAR_OUTCOMES = ["all_clear_held", "all_clear_held", "false_alarm", "abandoned"]
TRAINEES = 500
DRILLS = 40


def warroom_cmd() -> list[str]:
    """The installed ``warroom`` script next to this Python, else ``python -m warroom``."""
    script = Path(sys.executable).with_name("warroom")
    return [str(script)] if script.exists() else [sys.executable, "-m", "warroom"]


def _session(i: int, rng: random.Random, start: datetime) -> tuple:
    from warroom.store.results import SessionInfo, WallClock

    all_clear = i % DRILLS == 7
    outcome = rng.choice(CLEAR_OUTCOMES if all_clear else OUTCOMES)
    drill = f"drill-{i % DRILLS:02d}"
    contained = outcome.startswith("contained")
    total = rng.randint(60, 100) if contained else rng.randint(0, 45)
    ttd = round(rng.uniform(3, 120), 1) if contained else None
    when = (start + timedelta(seconds=i * 300)).isoformat(timespec="microseconds")
    info = SessionInfo(
        session_id=f"{i:08x}-bench",
        trainee=f"trainee-{rng.randrange(TRAINEES):03d}",
        drill_id=drill,
        drill_version=1,
        drill_sha256="0" * 64,
        drill_path=f"/drills/{drill}.yaml",
        started_at=when,
        all_clear=all_clear,
        mode="assessment" if rng.random() < 0.7 else "practice",
    )
    from warroom.core.scoring import Scorecard

    card = Scorecard.from_dict({
        "drill_id": drill,
        "scoring_version": "1",
        "outcome": outcome,
        "outcome_text": f"The session ended {outcome}.",
        "total": total,
        "components": [
            {"name": "outcome", "points": total // 2, "max_points": 50, "explanation": "Outcome points."},
            {"name": "speed", "points": total // 4, "max_points": 25, "explanation": "Time to detect."},
            {"name": "damage", "points": total - total // 2 - total // 4, "max_points": 25, "explanation": "Damage."},
        ],
        "time_to_detect": ttd,
        "damage": 0.0 if contained else rng.uniform(100, 14000),
        "full_damage": 14021.0,
        "damage_unit": "USD refunded in error",
        "false_escalations": rng.choice([0, 0, 0, 1, 2]),
        "cost_usd": round(rng.uniform(0.01, 0.2), 4),
        "lines": [f"{outcome}: {total}/100"],
    })
    actions = [
        {"t": 12.0, "kind": "inspect", "event": "e04"},
        {"t": 20.5, "kind": "flag", "event": "e05", "note": "stale snapshot?"},
        {"t": 31.0, "kind": "escalate", "step": "s1", "note": "the refund list is a week old"},
    ]
    wall = WallClock(pauses=0, paused_seconds=None, wall_time_to_detect=None if ttd is None else ttd * 1.4)
    return info, card, actions, when, wall


def fill(data_dir: Path, n: int, seed: int = 8, session: Callable[..., tuple] | None = None) -> float:
    """Fill ``data_dir``'s store with ``n`` sessions in one transaction; returns the seconds it took. ``session``
    makes session ``i`` (:func:`_session`'s arguments and result; by default :func:`_session` itself): the other
    benchmarks give one that renames the trainee or the drill of :func:`_session`'s sessions."""
    from warroom.core.model import Action
    from warroom.store.results import ResultsStore

    rng = random.Random(seed)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    t0 = time.perf_counter()
    with ResultsStore(data_dir) as store:
        store.db.conn.execute("BEGIN")  # one transaction: filling is not what is measured
        for i in range(n):
            info, card, actions, when, wall = (session or _session)(i, rng, start)
            store.insert(info, card, [Action.model_validate(a) for a in actions], ended_at=when, wall=wall)
        store.db.conn.execute("COMMIT")
        assert store.count() == n
    return time.perf_counter() - t0


def run_cli(args: list[str], repeat: int) -> tuple[float, str]:
    """Median wall time (s) of ``warroom ARGS`` as a whole process, and its stdout (checked: exit status 0)."""
    times = []
    out = ""
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.run([*warroom_cmd(), *args], capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if proc.returncode != 0:
            raise SystemExit(f"warroom {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr}")
        out = proc.stdout
    return statistics.median(times), out


def run_cli_cpu(args: list[str], repeat: int) -> tuple[float, float, str]:
    """:func:`run_cli` with the process's own CPU time: median wall seconds, median CPU seconds (user + system of
    the child process), stdout."""
    import resource

    walls, cpus = [], []
    out = ""
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall, out = run_cli(args, 1)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        walls.append(wall)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus), out


def insert_cost(data_dir: Path, count: int, offset: int) -> float:
    """Median seconds to store one finished session (autocommit, as the war room does) in ``data_dir``, over
    ``count`` sessions with ids from ``offset`` (session ids sort by start time, like real ones)."""
    from warroom.core.model import Action
    from warroom.store.results import ResultsStore

    rng = random.Random(offset)
    start = datetime(2027, 6, 1, tzinfo=UTC)
    times = []
    warm_up = 10  # untimed: the first commits after opening also settle the WAL left by the fill
    with ResultsStore(data_dir) as store:
        for i in range(offset, offset + warm_up + count):
            info, card, actions, when, wall = _session(i, rng, start)
            acts = [Action.model_validate(a) for a in actions]
            t0 = time.perf_counter()
            assert store.insert(info, card, acts, ended_at=when, wall=wall)
            times.append(time.perf_counter() - t0)
    return statistics.median(times[warm_up:])


def measure(n: int, repeat: int, keep: Path | None = None) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "empty"
        data = keep if keep is not None else Path(tmp) / "full"
        if not (data / "results.sqlite3").exists():
            filled = fill(data, n)
        else:
            filled = float("nan")
        out: dict[str, float] = {"fill": filled}
        d = ["--data-dir", str(data)]
        out["summary"], out["summary_cpu"], text = run_cli_cpu(["scores", "--summary", *d], repeat)
        assert "trainee-" in text, text[:500]
        out["trainee"], text = run_cli(["scores", "--trainee", "trainee-042", *d], repeat)
        assert "trainee-042" in text, text[:500]
        out["drill"], text = run_cli(["scores", "--drill", "drill-07", "--sort", "score", *d], repeat)
        assert "drill-07" in text, text[:500]
        out["insert_empty"] = insert_cost(empty, 100, 10_000_000)
        out["insert_full"] = insert_cost(data, 100, 20_000_000)
        remove_inserted(data)  # the store keeps its n sessions (and ``--keep`` can reuse it)
        add_distractor_figures(data)
        out["summary_figures"], out["summary_figures_cpu"], text = run_cli_cpu(["scores", "--summary", *d], repeat)
        assert "e12 ×" in text, text[:500]
    return out


def remove_inserted(data_dir: Path) -> None:
    """Delete the sessions :func:`insert_cost` stored (started from 2027-06-01 on, after every filled one)."""
    import sqlite3

    conn = sqlite3.connect(data_dir / "results.sqlite3")
    with conn:
        conn.execute("DELETE FROM sessions WHERE started_at >= '2027-06-01'")
    conn.close()


def add_distractor_figures(data_dir: Path) -> None:
    """Give every stored scorecard the distractor figures that scoring rules after version 1 record
    (``distractors_shown``, ``distractor_escalations``), so the summary has to read them from the scorecard JSON."""
    import sqlite3

    conn = sqlite3.connect(data_dir / "results.sqlite3")
    with conn:  # the scorecards and their columns, as the store's writes keep them (schema version 4)
        conn.execute(
            "UPDATE sessions SET scoring_version = '2', scorecard = json_set(scorecard, '$.distractors_shown', 2, "
            "'$.distractor_escalations', json(CASE WHEN false_escalations > 0 THEN '[\"e12\"]' ELSE '[]' END)), "
            "distractors_shown = 2, distractor_escalations = CASE WHEN false_escalations > 0 THEN '[\"e12\"]' END"
        )
    conn.close()


def results(sessions: int = 100_000, repeat: int = 3) -> list[dict]:
    """Rows for ``run.py``."""
    m = measure(sessions, repeat)
    rows = []
    for key, label in (
        ("summary", "scores --summary"),
        ("trainee", "scores --trainee T"),
        ("drill", "scores --drill D --sort score"),
    ):
        rows.append(
            {
                "name": f"{label} ({sessions:,} sessions)",
                "value": f"{m[key] * 1000:.0f} ms",
                "goal": "< 1 s (whole process)",
                "ratio": f"{m[key]:.2f}x of goal",
                "ok": m[key] < 1.0,
            }
        )
    rows.append(
        {
            "name": f"scores --summary, scorecards with distractor figures ({sessions:,} sessions)",
            "value": f"{m['summary_figures'] * 1000:.0f} ms (CPU {m['summary_figures_cpu'] * 1000:.0f} ms)",
            "goal": "< 1 s (whole process)",
            "ratio": f"{m['summary_figures']:.2f}x of goal",
            "ok": m["summary_figures"] < 1.0,
        }
    )
    ratio = m["insert_full"] / m["insert_empty"]
    rows.append(
        {
            "name": f"store one session ({sessions:,} stored)",
            "value": f"{m['insert_full'] * 1000:.2f} ms",
            "goal": "flat: ratio <= 1.5",
            "ratio": f"{ratio:.2f}x vs empty store ({m['insert_empty'] * 1000:.2f} ms)",
            "ok": ratio <= 1.5,
        }
    )
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=100_000, help="sessions in the store")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each command; the median is reported")
    ap.add_argument("--keep", type=Path, help="fill (or reuse) this data directory instead of a temporary one")
    args = ap.parse_args()
    m = measure(args.sessions, args.repeat, args.keep)
    print(f"filled {args.sessions:,} sessions in {m['fill']:.1f} s")
    print(f"warroom scores --summary:              {m['summary'] * 1000:7.0f} ms, CPU {m['summary_cpu'] * 1000:.0f} ms "
          "(goal < 1 s)")  # fmt: skip
    print(f"  ... scorecards with distractor figures: {m['summary_figures'] * 1000:7.0f} ms, CPU "
          f"{m['summary_figures_cpu'] * 1000:.0f} ms (goal < 1 s)")  # fmt: skip
    print(f"warroom scores --trainee T:            {m['trainee'] * 1000:7.0f} ms (goal < 1 s)")
    print(f"warroom scores --drill D --sort score: {m['drill'] * 1000:7.0f} ms (goal < 1 s)")
    print(
        f"store one session: {m['insert_empty'] * 1000:.2f} ms empty, {m['insert_full'] * 1000:.2f} ms at "
        f"{args.sessions:,}: {m['insert_full'] / m['insert_empty']:.2f}x (goal: flat, <= 1.5x)"
    )


if __name__ == "__main__":
    main()
