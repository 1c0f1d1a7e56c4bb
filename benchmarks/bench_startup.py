"""Benchmark: start-up of the ``warroom`` command as whole processes, and which commands import Textual.

Run: ``.venv/bin/python benchmarks/bench_startup.py [--repeat R]``

Times (median of R) ``warroom --help`` (goal < 0.3 s) and ``warroom validate drills`` over the bundled library
(goal < 1 s), each a fresh process, as a user runs them. Then, for every command that needs no terminal UI, runs
it in a fresh interpreter and reports whether any ``textual`` module was imported (goal: none). ``python -X
importtime`` shows where start-up time goes. Figures only: nothing here asserts on timing.
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
#: textual modules that got imported (as JSON).
_PROBE = """
import json, sys
from warroom.cli import main
try:
    main(sys.argv[1:], prog_name="warroom", standalone_mode=False)
except SystemExit:
    pass
print("\\n@@" + json.dumps(sorted(m for m in sys.modules if m == "textual" or m.startswith("textual."))))
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


def textual_imports(args: list[str]) -> list[str]:
    """The ``textual`` modules imported by running ``warroom ARGS`` in a fresh interpreter."""
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
        ["new", "--help"],
        ["import", "--help"],
        ["import", "who-and-when", "--help"],
        ["run", "--help"],
        ["review", "--help"],
    ]


def measure(repeat: int) -> dict:
    drills = drills_dir()
    out = {
        "help": timed(["--help"], repeat),
        "validate": timed(["validate", str(drills)], repeat),
        "drills": len(list(drills.glob("*.yaml"))),
    }
    with tempfile.TemporaryDirectory() as tmp:
        out["textual"] = {" ".join(a).replace(tmp, "TMP"): textual_imports(a) for a in non_tui_commands(Path(tmp))}
    return out


def results(repeat: int = 5) -> list[dict]:
    """Rows for ``run.py``."""
    m = measure(repeat)
    importing = [cmd for cmd, mods in m["textual"].items() if mods]
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
        {
            "name": f"non-TUI commands importing Textual ({len(m['textual'])} checked)",
            "value": str(len(importing)) + (f": {', '.join(importing)}" if importing else ""),
            "goal": "0",
            "ratio": "",
            "ok": not importing,
        },
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5, help="runs of each command; the median is reported")
    args = ap.parse_args()
    m = measure(args.repeat)
    print(f"warroom --help:            {m['help'] * 1000:6.0f} ms (goal < 300 ms)")
    print(f"warroom validate drills:   {m['validate'] * 1000:6.0f} ms for {m['drills']} drills (goal < 1 s)")
    print("Textual imported by commands that need no terminal UI:")
    for cmd, mods in m["textual"].items():
        print(f"  warroom {cmd:40} {'NONE' if not mods else f'{len(mods)} modules, e.g. ' + mods[0]}")


if __name__ == "__main__":
    main()
