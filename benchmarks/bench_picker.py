"""Benchmark: what the drill picker reads at start-up (``Services.catalog()``), in fresh processes, on a big library.

Run: ``.venv/bin/python benchmarks/bench_picker.py [--copies N] [--repeat R] [--keep DIR]``

Builds a library of N copies of every bundled drill (each copy with an id of its own, ``ID-cN``, in a file of that
name; default 10 copies of the 34 bundled drills: 340 files, plus the 34 bundled ones the picker lists too), then
times, each in a fresh interpreter as a trainee's ``warroom`` would be: a **cold** start (no picker cache: every
file read and validated), a **warm** start (the cache written by the cold one), and a warm start after **10 files
were edited** (those read again). Figures are the median over R runs of wall time and CPU time (user + system of
the process, for ``catalog()`` only: imports excluded), and the size of the cache written. Run against a tree
without the cache (``PYTHONPATH=/path/to/older/checkout``) it times the cold start only, every start being one.
Figures only: nothing here asserts on timing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Run in a fresh interpreter: one ``catalog()`` over the library, timed; prints JSON.
_PROBE = """
import dataclasses, json, sys, time
from pathlib import Path
from warroom.tui.logic import Services
lib, data, cache = (Path(a) for a in sys.argv[1:4])
extra = {"cache_dir": cache} if "cache_dir" in {f.name for f in dataclasses.fields(Services)} else {}
services = Services(trainee="bench", data_dir=data, drill_dirs=(lib,), **extra)
wall, cpu = time.perf_counter(), time.process_time()
entries = services.catalog()
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
bad = [str(e.path) for e in entries if not e.ok]
import warroom
print(json.dumps({"wall": wall, "cpu": cpu, "entries": len(entries), "bad": bad, "cached": bool(extra),
                  "warroom": warroom.__file__}))
"""


def build_library(folder: Path, copies: int) -> int:
    """``copies`` copies of every bundled drill in ``folder``, each with its own id (``ID-cN``, its file name).
    Returns the number of files written."""
    from warroom.core.library import bundled_drills_dir

    folder.mkdir(parents=True, exist_ok=True)
    count = 0
    for src in sorted(bundled_drills_dir().glob("*.yaml")):
        text = src.read_text(encoding="utf-8")
        for n in range(copies):
            new_id = f"{src.stem}-c{n}"
            copy, found = re.subn(rf"^id: *{re.escape(src.stem)} *$", f"id: {new_id}", text, count=1, flags=re.M)
            if found != 1:
                raise SystemExit(f"{src}: no top-level `id: {src.stem}` line to rewrite")
            (folder / f"{new_id}.yaml").write_text(copy, encoding="utf-8")
            _age(folder / f"{new_id}.yaml", 3600)
            count += 1
    return count


def _age(path: Path, seconds: float) -> None:
    """Set ``path``'s modification time ``seconds`` in the past: a library is not being edited while the picker
    starts (a file modified in the last 2 s is read again at each start: ``cardcache.RECENT_NS``)."""
    then = time.time() - seconds
    os.utime(path, (then, then))


def probe(lib: Path, data: Path, cache: Path) -> dict:
    """One fresh process running ``catalog()`` over ``lib`` with the picker cache in ``cache``."""
    env = {**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH", str(ROOT))}
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, str(lib), str(data), str(cache)], capture_output=True, text=True, env=env,
        cwd=lib.parent,  # not the checkout: `python -c` puts the working directory first on sys.path
    )
    if proc.returncode != 0:
        raise SystemExit(f"the probe failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    if out["bad"]:
        raise SystemExit(f"drills that did not load: {out['bad'][:5]}")
    return out


def _edit(lib: Path, count: int, round_: int) -> None:
    """Edit ``count`` files of ``lib`` (a comment appended: a new size and mtime), differently each round."""
    for path in sorted(lib.glob("*.yaml"))[:count]:
        with path.open("a", encoding="utf-8") as f:
            f.write(f"# edited {round_}\n")
        _age(path, 60 - round_)


def measure(copies: int = 10, repeat: int = 3, keep: Path | None = None) -> dict:
    """Cold, warm and edited starts (medians of ``repeat``); the library is built in ``keep`` or a temporary folder."""
    base = keep or Path(tempfile.mkdtemp(prefix="warroom-picker-bench-"))
    lib, data, cache = base / "library", base / "data", base / "cache"
    try:
        if not lib.is_dir():
            build_library(lib, copies)
            time.sleep(2.2)  # the files' change times settle (cardcache.RECENT_NS): as in a library not just copied
        cold, warm, edited = [], [], []
        entries, cached = 0, False
        for r in range(repeat):
            shutil.rmtree(cache, ignore_errors=True)
            first = probe(lib, data, cache)
            cold.append(first)
            entries, cached = first["entries"], first["cached"]
            if not cached:
                continue
            warm.append(probe(lib, data, cache))
            _edit(lib, 10, r)
            edited.append(probe(lib, data, cache))
            time.sleep(2.2)  # the edits settle before the next round's cold start, whose cache then holds them
        size = sum(f.stat().st_size for f in cache.rglob("*") if f.is_file()) if cache.exists() else 0

        def med(runs: list[dict], key: str) -> float | None:
            return statistics.median(x[key] for x in runs) if runs else None

        return {
            "entries": entries,
            "cached": cached,
            "cache_bytes": size,
            **{f"{name}_{key}": med(runs, key) for name, runs in (("cold", cold), ("warm", warm), ("edited", edited))
               for key in ("wall", "cpu")},
        }
    finally:
        if keep is None:
            shutil.rmtree(base, ignore_errors=True)


def results(copies: int = 10, repeat: int = 3) -> list[dict]:
    """Rows for ``run.py``."""
    m = measure(copies, repeat)
    n = m["entries"]
    rows = [
        {
            "name": f"picker start, cold ({n} drills: every file read)",
            "value": f"{m['cold_wall']:.2f} s (CPU {m['cold_cpu']:.2f} s, {m['cold_cpu'] / n * 1000:.1f} ms a drill)",
            "goal": "(info: first start, or no cache)",
            "ratio": "",
            "ok": None,
        }
    ]
    if m["cached"]:
        rows += [
            {
                "name": f"picker start, warm ({n} drills, cache {m['cache_bytes'] / 1024:.0f} KiB)",
                "value": f"{m['warm_wall'] * 1000:.0f} ms (CPU {m['warm_cpu'] * 1000:.0f} ms)",
                "goal": "< 0.5 s",
                "ratio": f"{m['warm_wall'] / m['cold_wall']:.3f}x of cold",
                "ok": m["warm_wall"] < 0.5,
            },
            {
                "name": f"picker start, 10 of {n} drills edited",
                "value": f"{m['edited_wall'] * 1000:.0f} ms (CPU {m['edited_cpu'] * 1000:.0f} ms)",
                "goal": "< 0.5 s",
                "ratio": f"{m['edited_wall'] / m['cold_wall']:.3f}x of cold",
                "ok": m["edited_wall"] < 0.5,
            },
        ]
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--copies", type=int, default=10, help="copies of each bundled drill (default 10)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each start (default 3)")
    ap.add_argument("--keep", type=Path, help="build the library in DIR and keep it (reused when it exists)")
    args = ap.parse_args()
    if args.keep is not None:
        print(json.dumps(measure(args.copies, args.repeat, args.keep), indent=1))
        return
    for row in results(args.copies, args.repeat):
        print(f"{row['name']}: {row['value']}  goal {row['goal']}  {row['ratio']}")


if __name__ == "__main__":
    main()
