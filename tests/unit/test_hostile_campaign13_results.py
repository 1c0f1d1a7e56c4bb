"""Campaign 13 (issue 30): results and scores attacked as a hostile trainee would, each break found kept as a test
(docs/cohorts.md, "What a trainee can and cannot do to their results"; docs/reliability.md)."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

from store_support import DRILL_ID, bundled_drill_path, load

from warroom.core.model import Action, ActionKind
from warroom.core.scoring import score
from warroom.store.cohort import cohort_stats
from warroom.store.journal import SessionRecorder, recover_unfinished
from warroom.store.results import ResultsStore
from warroom.store.review import Verdict, default_drill_resolver, verify_sessions

#: An escalation of the origin at 4 s citing e02, an executor message that shows nothing: before the evidence (e04 at
#: 12 s), an early escalation on the bundled drill, a hit on a copy whose answer key names e02 as the evidence.
GUESS = [Action(t=4.0, kind=ActionKind.ESCALATE, step="s1", cites=("e02",))]


def lenient_copy(folder: Path, evidence: str = "e02") -> Path:
    """A file of the bundled drill's id, in a folder of the trainee's, whose answer key takes ``evidence``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{DRILL_ID}.yaml"
    text = bundled_drill_path().read_text()
    assert "  evidence: [e04]\n" in text
    path.write_text(text.replace("  evidence: [e04]\n", f"  evidence: [{evidence}]\n"))
    return path


def played(data: Path, drill_path: Path, actions: list[Action], *, finish: bool) -> str:
    """A session of the drill file ``drill_path`` recorded by warroom's recorder; ``finish``: stored, else killed
    (its journal left for recovery)."""
    drill = load(drill_path)
    rec = SessionRecorder.start(data, "ann", drill_path, drill, mode="assessment")
    for a in actions:
        rec.record(a)
    if finish:
        rec.finish(score(drill, rec.actions))
    else:
        rec.close()
    return rec.session_id


def verdicts(data: Path, drill_dirs: tuple[Path, ...] = ()) -> dict[str, Verdict]:
    with ResultsStore(data) as store:
        return {v.session_id: v.verdict for v in verify_sessions(store, default_drill_resolver(drill_dirs))}


# -- a session naming another file of its drill's id ------------------------------------------------------------------


def test_a_killed_journal_naming_a_lenient_file_of_its_drills_id_is_flagged_and_verified_on_the_drill(tmp_path):
    """A journal's drill path is its writer's word: a trainee on a shared data folder wrote a file of the bundled
    drill's id whose answer key takes their guess, and a journal naming it. Recovery scored it on that file (a hit,
    100) and stored it unflagged, and `scores verify` verified it on the same file: counted as a hit at once."""
    sid = played(tmp_path / "data", lenient_copy(tmp_path / "mine"), GUESS, finish=False)
    (rec,) = recover_unfinished(tmp_path / "data")
    assert rec.stored and rec.total == 100  # scored on the file its journal names, as its start line says
    assert any("is not the drill file of drill 'duplicate-charge-refunds'" in p for p in rec.problems), rec.problems
    with ResultsStore(tmp_path / "data") as store:
        assert store.checks()[sid].state == "disagrees"
        assert cohort_stats(store).stats.trainees == []  # left out from the moment it is stored
    # verified on the file of its id: its log (the quit recovery added at 4 s) does not replay there, where the
    # early escalation moved the clock on 15 s
    assert verdicts(tmp_path / "data") == {sid: Verdict.UNVERIFIABLE}
    with ResultsStore(tmp_path / "data") as store:
        reason = store.checks()[sid].reason
        assert f"does not replay on its drill file {bundled_drill_path().resolve()}" in reason, reason
        assert cohort_stats(store).stats.trainees == []


def test_a_session_played_on_a_lenient_file_of_a_library_drills_id_is_not_verified(tmp_path):
    """The same file played through warroom's own recorder (`warroom run mine/x.yaml` on a shared data folder): the
    stored session named the file, and verify took it, so a drill of the library's id with the trainee's own answer
    key counted as that drill's hit."""
    sid = played(tmp_path / "data", lenient_copy(tmp_path / "mine"), GUESS, finish=True)
    assert verdicts(tmp_path / "data") == {sid: Verdict.UNVERIFIABLE}
    with ResultsStore(tmp_path / "data") as store:
        reason = store.checks()[sid].reason
        assert "is not the drill file of drill 'duplicate-charge-refunds'" in reason, reason
        assert str(bundled_drill_path().resolve()) in reason, reason
        assert "on which its actions score early escalation, 0/100" in reason, reason
        assert "--drills" in reason  # what to do: name the folder of the drill the class played
        assert cohort_stats(store).stats.trainees == []
    # named with --drills, the file is the drill of its id the facilitator names: verified
    assert verdicts(tmp_path / "data", (tmp_path / "mine",)) == {sid: Verdict.VERIFIED}


def test_a_session_on_another_file_of_its_drill_that_scores_alike_is_verified_and_recovered_unflagged(tmp_path):
    """Another file of the drill's id is no fault in itself (a class's copy of a library drill, a drill folder moved):
    only one that scores the session's actions otherwise is."""
    same = lenient_copy(tmp_path / "mine", evidence="e04")  # the bundled drill's answer key, another file
    hit = [Action(t=12.0, kind=ActionKind.ESCALATE, step="s1", cites=("e04",))]
    finished = played(tmp_path / "data", same, hit, finish=True)
    killed = played(tmp_path / "data", same, GUESS, finish=False)
    (rec,) = recover_unfinished(tmp_path / "data")
    assert rec.stored and not any("is not the drill file" in p for p in rec.problems)
    assert verdicts(tmp_path / "data") == {finished: Verdict.VERIFIED, killed: Verdict.VERIFIED}
    with ResultsStore(tmp_path / "data") as store:
        assert store.checks() == {}


def test_a_drill_played_from_a_file_its_id_names_nowhere_else_is_verified(tmp_path):
    """A drill of its own id outside the library (`warroom run ./drafts/x.yaml`) has no other file: the one it names
    is its drill."""
    path = lenient_copy(tmp_path / "drafts")
    text = path.read_text().replace(f"\nid: {DRILL_ID}\n", "\nid: drafts-x\n")
    path.write_text(text)
    sid = played(tmp_path / "data", path, GUESS, finish=False)
    (rec,) = recover_unfinished(tmp_path / "data")
    assert rec.stored and rec.total == 100 and not any("is not the drill file" in p for p in rec.problems)
    assert verdicts(tmp_path / "data") == {sid: Verdict.VERIFIED}


# -- a drill id is looked up among drill ids, never opened as a path ---------------------------------------------------


def test_a_rows_drill_id_is_never_opened_as_a_file_of_the_facilitators_folder(tmp_path, monkeypatch):
    """A row written by SQL whose drill id is a path (or a name of a file in the folder the facilitator runs verify
    in) made verify open that file of the host as the session's drill and judge the session on it."""
    sid = played(tmp_path / "data", bundled_drill_path(), GUESS, finish=True)
    here = tmp_path / "cwd"
    here.mkdir()
    text = lenient_copy(tmp_path / "mine").read_text()
    (here / "mine").write_text(text.replace(f"\nid: {DRILL_ID}\n", "\nid: mine\n"))
    monkeypatch.chdir(here)
    conn = sqlite3.connect(tmp_path / "data" / "results.sqlite3")
    with conn:
        conn.execute("UPDATE sessions SET drill_id = 'mine', drill_path = NULL, outcome = 'contained', total = 100")
    conn.close()
    with ResultsStore(tmp_path / "data") as store:
        (v,) = verify_sessions(store, default_drill_resolver())
    assert v.verdict is Verdict.UNVERIFIABLE and "the drill 'mine' of session" in v.reason and "not found" in v.reason
    assert sid == v.session_id


# -- the gradebook and the completion grid: a first attempt not verified still makes the later sessions replays -----


def test_the_gradebook_never_grades_a_replay_as_the_first_attempt_when_the_first_is_not_verified(tmp_path):
    """A trainee plays a drill of the set first where its session is not verified (their own client, a trainee role:
    not verified until `scores verify`), reads its debrief, then plays it again served. The figures keep the first
    attempt (H8), but the console's gradebook and completion grid read the counted sessions only, so the replay,
    knowing the answer, was graded as the first attempt: `Ada Lovelace,100,1,1,100.0`. What the console reads
    (`graded_sessions`) and shows, as its gradebook and grid pages call them."""
    from datetime import date

    from handcohort_support import Play, play

    from warroom.console import completion_grid, gradebook_csv, graded_sessions

    data = tmp_path / "data"
    first = play(data, Play("Ada Lovelace", "A", ()))  # a miss, stored by a trainee's own client
    with ResultsStore(data) as store:
        store.mark(first, "unverifiable", "stored by a trainee role without a check", submitted_by="ada")
    play(data, Play("Ada Lovelace", "A", (("esc", 12, "s1", ("e06",)),)))  # the replay, knowing the answer: 100
    with ResultsStore(data) as store:
        graded = graded_sessions(store, set_id="week-1")
    assert graded.unverified == {first} and len(graded.rows) == 1 and len(graded.every) == 2
    in_scope = {r.session_id for r in graded.rows}
    earlier = [r for r in graded.every if r.session_id not in in_scope]
    text = gradebook_csv(graded.rows, [DRILL_ID], ["Ada Lovelace"], earlier, graded.stored, graded.unverified)
    day = graded.every[0].started_at[:10]
    cell = f"first attempt {day} not verified (`warroom scores verify`; 1 attempt here, best 100)"
    # drills done, sessions, and no mean_first: its only first attempt is no grade
    assert list(csv.reader(io.StringIO(text)))[1] == ["Ada Lovelace", cell, "1", "1", ""]
    grid = completion_grid("week-1", "", "", None, None, [(DRILL_ID, "")], ["Ada Lovelace"], graded.rows, set(),
                           date.today(), graded.every, graded.stored, graded.unverified)  # fmt: skip
    ((_, (done,)),) = grid.rows
    assert (done.session_id, done.score, done.grade) == (first, None, cell)
    assert done.text == f"done · first attempt not verified · {cell}", done.text


# -- a limit past SQL's 64-bit integers -------------------------------------------------------------------------------


def test_a_limit_past_sqls_integers_lists_every_session_not_a_traceback(tmp_path):
    """`warroom scores --limit 99999999999999999999999` (or 2**63) was an OverflowError traceback from SQLite: a limit
    past every row is all of them."""
    from click.testing import CliRunner

    from warroom.cli import main

    sid = played(tmp_path, bundled_drill_path(), GUESS, finish=True)
    for limit in ("99999999999999999999999", str(2**63), str(2**63 - 1)):
        result = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "scores", "--format", "json", "--limit", limit])
        assert result.exit_code == 0, result.output
        assert [s["session_id"] for s in json.loads(result.output)] == [sid]


# -- a journal of an assessment session of a drill with a twin, without its seed ------------------------------------


def test_a_journal_claiming_a_noise_trial_without_its_seed_is_flagged_and_unverifiable(tmp_path):
    """An assessment session outside a set plays the trial its seed draws; a start line edited to claim a noise trial
    its seed does not draw is flagged (H5), but one that drops its seed as well was recovered unflagged and verified:
    the trial it claims was taken at its word (a finished journal, its end line matching, is a correct rejection
    counted at once). Recovery flags it, and verify finds it unverifiable, as a row handed in without its seed."""
    from warroom.core.model import PlayedAs
    from warroom.core.variants import draw_played_as
    from warroom.store.journal import Trial

    drill = load(bundled_drill_path())
    seed = next(s for s in range(100) if draw_played_as(drill, s) is PlayedAs.SIGNAL)
    rec = SessionRecorder.start(tmp_path, "ann", bundled_drill_path(), drill, mode="assessment", seed=seed,
                                trial=Trial(PlayedAs.NOISE))  # fmt: skip
    rec.close()
    path = tmp_path / "journals" / f"{rec.session_id}.jsonl"
    first, rest = path.read_text().split("\n", 1)
    start = json.loads(first)
    assert (start["seed"], start["played_as"], start["mode"]) == (seed, "noise", "assessment")
    del start["seed"]
    path.write_text(json.dumps(start) + "\n" + rest)
    (recovered,) = recover_unfinished(tmp_path)
    assert recovered.stored
    assert any("claims a noise trial of a drill with a twin but holds no seed" in p for p in recovered.problems)
    with ResultsStore(tmp_path) as store:
        assert store.checks()[rec.session_id].state == "disagrees"
        assert cohort_stats(store).stats.trainees == []
    assert verdicts(tmp_path) == {rec.session_id: Verdict.UNVERIFIABLE}


# -- store import of a file that is not UTF-8 ------------------------------------------------------------------------


def test_store_import_refuses_a_line_that_is_not_utf8_at_its_place_and_stores_the_others(tmp_path):
    """A byte that is not UTF-8 in one line of an export (a file re-saved in Latin-1 by an editor) stopped the whole
    import with `Error: cannot read x.jsonl: 'utf-8' codec can't decode byte 0xe9 in position 31: ...`: no line, no
    column, nothing to do, and every line after it unread. That line is refused at its place, saying what to do, and
    the others are stored."""
    from click.testing import CliRunner

    from warroom.cli import main

    sid = played(tmp_path / "src", bundled_drill_path(), GUESS, finish=True)
    out = tmp_path / "x.jsonl"
    exported = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "src"), "store", "export", "-o", str(out)])
    assert exported.exit_code == 0, exported.output
    good = out.read_bytes()
    bad = b'{"session_id": "20261207-000000-caf\xe9", "trainee": "ann"}\n'
    out.write_bytes(bad + good)
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "dest"), "store", "import", "--all-trainees",
                                       str(out)])  # fmt: skip
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert (f"{out}:1:36: not UTF-8 text (byte 0xe9 here): an export is UTF-8 JSON Lines, as `warroom store export` "
            "writes it; save it as UTF-8") in result.output, result.output
    assert "1 session imported" in result.output, result.output
    with ResultsStore(tmp_path / "dest") as store:
        assert store.get(sid).trainee == "ann"


def test_store_export_writes_a_bidi_control_of_a_name_as_an_escape_and_imports_it_back_alike(tmp_path):
    """`warroom store export` printed a trainee name written by SQL with its right-to-left override (U+202E) raw on the
    terminal (what follows it shown reversed), where every other printed JSON writes such characters as escapes
    (docs: the output policy). Written as `\\u202e`, which a JSON reader turns back into the same name."""
    from click.testing import CliRunner

    from warroom.cli import main

    played(tmp_path / "src", bundled_drill_path(), GUESS, finish=True)
    name = "ann\u202egnp.exe"
    conn = sqlite3.connect(tmp_path / "src" / "results.sqlite3")
    with conn:
        conn.execute("UPDATE sessions SET trainee = ?", (name,))
    conn.close()
    printed = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "src"), "store", "export"])
    assert printed.exit_code == 0 and "\u202e" not in printed.output and "ann\\u202egnp.exe" in printed.output
    out = tmp_path / "x.jsonl"
    written = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "src"), "store", "export", "-o", str(out)])
    assert written.exit_code == 0 and "\u202e" not in out.read_text() and json.loads(out.read_text())["trainee"] == name
