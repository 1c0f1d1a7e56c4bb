"""Campaign 14 of issue 30: today's new code attacked (chosen trials, runs of projections, and their interplay).
Each test is a break found, asserting the right value."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner
from stats_support import add

from warroom.cli import main
from warroom.store.results import ResultsStore


def test_the_reports_time_to_detect_figure_draws_no_chosen_first_attempt(tmp_path: Path):
    """A ``--as signal`` session contained was drawn as a trial in the report's time-to-detect figure (``n=2`` for a
    drill of one trial): a chosen trial is in no figure, the report's drawn ones too."""
    with ResultsStore(tmp_path) as store:
        add(store, "a1", "ann", "drill-x", "contained", 90, ttd=3.0, mode="practice")
        add(store, "b1", "bob", "drill-x", "contained", 90, ttd=5.0, mode="practice")
        store.db.conn.execute("UPDATE sessions SET chosen = 1 WHERE session_id = 'a1'")
    out = tmp_path / "report.html"
    r = CliRunner().invoke(main, ["--data-dir", str(tmp_path), "report", "--output", str(out)])
    assert r.exit_code == 0, r.output
    assert "1 trial (" in r.output
    assert re.findall(r"drill-x \(n=\d+\)", out.read_text()) == ["drill-x (n=1)"]


def _copies_of_one_run(tmp_path: Path, count: int, mode: str) -> Path:
    """A set of ``count`` drills of one healthy run (a bundled drill under other ids), in ``mode``."""
    from warroom.core.library import bundled_drills_dir

    text = (bundled_drills_dir() / "idle-volume-cleanup.yaml").read_text(encoding="utf-8")
    names = []
    for i in range(count):
        (tmp_path / f"c{i}.yaml").write_text(text.replace("id: idle-volume-cleanup", f"id: copy-{i}", 1),
                                             encoding="utf-8")
        names.append(f"c{i}.yaml")
    path = tmp_path / "big.set.yaml"
    path.write_text(f"set: big\ntitle: Big\nmode: {mode}\ndrills:\n" + "".join(f"  - {n}\n" for n in names),
                    encoding="utf-8")
    return path


def test_an_assessment_set_of_many_drills_of_one_run_is_refused_in_one_message(tmp_path: Path):
    """300 projections of one run in an assessment set were refused in 299 messages of 420 characters each (125 kB
    of the same sentence): one problem per run now, at its second drill, naming the others after it."""
    path = _copies_of_one_run(tmp_path, 7, "assessment")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    assert "1 drill set checked: 0 valid, 1 invalid (1 problem)" in result.output
    [line] = [x for x in result.output.splitlines() if "same healthy run" in x]
    assert line.startswith(f"{path}:6:5: the drill 'copy-1' is from the same healthy run as item 1, 'copy-0', and so "
                           "are item 3 'copy-2', item 4 'copy-3', item 5 'copy-4' and 2 more (run ")
    assert line.endswith("keep one here and play the others in a practice set")


def test_a_practice_set_with_three_drills_of_one_run_warns_once_naming_the_third(tmp_path: Path):
    from warroom.core.library import drill_set_problems

    path = _copies_of_one_run(tmp_path, 3, "practice")
    [warning] = drill_set_problems(path, warnings=True)
    assert (warning.line, warning.column, warning.rule) == (6, 5, "same-run")
    assert "as item 1, 'copy-0', and so is item 3 'copy-2' (run " in warning.message


def _export_line(tmp_path: Path) -> bytes:
    from warroom.store.results import export_lines

    with ResultsStore(tmp_path / "from") as store:
        add(store, "s1", "ann", "D", "contained", 90, ttd=2.0, mode="practice")
        [line] = list(export_lines(store))
    return line.encode("utf-8")


def _import(tmp_path: Path, data: bytes):
    path = tmp_path / "in.jsonl"
    path.write_bytes(data)
    return path, CliRunner().invoke(main, ["--data-dir", str(tmp_path / "to"), "store", "import", "--all-trainees",
                                           str(path)])


def test_store_import_reads_an_export_saved_with_a_byte_order_mark(tmp_path: Path):
    """An export saved by an editor that writes a BOM was refused as `not a JSON object: Unexpected UTF-8 BOM (decode
    using utf-8-sig)` (Python's advice, not the user's): the BOM is no part of the first line."""
    line = _export_line(tmp_path)
    _, result = _import(tmp_path, b"\xef\xbb\xbf" + line + b"\n")
    assert result.exit_code == 0, result.output
    assert "1 session imported" in result.output
    # two exports joined with `cat`, the second's mark starting its first line, and an empty one's mark alone
    second = line.replace(b'"s1"', b'"s2"')
    _, result = _import(tmp_path, b"\xef\xbb\xbf" + line + b"\n\xef\xbb\xbf\n\xef\xbb\xbf" + second + b"\n")
    assert result.exit_code == 0, result.output
    assert "1 session imported" in result.output and "1 already there" in result.output


def test_store_import_says_what_to_do_with_a_raw_control_character(tmp_path: Path):
    """A raw carriage return in a string was refused as `not a JSON object: Invalid control character at` (a dangling
    "at", nothing to do): the place is the column, and the message says to write it as an escape."""
    line = _export_line(tmp_path).replace(b'"ann"', b'"a\rb"')
    path, result = _import(tmp_path, line + b"\n")
    column = line.index(b"\r") + 1
    assert result.exit_code == 1
    assert (f"{path}:1:{column}: not a JSON object: Invalid control character in a string (a raw tab, "
            "carriage return or other control character): write it as an escape") in result.output
    assert "character at" not in result.output


def test_verify_says_which_figure_differs_on_another_file_of_the_drill_id(tmp_path: Path):
    """A class's copy of a drill with another deadline, named by the session: verify said its actions score
    `contained, 100/100` on the one file and `contained, 100/100` on the other (the same words, nothing to look
    at); it now names the figure that differs."""
    from store_support import bundled_drill_path

    from unit.test_forgeries import GOOD, play

    copy = tmp_path / "class" / "x.yaml"
    copy.parent.mkdir()
    text = bundled_drill_path().read_text(encoding="utf-8")
    copy.write_text(re.sub(r"(\n  deadline: )37\n", r"\g<1>13\n", text, count=1), encoding="utf-8")
    play(tmp_path / "data", "ann", GOOD, drill_path=copy)
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "data"), "scores", "verify"],
                                env={"COLUMNS": "400"})
    said = " ".join(result.output.split())
    assert "on which its actions score contained, 100/100 too, but its scorecard's deadline 13.0 on the one, 37.0 on " \
           "the other: the path it names is its writer's word" in said, said


def test_scores_exports_hide_the_response_of_a_session_that_never_reached_its_debrief(tmp_path: Path, real_noise_draw):
    """A drawn session quit before its debrief hides its trial (``played_as``, ``all_clear`` empty), but its
    ``response`` said it: ``miss`` for a signal trial, ``abandoned`` for a noise trial. It is empty too now."""
    import csv
    import io
    import json

    from store_support import bundled_drill_path, load

    from unit.test_forgeries import killed_journal
    from warroom.core.model import PlayedAs
    from warroom.core.variants import draw_played_as
    from warroom.store.journal import recover_unfinished

    drill = load(bundled_drill_path())
    for want in (PlayedAs.SIGNAL, PlayedAs.NOISE):
        data = tmp_path / want.value
        killed_journal(data, bundled_drill_path(), {}, [],
                       seed=next(s for s in range(1000) if draw_played_as(drill, s) is want))
        recover_unfinished(data)
        for fmt in ("json", "csv"):
            result = CliRunner().invoke(main, ["--data-dir", str(data), "scores", "--format", fmt])
            assert result.exit_code == 0, result.output
            [row] = json.loads(result.stdout) if fmt == "json" else csv.DictReader(io.StringIO(result.stdout))
            empty = None if fmt == "json" else ""
            assert (row["outcome"], row["played_as"], row["response"]) == ("abandoned", empty, empty)


def _two_searches(answers: dict[str, str], batch: str = "b1", ids: tuple[str, str] = ("c1", "c2")) -> object:
    """A drill (model only) whose executor runs two searches in one turn; ``answers``: call id -> the output of
    its result, in the order the results come."""
    from warroom.core.model import Drill

    c1, c2 = ids
    trace = [
        {"id": "p1", "t": 0, "kind": "planner_call", "content": "Find the two orders.", "step": "s1"},
        {"id": c1, "t": 1, "kind": "tool_call", "tool": "orders.search", "arguments": {"q": "x"}, "step": "s1",
         "batch": batch},
        {"id": c2, "t": 1, "kind": "tool_call", "tool": "orders.search", "arguments": {"q": "y"}, "step": "s1",
         "batch": batch},
        *({"id": f"r{i}", "t": 2 + i, "kind": "tool_result", "call": call, "output": out, "step": "s1"}
          for i, (call, out) in enumerate(answers.items())),
        {"id": "rep", "t": 5, "kind": "executor_report", "step": "s1", "status": "success", "content": "Found both."},
    ]
    import yaml

    from warroom.core.author import skeleton_text

    data = yaml.safe_load(skeleton_text("two-searches"))
    for key in ("answer_key", "distractors"):
        data.pop(key, None)
    return Drill.model_validate({**data, "plan": data["plan"][:1], "trace": trace,
                                "all_clear": {"debrief": "Both searches answered in full."}})


def test_a_run_is_told_apart_by_which_call_each_result_answers_not_by_its_ids():
    """Two runs alike but that search x returned Y and search y returned X in one (the results naming the other
    calls) had one fingerprint: which call a result answers was left out with the ids. It counts now, by the call's
    place in the run; renaming the events (and the batch) of a run still gives the same run."""
    from warroom.core.library import run_fingerprint

    one = _two_searches({"c1": "X", "c2": "Y"})
    swapped = _two_searches({"c2": "X", "c1": "Y"})
    renamed = _two_searches({"call-a": "X", "call-b": "Y"}, batch="turn-7", ids=("call-a", "call-b"))
    assert run_fingerprint(one) != run_fingerprint(swapped)
    assert run_fingerprint(one) == run_fingerprint(renamed)


def test_project_all_counts_two_files_of_one_healthy_run_as_one_run(tmp_path: Path):
    """A folder holding one healthy run twice (the same export saved under two names) was summed up as two runs
    (`Projections per healthy run: a.yaml 2, b.yaml 2`), the set check then refusing two of its projections as one
    run: `project --all` counts the runs as the set check finds them, and names the file that repeats one."""
    from warroom.core.library import bundled_drills_dir

    source = tmp_path / "healthy"
    source.mkdir()
    text = (bundled_drills_dir() / "retail-air-purifier-return.yaml").read_text(encoding="utf-8")
    for name in ("a", "b"):
        (source / f"{name}.yaml").write_text(text.replace("id: retail-air-purifier-return", f"id: {name}", 1),
                                             encoding="utf-8")
    result = CliRunner().invoke(main, ["project", "--all", str(source), "--out", str(tmp_path / "out"),
                                       "--template", "stale-data"])
    assert result.exit_code == 0, result.output
    written = len(list((tmp_path / "out").glob("*.yaml")))
    lines = result.output.strip().splitlines()
    assert lines[-3] == "b.yaml is the same healthy run as a.yaml: its projections are counted with it."
    assert lines[-2] == f"Projections per healthy run: a.yaml {written}."
