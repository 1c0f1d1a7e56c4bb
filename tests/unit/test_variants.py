"""Seeded variants (warroom/core/variants/_apply.py, docs/authoring.md "Seeded variants"): determinism, bounds, the
rules
of the variants section (path:line:col), and `warroom check --variants N`."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from warroom.cli import main
from warroom.core.author import check_variants, skeleton_text
from warroom.core.library import bundled_drills_dir
from warroom.core.load import DrillLoadError, load_drill, load_drill_text
from warroom.core.model import Drill, amount_format
from warroom.core.rules import validate_drill
from warroom.core.variants import VariantError, apply_variant, new_seed
from warroom.core.variants._apply import draw, fingerprint

REPLIES = bundled_drills_dir() / "late-delivery-replies.yaml"
BACKFILL = bundled_drills_dir() / "clickstream-backfill.yaml"
ACCESS = bundled_drills_dir() / "q1-access-review.yaml"
SEEDS = range(120)


def _with_variants(variants: str, edit=lambda t: t) -> str:
    """The skeleton drill with ``variants`` (YAML text, indented as under the key) appended."""
    return edit(skeleton_text("vx")) + "variants:\n" + variants


def _problems(text: str) -> list[str]:
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text, "vx.yaml")
    return [str(p) for p in info.value.problems]


def _line_of(text: str, needle: str, nth: int = 1) -> int:
    lines = [i for i, line in enumerate(text.splitlines(), 1) if needle in line]
    return lines[nth - 1]


# -- the draw and determinism ----------------------------------------------------------------------------------------


def test_draws_are_the_same_on_every_machine():
    # BLAKE2b of "seed\0label": fixed values, so a Python or platform change cannot change a stored variant.
    assert draw(7, "x", 1000) == 445
    assert draw(123456, "name:svc-helpdesk-bot", 4) == 2
    assert [draw(s, "jitter:e01", 41) for s in range(5)] == [draw(s, "jitter:e01", 41) for s in range(5)]


@pytest.mark.parametrize("path", [REPLIES, BACKFILL, ACCESS], ids=lambda p: p.stem)
def test_a_seed_gives_the_same_valid_variant_every_time(path):
    drill, other = load_drill(path), load_drill(path)  # two copies read from the file
    assert drill.variants is not None
    prints = set()
    for seed in range(40):
        one, two = apply_variant(drill, seed), apply_variant(other, seed)
        assert one == two
        assert one.variants is None and validate_drill(one) == []
        assert [e.id for e in one.trace if e.t == 0] == [e.id for e in drill.trace if e.t == 0]
        prints.add(fingerprint(one))
    assert len(prints) > 30  # different seeds: different traces
    assert drill == other == load_drill(path)  # 40 variants left the drills they were drawn from as read


def test_no_seed_or_no_variants_plays_the_drill_as_written():
    drill = load_drill(REPLIES)
    assert apply_variant(drill, None) is drill
    plain = load_drill(bundled_drills_dir() / "duplicate-charge-refunds.yaml")
    assert apply_variant(plain, 5) is plain
    assert new_seed(plain) is not None  # a drill with a twin: the seed draws the trial (signal or noise)
    bare = plain.model_copy(update={"twin": None})
    assert new_seed(bare) is None and new_seed(bare, fixed=9) == 9


def test_a_new_seed_avoids_the_trainees_recent_variants():
    drill = load_drill(REPLIES)
    recent = list(range(8))
    seen = {fingerprint(apply_variant(drill, s)) for s in recent}
    for _ in range(20):
        seed = new_seed(drill, recent)
        assert seed is not None and fingerprint(apply_variant(drill, seed)) not in seen


# -- bounds ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [REPLIES, BACKFILL, ACCESS], ids=lambda p: p.stem)
def test_jitter_stays_within_its_bounds_and_keeps_the_order(path):
    drill = load_drill(path)
    assert drill.variants is not None and drill.variants.jitter is not None
    most = drill.variants.jitter.max_seconds
    base = {e.id: e.t for e in drill.trace}
    shuffled = {e for group in drill.variants.shuffle for e in group}
    moved = 0
    for seed in SEEDS:
        v = apply_variant(drill, seed)
        times = [e.t for e in v.trace]
        assert times == sorted(times)
        for e in v.trace:
            if e.id not in shuffled:
                assert abs(e.t - base[e.id]) <= most + 1e-9, (seed, e.id)
                moved += e.t != base[e.id]
        if drill.answer_key is not None:
            key = v.answer_key
            earliest = min(v.event(x if isinstance(x, str) else x.event).t for x in key.evidence)
            first_damage = min(v.event(d.event).t for d in key.damage.entries)
            assert earliest + 5 <= key.deadline < first_damage
            assert key.deadline == drill.answer_key.deadline
    assert moved > len(SEEDS)  # the jitter does move events


def test_amounts_are_drawn_between_their_bounds_and_written_alike():
    drill = load_drill(BACKFILL)
    (amount,) = drill.variants.amounts
    values = set()
    for seed in SEEDS:
        v = apply_variant(drill, seed)
        m = re.search(r"slow query \((\d+\.\d) s > log threshold", v.event("e18").content)
        assert m, v.event("e18").content
        value = float(m.group(1))
        assert amount.min <= value <= amount.max
        assert f"a {m.group(1)} s insert" in next(d.why_harmless for d in v.distractors if d.event == "e18")
        values.add(value)
    assert len(values) > 40
    assert amount_format("1,742,906.50") == (1742906.5, 2, True)


def test_names_come_from_their_choices_everywhere_a_variant_rewrites():
    drill = load_drill(REPLIES)
    (name,) = drill.variants.names
    options = {name.text, *name.choices}
    chosen = set()
    for seed in SEEDS:
        v = apply_variant(drill, seed)
        used = {o for o in options if o in v.answer_key.debrief}
        assert len(used) == 1
        (pick,) = used
        chosen.add(pick)
        assert pick in v.answer_key.replan[1].content and pick in str(v.event("e08").output)
        assert v.briefing == drill.briefing and v.plan == drill.plan and v.title == drill.title
    assert chosen == options


def test_phrasings_and_shuffles_take_every_choice():
    drill = load_drill(REPLIES)
    outputs = {str(apply_variant(drill, s).event("e08").output["error"]["message"])[:20] for s in SEEDS}
    assert len(outputs) == 3  # as written and its two other phrasings
    access = load_drill(ACCESS)
    orders = {tuple(e.id for e in apply_variant(access, s).trace if e.id in ("e06", "e07")) for s in SEEDS}
    assert orders == {("e06", "e07"), ("e07", "e06")}


def test_variants_change_no_id_usage_or_deadline():
    for path in (REPLIES, BACKFILL, ACCESS):
        drill = load_drill(path)
        for seed in range(10):
            v = apply_variant(drill, seed)
            assert sorted(e.id for e in v.trace) == sorted(e.id for e in drill.trace)
            assert [e.model_dump().get("usage") for e in sorted(v.trace, key=lambda e: e.id)] == [
                e.model_dump().get("usage") for e in sorted(drill.trace, key=lambda e: e.id)
            ]
            assert v.distractors and [d.event for d in v.distractors] == [d.event for d in drill.distractors]
            assert (v.answer_key is None) == (drill.answer_key is None)


# -- the variants section's rules (path:line:col) --------------------------------------------------------------------


def test_a_valid_section_loads():
    text = _with_variants(
        "  names:\n    - {text: report_bot, choices: [weekly_bot]}\n"
        "  jitter: {max_seconds: 1.5}\n"
    )
    drill = load_drill_text(text)
    assert isinstance(drill, Drill) and drill.variants is not None


@pytest.mark.parametrize(
    ("variants", "needle", "message"),
    [
        ("  names:\n    - {text: nobody_here, choices: [x]}\n", "nobody_here",
         "the name 'nobody_here' appears nowhere a variant rewrites"),
        ("  names:\n    - {text: Weekly, choices: [Monthly]}\n", "text: Weekly",
         "the name 'Weekly' appears in title, which the trainee reads before the session draws its variant"),
        ("  names:\n    - {text: report_bot, choices: [x_bot, x_bot]}\n", "x_bot, x_bot",
         "choice 'x_bot' is the same as another choice"),
        ("  amounts:\n    - {text: '640', min: 500, max: 900}\n", "'640'", "the amount '640' appears nowhere"),
        ("  amounts:\n    - {text: '2.1', min: 3, max: 1}\n", "'2.1'", "min (3) must be less than max (1)"),
        ("  jitter: {max_seconds: 2}\n", "max_seconds", "jitter of up to 2 s could bring the earliest evidence (e03 "
         "at 8 s) within 5 s of the deadline (22 s) or the first damage (e07 at 24 s) to the deadline: at most 1.9 s"),
        ("  shuffle:\n    - [e05, e04]\n", "[e05, e04]", "event e04 is not a distractor"),
        ("  shuffle:\n    - [e05, e99]\n", "[e05, e99]", "no trace event 'e99'"),
        ("  phrasings:\n    - {event: e99, choices: [{content: x}]}\n", "e99", "no trace event 'e99'"),
        ("  phrasings:\n    - {event: e05, choices: [{output: x}]}\n", "output: x",
         "a phrasing of a log may replace only content, not 'output'"),
        ("  phrasings:\n    - {event: e05, choices: [{content: 5}]}\n", "content: 5",
         "this phrasing does not make a valid log: Input should be a valid string"),
        ("  jitter: {max_seconds: 0}\n", "max_seconds", "greater than 0"),
        ("  names:\n    - {text: report_bot, choices: [a_bot]}\n    - {text: report_bot, choices: [b_bot]}\n",
         "text: report_bot", "'report_bot' is listed twice; keep one entry (see line"),
        ("  nmes: []\n", "nmes", "nmes"),
    ],
)
def test_a_bad_section_is_reported_at_the_value(variants, needle, message):
    text = _with_variants(variants)
    problems = _problems(text)
    line = _line_of(text, needle, nth=sum(needle in ln for ln in text.splitlines()))
    assert any(p.startswith(f"vx.yaml:{line}:") and message in p for p in problems), problems


def test_a_shuffle_whose_order_matters_is_refused():
    # e07 (a tool result) is made a distractor too: released before its call e06, the trace would break a rule.
    def edit(t: str) -> str:
        return t.replace("distractors:\n", "distractors:\n  - {event: e07, why_harmless: a chart upload is fine}\n", 1)

    text = _with_variants("  shuffle:\n    - [e05, e07]\n", edit)
    (problem,) = _problems(text)
    line = _line_of(text, "[e05, e07]")
    assert problem.startswith(f"vx.yaml:{line}:")
    assert "released in the order e07, e05 the trace breaks a rule" in problem


def test_a_variant_of_a_section_that_does_not_fit_raises():
    drill = load_drill_text(_with_variants("  names:\n    - {text: report_bot, choices: [weekly_bot]}\n"))
    data = drill.model_dump(mode="json")
    data["variants"]["amounts"] = [{"text": "2.1", "min": 2.11, "max": 2.19}]  # no 1-decimal number between
    with pytest.raises(VariantError, match="no number with 1 decimals"):
        apply_variant(Drill.model_validate(data), 1)


# -- warroom check --variants ----------------------------------------------------------------------------------------


def test_check_variants_plays_n_seeds_of_each_bundled_drill_with_variants():
    r = CliRunner().invoke(main, ["check", str(REPLIES), str(BACKFILL), str(ACCESS), "--variants", "6"])
    assert r.exit_code == 0, r.output
    assert r.output.count("variants: 6 seeds checked, 0 failed") == 3
    hint = CliRunner().invoke(main, ["check", str(REPLIES)])
    assert hint.exit_code == 0 and "variants: not checked (add --variants N" in hint.output
    plain = CliRunner().invoke(main, ["check", "duplicate-charge-refunds", "--variants", "3", "--format", "json"])
    assert plain.exit_code == 0
    import json

    (result,) = json.loads(plain.output)["drills"]
    assert result["variants"] == {"seeds": [], "problems": []}


def test_check_variants_fails_a_drill_whose_variant_fails(monkeypatch):
    """A variant that fails a check fails the drill, each problem naming its seed."""
    from dataclasses import replace

    import warroom.core.author._check as check

    real = check.run_checks

    def opening(drill) -> str:
        return drill.event("e08").output["error"]["message"][:20]

    written = opening(load_drill(REPLIES))

    def strict(drill, **options):  # a stand-in rule: only the evidence as written is readable
        # (options: the twin's check, warroom.core.author._twincheck, binds this stand-in where it is first imported
        # after the patch, as lazy_loader imports it when a test first asks for check_twin)
        report = real(drill, **options)
        if drill.answer_key is not None and opening(drill) != written:  # (the twin's e08 is the healthy result)
            return replace(report, problems=[*report.problems, "e08 was rephrased"])
        return report

    monkeypatch.setattr(check, "run_checks", strict)
    found = check_variants(load_drill(REPLIES), 8)
    rephrased = [s for s in range(8) if draw(s, "phrasing:e08", 3)]
    assert found.seeds == tuple(range(8)) and rephrased
    assert list(found.problems) == [f"seed {s}: e08 was rephrased" for s in rephrased]
    r = CliRunner().invoke(main, ["check", str(REPLIES), "--variants", "8"])
    assert r.exit_code == 1
    assert f": seed {rephrased[0]}: e08 was rephrased" in r.output  # after path:line:col of the variants
    assert f"variants: 8 seeds checked, {len(rephrased)} failed" in r.output


def test_a_phrasing_of_an_event_kind_with_no_text_to_replace_is_a_problem_not_a_crash() -> None:
    """Format 2's event kinds (a handoff, a command result...) name none of the fields a phrasing may replace: a
    phrasing of one is refused at its place (it raised KeyError, an internal error, before each event class said
    which fields a phrasing may replace)."""
    from warroom.core.author import example_text
    from warroom.core.load import DrillLoadError, load_drill_text

    phrasing = "variants:\n  phrasings:\n    - {event: e09, choices: [{stderr: other}]}\n"
    text = example_text("full", "x", "s.json") + phrasing
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text, "x.yaml")
    assert [p.message for p in info.value.problems] == [
        "a command_result event has no text a phrasing may replace"
    ]
