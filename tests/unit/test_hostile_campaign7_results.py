"""A seventh fresh hostile campaign on results and scores (issue 30; docs/cohorts.md, "What a trainee can and cannot
do to their results"; docs/scoring.md, "What trainees that do not read get"): scripted trainees that use timing, the
plan's shape, output lengths, the cost meter and probes rather than content; the statistics at their edge counts; as
a hostile trainee or a faulty world would attack them. Each case it found, with the right behaviour."""

from __future__ import annotations

import pytest

from warroom.core.stats import rate_cell
from warroom.core.stats._measures import wilson_interval
from warroom.core.text import percent


@pytest.mark.parametrize(
    ("count", "n", "cell"),
    [(9999, 10000, "9999/10000 >99% [99–100]"), (1, 10000, "1/10000 <1% [0–1]"), (0, 10000, "0/10000 0% [0–1]"),
     (10000, 10000, "10000/10000 100% [99–100]"), (199, 200, "199/200 >99% [97–100]"), (1, 1, "1/1 100% [21–100]"),
     (0, 1, "0/1 0% [0–79]"), (7, 9, "7/9 78% [45–94]")],
)  # fmt: skip
def test_a_rate_near_none_or_all_is_not_shown_as_none_or_all_nor_its_interval_as_exact(count: int, n: int, cell: str):
    """A trainee with 10,000 trials (or 200) who missed one signal trial was shown ``9999/10000 100% [100–100]``: a
    hit rate of 100%, known exactly, beside counts that say otherwise (and one hit in 10,000 ``0% [0–0]``). The
    Wilson interval is never of width 0 (docs/sessions.md, "Cohort statistics"), and a share that is neither none nor
    all is never written as 0% or 100%."""
    assert rate_cell(count, n, *wilson_interval(count, n)) == cell
    shares = [percent(x) for x in (0.0, 1.0, 0.004, 0.996, 0.005)]
    assert shares == ["0%", "100%", "<1%", ">99%", "1%"]
