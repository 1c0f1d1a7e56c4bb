"""The briefing writes model prices as every other screen does (``fmt.usd_price``), not with ``:g``.

Found as a new trainee: the briefing said ``executor executor-small  $0.8 / $4`` while the inspector of the same
drill said ``at $0.80 / $4 per Mtok``; ``:g`` also writes ``$1234.5`` and ``$1e-06``.
"""

from __future__ import annotations

from core_support import drill_dict, make_drill
from rich.console import Console

from warroom.tui.screens import briefing_text


def _briefing(planner: tuple[float, float], executor: tuple[float, float]) -> str:
    d = drill_dict()
    models = d["models"]
    models["planner"] = {**models["planner"], "input_usd_per_mtok": planner[0], "output_usd_per_mtok": planner[1]}
    models["executor"] = {**models["executor"], "input_usd_per_mtok": executor[0], "output_usd_per_mtok": executor[1]}
    console = Console(width=100, record=True, file=None, color_system=None)
    with console.capture() as capture:
        console.print(briefing_text(make_drill(models=models)))
    return capture.get()


def test_model_prices_in_the_briefing_are_written_as_usd():
    text = _briefing((1234.5, 15), (0.8, 0.000001))
    lines = [line.strip() for line in text.splitlines() if line.strip().startswith(("planner", "executor"))]
    assert lines[0].endswith("$1,234.50 / $15"), lines
    assert lines[1].endswith("$0.80 / $0.000001"), lines
