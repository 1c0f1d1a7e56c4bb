"""Threat projection end to end on healthy runs imported as an author would (tests/fixtures/projection): the
projected drill reads like the source trace with one result changed, its answer key comes from the trace and the
author's choices, it passes `warroom validate` and `warroom check`, the same projection comes out every time, a
folder's projections are deduplicated, and a source that is not a healthy run is refused at its place."""

from __future__ import annotations

from pathlib import Path

import pytest
from projection_support import RUNS, imported, structured

from warroom.core.author import MIN_REACTION_WINDOW
from warroom.core.load import load_yaml_text
from warroom.core.model import Drill, value_at
from warroom.core.projection import (
    TEMPLATES,
    Options,
    ProjectionError,
    damage_rules,
    parse_damage,
    project,
    project_all,
    read_source,
    sites_of,
    source_of,
    survey,
    verify,
)


@pytest.fixture(scope="module")
def tau(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return imported(tmp_path_factory.mktemp("tau"), "tau")


def surveyed(path: Path, *damage: str):
    return survey(read_source(path), damage_rules([parse_damage(d) for d in damage])[0])


@pytest.mark.parametrize("template", list(TEMPLATES))
def test_each_template_projects_a_fit_drill_that_reads_like_the_source(tau: Path, template: str):
    source = read_source(tau)
    projection = project(surveyed(tau), template, None, Options(distractors=0))
    assert verify(projection) == []
    key, site = projection.data["answer_key"], projection.site
    before = {e["id"]: e for e in source.data["trace"]}
    after = {e["id"]: e for e in projection.data["trace"]}
    assert list(before) == list(after)  # no distractor asked for: the same events, in the same order
    changed = [i for i in before if {**before[i], "t": 0} != {**after[i], "t": 0}]
    assert changed == [site.event]  # one result changed, everything else as it was (times may be later)
    assert all(after[i]["t"] >= before[i]["t"] for i in before)
    evidence = key["evidence"][0]
    assert evidence["event"] == site.event and key["fault"]["origin_step"] == after[site.event]["step"]
    assert key["fault"]["kind"] == TEMPLATES[template].kind.value
    if "path" in evidence:
        assert value_at(after[site.event]["output"], evidence["path"])[0]
    first_damage = after[key["damage"]["entries"][0]["event"]]
    assert first_damage["kind"] == "tool_call" and key["deadline"] < first_damage["t"]
    assert key["deadline"] - after[site.event]["t"] >= Options().window >= MIN_REACTION_WINDOW
    habit = TEMPLATES[template].habit
    assert key.get("habit", "").lower() == habit.lower() or key["debrief"].endswith(habit)
    (replan,) = key["replan"]  # the planner's answer to a correct escalation, by a planner agent
    assert replan["kind"] == "planner_call" and replan["content"].startswith("Re-plan after the escalation: ")
    assert replan["agent"] in {a["name"] for a in projection.data["agents"] if a["role"] == "planner"}
    assert set(TEMPLATES[template].taxonomy) <= set(projection.data["tags"])
    # the twin: the original result (with the fields the fault added, saying it is sound: campaign 18), and the
    # later calls as the healthy run made them (the same, doing no harm)
    (twin_output,) = [fields["output"] for fields in projection.twin["replace"].values()]
    assert list(projection.twin["replace"]) == [site.event] and twin_output != after[site.event]["output"]
    original, healthy = structured(before[site.event]["output"]), structured(twin_output)
    assert {k: healthy[k] for k in original} == original
    assert set(healthy) == set(structured(after[site.event]["output"]))
    assert projection.twin["harmless"] == [e["event"] for e in key["damage"]["entries"]]
    assert projection.data["twin"] == projection.twin and "Nothing went wrong" in projection.twin["debrief"]


def test_the_same_projection_comes_out_every_time_and_its_id_names_neither_template_nor_event(tau: Path):
    one = project(surveyed(tau), "stale-data", "m011", Options())
    two = project(surveyed(tau), "stale-data", "m011", Options())
    assert one.data == two.data and one.id == two.id
    assert "stale" not in one.id and "m011" not in one.id and one.id.startswith("chat-tau-retail-healthy-0-p")
    assert "stale_data" in one.data["tags"] and "projected" in one.data["tags"]
    assert not any(t.startswith("domain:") and "stale" in t for t in one.data["tags"])


def test_distractors_go_to_other_steps_in_the_fault_drill_and_its_twin_alike(tau: Path):
    projection = project(surveyed(tau), "wrong-record", "m011", Options(distractors=3))
    assert verify(projection) == []
    events = {e["id"]: e for e in projection.data["trace"]}
    origin = projection.data["answer_key"]["fault"]["origin_step"]
    added = projection.data["distractors"]
    assert len(added) == 3 and len({d["event"] for d in added}) == 3
    assert all(events[d["event"]]["step"] != origin for d in added)
    assert "Changed for the drill:" in projection.data["source"]
    assert "What looked odd was harmless" in projection.twin["debrief"]
    times = [e["t"] for e in projection.data["trace"]]
    assert times == sorted(times)


def test_the_author_names_the_damage_and_its_unit(tau: Path):
    rules = ("cancel*=138.47:USD refunded in error", "return*=212.45")
    projection = project(surveyed(tau, *rules), "stale-data", "m011", Options())
    damage = projection.data["answer_key"]["damage"]
    assert damage["unit"] == "USD refunded in error"
    assert [(e["event"], e["amount"]) for e in damage["entries"]] == [("call_return", 212.45), ("call_cancel", 138.47)]
    steps = {e["id"]: e.get("step") for e in projection.data["trace"]}
    assert projection.data["answer_key"]["cascade"] == [steps["call_return"], steps["call_cancel"]]
    assert projection.data["answer_key"]["fault"]["origin_step"] not in projection.data["answer_key"]["cascade"]
    only_cancel = project(surveyed(tau, "cancel*=1"), "partial-write", None, Options())
    assert [e["event"] for e in only_cancel.data["answer_key"]["damage"]["entries"]] == ["call_cancel"]


def test_the_reading_window_is_stretched_in_and_said(tau: Path):
    projection = project(surveyed(tau), "partial-write", "m015", Options(window=120, distractors=0))
    events = {e["id"]: e for e in projection.data["trace"]}
    assert projection.data["answer_key"]["deadline"] - events["m015"]["t"] >= 120
    assert any("released" in n and "later than in the source" in n for n in projection.notes)
    assert "later than in the source" in projection.data["source"]
    assert verify(projection) == []


@pytest.mark.parametrize("run", list(RUNS))
def test_a_folder_gives_every_applicable_projection_once(tmp_path: Path, run: str):
    outcome = project_all(surveyed(imported(tmp_path, run)), Options())
    assert outcome.projections and outcome.failed == []
    shapes = [(p.site.template, p.site.shape) for p in outcome.projections]
    assert len(shapes) == len(set(shapes))
    for projection in outcome.projections:
        assert 1 <= projection.difficulty <= 5 and projection.data["difficulty"] == projection.difficulty
        Drill.model_validate(projection.data)


def test_duplicates_are_the_same_template_on_the_same_result_shape(tau: Path):
    outcome = project_all(surveyed(tau), Options(), ["wrong-record"])
    # get_order_details answers twice (m011, m019) with results of one shape: one projection of them, m019's: at
    # m011 a blind newest guess would win 15% of the trace (m011 is the newest event from 59.4 s to 81.9 s)
    assert [p.site.event for p in outcome.projections] == ["m019", "m015"] and outcome.duplicates == 1
    assert outcome.guessable == 0
    warnings: list[str] = []
    at_m011 = project(surveyed(tau), "wrong-record", "m011", Options())
    assert verify(at_m011, warnings) == [] and "a hit for 15% of the trace" in warnings[0]


def test_sites_say_why_a_result_cannot_be_projected(tau: Path):
    sites = sites_of(surveyed(tau))
    last = [s for s in sites if s.event == "m023"]
    assert last and all(not s.ok and "no consequential call after it" in str(s.problem) for s in last)
    assert {s.template for s in sites if s.ok} == set(TEMPLATES)


def test_a_fault_drill_without_a_twin_and_a_format_1_drill_are_refused_at_their_place(tmp_path: Path):
    from locations import REPO

    drill = REPO / "drills" / "late-delivery-replies.yaml"
    data = load_yaml_text(drill.read_text(encoding="utf-8"))
    if data.get("twin") is None:
        with pytest.raises(ProjectionError, match=r"late-delivery-replies\.yaml:\d+:\d+: this drill has a fault"):
            read_source(drill)
    with pytest.raises(ProjectionError, match=r"carbon-aware-memo\.yaml:\d+:\d+: a format-1 drill"):
        read_source(REPO / "tests" / "fixtures" / "v1" / "carbon-aware-memo.yaml")
    with pytest.raises(ProjectionError, match=r"nope\.yaml:1:1: no such file"):
        read_source(tmp_path / "nope.yaml")


def test_an_invalid_healthy_run_is_refused_with_every_problem_at_its_line(tau: Path):
    text = tau.read_text(encoding="utf-8").replace("call: call_user", "call: call_nobody", 1)
    with pytest.raises(ProjectionError) as err:
        source_of(text, "bad.yaml")
    assert "bad.yaml:" in str(err.value) and "call_nobody" in str(err.value)
    assert "answer_key" not in str(err.value)  # the missing answer key is no problem here


def test_an_all_clear_drill_is_a_healthy_run(tmp_path: Path):

    from locations import ALL_CLEAR

    clear = next(p for p in sorted(ALL_CLEAR.glob("*.yaml")) if "\nall_clear:" in p.read_text("utf-8"))
    source = read_source(clear)
    assert source.kind == "all-clear drill" and "all_clear" not in source.data


def test_unknown_template_and_event_say_what_exists(tau: Path):
    with pytest.raises(ProjectionError, match="did you mean `stale-data`"):
        project(surveyed(tau), "stale-date", None, Options())
    with pytest.raises(ProjectionError, match=r":\d+:\d+: --at m0111: no event m0111 in the trace"):
        project(surveyed(tau), "stale-data", "m0111", Options())
    with pytest.raises(ProjectionError, match=r":\d+:\d+: template stale-data does not apply at m001: it is a "
                                              "human_message"):
        project(surveyed(tau), "stale-data", "m001", Options())
    with pytest.raises(ProjectionError, match="m023: no consequential call after it"):
        project(surveyed(tau), "wrong-record", "m023", Options())


def test_the_changed_result_keeps_the_sources_json_form(tau: Path):
    projection = project(surveyed(tau), "unit-confusion", "m011", Options())
    source = {e["id"]: e for e in read_source(tau).data["trace"]}
    new = projection.data["trace"][[e["id"] for e in projection.data["trace"]].index("m011")]["output"]
    assert isinstance(new, str) and new.startswith('{"order_id": "#W2890441", "user_id"')
    assert structured(new)["currency"] == "EUR"
    assert {k: v for k, v in structured(new).items() if k != "currency"} == structured(source["m011"]["output"])


def test_a_drill_with_a_twin_is_projected_from_its_healthy_run(tau: Path, tmp_path: Path):
    from warroom.importers.kit import dump_drill_yaml

    first = project(surveyed(tau), "stale-data", "m011", Options())
    path = tmp_path / f"{first.id}.yaml"
    path.write_text(dump_drill_yaml(first.data), encoding="utf-8")
    source = read_source(path)
    assert source.kind == "twin" and "answer_key" not in source.data and "twin" not in source.data
    healthy = {e["id"]: e for e in source.data["trace"]}
    original = {e["id"]: e for e in read_source(tau).data["trace"]}
    # the healthy result, not the stale one: read live (the fields the stale one has, saying so: campaign 18)
    assert structured(healthy["m011"]["output"]) == {**structured(original["m011"]["output"]), "source": "primary",
                                                     "cache_age_s": 0}
    second = project(survey(source, damage_rules([])[0]), "wrong-record", "m011", Options())
    assert verify(second) == [] and second.data["answer_key"]["fault"]["kind"] == "wrong_record"


def test_worker_processes_give_the_same_projections_in_the_same_order(tmp_path: Path):
    from warroom.core.projection import project_files

    paths = [str(imported(tmp_path, run)) for run in RUNS]
    bad = tmp_path / "healthy" / "not-a-drill.yaml"
    bad.write_text("id: [\n", encoding="utf-8")
    paths.append(str(bad))
    rules = damage_rules([])[0]
    alone = list(project_files(paths, rules, Options()))
    together = list(project_files(paths, rules, Options(), jobs=2))
    assert [p for p, _ in alone] == [p for p, _ in together] == paths
    for (_, one), (_, two) in zip(alone[:-1], together[:-1], strict=True):
        assert [p.data for p in one.projections] == [p.data for p in two.projections]
    assert isinstance(alone[-1][1], ProjectionError) and str(alone[-1][1]) == str(together[-1][1])


def test_an_all_clear_drills_own_distractors_stay_and_get_no_second_listing():
    from locations import ALL_CLEAR

    source = read_source(ALL_CLEAR / "clickstream-backfill.yaml")
    outcome = project_all(survey(source, damage_rules([])[0]), Options(distractors=3))
    assert outcome.projections
    assert not any("listed twice" in p for _, problems in outcome.failed for p in problems)
    own = {d["event"] for d in source.data["distractors"]}
    for projection in outcome.projections:
        listed = [d["event"] for d in projection.data["distractors"]]
        assert own <= set(listed) and len(listed) == len(set(listed))
