"""The glyphs of the served war room's status bar and plan, drawn by a real browser (the system's Chromium) in the
font the served terminal asks for: none is an empty box (the browser's drawing of a character no font has). The
stopwatch ⏱ that a terminal shows was such a box in browsers; a served war room draws ◷ instead."""

from __future__ import annotations

from browser_support import chromium_executable, sync_playwright

from warroom.tui.widgets import WEB_CLOCK_GLYPH

#: The font xterm.js draws textual-serve's terminal with (textual-serve's static/js/textual.js).
TERMINAL_FONT = "'Roboto Mono', Monaco, 'Courier New', monospace"
#: A character no font has (the last code point of plane 16's private use area): the browser's empty box.
MISSING = "\U0010fffd"

_DRAW = """([glyphs, font, missing]) => {
  const canvas = document.createElement("canvas");
  canvas.width = 40; canvas.height = 40;
  const ctx = canvas.getContext("2d");
  const pixels = (ch) => {
    ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, 40, 40);
    ctx.fillStyle = "#000"; ctx.font = "28px " + font; ctx.textBaseline = "top";
    ctx.fillText(ch, 4, 4);
    return Array.from(ctx.getImageData(0, 0, 40, 40).data).join(",");
  };
  const box = pixels(missing);
  return glyphs.map((ch) => pixels(ch) === box);
}"""


def test_the_served_status_bar_and_plan_glyphs_are_drawn_by_the_browser():
    from warroom.core.play import StepState
    from warroom.tui.render import STEP_ICONS

    glyphs = [WEB_CLOCK_GLYPH, *(icon for icon, _ in STEP_ICONS.values() if icon != "?")]
    assert StepState.SUCCESS in STEP_ICONS
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_executable(), headless=True, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.set_content("<!DOCTYPE html><html><body></body></html>")
            boxes = page.evaluate(_DRAW, [[*glyphs, "\ue000", "A"], TERMINAL_FONT, MISSING])
        finally:
            browser.close()
    assert boxes[-2:] == [True, False]  # the check tells a box (another missing character) from a letter
    drawn_as_box = [g for g, box in zip(glyphs, boxes[:-2], strict=True) if box]
    assert drawn_as_box == [], f"drawn as an empty box in the browser: {drawn_as_box}"
