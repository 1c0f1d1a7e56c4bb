"""An eleventh fresh hostile campaign on results and scores (issue 30; docs/cohorts.md, "What a trainee can and
cannot do to their results"; docs/reliability.md, "Recovery at the next start"). Each case it found, with the right
behaviour."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from store_support import bundled_drill_path, load

from unit.test_forgeries import killed_journal
from warroom.cli import main
from warroom.core.model import Action, ActionKind, PlayedAs
from warroom.core.scoring import SCORING_VERSION, score
from warroom.core.variants import draw_played_as
from warroom.store.cohort import cohort_stats, unverified_sessions
from warroom.store.journal import recover_unfinished
from warroom.store.results import ResultsStore

#: Escalations of the origin s1 of the bundled drill at 20 s that no trainee who read the trace makes: citing nothing
#: (scoring rules 1 judged the step alone), and citing all six events out (rules 3 took one evidence event among
#: them). By the current rules each is "right step, unsupported", 10 points, a localisation error.
_CITING_NOTHING = [Action(t=20.0, kind=ActionKind.ESCALATE, step="s1", cites=())]
_CITING_EVERYTHING = [Action(t=20.0, kind=ActionKind.ESCALATE, step="s1",
                             cites=("e01", "e02", "e03", "e04", "e05", "e06"))]  # fmt: skip


def _signal_seed(path: Path | None = None) -> int:
    """A seed whose assessment session of the bundled drill at ``path`` (default duplicate-charge-refunds; it has a
    twin) is a signal trial."""
    drill = load(path or bundled_drill_path())
    return next(s for s in range(100) if draw_played_as(drill, s) is PlayedAs.SIGNAL)


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(("rules", "actions"), [("1", _CITING_NOTHING), ("3", _CITING_EVERYTHING)])
def test_a_journal_claiming_older_lenient_scoring_rules_is_not_counted_as_their_hit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rules: str, actions: list[Action]
):
    """A killed session's journal whose start line was edited to record scoring rules 1 (or 3): recovery scored it
    by them as recorded, so an escalation citing nothing (or everything) was stored "contained, 92", its response
    approximated as a hit, counted at once, and `scores verify` (which checks a session recovered by warroom by its
    own rules) found it right. The rules a journal records are its writer's word, as its drill id and trial are: by
    the current rules its actions score otherwise, so it is stored flagged as disagreeing, left out of the figures,
    and verify checks it by the current rules."""
    monkeypatch.delenv("WARROOM_STORE", raising=False)
    sid = killed_journal(tmp_path, bundled_drill_path(), {"scoring_version": rules}, actions, mode="assessment",
                         seed=_signal_seed())
    (rec,) = recover_unfinished(tmp_path)
    assert rec.stored and (rec.outcome, rec.total) == ("contained", 92)  # scored by the rules it records, as before
    assert any(f"records scoring rules {rules}" in p for p in rec.problems), rec.problems
    with ResultsStore(tmp_path) as store:
        assert store.checks()[sid].state == "disagrees"
        assert cohort_stats(store).stats.trainees == []  # left out: no hit
        assert unverified_sessions(store).count == 1
    code, out, _ = _cli("scores", "verify", "--format", "json", "--data-dir", str(tmp_path))
    (verdict,) = json.loads(out)
    assert code == 1 and verdict["verdict"] == "disagrees", verdict
    assert any('outcome "contained" is stored, "right_step_unsupported" recomputed' in p for p in verdict["problems"])
    code, out, _ = _cli("scores", "summary", "--format", "json", "--data-dir", str(tmp_path))
    assert json.loads(out)["trainees"] == []


def test_a_journal_of_older_rules_that_score_its_actions_alike_is_recovered_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A session killed before an upgrade keeps the rules it was played under; when the current rules score its
    actions the same (outcome, total, response), nothing is flagged: it is counted at once, and verified."""
    monkeypatch.delenv("WARROOM_STORE", raising=False)
    # held-orders-release: its file's ids are its ids by position, so the rules 5 (authored ids) and the current (by
    # position) read its evidence e12 alike (duplicate-charge-refunds' e04 is shown as e06)
    path = bundled_drill_path().with_name("held-orders-release.yaml")
    honest = [Action(t=36.0, kind=ActionKind.ESCALATE, step="s3", cites=("e12",))]
    assert score(load(path), honest).outcome.value == "contained" and SCORING_VERSION != "5"
    sid = killed_journal(tmp_path, path, {"scoring_version": "5"}, honest, mode="assessment", seed=_signal_seed(path))
    (rec,) = recover_unfinished(tmp_path)
    assert rec.stored and rec.outcome == "contained" and not any("scoring rules" in p for p in rec.problems)
    with ResultsStore(tmp_path) as store:
        assert sid not in store.checks()
        (ann,) = cohort_stats(store).stats.trainees
        assert (ann.hits, ann.signal_trials) == (1, 1)


def test_a_trainee_role_holding_the_claim_lock_of_a_name_does_not_stall_the_hosts_claims(
    tmp_path: Path, postgres_server, store_url: str, monkeypatch: pytest.MonkeyPatch
):
    """Any login role may take an advisory lock, a ``warroom_trainee`` role's included: one holding the key
    :func:`~warroom.store.live.claim_tab` takes for ``bob`` (``pg_advisory_lock(30561, hashtext('bob'))``, its second
    half public in the code) made every serve host's claim of a tab for bob wait, in the host's one worker thread, until
    warroom cut the statement after 30 s, every other trainee's tab and the live table's ticks queued behind it. The
    claim waits for that lock a bounded time (``CLAIM_LOCK_WAIT_S``) and then fails as a store that cannot be
    written does: the host counts its own tabs and those of the table last read (docs/cohorts.md)."""
    import time

    import psycopg
    from pg_support import as_role, secured_roles

    from warroom.store.errors import StoreError
    from warroom.store.live import LiveTab, _table, claim_tab

    ann, fac = secured_roles(postgres_server, store_url, tmp_path)
    monkeypatch.setattr(_table, "CLAIM_LOCK_WAIT_S", 0.2)
    row = LiveTab("host-1", "tab-1", "bob", "picker", "2026-12-07T05:00:00+00:00", "2026-12-07T05:00:00+00:00")
    with psycopg.connect(as_role(store_url, ann), autocommit=True) as c:
        c.execute("SELECT pg_advisory_lock(30561, hashtext('bob'))")
        with ResultsStore(tmp_path / "host", url=as_role(store_url, fac)) as store:
            began = time.monotonic()
            with pytest.raises(StoreError):
                claim_tab(store, row, 1, "2026-12-07T04:59:00+00:00", 0)
            assert time.monotonic() - began < 5
            c.execute("SELECT pg_advisory_unlock_all()")
            assert claim_tab(store, row, 1, "2026-12-07T04:59:00+00:00", 0)  # the lock free: claimed at once


def test_a_report_with_only_sessions_not_verified_says_so_once_in_sentences(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """``warroom report`` over a store whose only session is not verified (imported) said the note twice and ran two
    sentences together: ``Error: no stored session matches: nothing to report 1 session not verified ...``."""
    from unit.test_forgeries import GOOD, play

    monkeypatch.delenv("WARROOM_STORE", raising=False)
    play(tmp_path / "own", "ann", GOOD, mode="assessment")
    _, exported, _ = _cli("store", "export", "--data-dir", str(tmp_path / "own"))
    handed = tmp_path / "ann.jsonl"
    handed.write_text(exported)
    data = str(tmp_path / "class")
    assert _cli("store", "import", "--trainee", "ann", str(handed), "--data-dir", data)[0] == 0
    code, _, err = _cli("report", "-o", str(tmp_path / "r.html"), "--data-dir", data)
    assert code == 1 and "nothing to report. 1 session not verified" in err, err
    assert err.count("1 session not verified") == 1, err
