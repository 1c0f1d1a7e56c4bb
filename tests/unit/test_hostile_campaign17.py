"""A seventeenth hostile campaign, on the newest code (campaign 16's fixes): each case it found, with the right
behaviour."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.mark.parametrize("typed", ["out/", "schema.json/", "sub/out/"])
def test_an_output_file_named_with_a_trailing_slash_is_refused_not_written_without_it(tmp_path: Path,
                                                                                     monkeypatch: pytest.MonkeyPatch,
                                                                                     typed: str) -> None:
    """`-o out/` (a name ending in / names a folder) wrote a file called `out`, since pathlib drops the slash: the
    file --output writes is never a folder, so the name is refused, with what to give, and nothing is written."""
    from click.testing import CliRunner

    from warroom.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    result = CliRunner().invoke(main, ["schema", "-o", typed])
    assert result.exit_code == 2
    assert (f"{typed}: a name ending in / names a folder, and --output writes a file: give the file's name "
            "without the trailing /") in " ".join(result.output.split())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sub"] and not any((tmp_path / "sub").iterdir())


def test_an_output_file_that_is_a_folder_says_what_to_give(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`-o reports` of a folder said click's "File 'reports' is a directory." and nothing of what to do."""
    from click.testing import CliRunner

    from warroom.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "reports").mkdir()
    result = CliRunner().invoke(main, ["schema", "-o", "reports"])
    assert result.exit_code == 2
    assert ("reports is a folder, and --output writes a file: give a file's name (reports/NAME to write in it)"
            in " ".join(result.output.split()))


@pytest.mark.parametrize("typed", ["1e-400/1", "1/0.0000001e-330", "5/1E-324"])
def test_a_price_too_small_for_a_float_is_refused_not_read_as_free(typed: str) -> None:
    """`--price 1e-400/1` read the input price as 0 (float() rounds it to 0.0), a free model, where `1e-7/1` is refused
    as below the least price: a price written with a digit other than 0 is no 0, refused alike."""
    from warroom.importers.kit._rules import Price

    with pytest.raises(ValueError, match=r"a price is 0 \(a free model\) or at least 0\.000001 USD"):
        Price.parse(typed)
    assert Price.parse("0e-400/0.000e5") == Price(0.0, 0.0)


@pytest.mark.parametrize("version", [5, 25])
def test_another_programs_sqlite_database_with_a_user_version_is_refused_unchanged(tmp_path: Path,
                                                                                   version: int) -> None:
    """Campaign 16 refused another program's database at the store's name only at user version 0: one that sets
    SQLite's user_version itself (many do: 5, or this warroom's own 25) was put in WAL mode, then refused as 'no such
    table: sessions' with nothing of what to do, or 'the file was not changed' of a file that was."""
    from store_support import refused_unchanged

    said = refused_unchanged(tmp_path, "CREATE TABLE notes (id INTEGER, body TEXT)", f"PRAGMA user_version = {version}")
    assert said.startswith(
        f"the results store {tmp_path / 'results.sqlite3'} is an SQLite database of another program (its tables: "
        f"notes; no sessions table, user version {version}): warroom did not use or change it. Give warroom another "
        "data directory")


def test_another_programs_sqlite_database_of_a_view_only_is_refused_unchanged(tmp_path: Path) -> None:
    """A database of another program holding a view and no table (user version 0) was taken for a new store:
    warroom's tables written beside its view, WAL mode set. It is another program's database, refused unchanged."""
    from store_support import refused_unchanged

    said = refused_unchanged(tmp_path, "CREATE VIEW constants AS SELECT 1 AS one")
    assert said.startswith(f"the results store {tmp_path / 'results.sqlite3'} is an SQLite database of another program "
                           "(its views: constants; no warroom schema version): warroom did not use or change")


@pytest.mark.parametrize(("line", "right"), [
    ('title: "Ticket "A" #5 late"', '"Ticket \\"A\\" #5 late"'),
    ("title: 'It's #1 here'", "'It''s #1 here'"),
    ('title: "a "b" c" # a comment', '"a \\"b\\" c"'),
])
def test_a_quote_inside_quoted_text_with_a_hash_in_it_gives_the_whole_value(line: str, right: str) -> None:
    """A value ended early by its own quote and holding ` #` was cut at the ` #` as if a comment began there:
    `"Ticket "A" #5 late"` was given as `"Ticket \\"A"` (pasted, the value lost ` #5 late`), and `'It's #1 here'`
    got 'put the whole value inside the quotes' of a value inside them. A comment starts only after the last quote."""
    from warroom.core.author._examples import example_path
    from warroom.core.load import load_drill_text
    from warroom.errors import WarroomError

    text = example_path("full").read_text(encoding="utf-8").replace("title: Vendor invoice reconciliation", line, 1)
    with pytest.raises(WarroomError) as caught:
        load_drill_text(text, "d.yaml")
    assert str(caught.value).rstrip().endswith(right), str(caught.value)


def test_a_seed_named_for_a_drill_whose_variants_change_nothing_is_a_drawn_trial(tmp_path: Path) -> None:
    """A drill of one trial (no twin) with `variants: {}` (every list empty: an author's skeleton) plays the same
    session whatever the seed: a seed named chose nothing, yet the session was recorded as chosen (campaign 16's
    `drill.variants is not None`) and the trainee's first attempt was never counted."""
    import yaml

    from warroom.core.library import bundled_drills_dir
    from warroom.core.load import load_drill
    from warroom.core.scoring import score
    from warroom.importers.kit import dump_drill_yaml
    from warroom.store.results import ResultsStore
    from warroom.tui.logic import Services

    data = yaml.safe_load((bundled_drills_dir() / "clickstream-backfill.yaml").read_text(encoding="utf-8"))
    del data["twin"]
    data["id"], data["variants"] = "backfill-fixed", {}
    (tmp_path / "drills").mkdir()
    path = tmp_path / "drills" / "backfill-fixed.yaml"
    path.write_text(dump_drill_yaml(data), encoding="utf-8")
    assert load_drill(path).variants is not None
    rec = Services(trainee="ann", data_dir=tmp_path / "data", seed=7).start_session(path, load_drill(path)).inner
    rec.finish(score(rec.drill, rec.actions))
    sid = str(rec.session_id)
    with ResultsStore(tmp_path / "data") as store:
        assert store.get(sid).chosen is False


@pytest.mark.parametrize("looped", ["results.sqlite3", "journals", ""])
def test_a_data_directory_or_results_file_that_is_a_link_in_a_loop_says_so_and_what_to_do(tmp_path: Path,
                                                                                          looped: str) -> None:
    """A results file (or journals folder, or the data directory) that is a symbolic link to itself said the
    system's 'cannot use X: Too many levels of symbolic links; or choose another data directory', whose first
    choice was missing: it is named a link in a loop, with what to do, as a drill file's is."""
    from warroom.store.datadir import data_dir_problem

    data = tmp_path / "data"
    if looped:
        data.mkdir()
    link = data / looped if looped else data
    link.symlink_to(link.name)
    problem = data_dir_problem(data)
    assert problem is not None
    what = "a file" if looped == "results.sqlite3" else "a folder"
    named = f"the data directory {link}" if not looped else str(link)
    assert problem == (f"cannot use {named}: it is a symbolic link that leads round in a loop: point it at {what} "
                       "or remove it, or choose another data directory (--data-dir, or the WARROOM_DATA_DIR "
                       "environment variable)")


@pytest.mark.parametrize("url", ["sqlite:///{dir}/results.sqlite3/", "sqlite:///{dir}/new.db/"])
def test_a_store_url_of_a_file_named_with_a_trailing_slash_is_refused(tmp_path: Path, url: str) -> None:
    """`--store sqlite:///x.db/` read x.db (pathlib drops the slash) and created it when missing, where every file
    named with a trailing / is refused (docs/authoring.md): the store URL's file is refused alike."""
    from warroom.store.backends import StoreURLError, store_target

    given = url.format(dir=tmp_path)
    with pytest.raises(StoreURLError) as caught:
        store_target(tmp_path, given)
    assert str(caught.value) == (f"store URL {given}: a name ending in / names a folder, and sqlite:///FILE names "
                                 "the database file: drop the trailing /")
    assert store_target(tmp_path, given.rstrip("/")).path == Path(given.rstrip("/")[len("sqlite:///"):])


def test_a_roster_to_create_named_with_a_trailing_slash_is_refused_not_created_without_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`warroom serve roster add new.txt/ Alan` created `new.txt` (pathlib drops the slash) and printed a token, for
    a name that names a folder: a file argument that may not exist yet (created when missing) is refused alike."""
    from click.testing import CliRunner

    from warroom.cli import main

    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["serve", "roster", "add", "new.txt/", "Alan"])
    assert result.exit_code == 2
    assert ("new.txt/: a name ending in / names a folder, and ROSTER is a file: drop the trailing /"
            in " ".join(result.output.split()))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("value", "folded"), [
    ("`cmd` ran\n  twice, it's\n\n  fine", "`cmd` ran twice, it's\\nfine"),
    ("@team one\n\n\n  two\n  three\n\n", "@team one\\n\\ntwo three"),
])
def test_a_reserved_start_over_lines_with_a_blank_line_is_quoted_whole(value: str, folded: str) -> None:
    """A plain value starting with a reserved character whose lines go on after a blank line (YAML folds a blank
    line into a line break, and the value goes on) was quoted up to the blank line: pasted, the value lost its
    further lines and the file no longer parsed. The quoted text is the whole value, its blank lines as \\n."""
    from warroom.core.author._examples import example_path
    from warroom.core.load import load_drill_text
    from warroom.errors import WarroomError

    text = example_path("full").read_text(encoding="utf-8").replace("title: Vendor invoice reconciliation",
                                                                     f"title: {value}", 1)
    with pytest.raises(WarroomError) as caught:
        load_drill_text(text, "d.yaml")
    assert str(caught.value).endswith(f'put the whole text in quotes, "{folded}"'), str(caught.value)


def test_an_unsupported_tag_over_lines_with_a_blank_line_is_quoted_whole() -> None:
    """The quoted text of a tagged plain value whose lines go on past a blank line joined them by a space (`!foo
    bar baz`), where YAML folds the blank line into a line break: pasted, the value changed."""
    from warroom.core.author._examples import example_path
    from warroom.core.load import load_drill_text
    from warroom.errors import WarroomError

    text = example_path("full").read_text(encoding="utf-8").replace("title: Vendor invoice reconciliation",
                                                                     "title: !foo bar\n\n  baz\n  qux", 1)
    with pytest.raises(WarroomError) as caught:
        load_drill_text(text, "d.yaml")
    assert str(caught.value).endswith('put it all in quotes: "!foo bar\\nbaz qux"'), str(caught.value)


@pytest.mark.parametrize(("typed", "said"), [
    ("nodir/x.json", "nodir/x.json: cannot write the schema: the folder nodir does not exist: create it (mkdir -p "
                     "nodir) or name a file in a folder that exists; nothing was written"),
    ("f.yaml/x.json", "f.yaml/x.json: cannot write the schema: f.yaml is not a folder: name a file in a folder; "
                      "nothing was written"),
    ("dangling", "dangling: cannot write the schema: it is a symbolic link to gone/z.json, whose folder does not "
                 "exist: point it at a file in a folder that exists, or name another file; nothing was written"),
])
def test_an_output_file_in_a_folder_that_does_not_exist_says_what_to_do(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch,
                                                                        typed: str, said: str) -> None:
    """`-o nodir/x.json` said 'cannot write the schema: No such file or directory' and nothing of what to do."""
    from click.testing import CliRunner

    from warroom.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "f.yaml").write_text("x", encoding="utf-8")
    (tmp_path / "dangling").symlink_to("gone/z.json")
    result = CliRunner().invoke(main, ["schema", "-o", typed])
    assert result.exit_code == 1
    assert said in " ".join(result.output.split())


def test_a_roster_to_create_in_a_folder_that_does_not_exist_says_what_to_do(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """`warroom serve roster add nodir/r.txt Alan` said 'cannot write the roster: No such file or directory' alone."""
    from click.testing import CliRunner

    from warroom.cli import main

    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["serve", "roster", "add", "nodir/r.txt", "Alan"])
    assert result.exit_code == 1
    assert ("nodir/r.txt: cannot write the roster: the folder nodir does not exist: create it (mkdir -p nodir) or "
            "name a file in a folder that exists; nothing was written") in " ".join(result.output.split())
