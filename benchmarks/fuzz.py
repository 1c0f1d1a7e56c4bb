"""A long fuzzing campaign over the drill loader, the session journal and recovery, and the Who&When importer.

Run: ``.venv/bin/python benchmarks/fuzz.py [--scale N] [--seed N] [--known] [--only loader journal importer]``

It runs the fuzz tests of ``tests/fuzz`` with ``WARROOM_FUZZ=long``: each test tries ``--scale`` times its default
number of inputs (default 100: about 100,000 inputs in all, roughly half an hour on one core), from a random seed
(or ``--seed``), shrinking each failure to a minimal input. ``--known`` also runs the tests of bugs already known
(marked xfail), so their minimal inputs are printed too. At the end it prints every failing property with its
minimal input, and the seed to replay the campaign. Exit status: 0 when nothing was found, 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"loader": "test_loader_fuzz.py", "journal": "test_journal_fuzz.py", "importer": "test_importer_fuzz.py"}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=100, help="inputs per test, as a multiple of the default run's")
    ap.add_argument("--seed", type=int, help="replay a campaign (default: a random seed, printed)")
    ap.add_argument("--known", action="store_true", help="also run the tests of known bugs (xfail)")
    ap.add_argument("--only", nargs="+", choices=sorted(TARGETS), help="fuzz only these targets")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    files = [str(ROOT / "tests" / "fuzz" / TARGETS[t]) for t in (args.only or TARGETS)]
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rfEX", f"--hypothesis-seed={seed}",
           "--hypothesis-show-statistics", *files]
    if args.known:
        cmd.append("--runxfail")
    env = {**os.environ, "WARROOM_FUZZ": "long", "WARROOM_FUZZ_SCALE": str(args.scale)}
    print(f"fuzzing {', '.join(args.only or TARGETS)} at {args.scale}x the default budget, seed {seed}", flush=True)
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    out = proc.stdout + proc.stderr
    print(out)
    failing = sorted(set(re.findall(r"^FAILED (\S+)", out, flags=re.MULTILINE)))
    print(f"--- {elapsed:.0f} s, seed {seed} (replay: benchmarks/fuzz.py --seed {seed} --scale {args.scale}"
          f"{' --known' if args.known else ''})")
    if not failing:
        print("found nothing: every property held")
        return 0 if proc.returncode == 0 else proc.returncode
    print(f"found {len(failing)} failing propert{'y' if len(failing) == 1 else 'ies'} (minimal inputs above):")
    for name in failing:
        print(f"  {name}")
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
