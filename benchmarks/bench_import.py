"""Benchmark: the whole shared Who&When corpus imported into drills (``warroom import who-and-when``).

Run: ``.venv/bin/python benchmarks/bench_import.py [--corpus DIR] [--repeat R] [--profile]``

Times (median of R) ``warroom import who-and-when CORPUS --out TMP`` as a whole process, into a fresh folder each
time; the goal is under 5 s for the 130 records of the shared Who&When corpus (``../shared/corpora/who-and-when``
beside the checkout, or ``$WARROOM_WHO_AND_WHEN``). Every written drill is
then loaded and validated once (untimed), so a fast but broken import does not count. Skipped, with a message,
when the corpus is absent. It also times how long a 210 MB record takes to be refused (goal < 100 ms: the size is
checked before a byte is read). ``--profile`` prints a cProfile of one in-process import. Figures only: nothing here
asserts on timing.
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

CORPUS = Path(os.environ["WARROOM_WHO_AND_WHEN"]) if os.environ.get("WARROOM_WHO_AND_WHEN") else (
    Path(__file__).resolve().parent.parent.parent / "shared" / "corpora" / "who-and-when")


def warroom_cmd() -> list[str]:
    """The installed ``warroom`` script next to this Python, else ``python -m warroom``."""
    script = Path(sys.executable).with_name("warroom")
    return [str(script)] if script.exists() else [sys.executable, "-m", "warroom"]


def measure(corpus: Path, repeat: int) -> dict | None:
    """``{"seconds", "records", "drills", "invalid"}``, or None when the corpus is absent."""
    from warroom.core.load import DrillLoadError, load_drill
    from warroom.importers.kit import find_input_files
    from warroom.importers.who_and_when import IMPORTER

    if not corpus.is_dir():
        return None
    records = len(find_input_files([corpus], IMPORTER.suffixes))
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(repeat):
            out = Path(tmp) / f"out{i}"
            start = time.perf_counter()
            proc = subprocess.run(
                [*warroom_cmd(), "import", "who-and-when", str(corpus), "--out", str(out)],
                capture_output=True,
                text=True,
            )
            times.append(time.perf_counter() - start)
            if proc.returncode not in (0, 1):
                raise SystemExit(f"warroom import failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
        drills = sorted(out.glob("*.yaml"))
        invalid = 0
        for path in drills:
            try:
                load_drill(path)
            except DrillLoadError:
                invalid += 1
    return {"seconds": statistics.median(times), "records": records, "drills": len(drills), "invalid": invalid}


def refuse_huge(megabytes: int = 210) -> float:
    """Seconds for ``read_record`` to refuse a ``megabytes`` MB record file (a sparse file: no disk space used)."""
    from warroom.importers.who_and_when import RecordError, read_record

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "huge.json"
        with path.open("wb") as f:
            f.truncate(megabytes * 1_000_000)
        start = time.perf_counter()
        try:
            read_record(path)
        except RecordError:
            return time.perf_counter() - start
    raise SystemExit("a 210 MB record was accepted")


def results(repeat: int = 3, corpus: Path = CORPUS) -> list[dict]:
    """Rows for ``run.py`` (the corpus row says it was skipped when the corpus is absent)."""
    huge = refuse_huge()
    huge_row = {"name": "Who&When record of 210 MB refused", "value": f"{huge * 1000:.1f} ms",
                "goal": "< 100 ms (size checked before reading)", "ratio": f"{huge / 0.1:.3f}x of goal",
                "ok": huge < 0.1}
    return [*_corpus_rows(repeat, corpus), huge_row]


def _corpus_rows(repeat: int, corpus: Path) -> list[dict]:
    m = measure(corpus, repeat)
    if m is None:
        return [{"name": "Who&When import", "value": "skipped", "goal": "< 5 s",
                 "ratio": f"corpus not found at {corpus}", "ok": None}]
    return [
        {
            "name": f"Who&When import ({m['records']} records -> {m['drills']} drills, {m['invalid']} invalid)",
            "value": f"{m['seconds']:.2f} s",
            "goal": "< 5 s (whole process)",
            "ratio": f"{m['seconds'] / 5:.2f}x of goal",
            "ok": m["seconds"] < 5 and m["invalid"] == 0,
        }
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=CORPUS, help="the Who&When corpus folder")
    ap.add_argument("--repeat", type=int, default=3, help="runs; the median is reported")
    ap.add_argument("--profile", action="store_true", help="print a cProfile of one in-process import")
    args = ap.parse_args()
    print(f"a 210 MB record refused in {refuse_huge() * 1000:.1f} ms (goal < 100 ms)")
    m = measure(args.corpus, args.repeat)
    if m is None:
        print(f"skipped: no Who&When corpus at {args.corpus} (set WARROOM_WHO_AND_WHEN or pass --corpus)")
        return
    print(
        f"imported {m['records']} records into {m['drills']} drills ({m['invalid']} fail to validate) in "
        f"{m['seconds']:.2f} s as a whole process (median of {args.repeat}; goal < 5 s)"
    )
    if args.profile:
        from warroom.importers.who_and_when import import_records

        with tempfile.TemporaryDirectory() as tmp:
            prof = cProfile.Profile()
            prof.runcall(import_records, [args.corpus], Path(tmp) / "out")
            pstats.Stats(prof).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
