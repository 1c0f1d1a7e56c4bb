"""Defects an author met writing format-2 drills from the docs: each message names the place, the key or the id."""

from __future__ import annotations

import pytest

from warroom.core.examples2 import full_example_path
from warroom.core.loader import DrillLoadError, load_drill_text

TEXT = full_example_path().read_text()


def problems(text: str) -> list[str]:
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text, "d.yaml")
    return [str(p) for p in info.value.problems]


@pytest.mark.parametrize(("typo", "meant"), [("aftr", "after"), ("evnt", "event")])
def test_an_unknown_key_in_a_deadline_by_reference_lists_its_keys_with_a_did_you_mean(typo: str, meant: str):
    value = "{event: e11, aftr: 4}" if typo == "aftr" else "{evnt: e11}"
    text = TEXT.replace("deadline: 30", f"deadline: {value}")
    found = problems(text)
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "deadline: {" in row)
    col = text.splitlines()[line - 1].index(typo) + 1
    (problem,) = found
    assert problem.startswith(f"d.yaml:{line}:{col}: unknown key `{typo}` in `answer_key.deadline`; "
                              f"did you mean `{meant}`? ")
    assert problem.endswith("allowed keys: after, event")
