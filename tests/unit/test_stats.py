"""Cohort statistics (issue 14 item 5): each formula on hand-computed cases, the per-trainee and per-drill summary,
and edge cases. The generated cohort (d′ recovery) is in test_stats_cohort.py."""

from __future__ import annotations

import json
import math
import random
import statistics

import pytest

from warroom.core.model import Outcome, Response
from warroom.core.stats import SessionFacts, summarize
from warroom.core.stats._counts import reliability_of
from warroom.core.stats._measures import (
    a_prime,
    a_prime_interval,
    d_prime_and_c,
    log_linear_rate,
    pearson_r,
    point_biserial,
    rate,
    sdt_intervals,
    sessions_needed,
    spearman_brown,
    wilson_interval,
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
# Intervals
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [  # Newcombe (1998), Statistics in Medicine 17, 857-872, Table I, method 3 (Wilson score, no correction)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_interval_against_published_values(k, n, low, high):
    got = wilson_interval(k, n)
    assert got is not None
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_edges():
    assert wilson_interval(0, 0) is None
    assert wilson_interval(5, 5)[1] == 1.0 and wilson_interval(5, 5)[0] < 1.0  # 5 of 5 is not certainty
    with pytest.raises(ValueError):
        wilson_interval(6, 5)


def test_d_prime_and_c_intervals_by_the_delta_method():
    """7 hits of 10, 1 false alarm of 5: the corrected rates H = 7.5/11, F = 1.5/6; var(d′) = H(1−H)/(10 φ(zH)²) +
    F(1−F)/(5 φ(zF)²), var(c) = var(d′)/4 (Gourevitch & Galanter 1967), ± 1.96 standard errors."""
    nd = statistics.NormalDist()
    h, f = 7.5 / 11, 1.5 / 6
    zh, zf = nd.inv_cdf(h), nd.inv_cdf(f)
    se = math.sqrt(h * (1 - h) / (10 * nd.pdf(zh) ** 2) + f * (1 - f) / (5 * nd.pdf(zf) ** 2))
    z = nd.inv_cdf(0.975)
    (d_low, d_high), (c_low, c_high) = sdt_intervals(7, 10, 1, 5)
    d, c = zh - zf, -(zh + zf) / 2
    assert (d_low, d_high) == pytest.approx((d - z * se, d + z * se), **EXACT)
    assert (c_low, c_high) == pytest.approx((c - z * se / 2, c + z * se / 2), **EXACT)
    assert sdt_intervals(7, 10, 0, 0) is None


def _a_prime_bounds_by_enumeration(hits: int, ns: int, fas: int, nn: int) -> tuple[float, float]:
    """An independent computation of the exact parametric bootstrap: every pair of counts with its binomial
    probability (math.comb), A′ of each, the 2.5th and 97.5th percentiles."""
    ph, pf = (hits + 0.5) / (ns + 1), (fas + 0.5) / (nn + 1)
    cells = []
    for kh in range(ns + 1):
        for kf in range(nn + 1):
            p = math.comb(ns, kh) * ph**kh * (1 - ph) ** (ns - kh) * math.comb(nn, kf) * pf**kf * (1 - pf) ** (nn - kf)
            cells.append((a_prime(kh / ns, kf / nn), p))
    cells.sort()
    seen, low, high = 0.0, None, None
    for value, p in cells:
        seen += p
        if low is None and seen >= 0.025:
            low = value
        if seen >= 0.975:
            high = value
            break
    point = a_prime(hits / ns, fas / nn)
    return min(low, point), max(high, point)


@pytest.mark.parametrize("counts", [(7, 10, 1, 5), (10, 10, 0, 5), (30, 45, 4, 15), (2, 12, 4, 6)])
def test_a_prime_interval_is_the_exact_parametric_bootstrap(counts):
    low, high = a_prime_interval(*counts)
    assert (low, high) == pytest.approx(_a_prime_bounds_by_enumeration(*counts), abs=1e-9)
    hits, ns, fas, nn = counts
    assert 0.0 <= low <= a_prime(hits / ns, fas / nn) <= high <= 1.0
    assert low < high  # 10 of 10 and 0 of 5 is not certainty either


# ---------------------------------------------------------------------------------------------------------------
# SessionFacts and the responses of older scorecards
# ---------------------------------------------------------------------------------------------------------------


def test_session_facts_take_outcome_names_and_reject_impossible_sessions():
    f = fact("ana", "d1", "contained", 90)
    assert f.outcome is Outcome.CONTAINED and not f.abandoned
    assert fact("ana", "d1", "abandoned").abandoned
    assert fact("ana", "d1", "missed", distractors_shown=1, distractor_escalations=["e4"]).distractor_escalations == (
        "e4",
    )
    for bad in (
        {"outcome": "won"}, {"drill": "clear1", "outcome": "contained"}, {"outcome": "all_clear_held"},
        {"outcome": "missed", "false_escalations": -1}, {"outcome": "missed", "response": "maybe"},
        {"outcome": "missed", "response": "false_alarm"},  # a noise trial's response on a signal trial
        {"drill": "clear1", "outcome": "false_alarm", "response": "hit"},
    ):  # fmt: skip
        kw = dict(bad)
        with pytest.raises(ValueError):
            fact("ana", kw.pop("drill", "d1"), kw.pop("outcome"), **kw)
    with pytest.raises(ValueError):
        fact("ana", "d1", "missed", distractors_shown=1, distractor_escalations=("e4", "e5"))


@pytest.mark.parametrize(
    ("drill", "outcome", "false_escalations", "response"),
    [
        ("d1", "contained", 0, Response.HIT),
        ("d1", "contained", 1, Response.LOCALISATION_ERROR),  # a false escalation came first
        ("d1", "contained_late", 0, Response.MISS),
        ("d1", "right_step_unsupported", 0, Response.LOCALISATION_ERROR),
        ("d1", "wrong_step", 1, Response.LOCALISATION_ERROR),
        ("d1", "false_alarm", 1, Response.LOCALISATION_ERROR),  # an early escalation on a fault drill
        ("d1", "missed", 0, Response.MISS),
        ("d1", "abandoned", 0, Response.MISS),
        ("d1", "abandoned", 2, Response.LOCALISATION_ERROR),
        ("clear1", "all_clear_held", 0, Response.CORRECT_REJECTION),
        ("clear1", "false_alarm", 1, Response.FALSE_ALARM),
        ("clear1", "abandoned", 0, Response.ABANDONED),  # quit without escalating: never a correct rejection
        ("clear1", "abandoned", 1, Response.FALSE_ALARM),
    ],
)
def test_the_response_of_an_older_scorecard_is_approximated(drill, outcome, false_escalations, response):
    f = fact("ana", drill, outcome, false_escalations=false_escalations)
    assert (f.response, f.approximated) == (response, True)
    recorded = fact("ana", drill, outcome, false_escalations=false_escalations, response=response.value)
    assert (recorded.response, recorded.approximated) == (response, False)


# ---------------------------------------------------------------------------------------------------------------
# Per trainee: trials are first attempts, responses decide, minimums
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


def test_trainee_counts_and_rates_by_hand():
    (ana,) = summarize(ana_sessions()).trainees
    assert (ana.trials, ana.replays, ana.abandoned, ana.approximated) == (5, 0, 0, 5)
    assert (ana.signal_trials, ana.hits, ana.localisation_errors, ana.misses) == (3, 1, 0, 2)
    assert ana.hit_rate == pytest.approx(1 / 3)  # contained late is not a hit
    assert (ana.hit_rate_low, ana.hit_rate_high) == wilson_interval(1, 3)
    assert (ana.noise_trials, ana.false_alarms, ana.correct_rejections, ana.false_alarm_rate) == (2, 1, 1, 0.5)
    assert (ana.false_alarm_rate_low, ana.false_alarm_rate_high) == wilson_interval(1, 2)
    assert ana.false_escalations_per_noise_trial == 1.0  # 2 false escalations in 2 noise trials
    assert (ana.distractors_shown, ana.distractors_escalated) == (3, 1)  # e7 pulled twice but is one distractor
    # 3 signal and 2 noise trials are below the minimums (10 and 5): no d′, c or A′, and the warnings say why
    assert not ana.enough_trials
    assert ana.d_prime is ana.criterion_c is ana.a_prime is ana.d_prime_low is None
    assert ana.warnings == ("false-alarm rate rests on 2 noise trials (5 needed)",
                            "false-alarm rate rests on 2 distinct controls (3 needed)")  # fmt: skip
    assert ana.median_time_to_detect == 20.0 and ana.median_wall_time_to_detect == 12.0
    assert ana.mean_score == 56.0  # (90 + 40 + 0 + 100 + 50) / 5


def enough(name: str = "jo", hits: int = 7, fas: int = 1, start: int = 0) -> list[SessionFacts]:
    """10 signal trials (``hits`` contained) and 5 noise trials (``fas`` false alarms), one drill each."""
    out = [fact(name, f"d{i}", "contained" if i < hits else "missed", 80 if i < hits else 0, start + i)
           for i in range(10)]  # fmt: skip
    out += [fact(name, f"clear{i}", "false_alarm" if i < fas else "all_clear_held", 50 if i < fas else 100,
                 start + 10 + i, false_escalations=int(i < fas)) for i in range(5)]  # fmt: skip
    return out


def test_d_prime_c_and_a_prime_from_the_minimums_with_their_intervals():
    (jo,) = summarize(enough()).trainees
    assert jo.enough_trials and jo.warnings == ()
    d, c = d_prime_and_c(7, 10, 1, 5)
    (d_low, d_high), (c_low, c_high) = sdt_intervals(7, 10, 1, 5)
    assert (jo.d_prime, jo.d_prime_low, jo.d_prime_high) == (d, d_low, d_high)
    assert (jo.criterion_c, jo.criterion_c_low, jo.criterion_c_high) == (c, c_low, c_high)
    assert (jo.a_prime, (jo.a_prime_low, jo.a_prime_high)) == (a_prime(0.7, 0.2), a_prime_interval(7, 10, 1, 5))
    (short,) = summarize(enough()[1:]).trainees  # 9 signal trials
    assert not short.enough_trials and short.d_prime is None and short.signal_trials == 9


def test_replays_are_listed_apart_and_never_in_a_figure():
    """Each drill played once doing nothing, then three replays of what the debrief said: the replays are counted
    apart, the figures are those of the first attempts (the issue's d′ 2.72 from replays cannot happen)."""
    first = enough(hits=0, fas=5)
    replays = [fact("jo", f.drill_id, "contained" if f.is_fault_drill else "all_clear_held", 100, 100 + 20 * k + i,
                    session_id=f"r{k}-{i}") for k in range(3) for i, f in enumerate(first)]  # fmt: skip
    (jo,) = summarize(first + replays).trainees
    (alone,) = summarize(first).trainees
    assert (jo.sessions, jo.replays, jo.trials) == (60, 45, 15)
    assert {k: v for k, v in jo.to_dict().items() if k not in ("sessions", "replays")} == {
        k: v for k, v in alone.to_dict().items() if k not in ("sessions", "replays")
    }
    drills = {d.drill_id: d for d in summarize(first + replays).drills}
    assert (drills["d0"].trials, drills["d0"].replays, drills["d0"].difficulty) == (1, 3, 0.0)


def test_the_first_attempt_is_the_earliest_then_by_session_id():
    a = fact("jo", "d1", "missed", 0, 5, session_id="b", mode="assessment")
    b = fact("jo", "d1", "contained", 90, 5, session_id="a", mode="assessment")  # same time, lower id: the first
    (jo,) = summarize([a, b], modes={"assessment"}).trainees
    assert (jo.hits, jo.trials, jo.replays) == (1, 1, 1)
    # practised before (debrief seen): the assessment sessions are replays, in an assessment summary too (issue 31)
    c = fact("jo", "d1", "missed", 0, 1, session_id="z")
    (jo,) = summarize([a, b, c], modes={"assessment"}).trainees
    assert (jo.hits, jo.trials, jo.replays, jo.sessions, jo.hit_rate) == (0, 0, 2, 2, None)
    (jo,) = summarize([a, b, c], modes={"practice"}).trainees  # the practice session is the first attempt
    assert (jo.hits, jo.misses, jo.trials, jo.replays) == (0, 1, 1, 0)
    (jo,) = summarize([a, b, c]).trainees  # every mode: the practice session came first
    assert (jo.hits, jo.misses, jo.trials, jo.replays) == (0, 1, 1, 2)


def test_a_window_filter_keeps_a_drill_played_before_it_a_replay():
    """--since and --set choose the sessions counted, not the first attempts: a drill first played before the
    window is a replay in it."""
    early = fact("jo", "d1", "missed", 0, 1)
    late = fact("jo", "d1", "contained", 90, 50)
    other = fact("jo", "d2", "contained", 90, 51)
    since = late.started_at
    (jo,) = summarize([early, late, other], within=lambda f: f.started_at >= since).trainees
    assert (jo.sessions, jo.replays, jo.trials, jo.hits) == (2, 1, 1, 1)


def test_in_assessment_quitting_is_a_response_and_never_safer_than_watching():
    """An abandoned assessment session counts with its response: a signal trial quit is a miss, a noise trial quit
    without escalating counts against the trainee like a false alarm. In practice they are kept apart."""
    watched = [fact("q", "d1", "missed", 0, 1, mode="assessment"),
               fact("q", "clear1", "all_clear_held", 100, 2, mode="assessment")]  # fmt: skip
    quit_ = [fact("q", "d1", "abandoned", 0, 1, mode="assessment"),
             fact("q", "clear1", "abandoned", 0, 2, mode="assessment")]  # fmt: skip
    (w,) = summarize(watched).trainees
    (q,) = summarize(quit_).trainees
    assert (q.trials, q.abandoned, q.abandoned_apart, q.misses, q.noise_abandoned) == (2, 2, 0, 1, 1)
    assert q.hit_rate == w.hit_rate == 0.0
    assert q.false_alarm_rate == 1.0 > w.false_alarm_rate  # quitting a control costs more than watching it
    practice = [fact("p", "d1", "abandoned", 0, 1), fact("p", "clear1", "abandoned", 0, 2)]
    (p,) = summarize(practice).trainees
    assert (p.trials, p.abandoned, p.abandoned_apart, p.hit_rate, p.false_alarm_rate) == (0, 2, 2, None, None)


def test_modes_filter_sessions_before_anything_is_counted():
    facts = [
        fact("fi", "d1", "contained", 90, 1, mode="assessment"),
        fact("fi", "d2", "missed", 0, 2, mode="practice"),
        fact("fi", "d3", "abandoned", 0, 3, mode="practice"),
    ]
    stats = summarize(facts, modes={"assessment"})
    (t,) = stats.trainees
    assert (t.trials, t.abandoned, t.hit_rate, stats.skipped_by_mode) == (1, 0, 1.0, 2)
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


def test_mean_score_reliability_by_hand():
    # Odd/even halves in time order: odd means 40, 50, 60, 70, 55; even means 50, 40, 70, 60, 55 (5 trainees).
    facts = []
    for name, (o, e) in zip("pqrst", [(40, 50), (50, 40), (60, 70), (70, 60), (55, 55)], strict=True):
        facts += scored(name, [o, e, o, e])
    stats = summarize(facts)
    rel = stats.score_reliability
    r = pearson_r([40, 50, 60, 70, 55], [50, 40, 70, 60, 55])
    assert (rel.measure, rel.status, rel.trainees) == ("mean_score", "estimated", 5)
    assert rel.split_half_r == pytest.approx(r, **EXACT) and rel.half_trials == 2.0
    full = 2 * r / (1 + r)
    assert rel.reliability == pytest.approx(full, **EXACT)
    assert rel.trials_needed == math.ceil(4 * 0.7 * (1 - full) / (full * 0.3))
    for t in stats.trainees:
        assert t.score_reliability == pytest.approx(full, **EXACT)  # 4 trials = 2 halves of 2


def test_reliability_needs_five_trainees():
    facts = []
    for name, (o, e) in zip("pqrs", [(40, 50), (50, 40), (60, 70), (70, 60)], strict=True):
        facts += scored(name, [o, e, o, e])
    rel = summarize(facts).score_reliability
    assert (rel.status, rel.trainees, rel.split_half_r, rel.trials_needed) == ("too_few", 4, None, None)
    assert summarize(facts).d_prime_reliability.status == "too_few"


def test_no_prophecy_from_an_r_near_zero():
    """The issue's `r = 0 … 4678 sessions reach 0.7` (r = 0.00057): below r = 0.2 nothing is projected, and the
    sentence says the split-half correlation is too weak to project."""
    import dataclasses

    from warroom.cli.scores._statistics import reliability_sentence

    odd = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    even = [2.0, 5.0, 0.0, 4.0, 1.0, 3.0]  # r = -0.086
    rel, needed = reliability_of("d_prime", odd, even, [30] * 12, 0.7)
    assert (rel.status, rel.reliability, rel.trials_needed, needed) == ("too_weak", None, None, None)
    near_zero = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0], [2.0, 5.0, 0.0, 4.0, 1.0, 3.62]
    r = pearson_r(*near_zero)
    assert 0 < r < 0.01  # as small as the issue's
    rel, needed = reliability_of("d_prime", *near_zero, [30] * 12, 0.7)
    assert (rel.status, rel.trials_needed, needed) == ("too_weak", None, None)
    for shown in (rel, dataclasses.replace(rel, split_half_r=0.00057)):
        sentence = reliability_sentence(shown)
        assert "too weak to project" in sentence and "reach" not in sentence, sentence
    # an r just under the minimum is not shown as the minimum it is below
    just_under = reliability_sentence(dataclasses.replace(rel, split_half_r=0.1968))
    assert "r = 0.197 across" in just_under and "below r = 0.2)" in just_under, just_under
    strong, _ = reliability_of("d_prime", [1.0, 2.0, 3.0, 4.0, 5.0], [1.5, 2.0, 3.5, 4.0, 5.0], [20] * 10, 0.7)
    assert strong.status == "estimated" and "1 trial reaches 0.7" in reliability_sentence(strong)


def test_d_prime_reliability_by_split_half():
    """d′ of each half (odd and even trials in time order) of trainees whose halves hold 5 signal and 2 noise
    trials each, correlated across trainees, Spearman–Brown to the whole length."""
    rng = random.Random(5)
    facts, odd, even = [], [], []
    for k in range(8):
        name = f"t{k}"
        outcomes = [rng.random() < 0.3 + 0.08 * k for _ in range(20)]
        outcomes += [rng.random() < 0.5 - 0.05 * k for _ in range(8)]
        order = list(range(28))
        for place, i in enumerate(order):
            if i < 20:
                facts.append(fact(name, f"d{i}", "contained" if outcomes[i] else "missed", 50, place))
            else:
                fa = outcomes[i]
                facts.append(fact(name, f"clear{i}", "false_alarm" if fa else "all_clear_held", 50, place,
                                  false_escalations=int(fa)))  # fmt: skip
        halves = (order[0::2], order[1::2])
        for half, out in zip(halves, (odd, even), strict=True):
            sig = [outcomes[i] for i in half if i < 20]
            noi = [outcomes[i] for i in half if i >= 20]
            out.append(d_prime_and_c(sum(sig), len(sig), sum(noi), len(noi))[0])
    rel = summarize(facts).d_prime_reliability
    r = pearson_r(odd, even)
    assert rel.trainees == 8 and rel.split_half_r == pytest.approx(r, **EXACT) and rel.half_trials == 14.0
    if r >= 0.2:
        assert rel.reliability == pytest.approx(2 * r / (1 + r), **EXACT)
    else:
        assert rel.status == "too_weak"


def test_ties_in_start_time_go_in_session_id_order():
    """As the store orders them (by start time, then session id), whatever the input order."""
    same = [0, 0, 0, 0]
    values = (("a", [10, 20, 30, 40]), ("b", [50, 50, 70, 60]), ("c", [90, 80, 90, 100]), ("d", [0, 10, 5, 0]),
              ("e", [60, 70, 40, 30]))  # fmt: skip
    groups = [scored(n, v, same) for n, v in values]
    for group in groups:
        for i, f in enumerate(group):
            f.session_id = f"{f.trainee}-{i}"
    ordered = summarize([f for g in groups for f in g]).score_reliability
    shuffled = summarize([f for g in groups for f in reversed(g)]).score_reliability
    assert ordered == shuffled and ordered.split_half_r is not None


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
        fact("d", "x", "abandoned", 0, 2),  # a replay
        # Rest scores (the mean on the OTHER drills): a 80, b 60, c 70, d 30.
        fact("a", "y", "contained", 80, 3),
        fact("b", "y", "contained", 60, 3),
        fact("c", "clear", "all_clear_held", 100, 3),
        fact("c", "y", "missed", 40, 4),
        fact("d", "y", "missed", 30, 3),
    ]
    drills = {d.drill_id: d for d in summarize(facts).drills}
    x = drills["x"]
    assert (x.trials, x.replays, x.trainees, x.abandoned, x.all_clear) == (5, 1, 5, 0, False)
    assert (x.correct, x.difficulty) == (3, 0.6)  # 3 of 5 hits; contained late is not
    assert (x.difficulty_low, x.difficulty_high) == wilson_interval(3, 5)
    # Correct 1 1 0 0 against rest 80 60 70 30: Sxy = 20, Sxx = 1, Syy = 1400.
    assert x.discrimination == pytest.approx(20 / math.sqrt(1400), **EXACT)
    assert x.median_time_to_detect == 9.0 and x.median_wall_time_to_detect == 30.0
    assert x.distractor_pulls == {"e5": 2, "e9": 1}
    assert list(x.distractor_pulls) == ["e5", "e9"]  # most first
    clear = drills["clear"]
    assert (clear.all_clear, clear.difficulty, clear.median_time_to_detect) == (True, 1.0, None)


def test_the_summary_is_json_ready_and_sorted():
    stats = summarize(list(reversed(ana_sessions())) + [fact("al", "d1", "missed", 0, 9)])
    assert [t.trainee for t in stats.trainees] == ["al", "ana"]
    assert [d.drill_id for d in stats.drills] == ["clear1", "clear2", "d1", "d2", "d3"]
    data = json.loads(json.dumps(stats.to_dict()))
    assert data["drills"][1]["distractor_pulls"] == {"e7": 2}
    assert data["d_prime_reliability"]["target"] == 0.7 and data["minimums"]["signal_trials"] == 10
    assert data["trainees"][1]["warnings"] and data["approximated"] == 6


def test_the_worked_example_of_sessions_md_is_what_the_summary_prints():
    """docs/sessions.md, "Cohort statistics": 7 hits of 10 signal trials and 1 false alarm of 5 noise trials, each
    figure as `warroom scores summary` writes it (the lower bound of d′ is −0.2957: −0.30, not −0.29)."""
    from locations import REPO

    from warroom.core.stats import estimate_cell, rate_cell
    from warroom.core.stats._measures import d_prime_and_c, sdt_intervals

    (d, c), (d_low, d_high), (c_low, c_high) = d_prime_and_c(7, 10, 1, 5), *sdt_intervals(7, 10, 1, 5)
    cells = [rate_cell(7, 10, *wilson_interval(7, 10)), rate_cell(1, 5, *wilson_interval(1, 5)),
             estimate_cell(d, d_low, d_high), estimate_cell(c, c_low, c_high)]  # fmt: skip
    assert cells == ["7/10 70% [40–89]", "1/5 20% [4–62]", "1.15 [-0.30, 2.59]", "0.10 [-0.62, 0.82]"]
    text = " ".join((REPO / "docs" / "sessions.md").read_text(encoding="utf-8").split())
    assert "Hit rate `7/10 70% [40–89]`, false-alarm rate `1/5 20% [4–62]`" in text
    assert "so d′ = 1.15 [−0.30, 2.59] and c = 0.10 [−0.62, 0.82]" in text
