"""An imported Langfuse trace (tests/fixtures/thirdparty/langfuse-langgraph-v3.json), marked up, played headless as a
trainee plays it: the briefing shows the trace's non-ASCII goal literally, and escalating the origin step at the
empty invoice list contains the incident."""

from __future__ import annotations

from pathlib import Path

from locations import REPO
from trace_import_support import LANGFUSE_V3_KEY

from warroom.core.model import Outcome
from warroom.importers.langfuse import import_langfuse
from warroom.tui.logic import Services
from warroom.tui.screens import DebriefScreen

from .conftest import advance, make_app, screen_text, type_text

EXPORT = REPO / "tests" / "fixtures" / "thirdparty" / "langfuse-langgraph-v3.json"


async def test_an_imported_langfuse_trace_plays_to_a_contained_debrief(tmp_path: Path, services: Services) -> None:
    [result] = import_langfuse([EXPORT], tmp_path / "out").results
    assert result.output is not None
    result.output.write_text(result.output.read_text(encoding="utf-8") + LANGFUSE_V3_KEY, encoding="utf-8")
    play = make_app(services, result.output)
    async with play.run_test(size=(100, 30)) as pilot:
        assert "Zahle die offenen Märzrechnungen – einmal." in screen_text(play)  # the briefing's goal
        await pilot.press("enter")
        assert play.live is not None, screen_text(play)
        await advance(pilot, 3.6, step=0.1)  # e0005, the empty list, arrives at 3.5 s and is the newest event
        await pilot.press("enter")  # the trainee reads it (inspects it): chosen, so the dialog cites it
        await pilot.press("e")
        await type_text(pilot, "p01")
        await pilot.press("tab")
        await type_text(pilot, "empty invoice list")
        assert list(play.screen.cites) == ["e0005"]  # type: ignore[attr-defined]
        await pilot.press("enter", "y")
        await pilot.pause()
        if play.live is not None:
            await advance(pilot, 60)
        assert isinstance(play.screen, DebriefScreen), screen_text(play)
        assert play.screen.scorecard.outcome is Outcome.CONTAINED
