"""A fifth newcomer's pass over the docs: what failed them, each pinned here when it fits nowhere else."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from warroom.cli import main


@pytest.mark.parametrize(
    "args",
    [
        ["serve", "roster", "list", "{link}"],
        ["serve", "roster", "remove", "{link}", "Ann"],
        ["store", "import", "--all-trainees", "{link}"],
    ],
)
def test_a_path_that_is_a_symbolic_link_to_nothing_is_named_so(tmp_path, monkeypatch, args):
    # they said "no such roster (`warroom serve roster add` creates one)" and "No such file or directory"
    monkeypatch.setenv("WARROOM_DATA_DIR", str(tmp_path / "data"))
    link = tmp_path / "class.yaml"
    link.symlink_to(tmp_path / "gone.yaml")
    result = CliRunner().invoke(main, [a.replace("{link}", str(link)) for a in args])
    assert result.exit_code == 1, result.output
    assert (
        f"a symbolic link to {tmp_path / 'gone.yaml'}, which does not exist: point it at a file or remove it"
        in result.output
    )
    assert "no such roster" not in result.output and "No such file" not in result.output


def test_the_review_headline_of_a_session_scored_by_newer_rules_does_not_say_its_log_scores_otherwise(
    tmp_path, monkeypatch
):
    # the headline said "(stored; not what its action log scores: see above)" while the notice above said that this
    # warroom cannot check it: nothing was recomputed, so nothing can be said to disagree
    from dataclasses import replace

    from unit.test_hostile_campaign18_results import _scored_by_a_newer_warroom
    from warroom.store.results import ResultsStore
    from warroom.store.review import Verdict, load_review
    from warroom.tui.screens._reviewpanels import headline

    session_id = _scored_by_a_newer_warroom(tmp_path, monkeypatch)
    with ResultsStore(tmp_path) as store:
        (session,) = [s for s in store.iter_sessions() if s.session_id == session_id]
        review = load_review(session, store=store)
    text = headline(review).plain
    assert "(stored; unchecked: this warroom cannot recompute it: see above)" in text
    assert "not what its action log scores" not in text
    disagreeing = replace(review, verdict=replace(review.verdict, verdict=Verdict.DISAGREES, newer_rules=False))
    assert "(stored; not what its action log scores: see above)" in headline(disagreeing).plain


def test_a_drill_set_naming_a_symbolic_link_to_nothing_says_so_not_that_there_is_no_drill_file(tmp_path):
    # `validate week.set.yaml` said "no drill file 'gone.yaml'" of a link the author can see in the folder
    (tmp_path / "gone.yaml").symlink_to(tmp_path / "moved.yaml")
    (tmp_path / "loop.yaml").symlink_to(tmp_path / "loop.yaml")
    week = tmp_path / "week.set.yaml"
    week.write_text("set: wk\ntitle: Week\ndrills:\n  - gone.yaml\n  - loop.yaml\n  - absent.yaml\n")
    result = CliRunner().invoke(main, ["validate", str(week)])
    assert result.exit_code == 1
    assert result.output.splitlines()[:3] == [
        f"{week}:4:5: drill file '{tmp_path / 'gone.yaml'}' is a symbolic link to {tmp_path / 'moved.yaml'}, which "
        "does not exist: point it at a file or remove it",
        f"{week}:5:5: drill file '{tmp_path / 'loop.yaml'}' is a symbolic link that leads round in a loop, to no "
        "file: point it at a file or remove it",
        f"{week}:6:5: no drill file '{tmp_path / 'absent.yaml'}'",
    ]
