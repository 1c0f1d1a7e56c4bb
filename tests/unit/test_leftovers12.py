"""Issue 30's leftovers of the twelfth stop: drills of one healthy run found by a near match (an author who edits
one event of a projection, or adds one, does not make it another run), while two runs of one agent on two tasks
stay two runs."""

from __future__ import annotations

import copy
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from core_support import make_drill

from warroom.cli import main
from warroom.core.library import (
    SAME_RUN_OVERLAP,
    bundled_drills_dir,
    drill_set_problems,
    run_events,
    run_groups,
    run_overlap,
)
from warroom.core.load import load_drill
from warroom.core.model import Drill
from warroom.core.projection import Options, damage_rules, project, read_source, survey
from warroom.importers.kit import dump_drill_yaml

RUN = "retail-air-purifier-return"
OTHER = "node-pool-upgrade-prod-eu"


def bundled(drill_id: str) -> Path:
    return bundled_drills_dir() / f"{drill_id}.yaml"


@pytest.fixture(scope="module")
def projections() -> list[dict]:
    """Two projections of the bundled run (each with its distractors), as plain data."""
    surveyed = survey(read_source(bundled(RUN)), damage_rules([])[0])
    return [project(surveyed, t, None, Options(distractors=3)).data for t in ("stale-data", "unit-confusion")]


def edited(data: dict) -> dict:
    """``data`` with one character of one healthy event changed (the executor's first message)."""
    out = copy.deepcopy(data)
    event = next(e for e in out["trace"] if e["kind"] == "executor_message")
    event["content"] = event["content"].replace("I can", "I ca n", 1)
    return out


def added(data: dict) -> dict:
    """``data`` with one message added to its run (after the executor's first message)."""
    out = copy.deepcopy(data)
    at = next(i for i, e in enumerate(out["trace"]) if e["kind"] == "executor_message")
    event = out["trace"][at]
    out["trace"].insert(at + 1, {"id": "added-1", "t": event["t"], "step": event.get("step"),
                                 "kind": "executor_message", "content": "One moment, please."})
    return out


def renamed(data: dict, drill_id: str) -> dict:
    return {**copy.deepcopy(data), "id": drill_id, "title": f"Drill {drill_id}", "source": "hand-written"}


def set_of(tmp_path: Path, drills: list[dict], mode: str) -> Path:
    names = []
    for data in drills:
        (tmp_path / f"{data['id']}.yaml").write_text(dump_drill_yaml(data), encoding="utf-8")
        names.append(f"{data['id']}.yaml")
    path = tmp_path / "week.set.yaml"
    lines = "".join(f"  - {n}\n" for n in [names[0], OTHER, *names[1:]])
    path.write_text(f"set: week\ntitle: Week\nmode: {mode}\ndrills:\n{lines}", encoding="utf-8")
    return path


@pytest.mark.parametrize("change", [edited, added])
def test_a_projection_with_one_event_edited_or_added_is_still_of_its_run(tmp_path: Path, projections, change):
    first = renamed(projections[0], "week-3-returns")
    second = renamed(change(projections[1]), "q4-refund-check")
    Drill.model_validate(second)  # still a valid drill
    assert run_overlap(run_events(Drill.model_validate(first)), run_events(Drill.model_validate(second))) > 0.9
    [warning] = drill_set_problems(set_of(tmp_path, [first, second], "practice"), warnings=True)
    assert (warning.line, warning.column, warning.severity, warning.rule) == (7, 5, "warning", "same-run")
    assert warning.message.startswith("the drill 'q4-refund-check' is from the same healthy run as item 1, "
                                      "'week-3-returns' (run ")
    [problem] = drill_set_problems(set_of(tmp_path, [first, second], "assessment"))
    assert (problem.line, problem.column, problem.severity) == (7, 5, "error")


def test_runs_of_one_agent_on_two_tasks_are_two_runs() -> None:
    """The bundled retail drills are one agent (one policy, one tool list) on different tasks."""
    library = [load_drill(p) for p in sorted(bundled_drills_dir().glob("retail-*.yaml"))]
    runs = [run_events(d) for d in library]
    assert len(runs) >= 10
    assert run_groups(runs) == list(range(len(runs)))


def two_tasks(task: str) -> Drill:
    """An all-clear drill of one agent: its policy (a log), its greeting, the same lookup call, then what the task
    asks."""
    return make_drill(id=f"task-{task}", answer_key=None, distractors=None, all_clear={"debrief": "Nothing."}, trace=[
        {"id": "e0", "t": 0, "kind": "log", "source": "system", "content": "You are a retail agent. " * 40},
        {"id": "e1", "t": 1, "step": "s1", "kind": "executor_message", "content": "How can I help you today?"},
        {"id": "e2", "t": 2, "step": "s1", "kind": "tool_call", "tool": "list_tools", "arguments": {}},
        {"id": "e3", "t": 3, "step": "s1", "kind": "tool_result", "call": "e2", "output": ["find", "cancel"]},
        {"id": "e4", "t": 4, "step": "s1", "kind": "human_message", "content": f"Please {task} my order."},
        {"id": "e5", "t": 5, "step": "s2", "kind": "tool_call", "tool": task, "arguments": {"order": task}},
        {"id": "e6", "t": 6, "step": "s2", "kind": "tool_result", "call": "e5", "output": {"done": task}},
        {"id": "e7", "t": 7, "step": "s3", "kind": "executor_report", "status": "success", "content": "Done."},
    ])


def test_two_tasks_sharing_a_policy_and_a_lookup_are_two_runs() -> None:
    one, other = run_events(two_tasks("cancel")), run_events(two_tasks("exchange"))
    assert run_overlap(one, other) == 4 / 10 < SAME_RUN_OVERLAP
    assert run_groups([one, other]) == [0, 1]


def test_the_near_pairs_of_many_runs_are_found_without_comparing_every_pair(monkeypatch) -> None:
    """600 runs sharing one event (a greeting), of which two are near: one overlap computed for the near pair
    (each run is indexed by its rarest events only), not 179,700."""
    import warroom.core.library._runs as runs_module

    runs = [frozenset({("greeting", 0), *((f"r{i}-{k}", 0) for k in range(6))}) for i in range(600)]
    runs.append(frozenset({*list(runs[17])[:6], ("edited", 0)}))
    calls = []
    real = runs_module.run_overlap
    monkeypatch.setattr(runs_module, "run_overlap", lambda a, b: calls.append(1) or real(a, b))
    groups = run_groups(runs)
    assert groups[600] == 17 and groups[:600] == list(range(600))
    assert len(calls) <= 2


def test_project_all_counts_an_edited_copy_of_a_run_with_it(tmp_path: Path) -> None:
    source = tmp_path / "healthy"
    source.mkdir()
    shutil.copy(bundled(RUN), source / "a.yaml")
    text = (source / "a.yaml").read_text(encoding="utf-8")
    assert "I can assist you" in text
    text = text.replace("I can assist you", "I can help you", 1).replace(f"id: {RUN}", "id: purifier-copy", 1)
    (source / "b.yaml").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["project", "--all", str(source), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "b.yaml is the same healthy run as a.yaml: its projections are counted with it." in result.output
    written = len(list((tmp_path / "out").glob("*.yaml")))
    assert f"Projections per healthy run: a.yaml {written}." in result.output


# A one-line flow mapping with a syntax error near its end (`warroom validate`: 18 s for 9 MB, issue 30): the garbage
# collector walked the growing node tree while it was composed, and the whole file was scanned a second time for a
# quoted text left open before the error. benchmarks/bench_syntax_error.py has the timing goal.

ONE_LINE = "{" + ", ".join(f"k{i}: {{a: [1, 2]}}" for i in range(200)) + ", bad: [1, 2}\n"


def test_a_one_line_syntax_error_is_not_scanned_again(tmp_path: Path, monkeypatch) -> None:
    import yaml

    def scan(*args, **kwargs):
        raise AssertionError("the file was scanned again")

    monkeypatch.setattr(yaml, "scan", scan)
    path = tmp_path / "big.yaml"
    path.write_text(ONE_LINE, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    column = len(ONE_LINE) - 1
    assert result.output.splitlines()[0] == (
        f"{path}:1:{column}: YAML syntax error: did not find expected ',' or ']' (while parsing a flow sequence that "
        f"starts at line 1, column {column - 5}): fix the YAML there, or check that this is a drill file (`warroom new "
        "ID` writes one to start from)")


def test_an_unclosed_quote_on_a_later_line_is_still_found() -> None:
    from warroom.core.load import DrillLoadError, load_drill_text

    text = 'id: x\ntitle: "a title\nauthor: "me"\nplan: []\n'
    with pytest.raises(DrillLoadError) as refused:
        load_drill_text(text, "q.yaml")
    problem = refused.value.problems[0]
    assert (problem.line, problem.column) == (2, 8)
    assert problem.message.startswith("this quoted text is never closed: add the closing \"")


def test_the_node_tree_is_composed_with_the_garbage_collector_paused() -> None:
    import gc

    import yaml

    from warroom.core.load._yaml.read import YamlSyntaxError, compose

    seen = []

    class Recording(yaml.CSafeLoader):  # type: ignore[misc]
        def get_single_node(self):
            seen.append(gc.isenabled())
            return super().get_single_node()

    assert gc.isenabled()
    with pytest.raises(YamlSyntaxError):
        compose(ONE_LINE, Recording)
    root, _ = compose("a: [1, 2]\n", Recording)
    assert seen == [False, False] and gc.isenabled() and root is not None


# `warroom run --as signal` (or `--seed N`) on a drill with no twin: its only trial is signal, so nothing was chosen,
# yet the session was recorded as a chosen trial and its trainee lost a fair trial of that drill (their first attempt).


def _without_twin(folder: Path, source: str = "clickstream-backfill") -> Path:
    """A copy of a bundled drill (with variants) whose twin is removed, under another id: a drill of one trial."""
    import yaml

    data = yaml.safe_load(bundled(source).read_text(encoding="utf-8"))
    del data["twin"]
    data["id"] = "backfill-no-twin"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "backfill-no-twin.yaml"
    path.write_text(dump_drill_yaml(data), encoding="utf-8")
    assert load_drill(path).twin is None and load_drill(path).variants is not None
    return path


def _played(data: Path, path: Path, **options) -> str:
    """A practice session started as `warroom run [--as/--seed]` starts it (the TUI's services), held, stored."""
    from warroom.core.scoring import score
    from warroom.tui.logic import Services

    rec = Services(trainee="ann", data_dir=data, **options).start_session(path, load_drill(path)).inner
    rec.finish(score(rec.drill, rec.actions))
    return str(rec.session_id)


def test_a_seed_named_for_a_drill_of_one_trial_with_variants_chooses_its_variant(tmp_path: Path) -> None:
    """A seed chooses the variant (names and amounts) of a drill with variants: a seed another trainee played gives
    their session again, which they may have told about; such a session is chosen, even without a twin (campaign 16)."""
    from warroom.store.results import ResultsStore

    path = _without_twin(tmp_path / "drills")
    for options in ({"seed": 7}, {"played_as": "signal", "seed": 3}):
        sid = _played(tmp_path / "data", path, **options)
        with ResultsStore(tmp_path / "data") as store:
            assert store.get(sid).chosen is True, options


@pytest.mark.parametrize("options", [{"played_as": "signal"}])
def test_a_drill_of_one_trial_played_as_it_is_a_drawn_trial(tmp_path: Path, options: dict) -> None:
    import json

    from warroom.store.results import ResultsStore
    from warroom.store.review import Verdict, default_drill_resolver, verify_sessions

    path = _without_twin(tmp_path / "drills")
    sid = _played(tmp_path / "data", path, **options)
    start = json.loads((tmp_path / "data" / "journals" / "done" / f"{sid}.jsonl").read_text().splitlines()[0])
    assert (start["chosen"], start["played_as"]) == (False, "signal")
    with ResultsStore(tmp_path / "data") as store:
        assert store.get(sid).chosen is False
        (result,) = verify_sessions(store, default_drill_resolver([tmp_path / "drills"]), record=False)
        assert (result.session_id, result.verdict) == (sid, Verdict.VERIFIED), result.reason
    summary = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "data"), "scores", "summary", "--format", "json"])
    counted = json.loads(summary.stdout)["counted"]
    assert (counted["trials"], counted["chosen"]) == (1, 0)  # a fair trial, counted


def test_a_drill_with_a_twin_played_as_signal_is_still_chosen(tmp_path: Path) -> None:
    from warroom.store.results import ResultsStore

    sid = _played(tmp_path, bundled(RUN), played_as="signal")
    with ResultsStore(tmp_path) as store:
        assert store.get(sid).chosen is True


def test_a_killed_session_of_a_drill_of_one_trial_played_as_it_is_recovered_drawn_and_verified(tmp_path: Path):
    from warroom.core.model import PlayedAs
    from warroom.store.journal import SessionRecorder, Trial, recover_unfinished
    from warroom.store.results import ResultsStore
    from warroom.store.review import Verdict, default_drill_resolver, verify_sessions

    path = _without_twin(tmp_path / "drills")
    rec = SessionRecorder.start(tmp_path / "data", "ann", path, load_drill(path),
                                trial=Trial(PlayedAs.SIGNAL, chosen=True))  # fmt: skip
    rec.close()  # killed: no end line
    (recovered,) = recover_unfinished(tmp_path / "data", default_drill_resolver([tmp_path / "drills"]))
    assert recovered.stored
    with ResultsStore(tmp_path / "data") as store:
        assert store.get(rec.session_id).chosen is False and store.checks().get(rec.session_id) is None
        (result,) = verify_sessions(store, default_drill_resolver([tmp_path / "drills"]), record=False)
        assert result.verdict is Verdict.VERIFIED, result.reason


def test_an_all_clear_drill_played_as_noise_is_a_drawn_trial(tmp_path: Path) -> None:
    from core_support import drill_yaml

    from warroom.store.results import ResultsStore

    path = tmp_path / "drills" / "tiny-clear.yaml"
    path.parent.mkdir()
    path.write_text(drill_yaml(id="tiny-clear", answer_key=None, distractors=None,
                               all_clear={"debrief": "Nothing was wrong."}), encoding="utf-8")  # fmt: skip
    sid = _played(tmp_path / "data", path, played_as="noise")
    with ResultsStore(tmp_path / "data") as store:
        assert (store.get(sid).chosen, store.get(sid).played_as) == (False, "noise")


@pytest.mark.parametrize("text", ["{id: x, title: *nope}\n", "{id: x, tags: [*nope, a]}\n", "id: x\ntitle: *nope\n"])
def test_an_undefined_alias_in_a_flow_collection_is_named_without_the_flow_indicator(text: str) -> None:
    from warroom.core.load import DrillLoadError, load_drill_text

    with pytest.raises(DrillLoadError) as refused:
        load_drill_text(text, "a.yaml")
    assert refused.value.problems[0].message == "the alias *nope names no anchor (&nope) defined above it"
