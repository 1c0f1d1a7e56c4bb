"""A fifteenth fresh hostile campaign on results and scores (issue 30): the filters of ``warroom scores`` and
``warroom report`` at their edges, the figures a facilitator reads, and scripted trainees that exploit the scoring
rules' own structure. Each case it found, with the right behaviour."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from warroom.cli import main


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.stdout, result.stderr


def test_a_set_file_that_is_not_utf8_is_refused_at_the_bad_bytes_line_and_column(tmp_path: Path):
    """``warroom scores --set FILE`` (and every command reading a drill set file) refused a set file holding a byte
    that is not UTF-8 at ``FILE:1:1`` whatever its place, naming its offset as ``(byte 38)``: not the place, and not
    the byte. It is named where it is, as a drill file's is (``FILE:3:13: ... (byte 0xe9 here)``)."""
    week = tmp_path / "week.yaml"
    week.write_bytes(b"set: week-1\ntitle: Week 1\ndrills: [caf\xe9-refunds]\n")
    code, _, err = _cli("scores", "summary", "--set", str(week), "--data-dir", str(tmp_path / "data"))
    assert code != 0
    assert f"{week}:3:13: the file is not UTF-8 text (byte 0xe9 here); save it as UTF-8" in err, err


def test_store_secure_gives_each_cohorts_schema_roles_that_reach_no_other_cohort(postgres_server, tmp_path: Path):
    """docs/cohorts.md offers a schema per cohort (``?options=-csearch_path%3DNAME``), but the two group roles of
    ``warroom store secure`` were the server's: a login role granted ``warroom_facilitator`` for cohort A read,
    re-scored and deleted cohort B's sessions, and a trainee role of A stored sessions in B (campaign 15 made
    ``store secure`` warn of it). Each schema's store now gets roles of its own: securing the second says nothing of
    sharing, and a facilitator of the first reaches nothing of the second (tests/unit/test_store_cohort_roles.py)."""
    import uuid

    from pg_support import as_role

    from warroom.store.backends import roles_for

    tag = uuid.uuid4().hex[:8]
    first, second = f"cohort_a_{tag}", f"cohort_b_{tag}"
    db = f"cohorts_{tag}"
    postgres_server.sql(f"CREATE DATABASE {db}")
    for schema in (first, second):
        postgres_server.sql(f"CREATE SCHEMA {schema}", database=db)
    data = ["--data-dir", str(tmp_path)]
    for schema in (first, second):
        secured = CliRunner().invoke(main, ["--store", postgres_server.url(db, schema=schema), "store", "secure",
                                            *data])  # fmt: skip
        assert secured.exit_code == 0 and secured.stderr == "", secured.output
    postgres_server.sql(f"CREATE ROLE fac_{tag} LOGIN IN ROLE {roles_for(first).facilitator}")
    code, out, _ = _cli("--store", as_role(postgres_server.url(db, schema=first), f"fac_{tag}"), "scores", "list",
                        *data)
    assert code == 0 and "No sessions" in out  # its own cohort's store
    code, out, err = _cli("--store", as_role(postgres_server.url(db, schema=second), f"fac_{tag}"), "scores",
                          "list", *data)
    assert code == 1 and f"GRANT {roles_for(second).trainee}, or {roles_for(second).facilitator}, TO it" in err, err


def test_an_assessment_set_naming_the_guided_tutorial_is_refused_at_its_line(tmp_path: Path):
    """The bundled tutorial, wherever it is started from, is played with its lessons and stored in the mode
    ``tutorial``, which no figure counts: an assessment set listing it validated, and its sessions were then in no
    statistic and no gradebook (the set's progress and completion grid said done), silently. An assessment set (or
    a set played as one) naming it is refused at its line, saying why."""
    week = tmp_path / "week-9.set.yaml"
    week.write_text("set: week-9\ntitle: Week 9\nmode: assessment\ndrills:\n  - duplicate-charge-refunds\n"
                    "  - tutorial\n", encoding="utf-8")  # fmt: skip
    code, out, err = _cli("validate", str(week))
    assert code == 1, out + err
    assert (f"{week}:6:5: the drill 'tutorial' is the guided tutorial: it is played with its lessons and stored in "
            "the mode `tutorial`, which no figure and no gradebook counts") in out + err, out + err
    practice = tmp_path / "practice.set.yaml"
    practice.write_text("set: p\ntitle: P\ndrills: [tutorial]\n", encoding="utf-8")
    assert _cli("validate", str(practice))[0] == 0  # a practice set may walk a class through it


def test_a_set_option_naming_a_folder_says_it_is_a_folder_not_that_no_file_is_there(tmp_path: Path):
    """``warroom scores --set week-1.set.yaml`` where that name is a folder (an unpacked archive, a typo'd path)
    said ``no drill set file 'week-1.set.yaml'``, which the facilitator can see is there. It is named as what it is,
    as every other reader of a set file names it; a name with nothing there is still a usage error."""
    folder = tmp_path / "week-1.set.yaml"
    folder.mkdir()
    code, _, err = _cli("scores", "summary", "--set", str(folder), "--data-dir", str(tmp_path / "data"))
    assert code == 1 and f"{folder}:1:1: this is a folder, not a drill set file" in err, err
    code, _, err = _cli("scores", "summary", "--set", str(tmp_path / "gone.set.yaml"), "--data-dir", str(tmp_path))
    assert code == 2 and "no drill set file" in err, err


def test_deleting_a_first_attempt_warns_that_the_next_session_of_the_drill_becomes_the_counted_trial(tmp_path: Path):
    """``scores delete`` of a trainee's first attempt at a drill silently made their next session of it (played
    after the deleted one, knowing the drill) the first attempt the figures count. It is said before asking."""
    from unit.test_forgeries import GOOD, play

    data = tmp_path / "class"
    first = play(data, "ann", [], mode="assessment").session_id
    second = play(data, "ann", GOOD, mode="assessment").session_id
    other = play(data, "bob", [], mode="assessment").session_id
    runner = CliRunner()
    result = runner.invoke(main, ["scores", "delete", first, "--yes", "--data-dir", str(data)])
    assert result.exit_code == 0, result.output
    said = " ".join(result.stderr.split())
    assert (f"warning: {first} is the first attempt of trainee 'ann' at drill 'duplicate-charge-refunds': once it is "
            f"deleted, their next session of it, {second}, becomes the first attempt") in said
    # Deleting a replay, or a first attempt with nothing after it, says nothing of the kind.
    for sid in (second, other):
        result = runner.invoke(main, ["scores", "delete", sid, "--yes", "--data-dir", str(data)])
        assert result.exit_code == 0 and "first attempt" not in result.stderr, result.output
