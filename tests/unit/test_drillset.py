"""Drill sets: the YAML format with path:line:col problems, finding the drills, and the adaptive chooser."""

from __future__ import annotations

import textwrap
from collections import Counter
from pathlib import Path

import pytest

from warroom.core.library import Attempt, Candidate, choose_next, resolve_set_drills
from warroom.core.library._adaptive import trainee_level
from warroom.core.load import Adaptive, DrillSetError, is_drill_set_text, load_drill_set


def write(tmp_path: Path, text: str, name: str = "set.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip())
    return path


def test_a_valid_set_loads_with_its_defaults(tmp_path: Path):
    path = write(
        tmp_path,
        """
        set: week-1
        title: Week 1
        due: 2026-12-15
        drills: [duplicate-charge-refunds, late-delivery-replies]
        """,
    )
    s = load_drill_set(path)
    assert (s.set, s.mode, s.attempts, s.adaptive) == ("week-1", "practice", None, None)
    assert s.due_date is not None and s.due_date.isoformat() == "2026-12-15"
    assert is_drill_set_text(path.read_text())
    drills, problems = resolve_set_drills(s, path)
    assert problems == []
    assert [d.drill.id for d in drills] == ["duplicate-charge-refunds", "late-delivery-replies"]


def test_every_problem_is_reported_at_its_line_and_column(tmp_path: Path):
    path = write(
        tmp_path,
        """
        set: week 1
        title: Week 1
        mode: exam
        attempts: 0
        due: 15/12/2026
        colour: red
        drills:
          - duplicate-charge-refunds
        adaptive:
          seed: -1
          length: 3
        """,
    )
    with pytest.raises(DrillSetError) as info:
        load_drill_set(path)
    lines = str(info.value).splitlines()
    assert (
        lines[0]
        == f"{path}:1:6: the set id must use letters, digits, `-`, `_` and `.`, starting with a letter or digit"
    )
    assert lines[1].startswith(f"{path}:3:7: `mode`") and "'practice' or 'assessment'" in lines[1]
    assert lines[2].startswith(f"{path}:4:11: `attempts`") and "greater than or equal to 1" in lines[2]
    assert lines[3] == f"{path}:5:6: `due` must be a date written YYYY-MM-DD, got '15/12/2026'"
    assert lines[4].startswith(f"{path}:6:1: unknown key `colour`; allowed keys: set, title")
    assert lines[5].startswith(f"{path}:10:9: `adaptive.seed`")
    assert len(lines) == 6


def test_a_blank_title_says_so_and_messages_keep_their_case(tmp_path: Path):
    """A blank title said "string should match pattern '\\s'" (pydantic's message, lowercased, so even the pattern
    was wrong); it says what to write, like a drill's blank text, and other messages keep their own capitals."""
    path = write(tmp_path, 'set: week-1\ntitle: "  "\nmode: Exam\ndrills: [duplicate-charge-refunds]\n')
    with pytest.raises(DrillSetError) as info:
        load_drill_set(path)
    lines = str(info.value).splitlines()
    assert lines[0] == f"{path}:2:8: `title` must not be blank: write some text, not only spaces or line breaks"
    assert lines[1] == f"{path}:3:7: `mode`: input should be 'practice' or 'assessment', got 'Exam'"
    assert len(lines) == 2


def test_every_problem_at_once_the_drills_too_when_another_key_is_wrong(tmp_path: Path):
    """docs/drill-sets.md's example: a wrong `attempts` and the drills' own problems, reported together; a `drills`
    list that is itself wrong is reported alone (there is nothing to look up)."""
    from warroom.core.library import drill_set_problems

    path = write(tmp_path, """
        set: week-1
        title: Week 1
        attempts: two
        drills:
          - late-delivery-replies
          - duplicate-charge-refunds
          - duplicate-charge-refund
          - duplicate-charge-refunds
        """)  # fmt: skip
    got = [str(p) for p in drill_set_problems(path)]
    assert [g.split(": ")[0] for g in got] == [f"{path}:3:11", f"{path}:7:5", f"{path}:8:5"]
    assert got[0].endswith("`attempts`: input should be a valid integer, got 'two'")
    assert "no drill file or drill id 'duplicate-charge-refund'" in got[1]
    assert got[2].endswith("the drill 'duplicate-charge-refunds' is already item 2 of `drills`")
    path.write_text("set: week-1\ntitle: Week 1\nattempts: two\ndrills: nothing\n")
    assert [str(p).split(": ")[0] for p in drill_set_problems(path)] == [f"{path}:3:11", f"{path}:4:9"]
    path.write_text("set: week-1\ntitle: Week 1\ndrills: [duplicate-charge-refunds]\n")
    assert drill_set_problems(path) == []


def test_missing_keys_syntax_errors_and_a_list_are_problems_too(tmp_path: Path):
    with pytest.raises(DrillSetError, match=r":1:1: the drill set is missing the required key `drills`"):
        load_drill_set(write(tmp_path, "set: a\ntitle: A\n"))
    with pytest.raises(DrillSetError, match=r"set\.yaml:2:\d+: "):
        load_drill_set(write(tmp_path, "set: a\ntitle: 'A\n"))
    with pytest.raises(DrillSetError, match=r":1:1: a drill set file must be a mapping"):
        load_drill_set(write(tmp_path, "- a\n- b\n"))
    with pytest.raises(DrillSetError, match=r":1:1: no such file"):
        load_drill_set(tmp_path / "nope.yaml")


def test_drills_not_found_not_loading_or_named_twice_are_problems_at_their_item(tmp_path: Path):
    (tmp_path / "broken.yaml").write_text("id: broken\n")
    path = write(
        tmp_path,
        """
        set: wk
        title: Week
        drills:
          - duplicate-charge-refunds
          - no-such-drill
          - ./broken.yaml
          - duplicate-charge-refunds
        """,
    )
    drills, problems = resolve_set_drills(load_drill_set(path), path)
    shown = [str(p) for p in problems]
    assert shown[0].startswith(f"{path}:5:5: no drill file or drill id 'no-such-drill'")
    assert shown[1].startswith(f"{path}:6:5: the drill './broken.yaml' does not load: ")
    assert shown[2] == f"{path}:7:5: the drill 'duplicate-charge-refunds' is already item 1 of `drills`"
    assert [d.drill is not None for d in drills] == [True, False, False, True]


def test_an_adaptive_pool_must_hold_the_controls_its_rate_asks_for(tmp_path: Path):
    path = write(
        tmp_path,
        """
        set: ad
        title: Adaptive
        drills: [duplicate-charge-refunds, late-delivery-replies]
        adaptive: {seed: 3, length: 4, all_clear_rate: 0.25}
        """,
    )
    _, problems = resolve_set_drills(load_drill_set(path), path)
    assert [str(p) for p in problems] == [f"{path}:4:48: all_clear_rate is above 0 but `drills` has no all-clear drill"]


POOL = [
    Candidate("easy-a", 1, "stale_data"),
    Candidate("mid-b", 3, "stale_data"),
    Candidate("mid-c", 3, "wrong_record"),
    Candidate("hard-d", 5, "schema_drift"),
    Candidate("control", 3, None),
]


def test_the_level_is_a_one_up_one_down_staircase_within_1_to_5():
    hit, miss = Attempt(POOL[1], True), Attempt(POOL[1], False)
    assert trainee_level([], 2.0) == 2.0
    assert trainee_level([hit, hit, miss], 2.0) == 2.5
    assert trainee_level([hit] * 20, 2.0) == 5.0
    assert trainee_level([miss] * 20, 2.0) == 1.0
    assert trainee_level([Attempt(POOL[1], False, abandoned=True), Attempt(POOL[4], False)], 2.0) == 2.0


def test_the_choice_is_reproducible_from_the_seed_and_ends_with_the_length():
    adaptive = Adaptive(seed=11, length=5, all_clear_rate=0.2)
    first = [choose_next(POOL, [], adaptive, trainee="ann", played_in_set=n) for n in range(5)]
    again = [choose_next(POOL, [], adaptive, trainee="ann", played_in_set=n) for n in range(5)]
    assert first == again and all(c is not None for c in first)
    assert choose_next(POOL, [], adaptive, trainee="ann", played_in_set=5) is None
    assert choose_next(POOL, [], adaptive, trainee="ann", played_in_set=0, available=[]) is None
    only = choose_next(POOL, [], adaptive, trainee="ann", played_in_set=0, available=["hard-d"])
    assert only == POOL[3]


def _draws(record: list[Attempt], adaptive: Adaptive, n: int = 2000) -> Counter[str]:
    picks = (choose_next(POOL, record, adaptive, trainee=f"t{i}", played_in_set=0) for i in range(n))
    return Counter(c.drill_id for c in picks if c is not None)


def test_controls_come_at_the_stated_rate_and_faults_near_the_level_and_missed_kinds():
    counts = _draws([], Adaptive(seed=1, length=9, all_clear_rate=0.25))
    # 2000 draws at p=0.25: the share's standard deviation is about 0.0097, so 0.25 +- 0.04 is over 4 of them.
    assert abs(counts["control"] / 2000 - 0.25) < 0.04
    no_controls = Adaptive(seed=1, length=9, all_clear_rate=0.0)
    assert _draws([], no_controls)["control"] == 0
    # A beginner (level 2) gets the easy drill far more often than the hardest one.
    beginner = _draws([], no_controls)
    assert beginner["easy-a"] > 3 * beginner["hard-d"]
    # Missing wrong_record drills brings more of them (mid-c) than of the other level-3 drill (mid-b).
    missed = [Attempt(POOL[2], False), Attempt(POOL[0], True), Attempt(POOL[0], True)]
    after = _draws(missed, no_controls)
    assert after["mid-c"] > 1.5 * after["mid-b"]


def test_a_drill_named_many_times_is_looked_up_and_loaded_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Issue 30: a set naming one drill 999 times loaded it 999 times (45 s, 130 MB for `validate`). Each name is
    looked up once and each drill file loaded once, whether named by id or by path; every repeat is still a problem
    at its item, and a broken file named twice is a problem at each."""
    import warroom.core.library._drillset as drillset
    import warroom.core.library._library as library
    from warroom.core.library import bundled_drills_dir

    bundled = bundled_drills_dir() / "duplicate-charge-refunds.yaml"
    (tmp_path / "broken.yaml").write_text("id: broken\n")
    names = ["duplicate-charge-refunds", str(bundled), "no-such-drill", "./broken.yaml"] * 250
    path = tmp_path / "set.yaml"
    path.write_text("set: wk\ntitle: Week\ndrills:\n" + "".join(f"  - {n}\n" for n in names))
    loads: Counter[str] = Counter()
    lookups: Counter[str] = Counter()
    real_load, real_resolve = drillset.load_drill, library.resolve_drill

    def counted_load(p):
        loads[Path(p).name] += 1
        return real_load(p)

    def counted_resolve(name, *args, **kwargs):
        lookups[name] += 1
        return real_resolve(name, *args, **kwargs)

    monkeypatch.setattr(drillset, "load_drill", counted_load)
    monkeypatch.setattr(library, "resolve_drill", counted_resolve)
    drills, problems = resolve_set_drills(load_drill_set(path), path)
    assert loads == {"duplicate-charge-refunds.yaml": 1, "broken.yaml": 1}
    assert lookups == {"duplicate-charge-refunds": 1, "no-such-drill": 1}
    shown = [str(p) for p in problems]
    assert len(shown) == 999
    assert shown[0] == f"{path}:5:5: the drill 'duplicate-charge-refunds' is already item 1 of `drills`"
    assert sum("no drill file or drill id 'no-such-drill'" in s for s in shown) == 250
    assert sum("the drill './broken.yaml' does not load: " in s for s in shown) == 250
    assert len({id(d.drill) for d in drills if d.drill is not None}) == 1 and len(drills) == 1000
