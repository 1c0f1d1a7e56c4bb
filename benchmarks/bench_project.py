"""Benchmark: fault drills with twins projected into the shared healthy tau-bench retail runs (``warroom import
chat`` + ``warroom project --all``), and into the healthy runs of other shapes under tests/fixtures/projection.

Run: ``.venv/bin/python benchmarks/bench_project.py [--corpus DIR] [--repeat R] [--profile]``

Times (median of R) the two commands as whole processes, into fresh folders each time: ``warroom import chat
CORPUS --out A`` then ``warroom project --all A --out B``. The goal: at least 100 fault drills, each with its twin,
in under 60 s for the 37 healthy runs of the shared AgentRx corpus (``../shared/corpora/agentrx/tau-retail/clean``
beside the checkout; ``WARROOM_TAU_RETAIL``
or ``--corpus`` point elsewhere; skipped, with a message, when it is absent). Every drill written is then checked
once, untimed, as ``warroom validate`` and ``warroom check`` do (its twin played as an all-clear drill), so a fast
but broken projection does not count. The same is done, untimed as a goal, for the OpenTelemetry and OpenInference
runs recorded under tests/fixtures/projection (imported with ``warroom import otel`` / ``openinference``), which
the projection was not written for. ``--profile`` prints a cProfile of one in-process projection of the corpus.
Figures only: nothing here asserts on timing.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CORPUS = Path(os.environ["WARROOM_TAU_RETAIL"]) if os.environ.get("WARROOM_TAU_RETAIL") else (
    Path(__file__).resolve().parent.parent.parent / "shared" / "corpora" / "agentrx" / "tau-retail" / "clean")
FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "projection"
#: The healthy runs of other shapes: (the import that reads them, the file).
OTHER_SHAPES = (("otel", "otel-billing-refund.json"), ("openinference", "openinference-helpdesk-unlock.jsonl"))
GOAL_SECONDS = 60.0
GOAL_DRILLS = 100


def warroom_cmd() -> list[str]:
    """The installed ``warroom`` script next to this Python, else ``python -m warroom``."""
    script = Path(sys.executable).with_name("warroom")
    return [str(script)] if script.exists() else [sys.executable, "-m", "warroom"]


def _run(*args: str) -> None:
    proc = subprocess.run([*warroom_cmd(), *args], capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"warroom {args[0]} failed ({proc.returncode}):\n{proc.stdout[-1500:]}{proc.stderr[-1500:]}")


def check_all(folder: Path) -> tuple[int, int]:
    """``(drills, failing)``: every drill of ``folder`` loaded as ``warroom validate`` does and played as ``warroom
    check`` does, its twin included."""
    from warroom.core.author import check_twin, run_checks
    from warroom.core.load import DrillLoadError, load_drill

    drills = sorted(folder.glob("*.yaml"))
    failing = 0
    for path in drills:
        try:
            drill = load_drill(path)
        except DrillLoadError:
            failing += 1
            continue
        twin = check_twin(drill)
        failing += bool(run_checks(drill).problems or twin is None or twin.problems)
    return len(drills), failing


def measure(corpus: Path, repeat: int) -> dict | None:
    """``{"seconds", "runs", "drills", "failing"}`` for the corpus, or None when it is absent."""
    if not corpus.is_dir():
        return None
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(repeat):
            healthy, projected = Path(tmp) / f"healthy{i}", Path(tmp) / f"projected{i}"
            start = time.perf_counter()
            _run("import", "chat", str(corpus), "--out", str(healthy))
            _run("project", "--all", str(healthy), "--out", str(projected))
            times.append(time.perf_counter() - start)
        runs = len(list(healthy.glob("*.yaml")))
        drills, failing = check_all(projected)
    return {"seconds": statistics.median(times), "runs": runs, "drills": drills, "failing": failing}


def other_shapes() -> dict:
    """``{"seconds", "drills", "failing"}`` for the recorded OTel and OpenInference runs."""
    with tempfile.TemporaryDirectory() as tmp:
        healthy, projected = Path(tmp) / "healthy", Path(tmp) / "projected"
        start = time.perf_counter()
        for importer, name in OTHER_SHAPES:
            _run("import", importer, str(FIXTURES / name), "--out", str(healthy))
        _run("project", "--all", str(healthy), "--out", str(projected))
        seconds = time.perf_counter() - start
        drills, failing = check_all(projected)
    return {"seconds": seconds, "drills": drills, "failing": failing}


def results(repeat: int = 3, corpus: Path = CORPUS) -> list[dict]:
    """Rows for ``run.py`` (the corpus row says it was skipped when the corpus is absent)."""
    rows = []
    m = measure(corpus, repeat)
    if m is None:
        rows.append({"name": "tau-bench projection", "value": "skipped", "goal": "< 60 s, >= 100 drills",
                     "ratio": f"corpus not found at {corpus}", "ok": None})
    else:
        rows.append({
            "name": f"tau-bench import + project --all ({m['runs']} runs -> {m['drills']} drills with twins, "
                    f"{m['failing']} failing validate/check)",
            "value": f"{m['seconds']:.2f} s",
            "goal": f"< {GOAL_SECONDS:g} s, >= {GOAL_DRILLS} drills (whole processes)",
            "ratio": f"{m['seconds'] / GOAL_SECONDS:.2f}x of goal",
            "ok": m["seconds"] < GOAL_SECONDS and m["drills"] >= GOAL_DRILLS and m["failing"] == 0,
        })
    o = other_shapes()
    rows.append({
        "name": f"OTel + OpenInference runs projected ({o['drills']} drills, {o['failing']} failing)",
        "value": f"{o['seconds']:.2f} s", "goal": "every drill passes validate and check", "ratio": "-",
        "ok": o["drills"] > 0 and o["failing"] == 0,
    })
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=CORPUS, help="the folder of healthy tau-bench runs")
    ap.add_argument("--repeat", type=int, default=3, help="runs; the median is reported")
    ap.add_argument("--profile", action="store_true", help="print a cProfile of one in-process projection")
    args = ap.parse_args()
    for row in results(args.repeat, args.corpus):
        print(f"{row['name']}: {row['value']} (goal {row['goal']}; {row['ratio']})")
    if args.profile and args.corpus.is_dir():
        from warroom.core.projection import Options, damage_rules, project_all, read_source, survey

        with tempfile.TemporaryDirectory() as tmp:
            _run("import", "chat", str(args.corpus), "--out", tmp)
            rules = damage_rules([])[0]
            prof = cProfile.Profile()
            for path in sorted(Path(tmp).glob("*.yaml")):
                prof.runcall(project_all, survey(read_source(path), rules), Options())
            pstats.Stats(prof).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
