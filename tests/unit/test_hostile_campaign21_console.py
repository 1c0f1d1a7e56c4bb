"""Hostile input to the facilitator's figures (issue 30, campaign 21, the console and the report): stores built on
purpose (one trainee with every hit, every false alarm, a drill contained after a wrong escalation, an abandoned
assessment, replays, every time to detect 0 s, sessions left out as not verified). What it found and what now
holds."""

from __future__ import annotations

import re

from warroom.console import counting_sentence, detect_plot, kinds_plot, progress
from warroom.core.model import Response
from warroom.core.stats import SessionFacts

KINDS = {"A": "stale_data", "B": "truncated_tool_output", "C": "stale_data"}.get


def _fact(drill: str, fault: bool, outcome: str, n: int, **kw) -> SessionFacts:
    values = {"mode": "assessment", "session_id": f"s{n:02d}",
              "time_to_detect_s": 4.0 if outcome in ("contained", "contained_late") else None} | kw  # fmt: skip
    return SessionFacts("dee", drill, fault, outcome, 100 if outcome == "contained" else 0,
                        f"2026-11-{n:02d}T10:00:00Z", **values)  # fmt: skip


# -- the trainee page's bars by fault kind count what the rates beside them count ---------------------------------


def test_the_bars_by_fault_kind_add_up_to_the_hit_and_false_alarm_rates_beside_them():
    """dee contains A after a wrong escalation (a localisation error, no hit), quits B in assessment (a miss counted
    with its response), replays A and contains it (a replay, no trial), and escalates on the all-clear N then quits
    it on a replay. The page said `hit rate 0/2` beside a bar `stale_data: hits 1 of 1` (and `false alarms 2 of 2`
    beside `1/1`): the bars counted every played session, replays too, a hit as any containment, and no abandoned
    session."""
    facts = [
        _fact("A", True, "contained", 1, false_escalations=1, response=Response.LOCALISATION_ERROR),
        _fact("B", True, "abandoned", 2, response=Response.MISS),
        _fact("A", True, "contained", 3, response=Response.HIT),  # a replay
        _fact("N", False, "false_alarm", 4, false_escalations=1),
        _fact("N", False, "false_alarm", 5, false_escalations=1),  # a replay
    ]
    made = progress("dee", facts, KINDS)
    t = made.overall
    assert (t.hits, t.signal_trials, t.false_alarms + t.noise_abandoned, t.noise_trials) == (0, 2, 1, 1)
    kinds = {k.kind: (k.hits, k.signal, k.false_alarms, k.noise) for k in made.by_kind}
    assert kinds == {"stale_data": (0, 1, 0, 0), "truncated_tool_output": (0, 1, 0, 0),
                     "all-clear (no fault)": (0, 0, 1, 1)}  # fmt: skip
    assert sum(k.hits for k in made.by_kind) == t.hits and sum(k.signal for k in made.by_kind) == t.signal_trials
    svg = kinds_plot(made)
    assert svg is not None and "hits 0 of 1" in svg and "false alarms 1 of 1" in svg
    assert "share of the trials (first attempts)" in svg


def test_a_noise_trial_quit_is_a_false_alarm_on_the_bars_as_in_the_rate_and_a_chosen_trial_is_none():
    facts = [
        _fact("N", False, "abandoned", 1),  # quit in assessment without escalating: counted against, as the rate does
        _fact("A", True, "contained", 2, chosen=True),  # `warroom run --as signal`: no trial
        _fact("C", True, "contained", 3),
    ]
    made = progress("dee", facts, KINDS)
    t = made.overall
    assert (t.false_alarms + t.noise_abandoned, t.noise_trials, t.hits, t.signal_trials) == (1, 1, 1, 1)
    kinds = {k.kind: (k.hits, k.signal, k.false_alarms, k.noise) for k in made.by_kind}
    assert kinds == {"stale_data": (1, 1, 0, 0), "all-clear (no fault)": (0, 0, 1, 1)}


def test_a_trainee_with_sessions_of_another_mode_only_left_out_has_no_bars():
    made = progress("dee", [_fact("A", True, "contained", 1, mode="practice"), _fact("N", False, "all_clear_held", 2)],
                    KINDS)  # fmt: skip
    assert [(k.kind, k.noise) for k in made.by_kind] == [("all-clear (no fault)", 1)]  # the assessment's only


# -- times to detect are drawn from 0 ---------------------------------------------------------------------------


def _y_ticks(svg: str) -> list[str]:
    """The tick labels of an SVG figure's axes (matplotlib writes each as a text element; its minus is U+2212)."""
    return re.findall(r">([\u2212\-]?\d+(?:\.\d+)?)</text>", svg)


def test_the_time_to_detect_plot_never_draws_negative_times_when_every_detection_was_at_0_s():
    """One trainee detecting every fault at its first evidence (0 s): matplotlib's own limits drew the axis from
    -0.04 to 0.04 s."""
    facts = [_fact(d, True, "contained", i + 1, time_to_detect_s=0.0) for i, d in enumerate("ABC")]
    svg = detect_plot(progress("dee", facts, KINDS))
    assert svg is not None
    ticks = _y_ticks(svg)
    assert ticks and not [t for t in ticks if t.startswith(("\u2212", "-"))], ticks


def test_the_time_to_detect_plot_of_one_detection_starts_at_0_s():
    """One time of 18 s was drawn on an axis from 17.25 to 18.75 s: a second's difference as the whole height."""
    svg = detect_plot(progress("dee", [_fact("A", True, "contained", 1, time_to_detect_s=18.0)], KINDS))
    assert svg is not None
    ticks = _y_ticks(svg)
    assert "0.0" in ticks or "0" in ticks, ticks
    assert "17.25" not in ticks and "18.75" not in ticks, ticks


def test_the_reports_time_to_detect_plot_starts_at_0_s_too():
    from warroom.cli.report._figures import time_to_detect

    svg = time_to_detect([_fact(d, True, "contained", i + 1, time_to_detect_s=0.0) for i, d in enumerate("AB")])
    assert svg is not None
    ticks = _y_ticks(svg)
    assert ticks and not [t for t in ticks if t.startswith(("\u2212", "-"))], ticks


# -- sessions left out of the figures are said on every page ----------------------------------------------------


def test_the_counting_sentence_says_how_many_sessions_not_verified_every_figure_leaves_out():
    """The console's figures leave out sessions not verified (as `warroom scores summary`, which says so); its
    counting sentence, on every page, said nothing of them: a trainee's page listed a session `contained 100` that
    no figure on it counted, unexplained."""
    assert "not verified" not in counting_sentence(3, 0)
    one = counting_sentence(3, 0, unverified=1)
    assert "1 session not verified" in one and "is left out of every figure" in one and "marked !" in one
    many = counting_sentence(3, 1, 2, unverified=1200)
    assert "1,200 sessions not verified" in many and "are left out of every figure" in many


# -- the review of a session the figures leave out says so, its drill missing or not --------------------------------


def test_the_review_of_a_session_recorded_unverifiable_says_so_when_its_drill_is_gone(tmp_path):
    """`scores verify` recorded the session as unverifiable (its drill file is gone): its review (the console's,
    the trainee's own, `warroom review`) said only that the drill file is not found, never that the figures leave
    the session out (the record was not read when the drill could not be found)."""
    from click.testing import CliRunner
    from store_support import copy_drill

    from warroom.cli import main
    from warroom.core.load import load_drill
    from warroom.core.play import Replay
    from warroom.core.scoring import score
    from warroom.store.journal import SessionRecorder
    from warroom.store.results import ResultsStore
    from warroom.store.review import load_review

    data, drills = tmp_path / "data", tmp_path / "drills"
    path = copy_drill(drills, "gone-drill")
    rec = SessionRecorder.start(data, "ann", path, load_drill(path), mode="assessment", seed=1)
    replay = Replay(rec.drill, on_action=rec.record)
    replay.advance_to(12)
    replay.escalate("s1", "stale", ("e04",))
    rec.finish(score(rec.drill, rec.actions))
    path.unlink()
    verify = CliRunner().invoke(main, ["scores", "verify", "--data-dir", str(data)])
    assert verify.exit_code == 1 and f"unverifiable: {rec.session_id}" in verify.output, verify.output
    with ResultsStore(data) as store:
        review = load_review(store.get(rec.session_id), [drills], store)
    assert review.notices[0].startswith("The drill file of this session is not found")
    assert any(n.startswith("Recorded as unverifiable: the drill 'gone-drill'") and "leave the session out" in n
               for n in review.notices), review.notices  # fmt: skip


# -- the report read at a phone's width ---------------------------------------------------------------------------


def test_the_report_is_no_wider_than_a_phone_and_prints_its_tables_whole(tmp_path):
    """At 390 px the report's per-trainee and per-drill tables made the whole page 1,058 px wide (its text and
    figures scrolled sideways with them). A wide table now scrolls within itself; printed, it is a whole table."""
    from browser_support import chromium_executable, sync_playwright
    from click.testing import CliRunner
    from handcohort_support import play_cohort

    from warroom.cli import main

    data, out = tmp_path / "data", tmp_path / "report.html"
    play_cohort(data)
    r = CliRunner().invoke(main, ["report", "--data-dir", str(data), "--output", str(out)])
    assert r.exit_code == 0, r.output
    executable = chromium_executable()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, headless=True, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto(out.as_uri())
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            widths = page.evaluate("[...document.querySelectorAll('table')].map(t => t.scrollWidth)")
            assert max(widths) > 390  # the tables are all there, scrolled within themselves
            page.emulate_media(media="print")
            assert page.evaluate("getComputedStyle(document.querySelector('table')).display") == "table"
        finally:
            browser.close()
