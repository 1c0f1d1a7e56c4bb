"""Semantic rules of a drill (warroom.core.validation): one test per rule, on models built in memory."""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any

import pytest
from locations import MALFORMED
from pydantic import ValidationError

from warroom.core.library import bundled_drills_dir, find_drill_files
from warroom.core.loader import DrillLoadError, load_drill, load_drill_text, load_yaml_text
from warroom.core.model import Drill
from warroom.core.validation import Issue, validate_drill

BASE_TEXT = (MALFORMED / "unknown-key-typo.yaml").read_text().replace("evidnce:", "evidence:")
BASE: dict[str, Any] = load_yaml_text(BASE_TEXT)
# trace: e1 planner_call t0 | e2 tool_call s1 t5 | e3 tool_result s1 t8 (call e2) | e4 executor_report s1 t10
#        e5 executor_message s2 t15 | e6 log s2 t18;  answer key: origin s1, evidence [e3], cascade [s2],
#        damage e5, deadline 12, replan [r1 t2];  distractors: [e6]


def issues_of(edit) -> list[Issue]:
    data = copy.deepcopy(BASE)
    edit(data)
    return validate_drill(Drill.model_validate(data))


def only(issues: list[Issue]) -> Issue:
    assert len(issues) == 1, issues
    return issues[0]


def test_the_base_drill_has_no_issues():
    assert issues_of(lambda d: None) == []


@pytest.mark.parametrize("path", find_drill_files([bundled_drills_dir()]), ids=lambda p: p.stem)
def test_bundled_drills_have_no_issues(path: Path):
    assert validate_drill(load_drill(path)) == []


# -- unique ids ---------------------------------------------------------------------------------------------------


def test_plan_step_ids_are_unique():
    def edit(d):
        d["plan"].append({"id": "s1", "title": "Again", "objective": "Twice."})

    issue = only(issues_of(edit))
    assert issue.loc == ("plan", 2, "id") and issue.related == ("plan", 0, "id")
    assert "duplicate plan step id `s1`" in issue.message


def test_trace_event_ids_are_unique():
    def edit(d):
        d["trace"][3]["id"] = "e2"

    issue = only(issues_of(edit))
    assert issue.loc == ("trace", 3, "id") and issue.related == ("trace", 1, "id")


def test_replan_event_ids_do_not_reuse_trace_event_ids():
    def edit(d):
        d["answer_key"]["replan"][0]["id"] = "e1"

    issue = only(issues_of(edit))
    assert issue.loc == ("answer_key", "replan", 0, "id") and "trace event #1 has it too" in issue.message


# -- references ---------------------------------------------------------------------------------------------------


def test_event_step_is_a_plan_step():
    def edit(d):
        d["trace"][5]["step"] = "s3"

    issue = only(issues_of(edit))
    assert issue.loc == ("trace", 5, "step") and "step `s3` is not a plan step" in issue.message


def test_executor_report_step_is_a_plan_step_with_a_suggestion():
    def edit(d):
        d["plan"][1]["id"] = "summarise"
        for e in d["trace"][4:]:
            e["step"] = "summarise"
        d["answer_key"]["cascade"] = ["summarise"]
        d["trace"][3]["step"] = "sumarise"

    issue = only(issues_of(edit))
    assert issue.loc == ("trace", 3, "step") and "(did you mean `summarise`?)" in issue.message


def test_replan_event_step_is_a_plan_step():
    def edit(d):
        d["answer_key"]["replan"][0]["step"] = "s9"

    assert only(issues_of(edit)).loc == ("answer_key", "replan", 0, "step")


def test_tool_result_call_names_an_existing_event():
    def edit(d):
        d["trace"][2]["call"] = "e9"

    issue = only(issues_of(edit))
    assert issue.loc == ("trace", 2, "call") and "there is no tool_call `e9` before it" in issue.message


def test_tool_result_call_names_a_tool_call():
    def edit(d):
        d["trace"][2]["call"] = "e1"

    assert "`e1` is a planner_call event, not a tool_call" in only(issues_of(edit)).message


def test_tool_result_comes_after_its_tool_call():
    def edit(d):
        d["trace"][1], d["trace"][2] = d["trace"][2], d["trace"][1]
        d["trace"][1]["t"], d["trace"][2]["t"] = 5, 8

    issue = only(issues_of(edit))
    assert issue.loc == ("trace", 1, "call") and "comes after this result" in issue.message


def test_replan_tool_result_may_answer_a_replan_or_trace_tool_call():
    def edit(d):
        d["answer_key"]["replan"] += [
            {
                "id": "r2", "t": 3, "kind": "tool_call", "step": "s1", "tool": "crm.search",
                "arguments": {"customer": 42},
            },
            {"id": "r3", "t": 4, "kind": "tool_result", "step": "s1", "call": "r2", "output": []},
            {"id": "r4", "t": 5, "kind": "tool_result", "step": "s1", "call": "e2", "output": []},
        ]

    assert issues_of(edit) == []


def test_fault_origin_step_is_a_plan_step():
    def edit(d):
        d["answer_key"]["fault"]["origin_step"] = "s7"

    issue = only(issues_of(edit))
    assert issue.loc == ("answer_key", "fault", "origin_step") and "is not a plan step" in issue.message


def test_cascade_steps_are_plan_steps():
    def edit(d):
        d["answer_key"]["cascade"] = ["s2", "s5"]

    assert only(issues_of(edit)).loc == ("answer_key", "cascade", 1)


def test_evidence_events_are_trace_events():
    def edit(d):
        d["answer_key"]["evidence"] = ["e3", "e99"]

    issue = only(issues_of(edit))
    assert issue.loc == ("answer_key", "evidence", 1) and "`e99` is not a trace event" in issue.message


def test_evidence_events_are_not_replan_events():
    def edit(d):
        d["answer_key"]["evidence"] = ["e3", "r1"]

    assert "is a re-plan event; it must be an event of the trace" in only(issues_of(edit)).message


def test_damage_events_are_trace_events():
    def edit(d):
        d["answer_key"]["damage"]["entries"][0]["event"] = "e55"

    assert only(issues_of(edit)).loc == ("answer_key", "damage", "entries", 0, "event")


def test_distractor_events_are_trace_events():
    def edit(d):
        d["distractors"][0]["event"] = "e60"

    assert only(issues_of(edit)).loc == ("distractors", 0, "event")


# -- time order and numbers ---------------------------------------------------------------------------------------


def test_trace_times_do_not_decrease():
    def edit(d):
        d["trace"][4]["t"] = 9.5

    issue = only(issues_of(edit))
    assert issue.loc == ("trace", 4, "t") and issue.related == ("trace", 3, "t")


def test_equal_trace_times_are_fine():
    def edit(d):
        d["trace"][4]["t"] = 10

    assert issues_of(edit) == []


def test_replan_times_do_not_decrease():
    def edit(d):
        d["answer_key"]["replan"].append({"id": "r2", "t": 1, "kind": "executor_message", "content": "Retrying."})

    assert only(issues_of(edit)).loc == ("answer_key", "replan", 1, "t")


@pytest.mark.parametrize(
    ("where", "loc"),
    [
        (lambda d: d["trace"][5].__setitem__("t", float("inf")), ("trace", 5, "log", "t")),
        (lambda d: d["answer_key"].__setitem__("deadline", float("nan")), ("answer_key", "deadline")),
        (lambda d: d["answer_key"]["damage"]["entries"][0].__setitem__("amount", float("inf")),
         ("answer_key", "damage", "entries", 0, "amount")),
        (lambda d: d["models"]["planner"].__setitem__("input_usd_per_mtok", float("-inf")),
         ("models", "planner", "input_usd_per_mtok")),
        (lambda d: d["trace"][2].__setitem__("duration_ms", float("inf")), ("trace", 2, "tool_result", "duration_ms")),
    ],
)
def test_numbers_are_finite_by_type_before_the_rules_run(where, loc):
    data = copy.deepcopy(BASE)
    where(data)
    with pytest.raises(ValidationError) as info:
        Drill.model_validate(data)
    (err,) = info.value.errors()
    assert (err["type"], err["loc"]) == ("finite_number", loc)


@pytest.mark.parametrize(
    ("where", "loc", "error"),
    [
        (lambda d: d.__setitem__("difficulty", True), ("difficulty",), "int_type"),
        (lambda d: d.__setitem__("version", False), ("version",), "int_type"),
        (lambda d: d.__setitem__("schema_version", True), ("schema_version",), "literal_error"),
        (lambda d: d["trace"][0]["usage"].__setitem__("input_tokens", True),
         ("trace", 0, "planner_call", "usage", "input_tokens"), "int_type"),
        (lambda d: d["trace"][0]["usage"].__setitem__("estimated", 1),
         ("trace", 0, "planner_call", "usage", "estimated"), "bool_type"),
        (lambda d: d["models"]["executor"].__setitem__("output_usd_per_mtok", True),
         ("models", "executor", "output_usd_per_mtok"), "float_type"),
        (lambda d: d["trace"][1].__setitem__("t", True), ("trace", 1, "tool_call", "t"), "float_type"),
        (lambda d: d["trace"][1].__setitem__("t", "5"), ("trace", 1, "tool_call", "t"), "float_type"),
        (lambda d: d["answer_key"].__setitem__("deadline", True), ("answer_key", "deadline"), "float_type"),
        (lambda d: d["answer_key"]["damage"]["entries"][0].__setitem__("amount", True),
         ("answer_key", "damage", "entries", 0, "amount"), "float_type"),
        (lambda d: d["trace"][2].__setitem__("duration_ms", False), ("trace", 2, "tool_result", "duration_ms"),
         "float_type"),
    ],
)
def test_no_number_takes_a_boolean_or_a_numeric_text(where, loc, error):
    data = copy.deepcopy(BASE)
    where(data)
    with pytest.raises(ValidationError) as info:
        Drill.model_validate(data)
    (err,) = info.value.errors()
    assert (err["type"], err["loc"]) == (error, loc)


def test_floats_still_take_whole_numbers():
    def edit(d):
        d["answer_key"]["deadline"] = 12
        d["models"]["planner"]["input_usd_per_mtok"] = 5

    assert issues_of(edit) == []


# -- the fault, the evidence and the deadline ----------------------------------------------------------------------


def test_evidence_comes_at_or_after_the_origin_steps_first_event():
    def edit(d):
        d["answer_key"]["evidence"] = ["e1", "e3"]

    issue = only(issues_of(edit))
    assert issue.loc == ("answer_key", "evidence", 0)
    assert "its first event `e2` is at t=5 s" in issue.message


def test_evidence_at_the_origin_steps_first_event_is_fine():
    def edit(d):
        d["answer_key"]["evidence"] = ["e2"]

    assert issues_of(edit) == []


def test_origin_step_has_trace_events():
    def edit(d):
        d["plan"].append({"id": "s3", "title": "Never run", "objective": "Nothing."})
        d["answer_key"]["fault"]["origin_step"] = "s3"

    issue = only(issues_of(edit))
    assert issue.loc == ("answer_key", "fault", "origin_step") and "has no trace events" in issue.message


def test_damage_before_the_earliest_evidence_cannot_be_prevented():
    def edit(d):
        d["answer_key"]["damage"]["entries"].append({"event": "e2", "amount": 3})

    issue = only(issues_of(edit))
    assert issue.loc == ("answer_key", "damage", "entries", 1, "event")
    assert issue.message.startswith(
        "damage event `e2` (t=5 s) comes before the earliest evidence `e3` (t=8 s): no trainee could escalate in time"
    )


def test_damage_at_the_same_time_as_the_earliest_evidence_cannot_be_prevented_either():
    def edit(d):
        d["trace"][4]["t"] = 8  # e5, the damage event, now comes at the same drill time as the evidence e3
        d["trace"][3]["t"] = 8

    issue = only(issues_of(edit))
    assert issue.loc == ("answer_key", "damage", "entries", 0, "event")
    assert "damage event `e5` (t=8 s) comes at the same time as the earliest evidence `e3` (t=8 s)" in issue.message


def test_damage_on_the_evidence_event_itself_is_a_problem_and_later_damage_is_fine():
    def edit(d):
        d["answer_key"]["damage"]["entries"] = [{"event": "e3", "amount": 1}, {"event": "e4", "amount": 2}]

    issue = only(issues_of(edit))
    assert issue.loc == ("answer_key", "damage", "entries", 0, "event") and "`e3` (t=8 s)" in issue.message


def test_the_earliest_evidence_counts_for_damage_not_the_first_listed():
    def edit(d):
        d["answer_key"]["evidence"] = ["e4", "e3"]  # e3 (t=8) is the earliest; e4 at t=10 does damage after it
        d["answer_key"]["damage"]["entries"] = [{"event": "e4", "amount": 1}]

    assert issues_of(edit) == []


def test_deadline_leaves_evidence_at_or_before_it():
    def edit(d):
        d["answer_key"]["deadline"] = 7.5

    issue = only(issues_of(edit))
    assert issue.loc == ("answer_key", "deadline") and "comes before the earliest evidence (t=8 s)" in issue.message


def test_deadline_exactly_at_the_earliest_evidence_is_fine():
    def edit(d):
        d["answer_key"]["deadline"] = 8
        d["answer_key"]["evidence"] = ["e4", "e3"]  # order of the list does not matter: the earliest counts

    assert issues_of(edit) == []


# -- answer key, all clear, distractors -----------------------------------------------------------------------------


def test_all_clear_drill_has_no_answer_key():
    def edit(d):
        d["all_clear"] = {"debrief": "Nothing was wrong."}

    issue = only(issues_of(edit))
    assert issue.loc == ("all_clear",) and "not both" in issue.message


def test_a_drill_has_an_answer_key_or_all_clear():
    def edit(d):
        del d["answer_key"]

    issue = only(issues_of(edit))
    assert issue.loc == () and "needs an answer_key" in issue.message


def test_an_all_clear_drill_is_valid():
    def edit(d):
        del d["answer_key"]
        d["all_clear"] = {"debrief": "The rate limit was retried and the search was right."}

    assert issues_of(edit) == []


def test_evidence_is_not_also_a_distractor():
    def edit(d):
        d["distractors"].append({"event": "e3", "why_harmless": "It is not."})

    issue = only(issues_of(edit))
    assert issue.loc == ("distractors", 1, "event") and "cannot also be a distractor" in issue.message


# -- non-negative prices and token counts (enforced by the model's types) ---------------------------------------------


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d["models"]["planner"].__setitem__("input_usd_per_mtok", -5),
        lambda d: d["models"]["executor"].__setitem__("output_usd_per_mtok", -0.01),
        lambda d: d["trace"][0]["usage"].__setitem__("input_tokens", -1),
        lambda d: d["trace"][1]["usage"].__setitem__("output_tokens", -150),
        lambda d: d["models"].__setitem__("replan_usage", {"input_tokens": -3, "output_tokens": 1}),
    ],
)
def test_prices_and_token_counts_are_non_negative(edit):
    data = copy.deepcopy(BASE)
    edit(data)
    with pytest.raises(ValidationError) as info:
        Drill.model_validate(data)
    assert [e["type"] for e in info.value.errors()] == ["greater_than_equal"]


def test_zero_prices_and_tokens_are_fine():
    def edit(d):
        d["models"]["executor"]["input_usd_per_mtok"] = 0
        d["trace"][0]["usage"] = {"input_tokens": 0, "output_tokens": 0}

    assert issues_of(edit) == []


def test_loader_points_each_issue_at_its_line():
    text = BASE_TEXT.replace("  deadline: 12", "  deadline: 1").replace("  - event: e6", "  - event: e3")
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text, "x.yaml")
    assert [str(p).split(": ", 1)[0] for p in info.value.problems] == ["x.yaml:68:13", "x.yaml:76:12"]


def test_public_tags_hide_fault_kind_taxonomy_and_control_tags():
    """Tags that name the fault (vocabulary, MAST/TRAIL/AgentRx terms) or mark a control drill stay hidden."""
    from warroom.core.library import bundled_drills_dir
    from warroom.core.loader import load_drill

    drill = load_drill(bundled_drills_dir() / "duplicate-charge-refunds.yaml")
    assert "stale_data" in drill.tags
    assert drill.public_tags == ["finance-ops"]
    control = load_drill(bundled_drills_dir() / "clickstream-backfill.yaml")
    assert not any("clear" in t or "control" in t or t.startswith("TRAIL") for t in control.public_tags)
    assert control.public_tags  # the domain tags stay
    for path in sorted(bundled_drills_dir().glob("*.yaml")):
        d = load_drill(path)
        kind = d.answer_key.fault.kind.value if d.answer_key else None
        assert kind not in d.public_tags and (kind or "").replace("_", "-") not in d.public_tags, path.name


# -- rules across files (warroom.core.library.cross_file_problems) ----------------------------------------------------


def _write(path: Path, drill_id: str, prefix: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(prefix + BASE_TEXT.replace("id: mini", f"id: {drill_id}", 1))
    return path


def test_load_drill_itself_ignores_the_file_name(tmp_path: Path):
    assert load_drill(_write(tmp_path / "whatever.yaml", "mini")).id == "mini"


def test_cross_file_problems_take_pairs_or_entries_and_report_only_what_is_wrong(tmp_path: Path):
    from dataclasses import dataclass

    from warroom.core.library import cross_file_problems

    good = _write(tmp_path / "mini.yaml", "mini")
    renamed = _write(tmp_path / "old-name.yaml", "new-name")
    copy_ = _write(tmp_path / "sub" / "mini.yml", "mini", prefix="# a copy\n# of mini\n")

    @dataclass
    class Entry:  # the shape of the picker's entries: path and drill (None when it did not load)
        path: Path
        drill: object

    entries = [(good, load_drill(good)), Entry(renamed, load_drill(renamed)), Entry(tmp_path / "broken.yaml", None),
               (copy_, load_drill(copy_)), (good, load_drill(good))]
    problems = cross_file_problems(entries)
    assert set(problems) == {renamed, copy_}
    (p,) = problems[renamed]
    assert (p.path, p.line, p.column) == (str(renamed), 3, 5)
    assert p.message.startswith(
        "drill id `new-name` does not match the file name `old-name.yaml`: rename the file to new-name.yaml or "
        "change the id to `old-name`"
    )
    (p,) = problems[copy_]
    assert (p.line, p.column) == (5, 5)
    assert p.message == (
        f"drill id `mini` is already the id of {good} (line 3): two drills cannot share an id; change one of them"
    )
    assert cross_file_problems([(good, load_drill(good))]) == {}
    assert cross_file_problems([]) == {}


def test_a_file_listed_twice_is_not_a_duplicate_of_itself(tmp_path: Path):
    from warroom.core.library import cross_file_problems

    good = _write(tmp_path / "mini.yaml", "mini")
    drill = load_drill(good)
    relative = Path(os.path.relpath(good))
    assert relative != good
    assert cross_file_problems([(good, drill), (relative, drill)]) == {}


def test_drill_paths_resolves_files_folders_and_ids(tmp_path: Path):
    from warroom.core.library import drill_paths

    mine = _write(tmp_path / "lib" / "my-own.yaml", "my-own")
    assert drill_paths([str(mine), str(tmp_path), "my-own", "duplicate-charge-refunds"], [tmp_path / "lib"]) == [
        mine, tmp_path, mine, bundled_drills_dir() / "duplicate-charge-refunds.yaml",
    ]
    with pytest.raises(FileNotFoundError, match="no file, folder or drill id 'my-own'"):
        drill_paths(["my-own"])


def test_a_missing_id_gets_only_a_likely_typo_as_a_hint():
    from warroom.core.validation import _suggest

    trace = ["e01", "e02", "e03", "e04", "e06", "e07", "e08", "e09", "e10", "e11"]
    assert _suggest("e05", ["e01", "e10", "e11"][1:]) == ""  # e10 is not a typo of e05
    assert _suggest("e05", trace) == " (nearby ids: `e04`, `e06`)"  # many one-key slips: the neighbours
    assert _suggest("e5", ["e3", "e6", "e10"]) == " (nearby ids: `e3`, `e6`)"
    assert _suggest("e50", ["e1", "e5", "e6"]) == " (did you mean `e5`?)"  # one character too many
    assert _suggest("refund-bacth", ["refund-batch", "notify"]) == " (did you mean `refund-batch`?)"  # swapped
    assert _suggest("sumarise", ["summarise", "s1"]) == " (did you mean `summarise`?)"
    assert _suggest("cleanup", ["e01", "e02"]) == ""
    assert _suggest("s9", ["s1", "s2"]) == ""  # past the last step: no guess


def test_a_missing_evidence_event_is_not_matched_to_an_unrelated_id():
    def edit(d):
        d["answer_key"]["evidence"] = ["e3", "e9"]

    issue = only(issues_of(edit))
    assert issue.message.endswith("`e9` is not a trace event")  # e6 is not a typo of e9, nor around it


# -- bounded work, listed twice, ids shown as they are ---------------------------------------------------------------


def _many_unknown_refs(n: int) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    data["trace"] += [
        {"id": f"x{i}", "t": 20, "step": "s1", "kind": "log", "source": "a", "content": "b"} for i in range(n)
    ]
    data["distractors"] = [{"event": f"x{i}y", "why_harmless": "noise"} for i in range(n)]
    return data


def test_did_you_mean_work_is_bounded_however_many_references_are_missing(monkeypatch):
    import warroom.core.ids as ids

    calls = 0
    real = ids.likely_typo

    def counting(word: str, choice: str) -> bool:
        nonlocal calls
        calls += 1
        return real(word, choice)

    monkeypatch.setattr(ids, "likely_typo", counting)
    issues = validate_drill(Drill.model_validate(_many_unknown_refs(2_000)))
    assert len(issues) == 2_000  # every missing reference is reported...
    hinted = [i for i in issues if "(did you mean" in i.message or "(nearby ids" in i.message]
    # ...only the first ones with a hint (x0y: did you mean x0?); the rest are looked at no more
    assert hinted and all(int(i.loc[1]) < ids.MAX_SUGGESTIONS for i in hinted)
    assert issues[0].message == "distractor event `x0y` is not a trace event (did you mean `x0`?)"
    assert calls <= ids.MAX_SUGGESTIONS * ids.MAX_CANDIDATES  # not 2,000 x 2,006 comparisons


def test_a_long_plan_is_listed_shortly_in_a_message():
    def edit(d):
        d["plan"] += [{"id": f"p{i}", "title": "T", "objective": "O"} for i in range(40)]
        d["trace"][5]["step"] = "nowhere"

    message = only(issues_of(edit)).message
    assert message.endswith("the plan steps are: s1, s2, p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, "
                            "p14, p15, p16, p17, ... (42 in all)")


@pytest.mark.parametrize(
    ("edit", "loc", "related", "fragment"),
    [
        (lambda d: d["answer_key"]["damage"]["entries"].append({"event": "e5", "amount": 3}),
         ("answer_key", "damage", "entries", 1, "event"), ("answer_key", "damage", "entries", 0, "event"),
         "damage event `e5` is listed twice: damage entry #1 has it too; keep one"),
        (lambda d: d["answer_key"].update(evidence=["e3", "e4", "e3"]),
         ("answer_key", "evidence", 2), ("answer_key", "evidence", 0),
         "evidence event `e3` is listed twice: evidence item #1 has it too"),
        (lambda d: d["answer_key"].update(cascade=["s2", "s2"]),
         ("answer_key", "cascade", 1), ("answer_key", "cascade", 0), "cascade step `s2` is listed twice"),
        (lambda d: d["distractors"].append({"event": "e6", "why_harmless": "Again."}),
         ("distractors", 1, "event"), ("distractors", 0, "event"),
         "distractor event `e6` is listed twice: distractor #1 has it too"),
    ],
)
def test_an_entry_listed_twice_is_refused(edit, loc, related, fragment):
    issue = only(issues_of(edit))
    assert (issue.loc, issue.related) == (loc, related) and fragment in issue.message


def test_look_alike_and_invisible_characters_in_ids_are_shown_escaped_and_named():
    from warroom.core.ids import shown_id

    assert shown_id("s1") == "`s1`"
    assert shown_id("s\u0430") == "`s\\u0430` (Cyrillic \u0430 U+0430)"
    assert shown_id("e1\u200b") == "`e1\\u200b` (zero width space U+200B)"
    assert shown_id("\u03bf1") == "`\\u03bf1` (Greek \u03bf U+03BF)"
    assert shown_id("e\u202e1") == "`e\\u202e1` (right-to-left override U+202E)"
    assert shown_id("a\x1bb") == "`a\\x1bb` (U+001B)"
    with pytest.raises(DrillLoadError) as info:  # the loader's messages use it: `s1` and `s1<ZWSP>` differ
        load_drill_text(BASE_TEXT.replace("  - id: e4\n", "  - id: e4\u200b\n"), "zw.yaml")
    assert "`e4\\u200b` (zero width space U+200B) is not a valid id" in str(info.value)


def test_validate_data_runs_the_rules_on_what_loaded_and_names_what_waits():
    from warroom.core.validation import validate_data

    data = copy.deepcopy(BASE)
    data["trace"][1]["id"] = "e 2"  # a bad id (type problem): references to events cannot be judged
    data["trace"][4]["t"] = 9  # e5 before e4 (t=10): judged all the same
    data["distractors"][0]["event"] = "e77"
    issues, blocked = validate_data(data, [("trace", 1, "id")])
    assert [i.loc for i in issues] == [("trace", 4, "t")]
    rules = {b.rule: b.loc for b in blocked}
    assert rules["references to trace events (evidence, damage, distractors)"] == ("trace", 1, "id")
    assert rules["tool results answer an earlier tool_call"] == ("trace", 1, "id")
    # The same data with nothing bad: the unknown distractor is a problem, nothing waits.
    data["trace"][1]["id"] = "e2"
    issues, blocked = validate_data(data, [])
    assert [i.loc for i in issues] == [("trace", 4, "t"), ("distractors", 0, "event")] and blocked == []
