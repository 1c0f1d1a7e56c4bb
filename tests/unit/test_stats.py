"""Cohort statistics (issue 14 item 5): each formula on hand-computed cases, the per-trainee and per-drill summary,
and edge cases. The generated cohort (d′ recovery) is in test_stats_cohort.py."""

from __future__ import annotations

import json
import math
import random
import statistics

import pytest

from warroom.core.model import Outcome
from warroom.core.stats import SessionFacts, summarize
from warroom.core.stats._measures import (
    a_prime,
    d_prime_and_c,
    log_linear_rate,
    pearson_r,
    point_biserial,
    rate,
    sessions_needed,
    spearman_brown,
)

# Tabulated quantiles of the standard normal distribution (any statistics table): Φ⁻¹(0.7), Φ⁻¹(0.9), Φ⁻¹(0.95).
Z70, Z90, Z95 = 0.5244005127080407, 1.2815515655446004, 1.6448536269514722
EXACT = {"rel": 1e-12, "abs": 1e-12}


def fact(trainee: str, drill: str, outcome: str, score: float = 0, t: int = 0, **kw) -> SessionFacts:
    """A session; all-clear drills are the ones whose id starts with ``clear``."""
    return SessionFacts(
        trainee=trainee,
        drill_id=drill,
        is_fault_drill=not drill.startswith("clear"),
        outcome=outcome,
        score=score,
        started_at=f"2026-11-30T10:{t // 60:02d}:{t % 60:02d}.000000+00:00",
        **kw,
    )


# ---------------------------------------------------------------------------------------------------------------
# The formulas
# ---------------------------------------------------------------------------------------------------------------


def test_rates_and_the_log_linear_correction():
    assert rate(3, 4) == 0.75
    assert rate(0, 0) is None
    assert log_linear_rate(3, 4) == 3.5 / 5
    assert log_linear_rate(0, 20) == 0.5 / 21
    assert log_linear_rate(20, 20) == 20.5 / 21
    for bad in ((5, 4), (-1, 4)):
        with pytest.raises(ValueError):
            rate(*bad)
        with pytest.raises(ValueError):
            log_linear_rate(*bad)


def test_d_prime_and_c_symmetric_cases():
    # 3 hits of 4, 1 false alarm of 4: H = 3.5/5 = 0.7, F = 1.5/5 = 0.3, so d′ = 2 Φ⁻¹(0.7) and c = 0.
    d, c = d_prime_and_c(3, 4, 1, 4)
    assert d == pytest.approx(2 * Z70, **EXACT)
    assert c == pytest.approx(0.0, abs=1e-12)
    # All hits and no false alarm stay finite: H = 4.5/5 = 0.9, F = 0.5/5 = 0.1.
    d, c = d_prime_and_c(4, 4, 0, 4)
    assert d == pytest.approx(2 * Z90, **EXACT)
    assert c == pytest.approx(0.0, abs=1e-12)


def test_d_prime_and_c_liberal_trainee():
    # 9 of 9 hits (H = 9.5/10 = 0.95), 1 of 4 false alarms (F = 0.3): d′ = 1.6449 + 0.5244, c = -(1.6449 - 0.5244)/2.
    d, c = d_prime_and_c(9, 9, 1, 4)
    assert d == pytest.approx(Z95 + Z70, **EXACT)
    assert c == pytest.approx(-(Z95 - Z70) / 2, **EXACT)
    assert c < 0  # quick to escalate


def test_d_prime_needs_both_kinds_of_drill():
    assert d_prime_and_c(5, 10, 0, 0) is None
    assert d_prime_and_c(0, 0, 1, 3) is None
    with pytest.raises(ValueError):
        d_prime_and_c(5, 4, 0, 0)  # impossible counts are not hidden by the None


@pytest.mark.parametrize(
    ("h", "f", "expected"),
    [
        (0.8, 0.2, 0.5 + 0.6 * 1.6 / (4 * 0.8 * 0.8)),  # 0.875
        (0.2, 0.8, 0.5 - 0.6 * 1.6 / (4 * 0.8 * 0.8)),  # 0.125: below chance, the H < F formula
        (0.6, 0.3, 0.5 + 0.3 * 1.3 / (4 * 0.6 * 0.7)),
        (1.0, 0.0, 1.0),
        (0.0, 1.0, 0.0),
        (0.0, 0.0, 0.5),
        (1.0, 1.0, 0.5),
        (0.4, 0.4, 0.5),
    ],
)
def test_a_prime(h, f, expected):
    assert a_prime(h, f) == pytest.approx(expected, **EXACT)


def test_a_prime_values_and_symmetry():
    assert a_prime(0.8, 0.2) == 0.875
    assert a_prime(0.2, 0.8) == 0.125
    # Swapping H and F mirrors A′ about chance.
    for h, f in ((0.9, 0.35), (0.55, 0.1), (0.3, 0.05)):
        assert a_prime(h, f) + a_prime(f, h) == pytest.approx(1.0, **EXACT)
    with pytest.raises(ValueError):
        a_prime(1.2, 0.1)


def test_pearson_r_by_hand_and_against_the_standard_library():
    # Deviations x: -1.5 -0.5 0.5 1.5, y: -1.5 0.5 -0.5 1.5: Sxy = 4, Sxx = Syy = 5.
    assert pearson_r([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(0.8, **EXACT)
    assert pearson_r([1, 2, 3], [2, 4, 6]) == pytest.approx(1.0, **EXACT)
    assert pearson_r([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0, **EXACT)
    rng = random.Random(7)
    xs = [rng.gauss(0, 1) for _ in range(50)]
    ys = [x + rng.gauss(0, 1) for x in xs]
    assert pearson_r(xs, ys) == pytest.approx(statistics.correlation(xs, ys), rel=1e-9)


def test_point_biserial_is_pearson_with_a_0_1_variable():
    # Textbook form: (M1 - M0) / s_n * sqrt(p q) = (3 - 2) / sqrt(5/4) * 1/2 = 1/sqrt(5).
    assert pearson_r([0, 0, 1, 1], [1, 3, 2, 4]) == pytest.approx(1 / math.sqrt(5), **EXACT)


def test_point_biserial_from_groups_equals_pearson_of_the_pairs():
    # Groups (sessions, ones, y): the drill-discrimination input, one per trainee.
    assert point_biserial([(1, 1, 80.0), (1, 1, 60.0), (1, 0, 70.0), (1, 0, 30.0)]) == pytest.approx(
        20 / math.sqrt(1400), **EXACT
    )
    rng = random.Random(3)
    for _ in range(20):
        groups = []
        for _ in range(rng.randint(3, 30)):
            k = rng.randint(1, 4)
            groups.append((k, rng.randint(0, k), rng.uniform(0, 100)))
        xs = [x for k, ones, _ in groups for x in [1] * ones + [0] * (k - ones)]
        ys = [y for k, _, y in groups for _ in range(k)]
        expected = pearson_r(xs, ys)
        got = point_biserial(groups)
        assert (got is None) == (expected is None)
        if expected is not None:
            assert got == pytest.approx(expected, rel=1e-9, abs=1e-12)
    assert point_biserial([(2, 2, 50.0), (3, 3, 10.0)]) is None  # all correct
    assert point_biserial([(2, 1, 50.0), (3, 0, 50.0)]) is None  # one rest score for all
    assert point_biserial([(1, 1, 50.0), (1, 0, 20.0), (0, 0, 9.0)]) is None  # 2 pairs
    with pytest.raises(ValueError):
        point_biserial([(2, 3, 50.0)])


def test_pearson_r_undefined_cases():
    assert pearson_r([1, 2], [3, 5]) is None  # two points always lie on a line
    assert pearson_r([1, 1, 1], [1, 2, 3]) is None  # constant
    assert pearson_r([0, 1, 2], [5, 5, 5]) is None
    with pytest.raises(ValueError):
        pearson_r([1, 2, 3], [1, 2])


def test_spearman_brown_and_sessions_needed():
    assert spearman_brown(0.5, 2) == pytest.approx(2 / 3, **EXACT)
    assert spearman_brown(0.5, 0.5) == pytest.approx(1 / 3, **EXACT)
    assert spearman_brown(0.7, 1) == pytest.approx(0.7, **EXACT)
    # r = 0.5 at 10 sessions: 10 * 0.7 * 0.5 / (0.5 * 0.3) = 23.33 sessions reach 0.7.
    assert sessions_needed(0.5, 10) == pytest.approx(70 / 3, **EXACT)
    assert spearman_brown(0.5, sessions_needed(0.5, 10) / 10) == pytest.approx(0.7, **EXACT)
    assert sessions_needed(0.7, 10) == pytest.approx(10, **EXACT)
    assert sessions_needed(0.9, 10) < 10
    assert sessions_needed(0.0, 10) is None
    assert sessions_needed(-0.3, 10) is None
    assert sessions_needed(None, 10) is None
    for bad in ((0.5, 0), (0.5, 10, 1.0)):
        with pytest.raises(ValueError):
            sessions_needed(*bad)
    with pytest.raises(ValueError):
        spearman_brown(0.5, 0)


# ---------------------------------------------------------------------------------------------------------------
# SessionFacts
# ---------------------------------------------------------------------------------------------------------------


def test_session_facts_take_outcome_names_and_reject_impossible_sessions():
    f = fact("ana", "d1", "contained", 90)
    assert f.outcome is Outcome.CONTAINED and not f.abandoned
    assert fact("ana", "d1", "abandoned").abandoned
    assert fact("ana", "d1", "missed", distractors_shown=1, distractor_escalations=["e4"]).distractor_escalations == (
        "e4",
    )
    with pytest.raises(ValueError):
        fact("ana", "d1", "won")
    with pytest.raises(ValueError):
        fact("ana", "clear1", "contained")
    with pytest.raises(ValueError):
        fact("ana", "d1", "all_clear_held")
    with pytest.raises(ValueError):
        fact("ana", "d1", "missed", false_escalations=-1)
    with pytest.raises(ValueError):
        fact("ana", "d1", "missed", distractors_shown=1, distractor_escalations=("e4", "e5"))


# ---------------------------------------------------------------------------------------------------------------
# Per trainee
# ---------------------------------------------------------------------------------------------------------------


def ana_sessions() -> list[SessionFacts]:
    return [
        fact("ana", "d1", "contained", 90, 1, time_to_detect_s=10.0, wall_time_to_detect_s=12.0, distractors_shown=1),
        fact("ana", "d2", "contained_late", 40, 2, time_to_detect_s=30.0),
        fact("ana", "d3", "missed", 0, 3),
        fact("ana", "clear1", "all_clear_held", 100, 4),
        fact(
            "ana", "clear2", "false_alarm", 50, 5, false_escalations=2, distractors_shown=2,
            distractor_escalations=("e7", "e7"),
        ),
    ]


def test_trainee_figures_by_hand():
    (ana,) = summarize(ana_sessions()).trainees
    assert (ana.sessions, ana.abandoned, ana.fault_sessions, ana.hits) == (5, 0, 3, 1)
    assert ana.hit_rate == pytest.approx(1 / 3)  # contained late is not a hit
    assert (ana.all_clear_sessions, ana.false_alarms, ana.false_alarm_rate) == (2, 1, 0.5)
    assert ana.false_escalations_per_all_clear == 1.0  # 2 false escalations in 2 all-clear sessions
    # 3 distractors shown; e7 pulled two escalations but is one distractor.
    assert (ana.distractors_shown, ana.distractors_escalated) == (3, 1)
    assert ana.distractor_escalation_rate == pytest.approx(1 / 3)
    # Log-linear: H = 1.5/4 = 0.375, F = 1.5/3 = 0.5, so d′ = Φ⁻¹(0.375) and c = -Φ⁻¹(0.375)/2.
    z375 = -0.31863936396437514
    assert ana.d_prime == pytest.approx(z375, **EXACT)
    assert ana.criterion_c == pytest.approx(-z375 / 2, **EXACT)
    # A′ from raw rates, H = 1/3 < F = 1/2: 0.5 - (1/6)(7/6) / (4 * 1/2 * 2/3) = 0.5 - 7/48.
    assert ana.a_prime == pytest.approx(0.5 - 7 / 48, **EXACT)
    assert ana.median_time_to_detect == 20.0  # of 10 s and 30 s
    assert ana.median_wall_time_to_detect == 12.0  # the only session with a wall time
    assert ana.mean_score == 56.0  # (90 + 40 + 0 + 100 + 50) / 5


def test_abandoned_sessions_are_counted_apart_never_as_misses_or_zeros():
    base = summarize(ana_sessions()).trainees[0]
    quits = [fact("ana", "d4", "abandoned", 0, 6), fact("ana", "clear3", "abandoned", 0, 7)]
    with_quits = summarize(ana_sessions() + quits).trainees[0]
    assert with_quits.abandoned == 2
    same = {k: v for k, v in with_quits.to_dict().items() if k != "abandoned"}
    assert same == {k: v for k, v in base.to_dict().items() if k != "abandoned"}
    drills = {d.drill_id: d for d in summarize(ana_sessions() + quits).drills}
    assert (drills["d4"].abandoned, drills["d4"].sessions, drills["d4"].difficulty) == (1, 0, None)
    assert drills["d4"].all_clear is False and drills["clear3"].all_clear is True


def test_a_trainee_who_only_quit():
    (bo,) = summarize([fact("bo", "d1", "abandoned"), fact("bo", "clear1", "abandoned")]).trainees
    assert (bo.sessions, bo.abandoned) == (0, 2)
    assert bo.hit_rate is bo.false_alarm_rate is bo.d_prime is bo.a_prime is bo.mean_score is None


def test_no_all_clear_drill_played():
    (t,) = summarize([fact("cy", "d1", "contained", 80, 1), fact("cy", "d2", "missed", 0, 2)]).trainees
    assert t.hit_rate == 0.5
    assert t.false_alarm_rate is None and t.false_escalations_per_all_clear is None
    assert t.d_prime is None and t.criterion_c is None and t.a_prime is None


def test_all_hits_and_no_false_alarms():
    facts = [fact("di", f"d{i}", "contained", 100, i) for i in range(40)]
    facts += [fact("di", f"clear{i}", "all_clear_held", 100, 40 + i) for i in range(20)]
    (t,) = summarize(facts).trainees
    assert (t.hit_rate, t.false_alarm_rate, t.a_prime) == (1.0, 0.0, 1.0)
    z_h = statistics.NormalDist().inv_cdf(40.5 / 41)
    z_f = statistics.NormalDist().inv_cdf(0.5 / 21)
    assert t.d_prime == pytest.approx(z_h - z_f, **EXACT)  # finite: 4.23, the largest 40 + 20 drills can show
    assert t.criterion_c == pytest.approx(-(z_h + z_f) / 2, **EXACT)


def test_a_single_session():
    stats = summarize([fact("ed", "d1", "contained", 75, 1, time_to_detect_s=4.5)])
    (t,) = stats.trainees
    (d,) = stats.drills
    assert (t.sessions, t.hit_rate, t.median_time_to_detect, t.mean_score) == (1, 1.0, 4.5, 75.0)
    assert t.reliability is None and t.more_sessions_needed is None
    assert (stats.reliability.trainees, stats.reliability.split_half_r) == (0, None)
    assert (d.difficulty, d.discrimination, d.median_time_to_detect) == (1.0, None, 4.5)


def test_modes_filter_sessions_before_anything_is_counted():
    facts = [
        fact("fi", "d1", "contained", 90, 1, mode="assessment"),
        fact("fi", "d2", "missed", 0, 2, mode="practice"),
        fact("fi", "d3", "abandoned", 0, 3, mode="practice"),
    ]
    stats = summarize(facts, modes={"assessment"})
    (t,) = stats.trainees
    assert (t.sessions, t.abandoned, t.hit_rate, stats.skipped_by_mode) == (1, 0, 1.0, 2)
    assert [d.drill_id for d in stats.drills] == ["d1"]
    assert summarize(facts).skipped_by_mode == 0
    with pytest.raises(ValueError):
        summarize(facts, target=1.0)


# ---------------------------------------------------------------------------------------------------------------
# Reliability
# ---------------------------------------------------------------------------------------------------------------


def scored(trainee: str, scores: list[float], times: list[int] | None = None) -> list[SessionFacts]:
    times = times if times is not None else list(range(len(scores)))
    return [fact(trainee, f"d{i}", "missed", s, t) for i, (s, t) in enumerate(zip(scores, times, strict=False))]


def test_split_half_reliability_by_hand():
    # Odd/even halves in time order: a (10, 30 | 20, 40) -> 20 | 30; b (50, 70 | 50, 60) -> 60 | 55;
    # c (90, 90 | 80, 100) -> 90 | 90. Deviations x 3: odd -110 10 100, even -85 -10 95.
    # b's sessions are given out of time order: the split follows started_at, not the input order.
    facts = scored("a", [10, 20, 30, 40]) + scored("b", [70, 60, 50, 50], [2, 3, 0, 1]) + scored("c", [90, 80, 90, 100])
    rel = summarize(facts).reliability
    r = 18750 / math.sqrt(22200 * 16350)  # Sxy / sqrt(Sxx Syy), all / 9
    assert rel.trainees == 3
    assert rel.split_half_r == pytest.approx(r, **EXACT)
    assert rel.half_sessions == 2.0
    assert rel.reliability == pytest.approx(2 * r / (1 + r), **EXACT)
    assert rel.sessions_needed == math.ceil(2 * 0.7 * (1 - r) / (r * 0.3))  # 1: 4 sessions are plenty
    for t in summarize(facts).trainees:
        assert t.reliability == pytest.approx(2 * r / (1 + r), **EXACT)  # 4 sessions = 2 halves of 2
        assert t.more_sessions_needed == 0


def test_more_sessions_needed_by_spearman_brown():
    # odd means 40, 50, 60, 70; even means 50, 40, 70, 60: r = 0.6 at 2 sessions per half.
    facts = []
    for name, (o, e) in zip("pqrs", [(40, 50), (50, 40), (60, 70), (70, 60)], strict=False):
        facts += scored(name, [o, e, o, e])
    facts += scored("s", [70], [9])  # a 5th session for s: odd 70 70 70, even 60 60 (mean unchanged)
    stats = summarize(facts)
    rel = stats.reliability
    assert rel.split_half_r == pytest.approx(0.6, **EXACT)
    # Halves of 2, 2, 2, 2, 2, 2, 3, 2 sessions: harmonic mean 8 / (7/2 + 1/3) = 48/23.
    half = 48 / 23
    assert rel.half_sessions == pytest.approx(half, **EXACT)
    needed = half * 0.7 * 0.4 / (0.6 * 0.3)  # 3.25 sessions
    assert rel.sessions_needed == math.ceil(needed) == 4
    by = {t.trainee: t for t in stats.trainees}
    assert by["p"].reliability == pytest.approx(spearman_brown(0.6, 4 / half), **EXACT)
    assert by["p"].more_sessions_needed == 0
    assert by["s"].reliability == pytest.approx(spearman_brown(0.6, 5 / half), **EXACT)
    lone = summarize(facts + [fact("t", "d1", "missed", 10, 1)])
    assert lone.reliability == rel  # a trainee with one session has no halves
    t = {x.trainee: x for x in lone.trainees}["t"]
    assert t.reliability == pytest.approx(spearman_brown(0.6, 1 / half), **EXACT)
    assert t.more_sessions_needed == 3  # 3.25 - 1 = 2.25, rounded up


def test_halves_that_disagree_give_no_estimate():
    facts = scored("a", [10, 90, 10, 90]) + scored("b", [90, 10, 90, 10]) + scored("c", [50, 60, 50, 40])
    rel = summarize(facts).reliability
    assert rel.split_half_r is not None and rel.split_half_r < 0
    assert rel.reliability is None and rel.sessions_needed is None
    assert all(t.reliability is None and t.more_sessions_needed is None for t in summarize(facts).trainees)


def test_ties_in_start_time_keep_the_input_order():
    same = [0, 0, 0, 0]
    facts = scored("a", [10, 20, 30, 40], same) + scored("b", [50, 50, 70, 60], same)
    facts += scored("c", [90, 80, 90, 100], same)
    r = 18750 / math.sqrt(22200 * 16350)  # as in test_split_half_reliability_by_hand
    assert summarize(facts).reliability.split_half_r == pytest.approx(r, **EXACT)


def test_ties_in_start_time_go_in_session_id_order():
    """As the store's split-half query orders them (by start time, then session id), whatever the input order."""
    same = [0, 0, 0, 0]
    a, b = scored("a", [10, 20, 30, 40], same), scored("b", [50, 50, 70, 60], same)
    c = scored("c", [90, 80, 90, 100], same)
    for group in (a, b, c):
        for i, f in enumerate(group):
            f.session_id = f"{f.trainee}-{i}"
    shuffled = a[::-1] + b[1:] + b[:1] + c[2:] + c[:2]
    r = 18750 / math.sqrt(22200 * 16350)  # session-id order = the order listed (test_split_half_reliability_by_hand)
    assert summarize(shuffled).reliability.split_half_r == pytest.approx(r, **EXACT)


# ---------------------------------------------------------------------------------------------------------------
# Per drill
# ---------------------------------------------------------------------------------------------------------------


def test_drill_difficulty_discrimination_and_distractors_by_hand():
    facts = [
        fact("a", "x", "contained", 90, 1, time_to_detect_s=5.0, distractors_shown=1),
        fact("b", "x", "contained", 70, 1, time_to_detect_s=9.0, wall_time_to_detect_s=30.0, distractors_shown=1),
        fact("c", "x", "contained_late", 20, 1, time_to_detect_s=40.0, distractors_shown=1,
             false_escalations=1, distractor_escalations=("e5",)),
        fact("d", "x", "wrong_step", 0, 1, distractors_shown=2, false_escalations=2,
             distractor_escalations=("e5", "e9")),
        fact("e", "x", "contained", 100, 1),  # no other drill: no rest score, left out of the correlation
        fact("d", "x", "abandoned", 0, 2),
        # Rest scores (the mean on the OTHER drills): a 80, b 60, c 70, d 30.
        fact("a", "y", "contained", 80, 3),
        fact("b", "y", "contained", 60, 3),
        fact("c", "clear", "all_clear_held", 100, 3),
        fact("c", "y", "missed", 40, 4),
        fact("d", "y", "missed", 30, 3),
    ]
    drills = {d.drill_id: d for d in summarize(facts).drills}
    x = drills["x"]
    assert (x.sessions, x.trainees, x.abandoned, x.all_clear) == (5, 5, 1, False)
    assert x.difficulty == 0.6  # 3 of 5 contained on time; contained late is not
    # Correct 1 1 0 0 against rest 80 60 70 30: Sxy = 20, Sxx = 1, Syy = 1400.
    assert x.discrimination == pytest.approx(20 / math.sqrt(1400), **EXACT)
    assert x.median_time_to_detect == 9.0 and x.median_wall_time_to_detect == 30.0
    assert x.distractor_pulls == {"e5": 2, "e9": 1}
    assert list(x.distractor_pulls) == ["e5", "e9"]  # most first
    clear = drills["clear"]
    assert (clear.all_clear, clear.difficulty, clear.median_time_to_detect) == (True, 1.0, None)


def test_discrimination_undefined_when_everyone_succeeds():
    facts = []
    for i, name in enumerate("abcd"):
        facts += [fact(name, "x", "contained", 90, 1), fact(name, "y", "missed", 10 * i, 2)]
    drills = {d.drill_id: d for d in summarize(facts).drills}
    assert drills["x"].difficulty == 1.0 and drills["x"].discrimination is None


def test_the_summary_is_json_ready_and_sorted():
    stats = summarize(list(reversed(ana_sessions())) + [fact("al", "d1", "missed", 0, 9)])
    assert [t.trainee for t in stats.trainees] == ["al", "ana"]
    assert [d.drill_id for d in stats.drills] == ["clear1", "clear2", "d1", "d2", "d3"]
    data = json.loads(json.dumps(stats.to_dict()))
    assert data["drills"][1]["distractor_pulls"] == {"e7": 2}
    assert data["reliability"]["target"] == 0.7
