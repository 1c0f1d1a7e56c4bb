"""The run fingerprint of a unit-confusion projection on a result that names its own currency (docs/drill-sets.md):
the fault changes that currency and the twin gives the source's result back, whose `currency` the fingerprint
leaves out of a result a twin's `replace` gives (as it must for the currency a twin adds where the run named none:
from the drill alone the two are one shape), so that projection's fingerprint differs from its run's by that one
field, and the near match (`run_groups`) joins them: a drill set still holds one drill of the run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from projection_support import HEALTHY

from warroom.cli import main
from warroom.core.library import run_events, run_fingerprint, run_groups
from warroom.core.load import load_drill
from warroom.core.model import Drill
from warroom.core.projection import Options, damage_rules, project, read_source, survey


@pytest.fixture(scope="module")
def priced_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The healthy tau-bench run of the projection tests, imported by `warroom import chat`, whose results that hold
    prices say their currency (`"currency": "USD"`)."""
    tmp = tmp_path_factory.mktemp("priced")
    runs = json.loads((HEALTHY / "tau-retail-healthy.json").read_text(encoding="utf-8"))
    for message in runs[0]["traj"]:
        if message.get("role") == "tool" and message["content"].lstrip()[:1] == "{" and "price" in message["content"]:
            message["content"] = json.dumps({**json.loads(message["content"]), "currency": "USD"})
    (tmp / "priced.json").write_text(json.dumps(runs), encoding="utf-8")
    result = CliRunner().invoke(main, ["import", "chat", str(tmp / "priced.json"), "--out", str(tmp / "out")])
    assert result.exit_code == 0, result.output
    return tmp / "out" / "chat-priced-0.yaml"


def test_a_unit_confusion_on_a_result_naming_its_currency_is_of_its_run_by_the_near_match(priced_run: Path):
    found = survey(read_source(priced_run), damage_rules([])[0])
    run = priced_run.with_name("run.yaml")
    run.write_text(priced_run.read_text(encoding="utf-8") + "all_clear: {debrief: All fine.}\n", encoding="utf-8")
    source = load_drill(run)
    drills = {}
    for template in ("unit-confusion", "wrong-record"):
        projection = project(found, template, "m011", Options(distractors=0))
        assert '"currency": "USD"' in projection.twin["replace"]["m011"]["output"]  # the source's result
        drills[template] = Drill.model_validate({**projection.data, "twin": projection.twin})
    shown = next(e for e in drills["unit-confusion"].trace if e.id == "m011")
    assert '"currency": "EUR"' in shown.output  # the fault: the currency the result names, changed
    assert run_fingerprint(drills["wrong-record"]) == run_fingerprint(source)
    assert run_fingerprint(drills["unit-confusion"]) != run_fingerprint(source)  # by that one field
    assert run_groups([run_events(source), *(run_events(d) for d in drills.values())]) == [0, 0, 0]
