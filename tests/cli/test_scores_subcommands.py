"""`warroom scores list | summary | rescore | delete`: each subcommand, the bare form, the old flags, options given
before a subcommand, and the usage errors of mixing them."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from pg_support import sqlite_only
from scores_support import known_store, played_session, run, run_sub
from store_support import copy_drill

from warroom.cli import main
from warroom.core.scoring import Scorecard
from warroom.store.results import ResultsStore

#: Every test here runs on each back end (the SQLite file, a PostgreSQL schema): tests/pg_support.py.
pytestmark = pytest.mark.usefixtures("backend_url")


@pytest.fixture
def known(tmp_path: Path) -> Path:
    return known_store(tmp_path)


def session_ids(stdout: str) -> list[str]:
    """The session ids of a printed sessions table, top to bottom."""
    return [ln.split()[1] for ln in stdout.splitlines() if ln.startswith("│ s")]


# -- list ------------------------------------------------------------------------------------------------------------


def test_list_is_the_bare_form(known: Path):
    bare = run(known)
    listed = run_sub(known, "list")
    assert listed.exit_code == 0, listed.output
    assert listed.stdout == bare.stdout and "7 sessions" in listed.stdout
    assert session_ids(listed.stdout) == ["s7", "s6", "s5", "s4", "s3", "s2", "s1"]


def test_list_takes_every_listing_option(known: Path):
    r = run_sub(known, "list", "--trainee", "ann", "--sort", "score", "--reverse", "--format", "csv")
    assert r.exit_code == 0, r.output
    assert [row["session_id"] for row in csv.DictReader(io.StringIO(r.stdout))] == ["s3", "s2", "s1", "s4"]
    r = run_sub(known, "list", "--format", "json", "--drill", "A", "--since", "2026-11-02")
    assert [d["session_id"] for d in json.loads(r.stdout)] == ["s5", "s2"]
    r = run_sub(known, "list", "--limit", "2", "--sort", "score")
    assert "2 of 7 sessions" in r.stdout and session_ids(r.stdout) == ["s4", "s1"]
    r = run_sub(known, "list", "--mine", "--format", "json", env={"WARROOM_TRAINEE": "bob"})
    assert {d["trainee"] for d in json.loads(r.stdout)} == {"bob"}


def test_list_output_writes_the_export_and_refuses_a_table(known: Path, tmp_path: Path):
    target = tmp_path / "out.json"
    r = run_sub(known, "list", "--format", "json", "-o", str(target))
    assert r.exit_code == 0 and r.stdout == ""
    assert len(json.loads(target.read_text())) == 7
    r = run_sub(known, "list", "-o", str(tmp_path / "t.txt"))
    assert r.exit_code == 2 and "--output writes an export" in r.output


def test_list_bad_since_is_a_usage_error(known: Path):
    r = run_sub(known, "list", "--since", "last tuesday")
    assert r.exit_code == 2 and "'last tuesday' is not a date or ISO datetime" in r.output


# -- summary ---------------------------------------------------------------------------------------------------------


def test_summary_subcommand_is_the_summary_flag(known: Path):
    for fmt in ("table", "csv", "json"):
        new = run_sub(known, "summary", "--format", fmt)
        assert new.exit_code == 0, new.output
        assert new.stdout == run(known, "--summary", "--format", fmt).stdout
    data = json.loads(run_sub(known, "summary", "--format", "json", "--trainee", "bob").stdout)
    assert [t["trainee"] for t in data["trainees"]] == ["bob"]
    assert (data["trainees"][0]["sessions"], data["trainees"][0]["mean_score"]) == (3, 45.0)


@sqlite_only
def test_summary_of_an_empty_data_dir(tmp_path: Path):
    none = tmp_path / "none"
    assert "No sessions recorded yet" in run_sub(none, "summary").stdout
    empty = json.loads(run_sub(none, "summary", "--format", "json").stdout)
    assert (empty["trainees"], empty["drills"], empty["counted"]["sessions"]) == ([], [], 0)
    header = run_sub(none, "summary", "--format", "csv").stdout.strip().split(",")
    assert header[:4] == ["scope", "name", "counted_mode", "sessions"]
    assert not none.exists()


# -- rescore ---------------------------------------------------------------------------------------------------------


def test_rescore_subcommand_recomputes_and_says_which_changed(tmp_path: Path):
    drill_path = copy_drill(tmp_path / "drills")
    data = tmp_path / "data"
    sid = played_session(data, drill_path)
    with ResultsStore(data) as store:
        real = store.get(sid).scorecard
        store.update_scorecard(sid, Scorecard.from_dict({**real, "total": 3, "outcome": "missed"}))
    r = run_sub(data, "rescore", "--trainee", "ann")
    assert r.exit_code == 0, r.output
    assert f"changed: {sid}" in r.stdout and "1 changed, 0 unchanged, 0 skipped" in r.stdout
    with ResultsStore(data) as store:
        assert store.get(sid).total == real["total"]
    assert "re-scored 0 of 0 sessions" in run_sub(data, "rescore", "--trainee", "bob").stdout


def test_rescore_subcommand_allow_changed(tmp_path: Path):
    drill_path = copy_drill(tmp_path / "drills")
    data = tmp_path / "data"
    sid = played_session(data, drill_path)
    drill_path.write_text(drill_path.read_text() + "\n# edited after the session\n")
    r = run_sub(data, "rescore")
    assert r.exit_code == 1 and "changed since the session" in r.stderr
    r = run_sub(data, "rescore", "--allow-changed")
    assert r.exit_code == 0 and f"updated: {sid}" in r.stdout


# -- delete ----------------------------------------------------------------------------------------------------------


def test_delete_subcommand_deletes_after_yes(known: Path):
    r = run_sub(known, "delete", "s1", "s2", "--yes")
    assert r.exit_code == 0, r.output
    assert "2 sessions to delete" in r.stdout and "Deleted 2 sessions" in r.stdout
    with ResultsStore(known) as store:
        assert sorted(s.session_id for s in store.query()) == ["s3", "s4", "s5", "s6", "s7"]


def test_delete_subcommand_needs_ids_and_a_confirmation(known: Path):
    r = run_sub(known, "delete")
    assert r.exit_code == 2 and "Missing argument 'SESSION_ID...'" in r.output
    r = run_sub(known, "delete", "s1")
    assert r.exit_code == 1 and "not deleting without confirmation" in r.output
    with ResultsStore(known) as store:
        assert store.count() == 7


def test_old_delete_flag_takes_ids_and_options_in_any_order(known: Path):
    r = run(known, "s1", "--delete", "s2", "-y")
    assert r.exit_code == 0, r.output
    assert "2 sessions to delete" in r.stdout and "Deleted 2 sessions" in r.stdout
    with ResultsStore(known) as store:
        assert store.count() == 5


# -- options before a subcommand, and mixing spellings ---------------------------------------------------------------


def test_options_before_a_subcommand_apply_to_it(known: Path):
    before = CliRunner().invoke(
        main, ["scores", "--data-dir", str(known), "--trainee", "ann", "summary", "--format", "json"]
    )
    after = run_sub(known, "summary", "--trainee", "ann", "--format", "json")
    assert before.exit_code == 0, before.output
    assert before.stdout == after.stdout and [t["trainee"] for t in json.loads(before.stdout)["trainees"]] == ["ann"]
    # the subcommand's own value wins
    r = CliRunner().invoke(main, ["scores", "--data-dir", str(known), "--trainee", "ann", "list", "--trainee", "bob",
                                  "--format", "json"])  # fmt: skip
    assert {d["trainee"] for d in json.loads(r.stdout)} == {"bob"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--sort", "score", "summary"], "--sort does not apply to `warroom scores summary`"),
        (["--summary", "summary"], "--summary is the old spelling of `warroom scores summary`"),
        (["--rescore", "list"], "--rescore is the old spelling of `warroom scores rescore`"),
        (["--format", "csv", "rescore"], "--format does not apply to `warroom scores rescore`"),
        (["s1"], "session ids are only taken with --delete"),
        (["sumary"], "Did you mean 'summary'?"),
        (["list", "--delete", "s1"], "No such option '--delete'"),
        (["--allow-changed"], "--allow-changed only applies with --rescore"),
        (["--rescore", "--format", "csv", "-o", "x.csv"], "--output writes an export"),
    ],
)
def test_usage_errors(tmp_path: Path, args: list[str], message: str):
    r = CliRunner().invoke(main, ["scores", "--data-dir", str(tmp_path), *args])
    assert r.exit_code == 2, r.output
    assert message in r.output and "Traceback" not in r.output


def test_help_names_the_subcommands_and_the_old_spelling():
    r = CliRunner().invoke(main, ["scores", "--help"])
    text = " ".join(r.stdout.split())
    for name in ("list", "summary", "rescore", "delete"):
        assert f"warroom scores {name}" in text
    assert "Old spelling of `warroom scores summary`" in text and "--delete SESSION_ID..." in text
    for name in ("list", "summary", "rescore", "delete"):
        assert CliRunner().invoke(main, ["scores", name, "--help"]).exit_code == 0


@sqlite_only
@pytest.mark.parametrize("args", [["scores", "rescore", "--help"], ["scores", "--help"]])
def test_rules_help_names_the_editions_and_the_current_one_from_the_code(args, monkeypatch):
    """``--rules``' help is built from the scoring package's constants, never a number written in the text: a new
    edition of the rules shows up in it by itself."""
    import warroom.core.scoring as scoring

    help_text = " ".join(CliRunner().invoke(main, args).output.split())
    assert f"current: {scoring.SCORING_VERSION})" in help_text
    editions = scoring.SCORING_VERSIONS
    monkeypatch.setattr(scoring, "SCORING_VERSIONS", (*editions, "99"))
    monkeypatch.setattr(scoring, "SCORING_VERSION", "99")
    help_text = " ".join(CliRunner().invoke(main, args).output.split())
    assert f"{', '.join(editions)} or 99; current: 99)" in help_text
