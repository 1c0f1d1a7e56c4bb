"""Shared helpers of the projection tests (``warroom project``): the healthy runs of tests/fixtures/projection
imported as drills (by ``warroom import``, as an author would), and what every projected drill must be."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from locations import REPO, TESTS

from warroom.cli import main

#: The healthy runs the projection tests start from, recorded or written in their formats' documented shapes.
HEALTHY = TESTS / "fixtures" / "projection"
#: Each healthy run: (the import that reads it, its file, the id of the drill it imports as).
RUNS = {
    "tau": ("chat", HEALTHY / "tau-retail-healthy.json", "chat-tau-retail-healthy-0"),
    "otel": ("otel", HEALTHY / "otel-billing-refund.json", "otel-billing-refund"),
    "openinference": ("openinference", HEALTHY / "openinference-helpdesk-unlock.jsonl",
                      "openinference-helpdesk-unlock"),
}


def corpus_dir() -> Path | None:
    """The shared corpus of healthy tau-bench retail runs (``$WARROOM_TAU_RETAIL``, else next to the checkout), or
    None when it is absent: the tests that need it skip."""
    given = os.environ.get("WARROOM_TAU_RETAIL")
    candidates = [Path(given)] if given else [REPO.parent / "shared"]
    for base in candidates:
        d = base if given else base / "corpora" / "agentrx" / "tau-retail" / "clean"
        if d.is_dir():
            return d
    return None


def imported(tmp_path: Path, run: str = "tau") -> Path:
    """The healthy run ``run`` of :data:`RUNS` imported into ``tmp_path/healthy`` by ``warroom import``: its path."""
    importer, source, drill_id = RUNS[run]
    out = tmp_path / "healthy"
    result = CliRunner().invoke(main, ["import", importer, str(source), "--out", str(out), "--force"])
    assert result.exit_code == 0, result.output
    return out / f"{drill_id}.yaml"


def structured(output: Any) -> Any:
    """A result's output as data (a JSON text parsed)."""
    return json.loads(output) if isinstance(output, str) else output
