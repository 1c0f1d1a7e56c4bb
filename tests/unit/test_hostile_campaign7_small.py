"""Campaign 7's small leftovers (issue 30, the brief of h33b): each fixed, each with the value it must have."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from scores_support import run_sub
from stats_support import add

from warroom.store.results import ResultsStore


def _balanced_trainee(data_dir: Path) -> Path:
    """ana: 5 hits of 10 signal trials and 3 false alarms of 6 noise trials, so that the corrected rates are
    H = 5.5/11 = 0.5 and F = 3.5/7 = 0.5: c = -(0 + 0)/2, a negative zero in floating point."""
    with ResultsStore(data_dir) as store:
        for i in range(10):
            add(store, f"s{i:02d}", "ana", f"fault-{i:02d}", "contained" if i < 5 else "missed", 50)
        for i in range(6):
            add(store, f"n{i:02d}", "ana", f"calm-{i:02d}", "false_alarm" if i < 3 else "all_clear_held", 50,
                all_clear=True)  # fmt: skip
    return data_dir


def test_no_negative_zero_in_the_summary_exports(tmp_path: Path) -> None:
    data = _balanced_trainee(tmp_path)
    r = run_sub(data, "summary", "--format", "json")
    assert r.exit_code == 0, r.output
    assert "-0.0" not in r.output
    ana = json.loads(r.output)["trainees"][0]
    assert ana["criterion_c"] == 0.0 and ana["d_prime"] == 0.0
    r = run_sub(data, "summary", "--format", "csv")
    row = next(row for row in csv.DictReader(io.StringIO(r.output)) if row["name"] == "ana")
    assert row["criterion_c"] == "0.0"
    table = run_sub(data, "summary", env={"COLUMNS": "200"}).output
    assert "-0.00" not in table
