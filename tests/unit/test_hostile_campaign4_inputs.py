"""A fourth fresh hostile campaign on issue 30's promises, on the authoring and reading inputs (drill YAML in both
formats, drill sets, the authoring commands, ``warroom annotate``'s save, the trace importers): each case a hostile
author or trainee or a faulty world found, with the right behaviour."""

from __future__ import annotations

import difflib

import pytest

from warroom.core.load import DrillLoadError, load_drill_text


def test_a_drill_of_many_unknown_keys_offers_a_did_you_mean_for_the_first_twenty_only(monkeypatch):
    """80,000 unknown top-level keys (a 900 KB file): every one was matched against the allowed keys for a
    did-you-mean (about 1 ms each: 145 s for the file, two hours for the 64 MiB limit). As for references
    (docs/authoring.md), only the first 20 misspelt words get one; each key is still a problem at its place."""
    calls = []
    original = difflib.get_close_matches
    monkeypatch.setattr(difflib, "get_close_matches", lambda *a, **k: calls.append(a[0]) or original(*a, **k))
    text = "".join(f"title_{i}: x\n" for i in range(2000))
    with pytest.raises(DrillLoadError) as caught:
        load_drill_text(text, "many.yaml")
    problems = caught.value.problems
    hinted = [p for p in problems if "did you mean `title`?" in p.message]
    assert len(calls) == 20 and len(hinted) == 20
    assert [p.line for p in hinted] == list(range(1, 21))
    assert sum("unknown key `title_" in p.message for p in problems) == 2000
