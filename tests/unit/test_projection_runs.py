"""Drills of one healthy run (issue 30, campaign 13): projections of one run share every event but the fault's, so a
trainee who has seen one finds another's fault by the event that differs. The run is found from the drills
themselves (:func:`warroom.core.library.run_fingerprint`), whatever their ids and titles; a drill set holding two
drills of one run is warned about (a practice set) or refused (an assessment set) at the second's line; ``warroom
project --all`` ends with the projections each run gave and the rule."""

from __future__ import annotations

import copy
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from projection_support import RUNS, imported

from warroom.cli import main
from warroom.core.library import bundled_drills_dir, drill_set_problems, resolve_set_drills, run_fingerprint
from warroom.core.load import load_drill, load_drill_set
from warroom.core.model import Drill, LogEvent, twin_of
from warroom.core.projection import Options, damage_rules, project, read_source, sites_of, survey
from warroom.importers.kit import dump_drill_yaml

RUN = "retail-air-purifier-return"
OTHER = "node-pool-upgrade-prod-eu"


def bundled(drill_id: str) -> Path:
    return bundled_drills_dir() / f"{drill_id}.yaml"


@pytest.fixture(scope="module")
def projections():
    """Two projections of the bundled run, each with every distractor template (a retried 429, a slow call, a
    deprecation warning) where its own seed put them."""
    surveyed = survey(read_source(bundled(RUN)), damage_rules([])[0])
    return [project(surveyed, template, None, Options(distractors=3)) for template in ("stale-data", "unit-confusion")]


def as_drill(data: dict) -> Drill:
    return Drill.model_validate(data)


def renamed(data: dict, drill_id: str, title: str) -> dict:
    out = copy.deepcopy(data)
    out.update(id=drill_id, title=title, source="hand-written", author="someone else", tags=["retail"])
    return out


def test_two_projections_of_one_run_are_one_run_after_renaming_ids_and_titles(projections):
    first, second = (as_drill(p.data) for p in projections)
    # what the projection added around the run differs: the two healthy runs are not the same events as written
    assert [e.model_dump() for e in twin_of(first).trace] != [e.model_dump() for e in twin_of(second).trace]
    assert any(isinstance(e, LogEvent) for e in twin_of(first).trace)
    one = as_drill(renamed(projections[0].data, "week-3-returns", "A purifier comes back"))
    two = as_drill(renamed(projections[1].data, "q4-refund-check", "Refund before the holidays"))
    assert run_fingerprint(one) == run_fingerprint(two) == run_fingerprint(first) == run_fingerprint(second)
    # the bundled drill the run came from (a fault drill whose twin is that run) is the same run too
    assert run_fingerprint(load_drill(bundled(RUN))) == run_fingerprint(first)
    assert len(run_fingerprint(first)) == 12 and int(run_fingerprint(first), 16) >= 0


def test_every_projection_of_an_imported_run_is_one_run_whatever_its_distractors_and_stretching(tmp_path: Path):
    """Each projection with every distractor (a retried 429, a slow call, a deprecation warning) and the clock
    stretched for the reading window: one run per imported trace, another for each trace."""
    runs = {}
    for run in RUNS:
        surveyed = survey(read_source(imported(tmp_path, run)), damage_rules([])[0])
        made = [project(surveyed, s.template, s.event, Options(distractors=3)) for s in sites_of(surveyed) if s.ok]
        notes = " ".join(n for p in made for n in p.notes)
        assert "HTTP 429" in notes and "duration_ms" in notes and "deprecation warning" in notes, run
        assert len(made) >= 2 and len({run_fingerprint(as_drill(p.data)) for p in made}) == 1, run
        runs[run] = run_fingerprint(as_drill(made[0].data))
    assert len(set(runs.values())) == len(RUNS)


def test_drills_of_other_runs_are_other_runs(projections):
    other = load_drill(bundled(OTHER))
    assert run_fingerprint(other) != run_fingerprint(as_drill(projections[0].data))
    library = [load_drill(p) for p in sorted(bundled_drills_dir().glob("*.yaml"))]
    runs = {run_fingerprint(d) for d in library}
    assert len(runs) == len(library)  # the bundled library holds no two drills of one run


def test_a_changed_tool_result_in_the_healthy_run_is_another_run(projections):
    data = copy.deepcopy(projections[0].data)
    data["twin"]["replace"] = {**data["twin"]["replace"]}
    event, fields = next(iter(data["twin"]["replace"].items()))
    output = fields["output"]
    changed = output + " " if isinstance(output, str) else {**output, "extra": 1}
    data["twin"]["replace"][event] = {**fields, "output": changed}
    assert run_fingerprint(as_drill(data)) != run_fingerprint(as_drill(projections[0].data))


def written(folder: Path, projection, drill_id: str, title: str) -> str:
    path = folder / f"{drill_id}.yaml"
    path.write_text(dump_drill_yaml(renamed(projection.data, drill_id, title)), encoding="utf-8")
    return path.name


def set_file(tmp_path: Path, projections, mode: str = "practice") -> Path:
    a = written(tmp_path, projections[0], "week-3-returns", "A purifier comes back")
    b = written(tmp_path, projections[1], "q4-refund-check", "Refund before the holidays")
    path = tmp_path / "week-3.set.yaml"
    path.write_text(f"set: week-3\ntitle: Week 3\nmode: {mode}\ndrills:\n  - {a}\n  - {OTHER}\n  - {b}\n",
                    encoding="utf-8")
    return path


MESSAGE = ("the drill 'q4-refund-check' is from the same healthy run as item 1, 'week-3-returns' (run {run}: most of "
           "its events the same, apart from where a fault was put): a trainee who has played one of them, or its "
           "noise trial, finds the other's fault by the event that differs, without reading it; ")


def test_a_practice_set_with_two_drills_of_one_run_warns_at_the_second(tmp_path: Path, projections):
    path = set_file(tmp_path, projections)
    run = run_fingerprint(as_drill(projections[0].data))
    assert drill_set_problems(path) == []  # a usable set: nothing to refuse
    [warning] = drill_set_problems(path, warnings=True)
    assert (warning.line, warning.column, warning.severity, warning.rule) == (7, 5, "warning", "same-run")
    assert warning.message == MESSAGE.format(run=run) + "keep one in a set that counts and play the others for practice"
    assert resolve_set_drills(load_drill_set(path), path)[1] == []  # played as it is
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert f"{path}:7:5: warning: the drill 'q4-refund-check' is from the same healthy run" in result.output
    assert "1 drill set checked: 1 valid, 0 invalid (1 warning)" in result.output


def test_an_assessment_set_with_two_drills_of_one_run_is_refused(tmp_path: Path, projections):
    path = set_file(tmp_path, projections, mode="assessment")
    run = run_fingerprint(as_drill(projections[0].data))
    [problem] = resolve_set_drills(load_drill_set(path), path)[1]
    assert (problem.line, problem.column, problem.severity) == (7, 5, "error")
    assert problem.message == MESSAGE.format(run=run) + (
        "a set played as an assessment holds at most one drill of each run: keep one here and play the others in a "
        "practice set")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1 and "1 drill set checked: 0 valid, 1 invalid (1 problem)" in result.output


def test_a_practice_set_played_as_an_assessment_is_refused(tmp_path: Path, projections, monkeypatch):
    from warroom.core.load import DrillSetError
    from warroom.tui.logic import load_active_set

    path = set_file(tmp_path, projections)
    assert len(load_active_set(path).drills) == 3  # played as practice: as it is
    with pytest.raises(DrillSetError) as refused:
        load_active_set(path, assessment=True)
    [problem] = refused.value.problems
    assert (problem.line, problem.column, problem.severity) == (7, 5, "error")
    assert "a set played as an assessment holds at most one drill of each run" in problem.message
    monkeypatch.setattr("warroom.tui.app.launch", lambda *a, **k: pytest.fail("the picker opened"))
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "data"), "--mode", "assessment", "--set",
                                       str(path)])
    assert result.exit_code == 1
    assert f"{path}:7:5: the drill 'q4-refund-check' is from the same healthy run as item 1" in result.output


def test_one_drill_of_each_run_gives_no_warning(tmp_path: Path, projections):
    a = written(tmp_path, projections[0], "week-3-returns", "A purifier comes back")
    path = tmp_path / "one.set.yaml"
    path.write_text(f"set: one\ntitle: One\nmode: assessment\ndrills: [{a}, {OTHER}]\n", encoding="utf-8")
    assert drill_set_problems(path, warnings=True) == []


def test_project_all_ends_with_the_projections_of_each_run_and_the_rule(tmp_path: Path):
    source = tmp_path / "healthy"
    source.mkdir()
    shutil.copy(bundled(RUN), source)
    result = CliRunner().invoke(main, ["project", "--all", str(source), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    written_files = sorted((tmp_path / "out").glob("*.yaml"))
    lines = result.output.strip().splitlines()
    assert lines[-2] == f"Projections per healthy run: {RUN}.yaml {len(written_files)}."
    assert lines[-1] == (
        "Drills projected from one run share every event but the fault's, so a trainee who has seen one finds "
        "another's fault by the event that differs: put at most one projection of each run in a drill set that "
        "counts (an assessment set holding two is refused) and keep the others for practice.")
    assert len({run_fingerprint(load_drill(f)) for f in written_files}) == 1


def test_past_ten_runs_the_others_are_counted():
    from warroom.cli.author._project import _per_run

    folder = Path("/runs")
    counts = {f"/runs/r{i:02}.yaml": 20 - i for i in range(13)}
    first = _per_run(folder, counts).splitlines()[0]
    assert first == ("Projections per healthy run: r00.yaml 20, r01.yaml 19, r02.yaml 18, r03.yaml 17, r04.yaml 16, "
                     "r05.yaml 15, r06.yaml 14, r07.yaml 13, r08.yaml 12, r09.yaml 11 and 3 more runs (8 to 10 each).")


@pytest.mark.parametrize("own", [{"error": None}, {"warnings": []}, {"partial": False}, {"source": "primary"}])
def test_every_projection_of_a_run_whose_results_say_a_sound_field_is_one_run(tmp_path: Path, own: dict) -> None:
    """A run whose tool results already say `error: null` (or `warnings: []` ...): the projection at one result
    kept that field in the other results and dropped it from its twin's, so each projection was another run (a short
    run's, below the near match's reach, twice in an assessment set). The run's own field is kept in every one."""
    import json

    import yaml

    data = yaml.safe_load(bundled(RUN).read_text(encoding="utf-8"))
    changes = [e for e in data["trace"] if e.get("kind") == "tool_result"]
    changes += [c for c in data["twin"]["replace"].values() if "output" in c]
    for event in changes:
        if isinstance(event.get("output"), str) and event["output"].startswith("{"):
            event["output"] = json.dumps({**json.loads(event["output"]), **own})
    path = tmp_path / "run.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    surveyed = survey(read_source(path), damage_rules([])[0])
    made = [project(surveyed, s.template, s.event, Options()) for s in sites_of(surveyed) if s.ok]
    assert len({s.event for s in sites_of(surveyed) if s.ok}) >= 3
    assert len({run_fingerprint(as_drill(p.data)) for p in made}) == 1
