"""Benchmark: ``warroom store import`` of an export of N sessions (default 10,000) into an empty store.

Run: ``.venv/bin/python benchmarks/bench_store_import.py [--sessions N] [--repeat R] [--profile] [--postgresql [URL]]``

A data directory is filled with N finished sessions of the real shape (``bench_results.fill``: 500 trainees x 40
drills, every outcome, scorecards and action logs; some sessions re-scored, so their lines carry a scorecard
history), exported with ``warroom store export``'s writer, then imported into a fresh data directory, R times
(median):

- in process: :func:`warroom.store.results.import_lines` with ``--all-trainees``'s arguments, wall and CPU time,
  and the time per session;
- as a whole process: ``warroom --data-dir D store import --all-trainees FILE`` (``--no-process`` skips it);
- with ``--postgresql``, the same in-process import into a fresh schema of a PostgreSQL store (URL, or a throwaway
  server as ``bench_pg_store.py`` starts one), batched as into SQLite (500 lines a transaction, a savepoint a line:
  schema version 20), once as the owner of the tables and once as a trainee role (of the schema's own
  ``warroom_trainee_SCHEMA`` group) of a store secured by ``warroom store secure`` importing its own sessions (the
  lines of every other trainee refused, each alone, by row-level security).

Every import is checked: N sessions stored, none refused, each recorded as not verified, the histories stored.
``--profile`` runs one in-process import under cProfile and prints the 25 costliest functions. Figures only:
nothing here asserts on timing.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # pg_support: a throwaway server

from bench_results import fill, warroom_cmd

#: Every how many sessions one is re-scored before the export (its line then carries a scorecard history).
RESCORED_EVERY = 50


def export_file(n: int, folder: Path) -> Path:
    """An export of ``n`` sessions (every :data:`RESCORED_EVERY`-th with a scorecard history), written in ``folder``."""
    from warroom.core.scoring import Scorecard
    from warroom.store.results import ResultsStore, write_export

    data = folder / "source"
    fill(data, n)
    with ResultsStore(data) as store:
        rows, _ = store.query_readable()
        for row in rows[::RESCORED_EVERY]:
            stored = store.get(row.session_id).scorecard
            card = Scorecard.from_dict({**stored, "lines": ["re-scored for the benchmark"]})
            store.update_scorecard(row.session_id, card, reason="benchmark", by="bench")
        path = folder / "export.jsonl"
        with path.open("w", encoding="utf-8", newline="\n") as out:
            assert write_export(store, out) == n
    return path


def import_once(export: Path, data: Path, url: str | None = None, own: int | None = None) -> tuple[float, float]:
    """Import ``export`` into the new data directory ``data`` (or the store ``url``) in process: (wall seconds, CPU
    seconds); checked: every line stored, or with ``own`` (a trainee role's import) that many, the others refused."""
    from warroom.store.results import ResultsStore, import_lines

    with ResultsStore(data, url=url) as store, export.open(encoding="utf-8") as lines:
        cpu, wall = time.process_time(), time.perf_counter()
        result = import_lines(store, (line.rstrip("\n") for line in lines), str(export))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        n = sum(1 for _ in export.open(encoding="utf-8"))
        stored = n if own is None else own
        assert (result.imported, result.already, len(result.refused)) == (stored, 0, n - stored), result.refused[:3]
        assert store.count() == stored
    return wall, cpu


def postgresql_runs(export: Path, folder: Path, url: str | None, repeat: int) -> dict[str, float]:
    """The PostgreSQL imports (``--postgresql``): median wall seconds as the owner and as a trainee role."""
    import psycopg
    from bench_pg_store import fresh_schema, server_url
    from pg_support import as_role

    from warroom.store.backends import secure
    from warroom.store.results import ResultsStore

    trainee = json.loads(export.open(encoding="utf-8").readline())["trainee"]
    own = sum(json.loads(line)["trainee"] == trainee for line in export.open(encoding="utf-8"))
    out: dict[str, list[float]] = {"pg_owner": [], "pg_trainee": []}
    with server_url(url) as base:
        for i in range(repeat):
            out["pg_owner"].append(import_once(export, folder / f"pg-{i}", fresh_schema(base, f"bench_import_{i}"))[0])
            schema_url = fresh_schema(base, f"bench_import_t{i}")
            with ResultsStore(folder / f"pgt-{i}", url=schema_url) as store:
                roles, _ = secure(store)  # (as the owner: the schema's own roles and row-level security)
            with psycopg.connect(schema_url, autocommit=True) as conn:
                conn.execute(f'DROP ROLE IF EXISTS "{trainee}"')  # type: ignore[arg-type]
                conn.execute(f'CREATE ROLE "{trainee}" LOGIN IN ROLE {roles.sql().trainee}')  # type: ignore[arg-type]
            try:
                wall, _ = import_once(export, folder / f"pgt-{i}", as_role(schema_url, trainee), own)
                out["pg_trainee"].append(wall)
            finally:
                with psycopg.connect(schema_url, autocommit=True) as conn:
                    conn.execute(f"DROP SCHEMA bench_import_t{i} CASCADE")  # type: ignore[arg-type]
                    conn.execute(f'DROP OWNED BY "{trainee}"')  # type: ignore[arg-type]
                    conn.execute(f'DROP ROLE "{trainee}"')  # type: ignore[arg-type]
    return {k: statistics.median(v) for k, v in out.items()}


def import_process(export: Path, data: Path) -> tuple[float, float]:
    """``warroom store import --all-trainees`` as a whole process: (wall seconds, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    cmd = [*warroom_cmd(), "--data-dir", str(data), "store", "import", "--all-trainees", str(export)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"store import failed ({proc.returncode}):\n{proc.stderr}")
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def measure(n: int, repeat: int, process: bool = True, postgresql: bool = False, url: str | None = None
            ) -> dict[str, float]:  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        export = export_file(n, Path(tmp))
        out_pg = postgresql_runs(export, Path(tmp), url, repeat) if postgresql else {}
        runs = [import_once(export, Path(tmp) / f"in-{i}") for i in range(repeat)]
        out = {"wall": statistics.median(r[0] for r in runs), "cpu": statistics.median(r[1] for r in runs)}
        if process:
            procs = [import_process(export, Path(tmp) / f"proc-{i}") for i in range(repeat)]
            out["process"] = statistics.median(p[0] for p in procs)
            out["process_cpu"] = statistics.median(p[1] for p in procs)
    return {**out, **out_pg}


def profile(n: int) -> None:
    import cProfile
    import pstats

    with tempfile.TemporaryDirectory() as tmp:
        export = export_file(n, Path(tmp))
        prof = cProfile.Profile()
        prof.runcall(import_once, export, Path(tmp) / "profiled")
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)


def results(sessions: int = 10_000, repeat: int = 3) -> list[dict]:
    """Rows for ``run.py``."""
    m = measure(sessions, repeat)
    per = m["wall"] / sessions * 1000
    return [
        {
            "name": f"store import ({sessions:,} sessions, in process)",
            "value": f"{m['wall']:.2f} s (CPU {m['cpu']:.2f} s; {per:.2f} ms per session)",
            "goal": "< 1 ms per session",
            "ratio": f"{per:.2f}x of goal",
            "ok": per < 1.0,
        },
        {
            "name": f"warroom store import ({sessions:,} sessions, whole process)",
            "value": f"{m['process']:.2f} s (CPU {m['process_cpu']:.2f} s)",
            "goal": "(info)",
            "ratio": "",
            "ok": True,
        },
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=10_000, help="sessions in the export")
    ap.add_argument("--repeat", type=int, default=3, help="imports measured; the median is reported")
    ap.add_argument("--no-process", action="store_true", help="skip the whole-process import")
    ap.add_argument("--profile", action="store_true", help="one in-process import under cProfile")
    ap.add_argument("--postgresql", nargs="?", const="", default=None, metavar="URL",
                    help="also import into PostgreSQL (URL, else a throwaway server), as the owner and a trainee role")
    args = ap.parse_args()
    if args.profile:
        profile(args.sessions)
        return
    pg = args.postgresql is not None
    m = measure(args.sessions, args.repeat, not args.no_process, pg, args.postgresql or None)
    per = m["wall"] / args.sessions * 1000
    print(f"store import of {args.sessions:,} sessions, in process: {m['wall']:.2f} s wall, CPU {m['cpu']:.2f} s "
          f"({per:.2f} ms per session; goal < 1 ms)")  # fmt: skip
    if "process" in m:
        print(f"warroom store import, whole process: {m['process']:.2f} s wall, CPU {m['process_cpu']:.2f} s")
    if pg:
        print(f"PostgreSQL, in process, as the owner: {m['pg_owner']:.2f} s wall "
              f"({m['pg_owner'] / args.sessions * 1000:.2f} ms per session)")  # fmt: skip
        print(f"PostgreSQL, in process, as a warroom_trainee role (its own lines stored, the others refused): "
              f"{m['pg_trainee']:.2f} s wall ({m['pg_trainee'] / args.sessions * 1000:.2f} ms per line)")  # fmt: skip


if __name__ == "__main__":
    main()
