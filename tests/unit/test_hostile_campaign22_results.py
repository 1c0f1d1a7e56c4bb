"""Campaign 22 (issue 30), results, stores and scores: regression tests for the breaks it found."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from unit.test_forgeries import GOOD, play
from warroom.cli import main


@pytest.fixture(scope="module")
def class_of_two(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder where `ann` and `bob` each played the bundled drill once (read only)."""
    data = tmp_path_factory.mktemp("class")
    play(data, "ann", GOOD)
    play(data, "bob", GOOD[:1])
    return data


def test_a_trainee_with_no_stored_session_is_named_with_a_did_you_mean(class_of_two: Path, tmp_path: Path):
    """`warroom report --trainee ann --trainee anne` (a typo) wrote the report of ann alone, exit 0, its first line
    "Sessions of ann, anne."; `scores summary --trainee anne` said only "No sessions match.", and `scores --trainee
    anne` that other sessions are stored. Each now says that no session of trainee 'anne' is stored, with the
    store and a did-you-mean; the report writes nothing, exit 1."""
    store = class_of_two / "results.sqlite3"
    page = tmp_path / "r.html"
    runner = CliRunner()
    data = ["--data-dir", str(class_of_two)]
    said = runner.invoke(main, ["report", "--trainee", "ann", "--trainee", "anne", *data, "-o", str(page)])
    assert said.exit_code == 1 and not page.exists()
    assert said.stderr == (
        f"Error: no session of trainee 'anne' is stored in {store} (did you mean `ann`?): nothing "
        "written (--trainee names a trainee with stored sessions)\n"
    )
    said = runner.invoke(main, ["report", "--trainee", "nobody", *data, "-o", str(page)])
    assert said.exit_code == 1 and "no session of trainee 'nobody' is stored in" in said.stderr
    assert "did you mean" not in said.stderr  # nothing near enough to offer
    summary = runner.invoke(main, ["scores", "summary", "--trainee", "anne", *data])
    assert summary.exit_code == 0
    assert summary.stdout == (
        f"No sessions match --trainee anne: no session of trainee 'anne' is stored in {store} (did you mean `ann`?).\n"
    )
    listed = runner.invoke(main, ["scores", "--trainee", "bbo", *data])
    assert listed.stdout == (
        f"No sessions match --trainee bbo: no session of trainee 'bbo' is stored in {store} (did you mean `bob`?).\n"
    )
    as_json = runner.invoke(main, ["scores", "summary", "--format", "json", "--trainee", "anne", *data])
    assert as_json.exit_code == 0 and as_json.stderr.startswith("note: no session of trainee 'anne' is stored in")
    for command in ("verify", "rescore"):  # they said only "verified 0 of 0 sessions", as if anne's were all right
        said = runner.invoke(main, ["scores", command, "--trainee", "anne", *data])
        assert said.stderr == f"note: no session of trainee 'anne' is stored in {store} (did you mean `ann`?)\n"


def test_a_session_keeps_at_most_max_actions_and_a_longer_log_is_refused_unread(tmp_path: Path):
    """A session's action log had no bound: a row written by SQL with hundreds of thousands of pauses (16 MB) took
    `scores verify` 91 s and 910 MB, and verified. The war room now records at most MAX_ACTIONS - 1 actions and the
    quit; the store refuses a longer log at import, and a stored one is read as no session (unverifiable) before
    any action of it is."""
    import json
    import sqlite3

    from store_support import bundled_drill_path, load

    from warroom.core.model import MAX_ACTIONS
    from warroom.core.play import ActionLimitReached, Replay

    drill = load(bundled_drill_path())
    replay = Replay(drill)
    replay.advance_to(1.0)
    for i in range(MAX_ACTIONS - 1):
        (replay.pause if i % 2 == 0 else replay.resume)()
    with pytest.raises(ActionLimitReached, match="the session holds 9,999 actions, the most one session keeps"):
        replay.pause()
    assert len(replay.actions) == MAX_ACTIONS - 1 and not replay.ended
    replay.quit()  # the trainee can still leave
    assert len(replay.actions) == MAX_ACTIONS and replay.ended

    data = tmp_path / "data"
    session = play(data, "ann", GOOD).session_id
    over = [{"t": 1.0, "kind": "pause" if i % 2 == 0 else "resume"} for i in range(MAX_ACTIONS)]
    conn = sqlite3.connect(data / "results.sqlite3")
    with conn:
        conn.execute("UPDATE sessions SET actions = ?", (json.dumps([*over, *json.loads(
            conn.execute("SELECT actions FROM sessions").fetchone()[0])]),))  # fmt: skip
    conn.close()
    runner = CliRunner()
    said = runner.invoke(main, ["scores", "verify", "--data-dir", str(data)])
    assert f"unverifiable: {session}: stored session {session} cannot be read: its action log holds 10,002 " \
           "actions, more than the 10,000 one session keeps" in said.output  # fmt: skip
    export = tmp_path / "all.jsonl"
    assert runner.invoke(main, ["store", "export", "--data-dir", str(data), "-o", str(export)]).exit_code == 0
    imported = runner.invoke(main, ["store", "import", "--all-trainees", "--data-dir", str(tmp_path / "b"),
                                    str(export)])  # fmt: skip
    assert imported.exit_code == 1
    assert "actions: the action log holds 10,002 items, more than the 10,000 one session keeps" in imported.stderr


def test_a_session_id_draws_40_random_bits_so_no_role_can_take_anothers_in_advance():
    """A session id was its start second and 4 random base32 characters (20 bits): a `warroom_trainee` role could
    store a row under each of the million ids a classmate's session starting in a given second could draw, and that
    session was then refused by the store for good (the row under its id is one the classmate cannot see). The id
    now draws 8 characters (40 bits) of the same alphabet; it still sorts by start time as text."""
    import re

    from warroom.store.journal._recorder import new_session_id

    ids = {new_session_id(1_795_000_000.0) for _ in range(2_000)}
    assert len(ids) == 2_000
    assert all(re.fullmatch(r"20261118-110640-[0-9a-hjkmnp-tv-z]{8}", i) for i in ids)
    assert len({i[-8:] for i in ids}) == 2_000 and new_session_id(1.0) < new_session_id(2.0)


def test_a_drill_with_a_twin_played_only_as_noise_is_not_called_an_all_clear_drill():
    """Four scripted trainees over the bundled library in assessment: `api-dns-cutover`, a fault drill with its twin,
    drew the twin for each of its few trials, and the per-drill table (and the report's figure) called it
    `api-dns-cutover (all-clear)`, which no bundled drill is any more. The mark says what the figure rests on: the
    drill was played only as noise."""
    from warroom.core.stats import SessionFacts, drill_cells, summarize

    facts = [SessionFacts(trainee=f"t{i}", drill_id="api-dns-cutover", is_fault_drill=False, outcome="all_clear_held",
                          score=100, started_at="2026-12-07T10:00:00.000000+00:00", mode="assessment",
                          response="correct_rejection", false_escalations=0) for i in range(2)]  # fmt: skip
    (drill,) = summarize(facts).drills
    assert drill.all_clear and drill_cells(drill)[0] == "api-dns-cutover (noise only)"


def test_a_stored_log_longer_than_a_journal_can_hold_is_refused_before_it_is_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Under the bound of actions, a row written by SQL could still hold an action log of up to 1 GB of JSON (a few
    actions with huge values), which every reader parsed whole (GBs of memory) before finding an action too long.
    No session played holds a log longer than its journal may be (64 MiB); a longer one is refused unparsed. (The
    bound is lowered here so that the test writes kilobytes, not 64 MiB.)"""
    import sqlite3

    from warroom.core import model

    data = tmp_path / "data"
    session = play(data, "ann", GOOD).session_id
    conn = sqlite3.connect(data / "results.sqlite3")
    with conn:
        conn.execute(
            "UPDATE sessions SET actions = ?", ('[{"t": 1.0, "kind": "pause", "note": "' + "x" * 5000 + '"}]',)
        )
    conn.close()
    monkeypatch.setattr(model, "MAX_LOG_CHARS", 4096)
    said = CliRunner().invoke(main, ["scores", "verify", "--data-dir", str(data)])
    assert (
        f"unverifiable: {session}: stored session {session} cannot be read: its action log is 5,041 characters of "
        "JSON, more than the 4,096 a session's journal can hold"
    ) in said.output


def test_a_trainee_role_is_not_told_that_another_trainee_has_no_session(
    tmp_path: Path, postgres_server, store_url: str, monkeypatch: pytest.MonkeyPatch
):
    """A trainee role reads its own sessions only: `scores summary --trainee bob` as `ann`'s role may not say that no
    session of bob is stored (bob's are there, unseen); it says none that this login role may read is."""
    from pg_support import as_role, secured_roles

    ann, _ = secured_roles(postgres_server, store_url, tmp_path)
    ann_url = as_role(store_url, ann)
    monkeypatch.setenv("WARROOM_STORE", ann_url)
    play(tmp_path / "ann", ann, GOOD)
    said = CliRunner().invoke(main, ["scores", "summary", "--trainee", "bob", "--data-dir", str(tmp_path / "ann")])
    assert said.stdout.startswith(
        f"No sessions match --trainee bob: no session of trainee 'bob' that the login role '{ann}' may read is stored"
    )
