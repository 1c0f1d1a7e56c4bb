"""A seventh fresh hostile campaign on results and scores (issue 30; docs/cohorts.md, "What a trainee can and cannot
do to their results"; docs/scoring.md, "What trainees that do not read get"): scripted trainees that use timing, the
plan's shape, output lengths, the cost meter and probes rather than content; the statistics at their edge counts; as
a hostile trainee or a faulty world would attack them. Each case it found, with the right behaviour."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from unit.test_forgeries import GOOD
from warroom.cli import main
from warroom.core.model import Action, ActionKind
from warroom.core.stats import rate_cell
from warroom.core.stats._measures import wilson_interval
from warroom.core.text import percent

#: A poor attempt: the wrong step, late.
LATE = Action(t=30.0, kind=ActionKind.ESCALATE, step="s2", note="guess", cites=("e02",))


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


def test_a_journal_under_a_stored_sessions_id_with_another_action_log_is_quarantined_not_dropped(tmp_path: Path):
    """Two machines sync into one store, each with a journal of the same session (the journal copied from one to the
    other, then played on, or edited: same id, trainee, drill and start, another action log). The second ``store
    sync`` took it for "the very same session stored twice", said nothing and moved it to ``journals/done/``: a
    session lost without a word (here the poor attempt, under the good one). It is another session: quarantined
    with the reason, the stored one left as it was (docs/sessions.md, "What is never lost")."""
    from store_support import bundled_drill_path

    from unit.test_forgeries import killed_journal

    a, b, url = tmp_path / "a", tmp_path / "b", f"sqlite:///{tmp_path / 'class.sqlite3'}"
    sid = killed_journal(a, bundled_drill_path(), {"mode": "assessment"}, [LATE])
    start, *_ = (a / "journals" / f"{sid}.jsonl").read_text().splitlines()
    at = json.loads(start)["started_at"]
    edited = [json.dumps({"type": "action", "seq": i, "at": at, "action": x.model_dump(mode="json", exclude_none=True)})
              for i, x in enumerate(GOOD, 1)]  # fmt: skip
    (b / "journals").mkdir(parents=True)
    (b / "journals" / f"{sid}.jsonl").write_text("\n".join([start, *edited]) + "\n")
    for data in (b, a):
        result = CliRunner().invoke(main, ["store", "sync", "--store", url, "--data-dir", str(data)])
        assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    assert "0 sessions delivered" in result.output
    assert not (a / "journals" / "done" / f"{sid}.jsonl").exists()
    why = (a / "journals" / "quarantine" / f"{sid}.jsonl.why.txt").read_text()
    assert "another session is stored under this id" in why and "with another action log" in why
    listed = CliRunner().invoke(main, ["--store", url, "scores", "--format", "json", "--data-dir", str(b)])
    rows = json.loads(listed.stdout)
    assert [(r["session_id"], r["outcome"], r["total"]) for r in rows] == [(sid, "contained", 100)]
