"""A fourth fresh hostile campaign on issue 30's promises about results (docs/cohorts.md, "What a trainee can and
cannot do to their results"; docs/reliability.md): journals and recovery, both stores, ``store`` and ``scores``
commands, as a hostile trainee or a faulty world would attack them; each case it found, with the right behaviour."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from unit import test_forgeries
from unit.test_forgeries import GOOD, forged_row, insert, play, row_of
from warroom.cli import main
from warroom.core.model import Action, ActionKind
from warroom.store.cohort import cohort_stats
from warroom.store.results import ResultsStore

#: A secured PostgreSQL store with a trainee role and a facilitator role (tests/unit/test_forgeries.py's).
class_store = test_forgeries.class_store
#: A poor attempt: the wrong step, late.
LATE = Action(t=30.0, kind=ActionKind.ESCALATE, step="s2", note="guess", cites=("e02",))


def test_a_copy_of_a_poor_first_attempt_dated_later_does_not_take_it_out_of_the_figures(
    tmp_path: Path, class_store, monkeypatch
):
    """A trainee role inserting, by SQL, a copy of its own poor first attempt with a start after its good second
    one: of two copies the one claiming the earlier start was "the copy", so the session really played first
    was flagged and left out, the copy stood as a later attempt, and the good one became the first attempt
    counted (a hit rate of 0 turned to 1). The copy is the row the database stored later, whatever start it claims."""
    ann, ann_url, fac_url = class_store
    data = tmp_path / "ann"
    monkeypatch.setenv("WARROOM_STORE", ann_url)
    first = play(data, ann, [LATE], mode="assessment").session_id
    good = play(data, ann, GOOD, mode="assessment").session_id
    with ResultsStore(data) as store:
        template = row_of(store.db.conn, first)
        insert(store.db.conn, forged_row(template, "29991231-000000-copy", started_at="2999-12-31T00:00:00+00:00"))
    monkeypatch.setenv("WARROOM_STORE", fac_url)
    verify = CliRunner().invoke(main, ["scores", "verify", "--data-dir", str(data)])
    assert verify.exit_code == 1, verify.output
    (line,) = [line for line in verify.output.splitlines() if line.startswith("disagrees:")]
    assert line.startswith("disagrees: 29991231-000000-copy")
    assert f"its drill, seed and action log are those of session {first}" in line
    with ResultsStore(data) as store:
        checks = store.checks()
        assert (checks[first].state, checks[good].state) == ("verified", "verified")
        (trainee,) = cohort_stats(store).stats.trainees
        assert trainee.hits == 0  # the first attempt counts, as played
