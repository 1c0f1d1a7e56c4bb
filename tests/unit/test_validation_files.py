"""Semantic rules across files (warroom.core.library.cross_file_problems), drill paths, did-you-mean hints, bounded
work however many references are missing, entries listed twice, ids shown escaped, rules on data that did not load."""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any

import pytest
from validation_support import BASE, BASE_TEXT, issues_of, only

from warroom.core.library import bundled_drills_dir
from warroom.core.load import DrillLoadError, load_drill, load_drill_text
from warroom.core.model import Drill
from warroom.core.rules import validate_drill

# -- rules across files (warroom.core.library.cross_file_problems) ----------------------------------------------------


def _write(path: Path, drill_id: str, prefix: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(prefix + BASE_TEXT.replace("id: mini", f"id: {drill_id}", 1))
    return path


def test_load_drill_itself_ignores_the_file_name(tmp_path: Path):
    assert load_drill(_write(tmp_path / "whatever.yaml", "mini")).id == "mini"


def test_cross_file_problems_take_pairs_or_entries_and_report_only_what_is_wrong(tmp_path: Path):
    from dataclasses import dataclass

    from warroom.core.library import cross_file_problems

    good = _write(tmp_path / "mini.yaml", "mini")
    renamed = _write(tmp_path / "old-name.yaml", "new-name")
    copy_ = _write(tmp_path / "sub" / "mini.yml", "mini", prefix="# a copy\n# of mini\n")

    @dataclass
    class Entry:  # the shape of the picker's entries: path and drill (None when it did not load)
        path: Path
        drill: object

    entries = [(good, load_drill(good)), Entry(renamed, load_drill(renamed)), Entry(tmp_path / "broken.yaml", None),
               (copy_, load_drill(copy_)), (good, load_drill(good))]
    problems = cross_file_problems(entries)
    assert set(problems) == {renamed, copy_}
    (p,) = problems[renamed]
    assert (p.path, p.line, p.column) == (str(renamed), 3, 5)
    assert p.message.startswith(
        "drill id `new-name` does not match the file name `old-name.yaml`: rename the file to new-name.yaml or "
        "change the id to `old-name`"
    )
    (p,) = problems[copy_]
    assert (p.line, p.column) == (5, 5)
    assert p.message == (
        f"drill id `mini` is already the id of {good} (line 3): two drills cannot share an id; change one of them"
    )
    assert cross_file_problems([(good, load_drill(good))]) == {}
    assert cross_file_problems([]) == {}


def test_a_file_listed_twice_is_not_a_duplicate_of_itself(tmp_path: Path):
    from warroom.core.library import cross_file_problems

    good = _write(tmp_path / "mini.yaml", "mini")
    drill = load_drill(good)
    relative = Path(os.path.relpath(good))
    assert relative != good
    assert cross_file_problems([(good, drill), (relative, drill)]) == {}


def test_library_paths_resolve_files_folders_and_ids(tmp_path: Path):
    from warroom.core.library import DrillLibrary

    def drill_paths(names, extra_dirs=()):
        library = DrillLibrary(tuple(extra_dirs))
        return [library.path(name) for name in names]

    mine = _write(tmp_path / "lib" / "my-own.yaml", "my-own")
    assert drill_paths([str(mine), str(tmp_path), "my-own", "duplicate-charge-refunds"], [tmp_path / "lib"]) == [
        mine, tmp_path, mine, bundled_drills_dir() / "duplicate-charge-refunds.yaml",
    ]
    with pytest.raises(FileNotFoundError, match="no file, folder or drill id 'my-own'"):
        drill_paths(["my-own"])


def test_a_missing_id_gets_only_a_likely_typo_as_a_hint():
    from warroom.core.text import Suggester

    def _suggest(word: str, choices: list[str]) -> str:
        return Suggester(choices)(word)

    trace = ["e01", "e02", "e03", "e04", "e06", "e07", "e08", "e09", "e10", "e11"]
    assert _suggest("e05", ["e01", "e10", "e11"][1:]) == ""  # e10 is not a typo of e05
    assert _suggest("e05", trace) == " (nearby ids: `e04`, `e06`)"  # many one-key slips: the neighbours
    assert _suggest("e5", ["e3", "e6", "e10"]) == " (nearby ids: `e3`, `e6`)"
    assert _suggest("e50", ["e1", "e5", "e6"]) == " (did you mean `e5`?)"  # one character too many
    assert _suggest("refund-bacth", ["refund-batch", "notify"]) == " (did you mean `refund-batch`?)"  # swapped
    assert _suggest("sumarise", ["summarise", "s1"]) == " (did you mean `summarise`?)"
    assert _suggest("cleanup", ["e01", "e02"]) == ""
    assert _suggest("s9", ["s1", "s2"]) == ""  # past the last step: no guess


def test_a_missing_evidence_event_is_not_matched_to_an_unrelated_id():
    def edit(d):
        d["answer_key"]["evidence"] = ["e3", "e9"]

    issue = only(issues_of(edit))
    assert issue.message.endswith("`e9` is not a trace event")  # e6 is not a typo of e9, nor around it


# -- bounded work, listed twice, ids shown as they are ---------------------------------------------------------------


def _many_unknown_refs(n: int) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    data["trace"] += [
        {"id": f"x{i}", "t": 20, "step": "s1", "kind": "log", "source": "a", "content": "b"} for i in range(n)
    ]
    data["distractors"] = [{"event": f"x{i}y", "why_harmless": "noise"} for i in range(n)]
    return data


def test_did_you_mean_work_is_bounded_however_many_references_are_missing(monkeypatch):
    import warroom.core.text._ids as ids

    calls = 0
    real = ids.likely_typo

    def counting(word: str, choice: str) -> bool:
        nonlocal calls
        calls += 1
        return real(word, choice)

    monkeypatch.setattr(ids, "likely_typo", counting)
    issues = validate_drill(Drill.model_validate(_many_unknown_refs(2_000)))
    assert len(issues) == 2_000  # every missing reference is reported...
    hinted = [i for i in issues if "(did you mean" in i.message or "(nearby ids" in i.message]
    # ...only the first ones with a hint (x0y: did you mean x0?); the rest are looked at no more
    assert hinted and all(int(i.loc[1]) < ids.MAX_SUGGESTIONS for i in hinted)
    assert issues[0].message == "distractor event `x0y` is not a trace event (did you mean `x0`?)"
    assert calls <= ids.MAX_SUGGESTIONS * ids.MAX_CANDIDATES  # not 2,000 x 2,006 comparisons


def test_a_long_plan_is_listed_shortly_in_a_message():
    def edit(d):
        d["plan"] += [{"id": f"p{i}", "title": "T", "objective": "O"} for i in range(40)]
        d["trace"][5]["step"] = "nowhere"

    message = only(issues_of(edit)).message
    assert message.endswith("the plan steps are: s1, s2, p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, "
                            "p14, p15, p16, p17, ... (42 in all)")


@pytest.mark.parametrize(
    ("edit", "loc", "related", "fragment"),
    [
        (lambda d: d["answer_key"]["damage"]["entries"].append({"event": "e5", "amount": 3}),
         ("answer_key", "damage", "entries", 1, "event"), ("answer_key", "damage", "entries", 0, "event"),
         "damage event `e5` is listed twice: damage entry #1 has it too; keep one"),
        (lambda d: d["answer_key"].update(evidence=["e3", "e4", "e3"]),
         ("answer_key", "evidence", 2), ("answer_key", "evidence", 0),
         "evidence event `e3` is listed twice: evidence item #1 has it too"),
        (lambda d: d["answer_key"].update(cascade=["s2", "s2"]),
         ("answer_key", "cascade", 1), ("answer_key", "cascade", 0), "cascade step `s2` is listed twice"),
        (lambda d: d["distractors"].append({"event": "e6", "why_harmless": "Again."}),
         ("distractors", 1, "event"), ("distractors", 0, "event"),
         "distractor event `e6` is listed twice: distractor #1 has it too"),
    ],
)
def test_an_entry_listed_twice_is_refused(edit, loc, related, fragment):
    issue = only(issues_of(edit))
    assert (issue.loc, issue.related) == (loc, related) and fragment in issue.message


def test_look_alike_and_invisible_characters_in_ids_are_shown_escaped_and_named():
    from warroom.core.text import shown_id

    assert shown_id("s1") == "`s1`"
    assert shown_id("s\u0430") == "`s\\u0430` (Cyrillic \u0430 U+0430)"
    assert shown_id("e1\u200b") == "`e1\\u200b` (zero width space U+200B)"
    assert shown_id("\u03bf1") == "`\\u03bf1` (Greek \u03bf U+03BF)"
    assert shown_id("e\u202e1") == "`e\\u202e1` (right-to-left override U+202E)"
    assert shown_id("a\x1bb") == "`a\\x1bb` (U+001B)"
    with pytest.raises(DrillLoadError) as info:  # the loader's messages use it: `s1` and `s1<ZWSP>` differ
        load_drill_text(BASE_TEXT.replace("  - id: e4\n", "  - id: e4\u200b\n"), "zw.yaml")
    assert "`e4\\u200b` (zero width space U+200B) is not a valid id" in str(info.value)


def test_validate_data_runs_the_rules_on_what_loaded_and_names_what_waits():
    from warroom.core.rules import validate_data

    data = copy.deepcopy(BASE)
    data["trace"][1]["id"] = "e 2"  # a bad id (type problem): references to events cannot be judged
    data["trace"][4]["t"] = 9  # e5 before e4 (t=10): judged all the same
    data["distractors"][0]["event"] = "e77"
    issues, blocked = validate_data(data, [("trace", 1, "id")])
    assert [i.loc for i in issues] == [("trace", 4, "t")]
    rules = {b.rule: b.loc for b in blocked}
    assert rules["references to trace events (evidence, damage, distractors)"] == ("trace", 1, "id")
    assert rules["tool results answer an earlier tool_call"] == ("trace", 1, "id")
    # The same data with nothing bad: the unknown distractor is a problem, nothing waits.
    data["trace"][1]["id"] = "e2"
    issues, blocked = validate_data(data, [])
    assert [i.loc for i in issues] == [("trace", 4, "t"), ("distractors", 0, "event")] and blocked == []
