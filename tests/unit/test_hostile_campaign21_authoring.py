"""The twenty-first hostile campaign, on the author's tools (drills written by hand, validate, check, project,
migrate, drill sets): each case it found, with the right behaviour."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TESTS = Path(__file__).parent.parent
SHAPE_11 = TESTS / "fixtures" / "shapes" / "shape-11-probe.yaml"
DRILLS = TESTS.parent / "drills"


def _without_probe(text: str, probe_id: str) -> str:
    """``text`` (a drill file whose probes are written in block style) without the probe ``probe_id``."""
    return re.sub(rf"\n  - id: {probe_id}\n(    .*\n)+", "\n", text)


@pytest.mark.parametrize(("source", "probe"), [(SHAPE_11, "p3"), (DRILLS / "tutorial.yaml", "p2")])
def test_a_drill_won_by_asking_every_probe_and_escalating_the_first_answer_fails_check(
    tmp_path: Path, source: Path, probe: str
) -> None:
    """A drill whose finding probe is the first to answer (the only probe of its origin step: the shape-11 fixture,
    the tutorial, `warroom new --example full`) passed `warroom check`, yet a trainee who asks for every probe as
    soon as it can and escalates the step of the first answer, citing it unread, contained it: a hit (95 of 100 on
    shape-11, 98 on the full example). The battery's probe-sweep trainee plays that, and rule battery-hit fails
    the drill; a needless probe answering first (each now has one) makes it fair again."""
    from warroom.core.author import run_checks
    from warroom.core.author._battery import play_battery_trainee
    from warroom.core.load import load_drill

    fair = load_drill(source)
    assert run_checks(fair).passed and not play_battery_trainee(fair, "probe-sweep").hit
    path = tmp_path / source.name
    path.write_text(_without_probe(source.read_text(encoding="utf-8"), probe), encoding="utf-8")
    unfair = load_drill(path)
    assert probe not in {p.id for p in unfair.probes}
    run = play_battery_trainee(unfair, "probe-sweep")
    assert run.hit and [a.kind.value for a in run.actions] == ["probe", "escalate"]
    report = run_checks(unfair)
    assert not report.passed
    assert [p for p in report.problems if "probe-sweep trainee is a hit" in p] == [
        next(p for p in report.problems if p.startswith("fairness rule battery-hit: the probe-sweep trainee"))]
    assert "Add a needless probe" in next(p for p in report.problems if "probe-sweep" in p)


def test_the_full_example_is_not_won_by_the_first_probe_answer(tmp_path: Path) -> None:
    """`warroom new --example full` wrote a drill whose only probe of s1 (the origin) found the fault: asking it
    and escalating s1 on its answer, unread, was a hit (98 of 100). Its needless probe p3 of s1 now answers
    first."""
    from warroom.core.author import example_text, run_checks
    from warroom.core.author._battery import play_battery_trainee
    from warroom.core.load import load_drill

    path = tmp_path / "full.yaml"
    path.write_text(example_text("full", "full", "drill.schema.json"), encoding="utf-8")
    drill = load_drill(path)
    run = play_battery_trainee(drill, "probe-sweep")
    first = next(a for a in run.actions if a.kind.value == "escalate")
    assert (first.step, first.cites, run.hit) == ("s1", ("p3",), False)
    assert run_checks(drill).passed


@pytest.mark.parametrize("example", ["basic", "full", "loop"])
def test_the_skeletons_warroom_new_writes_check_without_a_newest_guess_warning(tmp_path: Path, example: str) -> None:
    """`warroom new ID` ("a commented skeleton that validates and checks as written") wrote a drill on which
    `warroom check` warned that a blind guess at the newest event wins 14% of the trace: its evidence e03 (8 s)
    stayed the newest event until the report e04 at 15 s. The report now comes at 12 s with the next event, 8%."""
    from warroom.core.author import (
        NEWEST_GUESS_WARN,
        example_text,
        newest_guess_share,
        newest_guess_windows,
        skeleton_text,
    )
    from warroom.core.load import load_drill

    path = tmp_path / f"{example}.yaml"
    text = skeleton_text(example) if example == "basic" else example_text(example, example, "drill.schema.json")
    path.write_text(text, encoding="utf-8")
    drill = load_drill(path)
    assert newest_guess_share(newest_guess_windows(drill), drill) <= NEWEST_GUESS_WARN


@pytest.mark.parametrize(("encoding", "named"), [
    ("utf-16", "UTF-16"), ("utf-16-le", "UTF-16LE"), ("utf-16-be", "UTF-16BE"), ("utf-32", "UTF-32"),
    ("utf-32-le", "UTF-32LE"),
])
def test_a_drill_or_set_saved_as_utf16_or_utf32_is_named_so(tmp_path: Path, encoding: str, named: str) -> None:
    """A drill saved as UTF-16 (Windows PowerShell's `>`) was "not UTF-8 text (byte 0xff here)" with a byte order
    mark, and without one "a control character ('\\x00', U+0000 NULL) ...: write it as "\\x00" inside a
    double-quoted string", advice that cannot fix it. Both now say which encoding it is and how to convert it."""
    from warroom.core.author import skeleton_text
    from warroom.core.load import DrillLoadError, DrillSetError, load_drill, load_drill_set

    drill = tmp_path / "wide.yaml"
    drill.write_bytes(skeleton_text("wide").encode(encoding))
    drill_set = tmp_path / "wide.set.yaml"
    drill_set.write_bytes("set: wide\ntitle: Wide\ndrills: [wide.yaml]\n".encode(encoding))
    for path, load, error in ((drill, load_drill, DrillLoadError), (drill_set, load_drill_set, DrillSetError)):
        with pytest.raises(error) as caught:
            load(path)
        (problem,) = caught.value.problems
        assert (problem.line, problem.column) == (1, 1)
        assert problem.message == (
            f"the file is {named} text, not UTF-8"
            + (" (as Windows PowerShell's `>` and Notepad's \"Unicode\" save it)" if "16" in named else "")
            + f": save it as UTF-8, e.g. `iconv -f {named} -t UTF-8 FILE > NEW.yaml`")


@pytest.mark.parametrize("rule", ["bank*=5:", "bank*=5:   "])
def test_a_damage_rule_with_nothing_after_its_colon_is_refused(rule: str) -> None:
    """`warroom project --damage 'bank*=5:'` (a unit from a shell variable left unset) wrote a drill counting 5
    "consequential calls made on the bad result" per call, the default unit, as if no unit had been meant."""
    from warroom.core.projection import ProjectionError, parse_damage

    with pytest.raises(ProjectionError) as caught:
        parse_damage(rule)
    assert str(caught.value) == (f"--damage {rule!r}: nothing after the `:`: write the damage unit there "
                                 "('exchange*=250:USD exchanged in error'), or drop the `:` for the default unit")
    assert (parse_damage("bank*=5").unit, parse_damage("bank*=5:USD").unit) == ("", "USD")


def test_a_symbolic_link_to_a_set_file_is_not_counted_as_a_drill(tmp_path: Path) -> None:
    """`warroom validate FOLDER` read a set file and a symbolic link to it once, as it should, but counted the link
    as a valid *drill*: a folder of one drill and one set (and the link) said "2 drills and 1 drill set checked: 3
    valid", and a link to an invalid set was a valid drill beside it. A set's other name is the same set, counted
    once; a drill's other names are still counted (each is checked against the drill's id)."""
    from click.testing import CliRunner

    from warroom.cli import main
    from warroom.core.author import skeleton_text

    (tmp_path / "base.yaml").write_text(skeleton_text("base"), encoding="utf-8")
    (tmp_path / "s.set.yaml").write_text("set: s\ntitle: S\ndrills: [base.yaml]\n", encoding="utf-8")
    (tmp_path / "l.yaml").symlink_to("s.set.yaml")
    result = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert (result.exit_code, result.output) == (0, "1 drill and 1 drill set checked: 2 valid, 0 invalid\n")
    (tmp_path / "bad.set.yaml").write_text("set: bad\ntitle: B\ndrills: []\n", encoding="utf-8")
    (tmp_path / "m.yaml").symlink_to("bad.set.yaml")
    (tmp_path / "other.yaml").symlink_to("base.yaml")  # a drill's other name: counted, its name checked
    result = CliRunner().invoke(main, ["validate", str(tmp_path)])
    assert result.exit_code == 1
    assert result.output.endswith("2 drills and 2 drill sets checked: 2 valid, 2 invalid (2 problems)\n")


def test_project_all_of_one_file_names_its_run_by_the_file(tmp_path: Path) -> None:
    """`warroom project --all FILE` (one healthy run, given as a file rather than a folder) ended its summary with
    "Projections per healthy run: . 6.": the run was named relative to itself. It is named as the file."""
    from click.testing import CliRunner

    from warroom.cli import main
    from warroom.core.author import example_text

    source = tmp_path / "full.yaml"
    source.write_text(example_text("full", "full", "drill.schema.json"), encoding="utf-8")
    result = CliRunner().invoke(main, ["project", "--all", str(source), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert f"Projections per healthy run: {source} 6.\n" in result.output


def test_a_set_with_one_bad_item_still_looks_up_its_other_drills(tmp_path: Path) -> None:
    """Drill set problems are reported "all at once" (docs/drill-sets.md), but one item of `drills` of a wrong type
    (`null`, a mapping, `""`) stopped every other item from being looked up: a missing drill beside it was said only
    after the first was fixed. Each other item is looked up, at its own place; and the bad item is named by its
    number from 1, its value as YAML writes it and what to do (it was "`drills.1`: input should be a valid string,
    got None": Python's index from 0 and Python's None)."""
    from warroom.core.library import drill_set_problems

    path = tmp_path / "week.set.yaml"
    path.write_text("set: week\ntitle: Week\ndrills: [no-such-drill, null, {a: b}, \"\", no-such-drill-2]\n",
                    encoding="utf-8")
    found = [(p.column, p.message.split(" (searched")[0]) for p in drill_set_problems(path)]
    assert found == [
        (10, "no drill file or drill id 'no-such-drill'"),
        (25, "item #2 of `drills` must be a drill id or a drill file's path, got `null`: write one, or remove the "
             "item"),
        (31, "item #3 of `drills` must be a drill id or a drill file's path, got a mapping (key: value lines): write "
             "one, or remove the item"),
        (39, "item #4 of `drills` must be a drill id or a drill file's path, got an empty text (\"\"): write one, or "
             "remove the item"),
        (43, "no drill file or drill id 'no-such-drill-2'"),
    ]


def test_new_strips_one_file_ending_from_its_id(tmp_path: Path) -> None:
    """`warroom new x.yml.yaml` wrote x.yaml (id x): both endings were taken off the name typed, so the file written
    was not the one named. A file name given as the id loses one ending: x.yml.yaml of id x.yml."""
    from click.testing import CliRunner

    from warroom.cli import main
    from warroom.core.load import load_drill

    result = CliRunner().invoke(main, ["new", "x.yml.yaml", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.yml.yaml"]
    assert load_drill(tmp_path / "x.yml.yaml").id == "x.yml"


def test_cost_writes_call_counts_with_thousands_separators(tmp_path: Path) -> None:
    """`warroom cost` of a drill with a call repeated 10,000 times wrote the tables' calls as `10000` beside
    `100,000,000,000` tokens and a total of `10,007 calls`: one figure written two ways on one screen."""
    from click.testing import CliRunner

    from warroom.cli import main
    from warroom.core.author import skeleton_text

    text = skeleton_text("many").replace(
        "    usage: {input_tokens: 2400, output_tokens: 420}\n",
        "    usage: {input_tokens: 2400, output_tokens: 420}\n    repeat: {count: 10000, interval: 1}\n", 1)
    path = tmp_path / "many.yaml"
    path.write_text(text, encoding="utf-8")
    output = CliRunner().invoke(main, ["cost", str(path)]).output
    planner = [line.split() for line in output.splitlines() if line.startswith(("  planner ", "  (no step) "))]
    assert [row[1] if row[0] == "planner" else row[2] for row in planner] == ["10,000", "10,000"]
    assert "  total: 10,007 calls," in output
