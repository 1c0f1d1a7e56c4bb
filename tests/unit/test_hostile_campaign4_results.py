"""A fourth fresh hostile campaign on issue 30's promises about results (docs/cohorts.md, "What a trainee can and
cannot do to their results"; docs/reliability.md): journals and recovery, both stores, ``store`` and ``scores``
commands, as a hostile trainee or a faulty world would attack them; each case it found, with the right behaviour."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from store_support import bundled_drill_path

from unit import test_forgeries
from unit.test_forgeries import GOOD, forged_row, insert, killed_journal, play, row_of
from warroom.cli import main
from warroom.core.model import Action, ActionKind
from warroom.core.settings import resolve_trainee
from warroom.errors import SettingsError
from warroom.store.cohort import cohort_stats
from warroom.store.journal import recover_unfinished
from warroom.store.results import ResultsStore

#: A secured PostgreSQL store with a trainee role and a facilitator role (tests/unit/test_forgeries.py's).
class_store = test_forgeries.class_store
#: A poor attempt: the wrong step, late.
LATE = Action(t=30.0, kind=ActionKind.ESCALATE, step="s2", note="a guess: s2 looked wrong in the trace, escalating",
              cites=("e02",))


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
        insert(store.db.conn, forged_row(template, "29991231-000000-copy", started_at="2999-12-31T00:00:00+00:00",
                                         ended_at="2999-12-31T00:05:00+00:00"))  # (an earlier end: refused, v22)
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


#: Names that look like ``ann`` (or like another name) and were accepted as names of their own: characters that show
#: nothing but are not format characters (a combining grapheme joiner, a variation selector, a Hangul filler, the
#: blank Braille pattern, a variation selector of the supplement), a decomposed ``é``, and compatibility characters
#: (fullwidth letters, a ligature, a superscript: what NFKC rewrites).
LOOK_ALIKES = ["ann\u034f", "ann\ufe0f", "ann\u3164", "\u3164", "ann\u2800", "ann\U000e0100", "Jose\u0301",
               "\uff41\uff4e\uff4e", "a\uff4en", "\ufb01on", "ann\u00b2"]  # fullwidth, a ligature, a superscript (NFKC)


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_a_name_that_looks_like_another_is_refused_on_the_command_line(name: str):
    with pytest.raises(SettingsError) as caught:
        resolve_trainee(name)
    assert "two names that look the same must be the same name" in str(caught.value)


def test_a_fullwidth_name_is_refused_naming_its_characters():
    with pytest.raises(SettingsError) as caught:
        resolve_trainee("a\uff4en")
    assert "contains compatibility characters (U+FF4E FULLWIDTH LATIN SMALL LETTER N;" in str(caught.value)


@pytest.mark.parametrize("name", ["José", "Zoë", "李小龍", "O'Brien", "Ada Lovelace"])
def test_composed_names_of_every_script_are_still_names(name: str):
    assert resolve_trainee(name) == name


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_a_journal_start_line_naming_a_look_alike_of_a_trainee_is_quarantined(tmp_path: Path, name: str):
    """On a data folder the class shares, a journal whose start line names ``ann`` plus a character that shows
    nothing was recovered and stored under that name: a second "ann" in the facilitator's summary, with the
    figures of a session ann never played. It is quarantined, as a name with a zero-width space is."""
    sid = killed_journal(tmp_path, bundled_drill_path(), {"trainee": name}, GOOD)
    (rec,) = recover_unfinished(tmp_path)
    assert rec.quarantined and not rec.stored
    assert "the session start line has bad values: trainee: a trainee name that" in rec.error
    with ResultsStore(tmp_path) as store:
        assert sid not in {r.session_id for r in store.query()}


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_store_import_refuses_a_look_alike_trainee_name_at_its_line(tmp_path: Path, name: str):
    src = tmp_path / "trainee"
    play(src, "ann", GOOD)
    out = tmp_path / "x.jsonl"
    export = CliRunner().invoke(main, ["store", "export", "--data-dir", str(src), "-o", str(out)])
    assert export.exit_code == 0, export.output
    (line,) = out.read_text().splitlines()
    out.write_text(json.dumps({**json.loads(line), "trainee": name}) + "\n")
    imported = CliRunner().invoke(main, ["store", "import", "--all-trainees", str(out),
                                         "--data-dir", str(tmp_path / "dest")])  # fmt: skip
    assert imported.exit_code == 1, imported.output
    assert f"{out}:1: " in imported.output and "trainee: a trainee name that" in imported.output
    with ResultsStore(tmp_path / "dest") as store:
        assert store.query() == []


def test_a_role_of_neither_group_on_a_cohorts_schema_is_told_the_grant_it_needs(
    tmp_path: Path, postgres_server, store_url: str
):
    """A login role in neither group of ``warroom store secure``, on a store in a schema of its own (the URL's
    ``search_path``, one schema per cohort): it sees no schema at all, so every command said only ``no schema has
    been selected to create in LINE 1: CREATE TABLE warroom_schema ...``, not what to do; docs/cohorts.md promises
    the grant it needs."""
    import uuid

    from pg_support import as_role, group_roles, secured_roles

    secured_roles(postgres_server, store_url, tmp_path)
    role = f"nobody_{uuid.uuid4().hex[:8]}"
    postgres_server.sql(f"CREATE ROLE {role} LOGIN")
    result = CliRunner().invoke(main, ["--store", as_role(store_url, role), "scores", "--data-dir", str(tmp_path)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.exception
    assert result.output.startswith("Error: cannot use the results store "), result.output
    trainees, facilitators = group_roles(store_url)  # the store's own: a schema per cohort shares none
    assert f"GRANT {trainees}, or {facilitators}, TO it" in result.output, result.output
    assert "Traceback" not in result.output
    asked = ["store", "status", "--store", as_role(store_url, role), "--data-dir", str(tmp_path)]
    status = CliRunner().invoke(main, asked)
    assert status.exit_code == 1, status.output
    assert "that the login role can see: it may use no schema on its search path" in status.output, status.output
    assert "`warroom store migrate` creates it" not in status.output  # the store is there: migrating is not the cure
