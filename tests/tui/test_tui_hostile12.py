"""Campaign 12 on the terminal UI (issue 30: the day's new code: U+FE0F dropped at display, fields drawing control
characters, the picker's filter): what it found and what now holds."""

from __future__ import annotations

from pathlib import Path

from core_support import make_drill
from rich.console import Console

#: A warning sign in emoji presentation (U+26A0 U+FE0F): two cells to Rich, one to tmux and most terminals.
SIGN = "⚠\ufe0f"


def _plain(renderable: object) -> str:
    console = Console(width=200, color_system=None, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(renderable)
    return console.export_text()


def test_the_pickers_preview_and_the_briefing_show_a_symbol_without_its_vs16():
    """A symbol followed by U+FE0F was shown without it (one cell on every terminal) in the trace, the inspector,
    the plan panel and the header, but the picker's preview of a drill (its title, goal, what to watch, its plan)
    and the briefing still drew it: each line holding one was a cell shorter on a terminal than Textual counted,
    so the rest of the line (the preview's right border) stood a cell to the left. Now they drop it too."""
    from warroom.tui.logic import DrillEntry
    from warroom.tui.screens import briefing_text
    from warroom.tui.screens._pickerview import preview_text

    drill = make_drill(title=f"Refunds {SIGN} check",
                       briefing={"goal": f"Refund {SIGN} the order.", "watching": f"The {SIGN} refund agent."})
    preview = preview_text(DrillEntry(Path("tiny.yaml"), drill)).plain
    assert "\ufe0f" not in preview and "Refunds ⚠ check" in preview and "Refund ⚠ the order." in preview
    briefing = _plain(briefing_text(drill))
    assert "\ufe0f" not in briefing and "Refund ⚠ the order." in briefing


def test_prose_drops_vs16_as_literal_does():
    """The author's prose (a debrief, an explanation) reflowed for the terminal kept U+FE0F, which the literal text
    beside it drops."""
    from warroom.tui.render import literal, prose

    assert prose(f"Done {SIGN}\nnext line") == "Done ⚠ next line"
    assert literal(f"Done {SIGN}").plain == "Done ⚠"


def test_the_reviews_answer_key_shows_a_symbol_without_its_vs16():
    """The review's answer key (the fault's step, the debrief) drew U+FE0F as written, a cell short on a terminal."""
    from types import SimpleNamespace

    from warroom.tui.screens._reviewpanels import answer_panel

    drill = make_drill(plan=[{"id": "s1", "title": f"Copy {SIGN} rows", "objective": "Copy the rows."}])
    key = drill.answer_key
    assert key is not None
    drill = drill.model_copy(update={"answer_key": key.model_copy(update={"debrief": f"Watch {SIGN} the count."})})
    shown = answer_panel(SimpleNamespace(drill=drill, twin=False)).plain  # type: ignore[arg-type]
    assert "\ufe0f" not in shown and "Watch ⚠ the count." in shown, shown
