"""The four items campaign 3 left (issue 30): each with the right behaviour (docs/reliability.md, docs/cohorts.md,
docs/drill-sets.md, benchmarks/README.md)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from store_support import bundled_drill_path, load, notice_box

from warroom.core.model import Action, ActionKind
from warroom.store.journal import SessionRecorder, recover_unfinished, take_notices
from warroom.store.journal._notices import leave_notice


def _killed(data_dir: Path, trainee: str) -> None:
    rec = SessionRecorder.start(data_dir, trainee, bundled_drill_path(), load(bundled_drill_path()))
    rec.record(Action(t=4.0, kind=ActionKind.INSPECT, event="e02"))
    rec.close()


def _link_on_the_way(data_dir: Path, elsewhere: Path, which: str) -> None:
    """``journals/notices`` (or ``journals`` itself) made a symbolic link to ``elsewhere``, as a trainee on a shared
    data folder could."""
    if which == "notices":
        (data_dir / "journals").mkdir(exist_ok=True)
        (data_dir / "journals" / "notices").symlink_to(elsewhere, target_is_directory=True)
    else:
        real = elsewhere / "journals"
        real.mkdir()
        (data_dir / "journals").symlink_to(real, target_is_directory=True)
        (real / "notices").mkdir()


@pytest.mark.parametrize("which", ["notices", "journals"])
def test_no_notice_is_kept_or_taken_through_a_symlinked_notices_folder(tmp_path: Path, which: str):
    """A trainee on a shared data folder points ``journals/notices`` (or ``journals``) at another folder (another
    trainee's, or one they read): notices were written there, and a start moved and deleted the box found there.
    No notice goes through a link: the box in the folder it points at is neither written, nor moved, nor deleted, and
    the recovery that could not keep a notice says why."""
    data, elsewhere = tmp_path / "data", tmp_path / "elsewhere"
    data.mkdir()
    elsewhere.mkdir()
    _link_on_the_way(data, elsewhere, which)
    target = elsewhere / "journals" / "notices" if which == "journals" else elsewhere
    planted = target / notice_box(data, "ann").name
    planted.write_text('{"at": "x", "session": "someone-elses"}\n')
    before = {p.name: p.read_bytes() for p in target.iterdir()}
    assert leave_notice(data, "ann", "2026-01-01T00:00:00+00:00", session="s1") is False
    assert take_notices(data, "ann") == []
    if which == "notices":  # a whole journals folder through a link is recovered from (the user's layout); see below
        _killed(data, "ann")
        (rec,) = recover_unfinished(data, shown_to="fac")
        assert rec.stored
        assert rec.problems[-1] == (
            f"no notice was kept for its trainee's next start: {data / 'journals' / 'notices'} (or the journals "
            f"folder holding it) is a symbolic link or not a folder, and notices are never kept through one: move it "
            f"away (warroom makes the folder again)"
        )
    assert {p.name: p.read_bytes() for p in target.iterdir()} == before


def test_notices_are_kept_again_once_the_link_is_moved_away(tmp_path: Path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    data = tmp_path / "data"
    data.mkdir()
    _link_on_the_way(data, elsewhere, "notices")
    assert leave_notice(data, "ann", "x", session="s1") is False
    (data / "journals" / "notices").unlink()
    assert leave_notice(data, "ann", "x", session="s1") is True
    assert json.loads(notice_box(data, "ann").read_text()) == {"at": "x", "session": "s1"}
    assert not os.listdir(elsewhere)


# -- 3. a drill set is told from a drill by its keys, not its layout ------------------------------------------------

D = "duplicate-charge-refunds"
SET_LAYOUTS = {
    "flow": f"{{set: week-1, title: W1, drills: [{D}]}}\n",
    "flow-lines": f"# week 1\n{{\n  set: week-1,\n  title: W1,\n  drills: [{D}]\n}}\n",
    "flow-bom": f"\ufeff{{set: week-1, title: W1, drills: [{D}]}}",
    "indented": f"  title: W1\n  set: week-1\n  drills: [{D}]\n",
    "quoted": f'"set": week-1\n\'title\': W1\ndrills: [{D}]\n',
    "escaped": f'{{"\\x73et": week-1, title: W1, drills: [{D}]}}\n',
    "explicit": f"? set\n: week-1\ntitle: W1\ndrills: [{D}]\n",
    "marker": f"--- {{set: week-1, title: W1, drills: [{D}]}}\n",
}
NOT_SETS = {
    "nested-flow": "{id: d, a: {\nset: 1}}\n",
    "list": "- set: 1\n",
    "second-document": "id: d\n---\nset: s\n",
    "value": "id: set\ntitle: set\n",
}


@pytest.mark.parametrize("name", SET_LAYOUTS)
def test_a_drill_set_is_a_set_whatever_its_layout(name: str):
    from warroom.core.load import is_drill_set_text

    assert is_drill_set_text(SET_LAYOUTS[name]) is True


@pytest.mark.parametrize("name", NOT_SETS)
def test_a_set_key_that_is_not_a_top_level_key_makes_no_drill_set(name: str):
    from warroom.core.load import is_drill_set_text

    assert is_drill_set_text(NOT_SETS[name]) is False


@pytest.mark.parametrize("name", ["flow", "flow-lines", "quoted", "explicit"])
def test_validate_checks_a_set_of_any_layout_as_a_set_and_run_says_it_is_one(tmp_path: Path, name: str):
    """A set written as a YAML flow mapping (or with its key quoted...) was validated as a drill: seven "missing the
    required key" problems, and `warroom run` listed them instead of saying it is a set."""
    from click.testing import CliRunner

    from warroom.cli import main

    path = tmp_path / "week.set.yaml"
    path.write_text(SET_LAYOUTS[name], encoding="utf-8")
    r = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "d"), "validate", str(path)])
    assert (r.exit_code, r.stdout) == (0, "1 drill set checked: 1 valid, 0 invalid\n")
    path.write_text(SET_LAYOUTS[name].replace(D, "no-such-drill"), encoding="utf-8")
    r = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "d"), "validate", str(path)])
    assert r.exit_code == 1 and "no drill file or drill id 'no-such-drill'" in r.stdout
    assert r.stdout.splitlines()[-1] == "1 drill set checked: 0 valid, 1 invalid (1 problem)"
    r = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "d"), "run", str(path)])
    assert r.exit_code == 2 and f"{path} is a drill set: play it with `warroom --set {path}`" in r.stderr


def test_a_set_naming_a_flow_style_set_says_it_names_a_set(tmp_path: Path):
    from warroom.core.library import resolve_set_drills
    from warroom.core.load import load_drill_set

    (tmp_path / "other.set.yaml").write_text(SET_LAYOUTS["flow"], encoding="utf-8")
    (tmp_path / "week.set.yaml").write_text("{set: w, title: W, drills: [other.set.yaml]}", encoding="utf-8")
    drill_set = load_drill_set(tmp_path / "week.set.yaml")
    _, problems = resolve_set_drills(drill_set, tmp_path / "week.set.yaml")
    assert [p.message for p in problems] == ["'other.set.yaml' is a drill set, not a drill: a set names drills, "
                                             "never another set"]  # fmt: skip


NEITHER = ("this file is neither a drill (it has none of the keys all_clear, answer_key, briefing, id, plan, "
           "schema_version, trace) nor a drill set (no `set` key): a drill starts with `schema_version: 2` and `id: "
           "...` (`warroom new` writes one), a drill set with `set: ID` (docs/drill-sets.md)")  # fmt: skip


@pytest.mark.parametrize(("text", "at"), [("title: W1\nnotes: x\n", "1:1"), ("# x\n{title: W1, drills: [a]}", "2:1")])
def test_a_file_that_is_neither_a_drill_nor_a_set_is_one_problem_saying_so(tmp_path: Path, text: str, at: str):
    from click.testing import CliRunner

    from warroom.cli import main

    path = tmp_path / "what.yaml"
    path.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "d"), "validate", str(path)])
    assert r.exit_code == 1
    assert r.stdout.splitlines() == [f"{path}:{at}: {NEITHER}", "1 drill checked: 0 valid, 1 invalid (1 problem)"]


def test_the_drill_loader_says_a_set_of_any_layout_is_a_set_in_one_problem():
    from warroom.core.load import DrillLoadError, load_drill_text

    with pytest.raises(DrillLoadError) as caught:
        load_drill_text(SET_LAYOUTS["flow"], "w.yaml")
    assert [str(p) for p in caught.value.problems] == [
        "w.yaml:1:1: this file is a drill set, not a drill (its top-level `set` key): check it with `warroom validate "
        "w.yaml`, play it with `warroom --set w.yaml` (docs/drill-sets.md)"
    ]


# -- 4. `warroom store import` commits once per batch, with every check it made per line ---------------------------


def _export(tmp_path: Path, n: int, rescored: bool = True) -> list[str]:
    """``n`` exported lines of distinct sessions (one stored and re-scored, its line copied under new ids)."""
    from store_support import add_session

    from warroom.core.scoring import Scorecard
    from warroom.store.results import ResultsStore, export_lines

    with ResultsStore(tmp_path / "source") as store:
        add_session(store, "s-00000", trainee="ann", total=40)
        if rescored:
            card = Scorecard.from_dict({**store.get("s-00000").scorecard, "total": 45})
            store.update_scorecard("s-00000", card, reason="re-scored by hand", by="fac")
        (line,) = export_lines(store)
    return [line.replace('"s-00000"', f'"s-{i:05}"') for i in range(n)]


def _commits(store) -> list[str]:
    statements: list[str] = []
    store.db.conn.set_trace_callback(statements.append)
    return statements


def test_store_import_commits_once_per_batch_and_checks_every_line(tmp_path: Path):
    """An import committed (and fsynced) every line: about 4 ms per session, 40 s for 10,000. It commits once per
    batch of IMPORT_BATCH lines, and still refuses every line that does not check (a bad value, a key given twice, a
    session stored under its id with other values), each leaving nothing behind, while the others are stored with
    their histories and recorded as not verified."""
    from warroom.store.results import ResultsStore, import_lines
    from warroom.store.results._transfer import IMPORT_BATCH

    n = IMPORT_BATCH * 2 + 10
    lines = _export(tmp_path, n)
    lines[3] = lines[3].replace('"total": 45', '"total": 4500')  # out of range
    twice = ', "trainee": "bob"}'
    lines[IMPORT_BATCH + 1] = lines[IMPORT_BATCH + 1][:-1] + twice  # a key given twice
    column = len(lines[IMPORT_BATCH + 1]) - len(twice) + 3  # where the second "trainee" starts
    lines[-1] = lines[0].replace('"ann"', '"bob"')  # another session under s-00000's id
    with ResultsStore(tmp_path / "to") as store:
        statements = _commits(store)
        result = import_lines(store, lines, "x.jsonl", None)
        assert [s for s in statements if s in ("COMMIT", "BEGIN IMMEDIATE")] == ["BEGIN IMMEDIATE", "COMMIT"] * 3
        assert (result.imported, result.already, len(result.refused)) == (n - 3, 0, 3)
        where = [r.split(": ")[0] for r in result.refused]
        assert where == ["x.jsonl:4", f"x.jsonl:{IMPORT_BATCH + 2}:{column}", f"x.jsonl:{n}"]
        stored = {r.session_id for r in store.query()}
        assert len(stored) == n - 3 and "s-00003" not in stored
        checks = store.checks()
        assert set(checks) == stored and {c.state for c in checks.values()} == {"unverified"}
        assert [c.reason for c in store.scorecard_history("s-00007")] == ["re-scored by hand"]
        assert store.scorecard_history("s-00003") == []


def test_a_store_failing_mid_import_keeps_the_batches_before_and_a_second_import_stores_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    from warroom.store.errors import StoreError
    from warroom.store.results import ResultsStore, _transfer, import_lines
    from warroom.store.results._transfer import IMPORT_BATCH

    n = IMPORT_BATCH + 20
    lines = _export(tmp_path, n, rescored=False)
    real = _transfer._import_line

    def failing(store, result, line, trainee, unverified):
        real(store, result, line, trainee, unverified)  # the line's row is in the batch's transaction...
        if line[1] == IMPORT_BATCH + 10:
            raise StoreError("the disk is full")  # ...and so is undone with the rest of the batch

    monkeypatch.setattr(_transfer, "_import_line", failing)
    with ResultsStore(tmp_path / "to") as store, pytest.raises(StoreError):
        import_lines(store, lines, "x.jsonl", None)
    monkeypatch.undo()
    with ResultsStore(tmp_path / "to") as store:
        assert store.count() == IMPORT_BATCH and len(store.checks()) == IMPORT_BATCH
        result = import_lines(store, lines, "x.jsonl", None)
        assert (result.imported, result.already, result.refused) == (20, IMPORT_BATCH, [])
        assert store.count() == n


def test_a_transaction_inside_another_is_a_savepoint_undone_alone(tmp_path: Path):
    from warroom.store.results import ResultsStore

    with ResultsStore(tmp_path / "to") as store:
        db = store.db
        db.conn.execute("CREATE TEMP TABLE t (x TEXT)")
        with db.transaction():
            db.conn.execute("INSERT INTO t VALUES ('kept')")
            with pytest.raises(RuntimeError), db.transaction():
                db.conn.execute("INSERT INTO t VALUES ('undone')")
                raise RuntimeError
            with db.transaction():
                db.conn.execute("INSERT INTO t VALUES ('released')")
        assert [r[0] for r in db.conn.execute("SELECT x FROM t")] == ["kept", "released"]
        assert not db.conn.in_transaction  # all committed
