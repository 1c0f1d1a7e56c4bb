"""Answer-key hygiene (warroom/core/model/_hygiene.py, docs/authoring.md "What a trainee sees before the debrief"): the
rule itself, and every pre-debrief CLI surface of every bundled drill scanned for the answer key's strings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hygiene_support import PREFIX, answer_key_strings, bundled, leaks

from warroom.cli import main
from warroom.core.author import skeleton_text as skeleton
from warroom.core.load import load_drill, load_drill_text
from warroom.core.model import ESCALATION_INSTRUCTION, briefing_hints, pre_debrief_session, without_answer_keys
from warroom.core.model._hygiene import visible_tags

BUNDLED = bundled()


def _drill(**changes: object):
    """The skeleton drill with top-level ``changes`` (a dict for ``briefing`` replaces the briefing)."""
    import yaml

    data = yaml.safe_load(skeleton("hyg"))
    data.update(changes)
    return load_drill_text(yaml.safe_dump(data, sort_keys=False))


def test_only_domain_tags_are_visible_without_their_prefix():
    drill = _drill(tags=["domain:billing", "stale_data", "finance", " domain:billing ", "domain:", "Domain:EU"])
    assert visible_tags(drill) == ["billing", "EU"]
    assert drill.public_tags == ["billing", "EU"]  # Drill.public_tags is the same rule


def test_the_debrief_shows_every_tag_without_the_domain_prefix():
    from warroom.core.model import debrief_tags

    drill = _drill(tags=["domain:billing", "stale_data", "TRAIL: timeout"])
    assert debrief_tags(drill) == ["billing", "stale_data", "TRAIL: timeout"]


def test_every_bundled_drill_shows_a_domain_tag_and_nothing_else():
    for path in BUNDLED:
        drill = load_drill(path)
        assert drill.public_tags, path.name
        assert not leaks(", ".join(drill.public_tags), drill), path.name
        assert set(drill.public_tags) < {t.removeprefix("domain:") for t in drill.tags}


def test_no_bundled_briefing_hints_and_none_says_when_to_escalate():
    for path in BUNDLED:
        drill = load_drill(path)
        assert briefing_hints(drill) == [], path.name
        text = " ".join(filter(None, (drill.briefing.goal, drill.briefing.watching, drill.briefing.context)))
        assert "escalat" not in text.lower(), path.name  # the app adds the one instruction


@pytest.mark.parametrize(
    ("field", "text", "expected"),
    [
        ("watching", "A billing agent. Escalate only if a step has really gone wrong.", "says when to escalate"),
        ("goal", "Refund everyone. This one is all clear, relax.", "says whether the drill has a fault"),
        ("context", "Last month the cache served stale data twice.", "names the fault kind 'stale_data'"),
        ("watching", "Watch the refunds; no USD refunded in error please.", "names the damage unit"),
    ],
)
def test_a_briefing_that_hints_is_found_at_its_field(field, text, expected):
    import yaml

    data = yaml.safe_load(skeleton("hyg"))
    data["briefing"][field] = text
    data["answer_key"]["damage"]["unit"] = "USD refunded in error"
    hints = briefing_hints(load_drill_text(yaml.safe_dump(data, sort_keys=False)))
    assert [h.loc for h in hints] == [("briefing", field)]
    assert expected in hints[0].message


def test_a_domain_tag_that_names_the_answer_is_a_hint():
    hints = briefing_hints(_drill(tags=["domain:billing", "domain:stale-data", "domain:all-clear"]))
    assert [h.loc for h in hints] == [("tags", 1), ("tags", 2)]


def test_validate_warns_about_a_hinting_briefing_at_its_line_and_column(tmp_path: Path):
    path = tmp_path / "hyg.yaml"
    text = skeleton("hyg")
    line_of, col = next(
        (i, line.index(">-") + 1) for i, line in enumerate(text.splitlines(), 1) if line.startswith("  watching:")
    )
    path.write_text(text.replace("  watching: >-\n", "  watching: >-\n    Escalate only when sure.\n", 1))
    r = CliRunner().invoke(main, ["validate", str(path)])
    assert r.exit_code == 0, r.output  # a warning, not a problem
    assert f"{path}:{line_of}:{col}: warning: briefing.watching says when to escalate" in r.output
    assert "(1 warning)" in r.output


def test_the_instruction_is_neutral():
    words = ESCALATION_INSTRUCTION.lower()
    assert "escalate" in words and "not every drill has a fault" in words


# -- warroom cost ----------------------------------------------------------------------------------------------------


def _cost(*args: str) -> str:
    r = CliRunner().invoke(main, ["cost", *args])
    assert r.exit_code == 0, r.output
    return r.stdout


@pytest.mark.parametrize("path", BUNDLED, ids=[p.stem for p in BUNDLED])
def test_cost_shows_nothing_from_the_answer_key(path: Path):
    drill = load_drill(path)
    text, doc = _cost(str(path)), json.loads(_cost(str(path), "--format", "json"))
    assert not leaks(text, drill) and not leaks(json.dumps(doc), drill)
    assert not {"cascade", "replan", "all_clear"} & set(doc)
    assert "cascade" not in text and "all-clear" not in text and "re-plan after" not in text
    full = json.loads(_cost(str(path), "--format", "json", "--answers"))
    assert full["all_clear"] is drill.is_all_clear
    assert without_answer_keys(full) == doc
    if not drill.is_all_clear:  # (a projected drill's damage may all be in its origin step: no cascade step)
        assert "the cascade steps' calls" in _cost(str(path), "--answers")
        assert full["cascade"]["calls"] > 0 or not drill.answer_key.cascade


# -- warroom scores --------------------------------------------------------------------------------------------------


def _quit_after_damage(data_dir: Path, path: Path) -> str:
    """A session of ``path`` left (quit) after every damage event was released: stored as abandoned."""
    from warroom.core.play import Replay
    from warroom.store.journal import SessionRecorder
    from warroom.store.review import load_drill_file

    rec = SessionRecorder.start(data_dir, "ann", path, load_drill_file(path))
    drill = rec.drill  # the session's variant, for a drill with variants
    replay = Replay(drill, on_action=rec.record)
    replay.advance(max(drill.duration - 0.5, 0))
    replay.inspect(drill.trace[0].id)
    assert rec.abandon() is not None
    return rec.session_id


def test_scores_show_no_answer_of_sessions_that_never_reached_their_debrief(tmp_path: Path):
    data = tmp_path / "data"
    for path in BUNDLED:
        _quit_after_damage(data, path)
    drills = {load_drill(p).id: load_drill(p) for p in BUNDLED}

    def scores(*args: str) -> str:
        r = CliRunner().invoke(main, ["scores", "--data-dir", str(data), "--limit", "0", *args])
        assert r.exit_code == 0, r.output
        return r.stdout

    table, csv_text, rows = scores(), scores("--format", "csv"), json.loads(scores("--format", "json"))
    assert len(rows) == len(BUNDLED) and {r["outcome"] for r in rows} == {"abandoned"}
    assert any(r["damage"] for r in rows)  # damage did accrue: only its unit is withheld
    for row in rows:
        drill = drills[row["drill_id"]]
        assert row["damage_unit"] is None and row["full_damage"] is None and row["all_clear"] is None
        assert row["scorecard"]["lines"] is None and row["scorecard"]["deadline"] is None
        assert not leaks(json.dumps(row), drill), row["drill_id"]
    for drill in drills.values():
        assert not leaks(table, drill) and not leaks(csv_text, drill), drill.id
        if drill.answer_key:
            assert drill.answer_key.damage.unit not in table


def test_a_session_that_reached_its_debrief_keeps_every_field():
    row = {"outcome": "missed", "damage_unit": "rows", "full_damage": 3.0, "all_clear": False,
           "scorecard": {"lines": ["x"]}}
    assert pre_debrief_session(row) is row
    hidden = pre_debrief_session({**row, "outcome": "abandoned"})
    assert hidden["damage_unit"] is None and hidden["scorecard"] == {"lines": None}
    assert row["damage_unit"] == "rows"  # unchanged


def test_the_kind_other_is_not_an_answer_string_but_its_summary_is():
    # "other" is an everyday word (a briefing may say "other campaigns", the UI "no other call"): like the
    # briefing hints, the scan does not treat it as naming the fault; a named kind still counts.
    import yaml

    data = yaml.safe_load(skeleton("hyg"))
    data["answer_key"]["fault"].update(kind="other", summary="Task derailment: the executor left its task.")
    strings = answer_key_strings(load_drill_text(yaml.safe_dump(data, sort_keys=False)))
    assert "other" not in strings
    assert "Task derailment: the executor left its task." in strings
    assert {"error_flag_ignored", "error flag ignored"} <= set(answer_key_strings(_drill()))


def test_a_long_answer_text_on_screen_is_found_by_its_first_words_even_where_they_cut_a_word():
    # A text longer than PREFIX is looked for by its first PREFIX characters, which mostly end inside a word: the
    # scan bounded that prefix at its end as at its start, so most fault summaries and debriefs were never found.
    import yaml

    data = yaml.safe_load(skeleton("hyg"))
    summary = "The refund lookup came back with an empty page and the executor went on as if all was fine."
    data["answer_key"]["fault"]["summary"] = summary
    drill = load_drill_text(yaml.safe_dump(data, sort_keys=False))
    assert not summary[:PREFIX].endswith(" ") and summary[PREFIX].isalpha()  # the prefix ends inside a word
    assert leaks(f"│ e05 {summary} │", drill) == [summary]
    assert leaks(f"│ e05 {summary[:PREFIX + 3]}… │", drill) == [summary]  # cut short on screen, still a leak
    assert leaks(f"│ e05 x{summary} │", drill) == []  # inside a longer word: not the text
