"""Benchmark: start-up of the ``warroom`` command as whole processes, and which commands import heavy packages.

Run: ``.venv/bin/python benchmarks/bench_startup.py [--repeat R] [--sessions N]``

Times (median of R) ``warroom --help`` (goal < 0.3 s) and ``warroom validate drills`` over the bundled library
(goal < 1 s), each a fresh process, as a user runs them. Then the CPU time (user + system, median of R) of a few
everyday commands as fresh processes: ``--help``, ``scores summary --help``, ``scores list`` and ``scores summary``
on a store of N generated sessions (default 1,000: start-up, not the query, is what is measured), ``validate`` of
one drill, ``schema``. Then, for every command that needs no terminal UI, runs it in a fresh interpreter and
reports which of Textual, matplotlib, psycopg, ruamel and OpenTelemetry it imported (goal: none). ``python -X
importtime -m warroom ARGS`` shows where start-up time goes. Figures only: nothing here asserts on timing.

With ``PYTHONDONTWRITEBYTECODE`` set (as on the CI machine), every warroom module is compiled from source in every
process, which adds about a third to the start-up; the figures say which way they were taken.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: Run in a fresh interpreter: invoke the click group in-process with the given arguments, then print the
#: heavy packages that got imported (as JSON: the top-level package names).
_PROBE = """
import json, sys
from warroom.cli import main
try:
    main(sys.argv[1:], prog_name="warroom", standalone_mode=False)
except SystemExit:
    pass
heavy = ("textual", "matplotlib", "psycopg", "ruamel", "opentelemetry")
print("\\n@@" + json.dumps(sorted({m.split(".")[0] for m in sys.modules if m.split(".")[0] in heavy})))
"""


def warroom_cmd() -> list[str]:
    """The installed ``warroom`` script next to this Python, else ``python -m warroom``."""
    script = Path(sys.executable).with_name("warroom")
    return [str(script)] if script.exists() else [sys.executable, "-m", "warroom"]


def drills_dir() -> Path:
    from warroom.core.library import bundled_drills_dir

    return bundled_drills_dir()


def timed(args: list[str], repeat: int) -> float:
    """Median wall time (s) of ``warroom ARGS`` as a fresh process (exit status 0 required)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.run([*warroom_cmd(), *args], capture_output=True, text=True, cwd=ROOT)
        times.append(time.perf_counter() - start)
        if proc.returncode != 0:
            raise SystemExit(f"warroom {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return statistics.median(times)


def cpu_time(args: list[str], repeat: int) -> float:
    """Median CPU time (s, user + system of the child) of ``warroom ARGS`` as a fresh process (exit status 0)."""
    import resource

    times = []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        proc = subprocess.run([*warroom_cmd(), *args], capture_output=True, text=True, cwd=ROOT)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if proc.returncode != 0:
            raise SystemExit(f"warroom {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
        times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(times)


def cpu_commands(data_dir: Path) -> dict[str, list[str]]:
    """The everyday commands whose CPU time is reported: label -> arguments (``data_dir`` holds a filled store)."""
    one = sorted(drills_dir().glob("*.yaml"))[0]
    data = ["--data-dir", str(data_dir)]
    return {
        "--help": ["--help"],
        "scores summary --help": ["scores", "summary", "--help"],
        "scores list": [*data, "scores", "list"],
        "scores summary": [*data, "scores", "summary"],
        "validate DRILL": ["validate", str(one)],
        "schema": ["schema"],
    }


def heavy_imports(args: list[str]) -> list[str]:
    """The heavy packages (Textual, matplotlib, psycopg, ruamel, OpenTelemetry) imported by running
    ``warroom ARGS`` in a fresh interpreter."""
    proc = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, cwd=ROOT)
    marker = proc.stdout.rfind("\n@@")
    if marker < 0:
        raise SystemExit(f"warroom {' '.join(args)}: no probe output\n{proc.stdout[-1000:]}\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout[marker + 3 :])


def non_tui_commands(tmp: Path) -> list[list[str]]:
    """Every command that needs no terminal UI, with arguments that make it do real work."""
    drills = drills_dir()
    one = sorted(drills.glob("*.yaml"))[0]
    data = ["--data-dir", str(tmp / "data")]
    return [
        ["--help"],
        ["--version"],
        ["validate", str(drills)],
        ["schema"],
        ["check", str(one)],
        ["cost", str(one)],
        ["cost", "--example"],
        ["scores", *data],
        ["scores", "--summary", *data],
        ["scores", "list", "--data-dir", str(tmp / "store")],
        ["scores", "summary", "--data-dir", str(tmp / "store")],
        ["store", "status", "--data-dir", str(tmp / "store")],
        ["new", "--help"],
        ["import", "--help"],
        ["import", "who-and-when", "--help"],
        ["run", "--help"],
        ["review", "--help"],
    ]


def measure(repeat: int, sessions: int = 1000) -> dict:
    from bench_results import fill

    drills = drills_dir()
    out: dict = {
        "help": timed(["--help"], repeat),
        "validate": timed(["validate", str(drills)], repeat),
        "drills": len(list(drills.glob("*.yaml"))),
        "sessions": sessions,
        "bytecode": not sys.flags.dont_write_bytecode,
    }
    with tempfile.TemporaryDirectory() as tmp:
        fill(Path(tmp) / "store", sessions)
        out["cpu"] = {label: cpu_time(args, repeat) for label, args in cpu_commands(Path(tmp) / "store").items()}
        out["heavy"] = {" ".join(a).replace(tmp, "TMP"): heavy_imports(a) for a in non_tui_commands(Path(tmp))}
    return out


def results(repeat: int = 5) -> list[dict]:
    """Rows for ``run.py``."""
    m = measure(repeat)
    importing = [cmd for cmd, mods in m["heavy"].items() if mods]
    cpu_rows = [
        {
            "name": f"warroom {label} (process CPU, {m['sessions']:,} sessions)",
            "value": f"{cpu * 1000:.0f} ms",
            "goal": "(info)",
            "ratio": "",
            "ok": True,
        }
        for label, cpu in m["cpu"].items()
    ]
    return [
        {
            "name": "warroom --help (process)",
            "value": f"{m['help'] * 1000:.0f} ms",
            "goal": "< 300 ms",
            "ratio": f"{m['help'] / 0.3:.2f}x of goal",
            "ok": m["help"] < 0.3,
        },
        {
            "name": f"warroom validate drills ({m['drills']} drills)",
            "value": f"{m['validate'] * 1000:.0f} ms",
            "goal": "< 1 s",
            "ratio": f"{m['validate']:.2f}x of goal",
            "ok": m["validate"] < 1.0,
        },
        *cpu_rows,
        {
            "name": f"non-TUI commands importing Textual/matplotlib/psycopg/ruamel/OTel ({len(m['heavy'])} checked)",
            "value": str(len(importing)) + (f": {', '.join(importing)}" if importing else ""),
            "goal": "0",
            "ratio": "",
            "ok": not importing,
        },
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5, help="runs of each command; the median is reported")
    ap.add_argument("--sessions", type=int, default=1000, help="sessions in the store `scores` reads")
    args = ap.parse_args()
    m = measure(args.repeat, args.sessions)
    print(f"warroom --help:            {m['help'] * 1000:6.0f} ms (goal < 300 ms)")
    print(f"warroom validate drills:   {m['validate'] * 1000:6.0f} ms for {m['drills']} drills (goal < 1 s)")
    written = "bytecode cached" if m["bytecode"] else "PYTHONDONTWRITEBYTECODE: compiled from source every run"
    print(f"CPU time of a fresh process (user + system; {m['sessions']:,} sessions in the store; {written}):")
    for label, cpu in m["cpu"].items():
        print(f"  warroom {label:30} {cpu * 1000:6.0f} ms")
    print("Textual, matplotlib, psycopg, ruamel or OpenTelemetry imported by commands that need no terminal UI:")
    for cmd, mods in m["heavy"].items():
        print(f"  warroom {cmd:40} {'NONE' if not mods else ', '.join(mods)}")


if __name__ == "__main__":
    main()
