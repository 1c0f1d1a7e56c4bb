"""Issue 30's leftovers of the thirteenth stop: every median time to detect comes with the trials it is the median
of (the summary's table, JSON and CSV, the report, the console), on both statistics paths."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from stats_support import cohort

from warroom.cli import main
from warroom.store.cohort import FactsQuery, cohort_stats
from warroom.store.results import ResultsStore

# In :func:`stats_support.cohort`: ada detected A at 5 s (wall 10 s) and B at 8 s; drill A was detected by ada, ben
# and cy (5, 9, 13 s; wall 10, 18, 26 s), drill B by ada and cy (8 s, no wall time), C is all-clear.
TRAINEE_ADA = (5 + 8) / 2, 2, 10.0, 1
DRILL_A = 9.0, 3, 18.0, 3
DRILL_B = 8.0, 2, None, 0


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return cohort(tmp_path_factory.mktemp("cohort"))


def _times(figures: object) -> tuple:
    return tuple(getattr(figures, k) for k in ("median_time_to_detect", "time_to_detect_trials",
                                                "median_wall_time_to_detect", "wall_time_to_detect_trials"))


def test_each_median_time_to_detect_has_its_trials_on_both_statistics_paths(tmp_path: Path, backend_url) -> None:
    from warroom.store.cohort._count import facts_stats

    with ResultsStore(cohort(tmp_path)) as store:
        in_sql = cohort_stats(store, FactsQuery()).stats
        in_process = facts_stats(store, FactsQuery(), "auto").stats
    assert in_sql == in_process
    ada = next(t for t in in_sql.trainees if t.trainee == "ada")
    drills = {d.drill_id: d for d in in_sql.drills}
    assert _times(ada) == TRAINEE_ADA
    assert (_times(drills["A"]), _times(drills["B"])) == (DRILL_A, DRILL_B)
    assert _times(drills["C"]) == (None, 0, None, 0)


def _summary(data_dir: Path, *args: str) -> str:
    argv = ["scores", "summary", "--data-dir", str(data_dir), *args]
    r = CliRunner().invoke(main, argv, env={"COLUMNS": "250"}, catch_exceptions=False)
    assert r.exit_code == 0, r.output
    return r.stdout


def test_the_summary_shows_each_median_with_its_trials_in_table_json_and_csv(store_dir: Path) -> None:
    table = _summary(store_dir)
    ada = [c.strip() for c in next(ln for ln in table.splitlines() if "│ ada " in ln).split("│")[1:-1]]
    assert ada[9] == "6.5 s (n=2)"
    drill_a = [c.strip() for c in next(ln for ln in table.splitlines() if "│ A " in ln).split("│")[1:-1]]
    assert drill_a[7:9] == ["9 s (n=3)", "18 s (n=3)"]
    assert "(n=…) the trials that detected the fault" in " ".join(table.split())
    data = json.loads(_summary(store_dir, "--format", "json"))
    ada_json = next(t for t in data["trainees"] if t["trainee"] == "ada")
    assert (ada_json["time_to_detect_trials"], ada_json["wall_time_to_detect_trials"]) == (2, 1)
    assert [(d["drill_id"], d["time_to_detect_trials"]) for d in data["drills"]] == [("A", 3), ("B", 2), ("C", 0)]
    rows = {(r["scope"], r["name"]): r for r in csv.DictReader(io.StringIO(_summary(store_dir, "--format", "csv")))}
    assert (rows["trainee", "ada"]["time_to_detect_trials"], rows["drill", "B"]["wall_time_to_detect_trials"]) == (
        "2", "0")  # fmt: skip


def test_the_report_and_the_console_show_each_median_with_its_trials(store_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    r = CliRunner().invoke(main, ["report", "--data-dir", str(store_dir), "-o", str(out)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    page = out.read_text(encoding="utf-8")
    assert "<td>6.5 s (n=2)</td><td>10 s (n=1)</td>" in page  # ada: median ttd, median wall ttd
    assert "<td>9 s (n=3)</td><td>18 s (n=3)</td>" in page  # drill A
    from warroom.console import progress, render
    from warroom.store.cohort import prepared, read_facts

    with ResultsStore(store_dir) as store:
        ada = next(t for t in cohort_stats(store, FactsQuery()).stats.trainees if t.trainee == "ada")
        facts, _ = read_facts(store, prepared(store, FactsQuery(trainee="ada")), with_left_out=True)
    frame = {"title": "t", "nav": (), "here": "/console/trainees", "who": None, "counting": ""}
    listing = render("trainees.html", **frame, rows=[("ada", ada)], label="assessment")
    assert '<td class="num">6.5 s (n=2)</td>' in listing
    made = progress("ada", facts, lambda drill: None, lambda f: True)
    page = render("trainee.html", **frame, name="ada", progress=made, figures=[], sessions=[], minimum=(10, 5))
    assert "<span>median time to detect 6.5 s (n=2)</span>" in page


@pytest.fixture
def with_tutorial(tmp_path: Path) -> Path:
    """Two practice sessions of ann and one of the tutorial (which the statistics never count)."""
    from stats_support import add

    with ResultsStore(tmp_path) as store:
        add(store, "s1", "ann", "A", "contained", 90, ttd=5.0, mode="practice")
        add(store, "s2", "ann", "B", "missed", 0, mode="practice", day=2)
        add(store, "s3", "ann", "A", "contained", 90, ttd=5.0, mode="tutorial", day=3)
    return tmp_path


def test_the_summary_says_how_many_tutorial_sessions_it_did_not_count(with_tutorial: Path) -> None:
    """`warroom scores` lists 3 sessions; the summary counted 2 "of 2 sessions" without a word on the third."""
    first = _summary(with_tutorial).splitlines()[0]
    assert first == (
        "Counted: every session: 2 trials (each trainee's first attempt at each drill) of 2 sessions; 0 replays listed "
        "apart; 1 tutorial session not counted (`warroom scores list --mode tutorial` lists it)."
    )
    assert json.loads(_summary(with_tutorial, "--format", "json"))["counted"]["tutorial"] == 1
    # the filters apply: no tutorial session started after 3 November noon; --mode practice does not ask for it
    assert "tutorial" not in _summary(with_tutorial, "--since", "2026-11-03T12:00").splitlines()[0]
    assert "tutorial" not in _summary(with_tutorial, "--mode", "practice").splitlines()[0]
    out = with_tutorial / "r.html"
    r = CliRunner().invoke(main, ["report", "--data-dir", str(with_tutorial), "-o", str(out)], catch_exceptions=False)
    assert "; 1 tutorial session not counted (`warroom scores list --mode tutorial` lists it)." in r.stderr
    assert "1 tutorial session not counted" in out.read_text(encoding="utf-8")


def _validate(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, ["validate", *args], catch_exceptions=False)
    return r.exit_code, r.output


def test_validate_checks_the_id_against_every_name_of_a_linked_file(tmp_path: Path) -> None:
    """A folder holding a drill and a symbolic link to it under another name: the file was checked once, under its
    first name, and the second name's mismatch with the id (which `warroom run other-name` plays) never said."""
    from warroom.core.library import bundled_drills_dir

    folder = tmp_path / "d"
    folder.mkdir()
    drill = folder / "duplicate-charge-refunds.yaml"
    drill.write_bytes((bundled_drills_dir() / drill.name).read_bytes())
    (folder / "other-name.yaml").symlink_to(drill.name)
    (folder / "duplicate-charge-refunds.yml").symlink_to(drill.name)  # another name that matches the id
    code, out = _validate(str(folder))
    assert code == 1
    assert out.splitlines() == [
        f"{folder / 'other-name.yaml'}:3:5: drill id `duplicate-charge-refunds` does not match the file name "
        "`other-name.yaml`: rename the file to duplicate-charge-refunds.yaml or change the id to `other-name` "
        "(warroom run and the picker find a drill by its file name)",
        "3 drills checked: 2 valid, 1 invalid (1 problem)",
    ]
    # one name spelled twice is one name; the file alone is valid
    assert _validate(str(folder), str(folder / "other-name.yaml"))[1].endswith("3 drills checked: 2 valid, 1 invalid "
                                                                               "(1 problem)\n")
    assert _validate(str(drill)) == (0, "1 drill checked: 1 valid, 0 invalid\n")


@pytest.mark.parametrize("command", [["validate"], ["check"], ["project", "--list"], ["annotate"], ["migrate"],
                                     ["cost"]])  # fmt: skip
def test_a_drill_file_named_with_a_trailing_slash_is_refused_alike_everywhere(tmp_path: Path, command) -> None:
    """``validate demo.yaml/`` checked the file (pathlib drops the slash), ``annotate`` said it does not exist: a
    name ending in / names a folder (``cat demo.yaml/``: not a directory). Every command says so, and what to do."""
    from warroom.core.library import bundled_drills_dir

    drill = tmp_path / "duplicate-charge-refunds.yaml"
    drill.write_bytes((bundled_drills_dir() / drill.name).read_bytes())
    r = CliRunner().invoke(main, [*command, f"{drill}/"], catch_exceptions=False)
    assert r.exit_code == 2, r.output
    assert (f"{drill}/: a name ending in / names a folder, and {drill} is not one: drop the trailing /"
            in " ".join(r.output.split()))
    assert CliRunner().invoke(main, [*command[:1], "--help"]).exit_code == 0


@pytest.mark.parametrize("text", ["٢/١٠", "1_000/2", "５/25", "5/2_5", "0x10/2", "infinity/2"])
def test_a_price_is_written_in_ascii_digits_not_any_python_number_form(text: str) -> None:
    """``--price ٢/١٠`` (Arabic-Indic digits) and ``--price 1_000/2`` were read by ``float()``: docs/importing.md
    says a price is USD per million tokens written as a number, ``5/25`` or ``0.15/0.6``."""
    from warroom.importers.kit import Price

    with pytest.raises(ValueError, match=r"is not IN/OUT with two numbers"):
        Price.parse(text)


@pytest.mark.parametrize(("text", "prices"), [("5/25", (5, 25)), ("0.15/.6", (0.15, 0.6)), (" 2.5 / 10 ", (2.5, 10)),
                                              ("1e-6/1E3", (1e-6, 1000)), ("-0/0", (0, 0)), ("+3/4.", (3, 4)),
                                              ("5/25\n", (5, 25))])
def test_a_price_written_as_a_number_is_read(text: str, prices: tuple[float, float]) -> None:
    from warroom.importers.kit import Price

    price = Price.parse(text)
    assert (price.input_usd_per_mtok, price.output_usd_per_mtok) == prices


@pytest.mark.parametrize(("function", "said"), [
    ('{"arguments": "{}"}', "[0].tool_calls[0].function.name is missing: give the name of the tool called"),
    ('{"name": null}', "[0].tool_calls[0].function.name is null: give the name of the tool called"),
    ('{"name": " "}', "[0].tool_calls[0].function.name is empty text: give the name of the tool called"),
])  # fmt: skip
def test_a_tool_calls_name_that_is_null_is_said_to_be_null_not_missing(tmp_path: Path, function: str, said: str):
    from trace_import_support import converter

    from warroom.importers import chat
    from warroom.importers.kit import TraceError

    p = tmp_path / "bad.json"
    p.write_text(f'[{{"role": "assistant", "tool_calls": [{{"id": "a", "function": {function}}}]}}]', encoding="utf-8")
    with pytest.raises(TraceError) as e:
        converter(chat)(p)
    assert said in str(e.value)


def test_a_filter_that_matches_only_tutorial_sessions_says_so(with_tutorial: Path) -> None:
    """`warroom scores --drill A --since ...` lists the tutorial session; the summary said "No sessions match." and
    the report "no stored session matches"."""
    said = _summary(with_tutorial, "--since", "2026-11-03")
    assert said == ("No sessions to count: 1 tutorial session matches, which the statistics never count (`warroom "
                    "scores list --mode tutorial` lists it).\n")
    r = CliRunner().invoke(main, ["report", "--data-dir", str(with_tutorial), "--since", "2026-11-03", "-o",
                                  str(with_tutorial / "r.html")])  # fmt: skip
    assert r.exit_code == 1
    assert r.stderr == ("Error: nothing to report: 1 tutorial session matches, which the statistics never count "
                        "(`warroom scores list --mode tutorial` lists it).\n")


def test_the_consoles_counting_sentence_says_how_many_tutorial_sessions_are_never_counted() -> None:
    """The console's sessions page lists the tutorial's sessions; its sentence said "The figures count every session
    (2 practice sessions ...)" of a store of 3."""
    from warroom.console import counting_sentence

    assert counting_sentence(0, 2, 1).endswith(
        "as warroom scores summary and warroom report do. 1 tutorial session (warroom tutorial) is listed but never "
        "counted.")  # fmt: skip
    assert counting_sentence(3, 0, 2).endswith("2 tutorial sessions (warroom tutorial) are listed but never counted.")
    assert "tutorial" not in counting_sentence(3, 1)


@pytest.mark.parametrize(
    ("mode", "told"),
    [(None, 1), ("auto", 1), ("all", 1), ("practice", 0), ("assessment", 0), ("tutorial", 0)],
)
def test_the_tutorial_sessions_told_depend_on_the_mode_by_one_rule(with_tutorial: Path, mode: str | None,
                                                                   told: int) -> None:
    """The summary (whose --mode may be unset: auto) and the report each decided which modes are told of the
    tutorial sessions they leave out, with lists of their own; tutorial_sessions decides it for both."""
    from warroom.store.cohort import tutorial_sessions

    with ResultsStore(with_tutorial) as store:
        assert tutorial_sessions(store, FactsQuery(), mode) == told
    if mode is not None and mode != "tutorial":
        out = with_tutorial / "r.html"
        r = CliRunner().invoke(main, ["report", "--data-dir", str(with_tutorial), "-o", str(out), "--mode", mode])
        assert ("1 tutorial session not counted" in out.read_text(encoding="utf-8")) == bool(told), r.output
