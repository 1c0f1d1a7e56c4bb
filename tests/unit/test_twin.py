"""The twin section (warroom/core/model/_twin.py, warroom/core/rules/_twin.py; docs/authoring.md "Twins: signal and
noise trials"): the twin built as an all-clear drill, every problem at its place in the twin section, the warnings,
and `warroom check` judging the twin."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from warroom.cli import main
from warroom.core.author import check_twin
from warroom.core.author._examples import example_path
from warroom.core.library import bundled_drills_dir
from warroom.core.load import DrillLoadError, load_drill, load_drill_text
from warroom.core.model import AllClear, Drill, TwinError, earliest_evidence_at, twin_of
from warroom.core.rules import twin_warnings, validate_drill

EXAMPLE = example_path("full").read_text(encoding="utf-8")
HEAD, TWIN = EXAMPLE.split("twin:\n", 1)


def _with_twin(twin: str) -> str:
    """The full example drill with ``twin`` (YAML, indented under the key) as its twin section."""
    return HEAD + "twin:\n" + twin


def _problems(text: str) -> list[str]:
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text, "fanout-retries.yaml")
    return [str(p) for p in info.value.problems]


def _line(text: str, needle: str) -> int:
    """The number of the first line holding ``needle`` (``twin:``: the section's own line)."""
    if needle == "twin:":
        return text.splitlines().index("twin:") + 1
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


MINIMAL = """\
  replace:
    e06: {output: {invoices: 40, returned: 40}, shown: null}
    e15: {output: {paid: 23}}
  remove: [e16]
  probes:
    p1: {reveals: "Fetched 40 of 40 invoices."}
  debrief: Healthy.
"""


# -- the twin built ------------------------------------------------------------------------------------------------


def test_the_twin_is_the_fault_drill_with_the_healthy_events_and_no_answer_key():
    drill = load_drill(example_path("full"))
    twin = twin_of(drill)
    assert isinstance(twin, Drill) and twin.is_all_clear and twin.answer_key is None and twin.twin is None
    assert twin.all_clear == AllClear(debrief=drill.twin.debrief)
    assert (twin.id, twin.title, twin.briefing, twin.plan) == (drill.id, drill.title, drill.briefing, drill.plan)
    ids = [e.id for e in twin.trace]
    assert "e16" not in ids and ids[-1] == "h1" and ids.index("h1") == ids.index("e15") + 1  # added, by time
    assert twin.event("e06").output == {"invoices": 40, "returned": 40} and twin.event("e06").shown is None
    assert twin.event("e06").size_bytes == 96000 and twin.event("e06").step == "s1"  # the rest as written
    assert twin.event("e13").decision == "granted"
    assert [e.model_dump() for e in twin.trace[:5]] == [e.model_dump() for e in drill.trace[:5]]
    assert next(p for p in twin.probes if p.id == "p1").reveals.startswith("Fetched 40 of 40")
    assert next(p for p in twin.probes if p.id == "p1").ask == next(p for p in drill.probes if p.id == "p1").ask
    assert twin.distractors == drill.distractors
    assert validate_drill(twin) == []


def test_the_twin_keeps_only_the_domain_tags():
    text = _with_twin(MINIMAL).replace("author: warroom tests\n",
                                       "author: warroom tests\ntags: [domain:finance-ops, pagination_truncated]\n")
    twin = twin_of(load_drill_text(text, "fanout-retries.yaml"))
    assert twin.tags == ["domain:finance-ops"]


def test_a_twin_may_list_its_own_distractors():
    text = _with_twin(MINIMAL + "  distractors:\n    - {event: e10, why_harmless: The retry loop settled.}\n")
    twin = twin_of(load_drill_text(text, "fanout-retries.yaml"))
    assert [(d.event, d.why_harmless) for d in twin.distractors] == [("e10", "The retry loop settled.")]


def test_a_drill_without_a_twin_has_none_to_build():
    drill = load_drill_text(HEAD, "fanout-retries.yaml")
    with pytest.raises(TwinError, match="has no twin"):
        twin_of(drill)
    assert check_twin(drill) is None


# -- every problem at its place in the twin section ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("twin", "needle", "column", "message"),
    [
        (MINIMAL + "  remove: [e16]\n", None, None, "duplicate key"),
        (MINIMAL.replace("    e15:", "    e51: {content: x}\n    e15:"), "e51:", 10,
         "no trace event `e51` to replace"),
        (MINIMAL.replace("    e15:", "    p2: {content: x}\n    e15:"), "p2: {content", 9,
         "`p2` is a probe, not a trace event"),
        (MINIMAL.replace("remove: [e16]", "remove: [e16, e16]"), "remove: [e16, e16]", 17, "listed twice"),
        (MINIMAL.replace("remove: [e16]", "remove: [e16, e15]"), "remove: [e16, e15]", 17,
         "both replaced and removed"),
        (MINIMAL + "  add:\n    - {id: e02, t: 30, kind: log, source: bank, content: x}\n", "{id: e02, t: 30", 12,
         "already an event or probe"),
        (MINIMAL.replace("p1: {reveals", "p9: {reveals"), "p9:", 9, "no probe `p9`"),
        (MINIMAL.replace("    e15:", "    e05: {output: {credits: [1]}}\n    e15:"), "e05: {output", 10,
         "before the fault's earliest evidence (e06 at 6 s)"),
        (MINIMAL + "  add:\n    - {id: h1, t: 4, kind: log, source: bank, content: x}\n", "id: h1", 19,
         "comes at 4 s, before the fault's earliest evidence"),
        (MINIMAL.replace("    e15: {output: {paid: 23}}\n", ""), "twin:", 1,
         "the healthy run still does damage: `e15`"),
        (MINIMAL.replace("  probes:\n    p1: {reveals: \"Fetched 40 of 40 invoices.\"}\n", ""), "twin:", 1,
         "probe `p1` finds the fault"),
        ("  debrief: Healthy.\n", "twin:", 1, "the twin changes nothing"),
        (MINIMAL.replace("e15: {output: {paid: 23}}", "e15: {output: {paid: 23}, content: x}"), "content: x", 40,
         "in the twin (the healthy run): a tool_result event has no field `content`"),
        (MINIMAL.replace("e15: {output: {paid: 23}}", "e15: {output: {paid: 23}, duration_ms: -1}"),
         "duration_ms: -1", 44, "`twin.replace.e15.duration_ms` must be at least 0"),
        (MINIMAL.replace("remove: [e16]", "remove: [e16, e09]"), "{event: e09, why_harmless", 13,
         "in the twin (the healthy run): distractor event `e09` is not a trace event"),
        (MINIMAL + "  harmless: [e14]\n", "harmless: [e14]", 14, "`e14` is not a damage event"),
        (MINIMAL + "  harmless: [e15]\n", "harmless: [e15]", 14, "`e15` is replaced by the twin"),
        (MINIMAL + "  harmless: [e51]\n", "harmless: [e51]", 14, "no trace event `e51`"),
    ],
    ids=["duplicate-key", "unknown-replace", "probe-replaced", "removed-twice", "replaced-and-removed",
         "added-id-taken", "unknown-probe", "changed-before-evidence", "added-before-evidence", "damage-left",
         "finding-probe-unchanged", "nothing-changed", "field-of-another-kind", "bad-value", "distractor-removed",
         "harmless-not-damage", "harmless-replaced", "harmless-unknown"],
)
def test_a_twin_problem_is_reported_at_its_place(twin, needle, column, message):
    text = _with_twin(twin)
    problems = _problems(text)
    found = [p for p in problems if message in p]
    assert found, problems
    if needle is not None:
        line = _line(text, needle)
        assert found[0].startswith(f"fanout-retries.yaml:{line}:{column}: "), found


def test_a_damage_event_done_as_written_is_listed_as_harmless():
    text = _with_twin(MINIMAL.replace("    e15: {output: {paid: 23}}\n", "") + "  harmless: [e15]\n")
    twin = twin_of(load_drill_text(text, "fanout-retries.yaml"))
    assert twin.event("e15").output == {"paid": 20}  # the same call, as written


def test_an_all_clear_drill_has_no_twin():
    text = (HEAD.split("answer_key:\n")[0] + "all_clear: {debrief: Nothing wrong.}\n"
            + HEAD.split("distractors:\n")[1].join(["distractors:\n", ""]) + "twin:\n" + MINIMAL)
    assert any("an all-clear drill has no twin" in p for p in _problems(text))


def test_a_version_1_drill_has_no_twin():
    drill = load_drill_text(_with_twin(MINIMAL), "fanout-retries.yaml")
    found = validate_drill(drill.model_copy(update={"schema_version": 1}))
    assert any(i.loc == ("twin",) and "`twin` is format 2" in i.message for i in found)


def test_a_type_problem_elsewhere_leaves_the_twin_unchecked_and_says_so():
    text = _with_twin(MINIMAL).replace("difficulty: 3", "difficulty: hard")
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text, "fanout-retries.yaml")
    assert any("the twin section" in note for note in info.value.blocked)


# -- warnings ------------------------------------------------------------------------------------------------------


def test_a_twin_that_changes_no_evidence_event_is_warned_about():
    unchanged = MINIMAL.replace("    e06: {output: {invoices: 40, returned: 40}, shown: null}\n", "")
    drill = load_drill_text(_with_twin(unchanged), "fanout-retries.yaml")
    assert twin_warnings(drill) == []  # it changes e15, whose field `paid` is accepted evidence
    head = HEAD.replace("    - {event: e15, path: paid, note: 20 paid where 40 invoices were open.}\n", "").replace(
        "  accepted_evidence:", "  accepted_evidence: []")
    drill = load_drill_text(head + "twin:\n" + unchanged, "fanout-retries.yaml")
    assert [(w.loc, w.message.split(":")[0]) for w in twin_warnings(drill)] == [
        (("twin",), "the twin changes none of the events that show the fault (e06, e07)")]


def test_a_twin_that_keeps_the_evidence_s_value_is_warned_about_at_its_entry():
    same = MINIMAL.replace("{invoices: 40, returned: 40}, shown: null", "{invoices: 40, returned: 20, next_cursor: c2}")
    drill = load_drill_text(_with_twin(same), "fanout-retries.yaml")
    warnings = twin_warnings(drill)
    assert len(warnings) == 1 and warnings[0].loc == ("twin", "replace", "e06")
    assert "still has next_cursor = 'c2'" in warnings[0].message


def test_validate_shows_the_twin_warning_and_passes(tmp_path):
    path = tmp_path / "fanout-retries.yaml"
    path.write_text(_with_twin(MINIMAL.replace("{invoices: 40, returned: 40}, shown: null",
                                               "{invoices: 40, returned: 20, next_cursor: c2}")), encoding="utf-8")
    r = CliRunner().invoke(main, ["validate", str(path)])
    assert r.exit_code == 0, r.output
    line = _line(path.read_text(encoding="utf-8"), "e06: {output")
    assert f"fanout-retries.yaml:{line}:10: warning: the twin's e06 still has next_cursor" in r.output
    assert load_drill(example_path("full")) and twin_warnings(load_drill(example_path("full"))) == []


def _count_warnings(twin: str) -> list:
    drill = load_drill_text(_with_twin(twin), "fanout-retries.yaml")
    return [w for w in twin_warnings(drill) if "count of rows" in w.message]


@pytest.mark.parametrize(
    ("change", "loc", "said"),
    [("  add:\n    - {id: h1, t: 20, step: s3, kind: log, source: bank, content: ok}\n", ("twin", "add", 0, "t"),
      "the healthy run releases 1 event at 20 s where the fault drill releases none (16 events by the deadline at "
      "30 s, the fault drill 15)"),
     ("  add:\n    - {id: h1, t: 13, step: s3, kind: log, source: bank, content: ok}\n", ("twin", "add", 0, "t"),
      "the healthy run releases 2 events at 13 s where the fault drill releases 1 (16 events by the deadline at 30 s, "
      "the fault drill 15)"),
     ("  remove: [e16, e11]\n", ("twin", "remove", 1),
      "the healthy run releases 0 events at 25 s where the fault drill releases 1 (14 events by the deadline at 30 s, "
      "the fault drill 15)"),
     ("  replace:\n    e12: {t: 29}\n", ("twin", "replace", "e12", "t"),
      "the healthy run releases 0 events at 27 s where the fault drill releases 1 (15 events by the deadline at 30 s, "
      "the fault drill 15)")],
)  # fmt: skip
def test_a_twin_whose_count_of_events_by_a_moment_differs_before_the_deadline_is_warned_about(change, loc, said):
    """The count tell (issue 30): trainees see events by position, so a healthy run that releases another number of
    events than the fault drill at a moment up to the deadline (an event added, removed or moved) tells a noise
    trial to a trainee who reads no content. One warning, at the twin's entry that makes the first difference,
    saying what to do."""
    twin = MINIMAL.replace("  remove: [e16]\n", "") if "remove" in change else MINIMAL
    if change.startswith("  replace:"):
        twin = twin.replace("  replace:\n", change)
    else:
        twin = twin.replace("  probes:", change + "  probes:")
    (warning,) = _count_warnings(twin)
    assert warning.loc == loc
    assert warning.message.startswith(said)
    assert warning.message.endswith(
        "let the healthy run replace the fault drill's events at their moments (the same calls, succeeding) rather "
        "than add, remove or move events before the deadline")


def test_a_twin_that_keeps_the_count_at_every_moment_up_to_the_deadline_is_not_warned_about():
    """After the deadline the count may differ (e16 at 50 s removed, an event added at 47 s); an event removed and
    another added at the same moment keep the count (the healthy run replaces it with an event of another kind)."""
    assert _count_warnings(MINIMAL) == []
    assert load_drill(example_path("full")).twin.add and twin_warnings(load_drill(example_path("full"))) == []
    swapped = MINIMAL.replace("  remove: [e16]\n", "  remove: [e16, e11]\n  add:\n    - {id: h1, t: 25, step: s3, "
                              "kind: log, source: matcher, content: 'Matched: 17 paid, 23 unpaid.'}\n")
    assert _count_warnings(swapped) == []


def test_validate_shows_the_count_warning_at_the_added_event(tmp_path):
    path = tmp_path / "fanout-retries.yaml"
    path.write_text(_with_twin(MINIMAL.replace("  probes:", "  add:\n    - {id: h1, t: 20, step: s3, kind: log, "
                                               "source: bank, content: ok}\n  probes:")), encoding="utf-8")
    r = CliRunner().invoke(main, ["validate", str(path)])
    assert r.exit_code == 0, r.output
    line = _line(path.read_text(encoding="utf-8"), "{id: h1, t: 20")
    assert f"fanout-retries.yaml:{line}:" in r.output
    assert " warning: the healthy run releases 1 event at 20 s where the fault drill releases none" in r.output
    assert "Traceback" not in r.output


# -- warroom check -------------------------------------------------------------------------------------------------


def test_check_plays_the_twin_as_an_all_clear_drill_where_the_trigger_happy_trainee_pays():
    checked = check_twin(load_drill(example_path("full")))
    assert checked is not None and checked.passed, checked.problems
    by = {r.trainee: r.scorecard for r in checked.report.runs}
    assert by["never"].outcome.value == "all_clear_held" and by["never"].total == 100
    assert by["trigger-happy"].outcome.value == "false_alarm" and by["trigger-happy"].total < 100


def test_warroom_check_prints_and_exports_the_twin(tmp_path):
    r = CliRunner().invoke(main, ["check", str(example_path("full"))])
    assert r.exit_code == 0, r.output
    assert "twin (the healthy run, played as a noise trial: an all-clear drill):" in r.output
    assert "all clear held" in r.output
    r = CliRunner().invoke(main, ["check", "--format", "json", str(example_path("full"))])
    doc = json.loads(r.output)["drills"][0]
    assert doc["passed"] and doc["twin"]["passed"] and {x["trainee"] for x in doc["twin"]["runs"]} >= {"never"}


def test_check_fails_a_drill_whose_twin_does_not_pass(monkeypatch):
    import warroom.core.author._twincheck as twincheck

    real = twincheck.run_checks

    def failing(drill, **options):
        report = real(drill, **options)
        return type(report)(report.drill_id, report.all_clear, report.runs, ["never scored 0"])

    monkeypatch.setattr(twincheck, "run_checks", failing)
    r = CliRunner().invoke(main, ["check", str(example_path("full"))])
    line = example_path("full").read_text(encoding="utf-8").splitlines().index("twin:") + 1
    assert r.exit_code == 1 and f"fanout-retries.yaml:{line}:1: twin: never scored 0" in r.output  # at the twin key


# -- the bundled library -------------------------------------------------------------------------------------------

BUNDLED = sorted(bundled_drills_dir().glob("*.yaml"))


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_every_bundled_fault_drill_has_a_twin_that_checks_as_an_all_clear_drill(path):
    from warroom.core.load import load_drill_with_warnings

    drill, warnings = load_drill_with_warnings(path)
    assert drill.answer_key is not None  # the four all-clear drills are fault drills with their healthy run as twin
    assert drill.twin is not None, f"{path.stem} has no twin"
    assert warnings == [] and twin_warnings(drill) == []
    checked = check_twin(drill, variants=3)
    assert checked is not None and checked.passed, checked.problems
    by = {r.trainee: r.scorecard for r in checked.report.runs}
    assert by["never"].outcome.value == "all_clear_held" and by["never"].total == 100
    assert by["trigger-happy"].total < 100
    first = earliest_evidence_at(drill)
    before = [e for e in drill.trace if e.t < first]
    assert twin_of(drill).trace[: len(before)] == before  # the same background until the evidence


def test_every_drill_of_the_library_has_a_twin_and_none_is_all_clear():
    """Issue 30: an all-clear drill is always a noise trial, so a trainee who knows the library's four held the all
    clear on them for free; each is now a fault drill whose twin is that healthy run, played as either trial."""
    drills = [load_drill(p) for p in BUNDLED]
    with_twin = sum(d.twin is not None for d in drills)
    assert with_twin == sum(d.answer_key is not None for d in drills) == len(drills) >= 44  # 30 written, 14 projected
    assert sum(d.is_all_clear for d in drills) == 0
