"""Tool arguments and output shown as lines, highlighted where the language is known, never as markup (issue 11
item 4)."""

from __future__ import annotations

from rich.text import Text

from warroom.core.load import load_drill
from warroom.tui.logic import TraceIndex
from warroom.tui.render import describe_event, language_hint, structured

from .conftest import STALE


def test_a_multi_line_string_nested_in_arguments_is_shown_as_its_lines():
    args = {"path": "src/refund.py", "content": 'def refund(x):\n    return "ok"\n', "dry_run": False}
    text = structured(args).plain
    assert text.splitlines() == [
        "path: src/refund.py",
        "content: |",
        "  def refund(x):",
        '      return "ok"',
        "dry_run: false",
    ]
    assert "\\n" not in text and '\\"' not in text


def test_nested_lists_and_mappings_are_indented_and_ambiguous_strings_quoted():
    out = structured({"ticket": {"body": "line one\nline two", "tags": ["a", "12", ""]}, "n": 3, "x": None}).plain
    assert out.splitlines() == [
        "ticket:",
        "  body: |",
        "    line one",
        "    line two",
        "  tags:",
        "    - a",
        '    - "12"',
        '    - ""',
        "n: 3",
        "x: null",
    ]


def test_the_language_comes_from_a_declared_key_a_file_name_or_the_key():
    assert language_hint({"language": "Python", "code": "x"}) == "python"
    assert language_hint({"path": "etl/load.sql"}) == "sql"
    assert language_hint({"path": "notes"}) is None
    assert language_hint(["not", "a", "mapping"]) is None
    highlighted = structured({"path": "a.py", "content": "def f():\n    return 1\n"})
    assert any(span.style for span in highlighted.spans if highlighted.plain[span.start : span.end] == "def")
    query = structured({"query": "SELECT *\nFROM refunds"})
    assert any(query.plain[s.start : s.end] == "SELECT" for s in query.spans)
    plain = structured({"body": "SELECT *\nFROM refunds"})  # no declared language: not guessed from the text
    assert not any(plain.plain[s.start : s.end] == "SELECT" for s in plain.spans)


def test_drill_text_is_never_markup_or_a_terminal_escape():
    value = {"path": "x.py", "content": "[bold red]B[/]\n\x1b]52;c;ZZ\x07 \u202e", "k[b]": "\x9b31m"}
    text = structured(value)
    assert isinstance(text, Text)
    assert "[bold red]B[/]" in text.plain and "\\x1b]52;c;ZZ\\x07" in text.plain and "\\u202e" in text.plain
    assert "k[b]: \\x9b31m" in text.plain
    assert not any(c in text.plain for c in ("\x1b", "\x07", "\x9b", "\u202e"))


def test_a_result_is_highlighted_in_the_language_of_the_file_its_call_named():
    drill = load_drill(STALE)
    call = drill.event("e03").model_copy(update={"arguments": {"path": "refunds.sql"}})
    result = drill.event("e04").model_copy(update={"output": {"text": "SELECT 1\nFROM t"}})
    trace = [call if e.id == "e03" else result if e.id == "e04" else e for e in drill.trace]
    d = drill.model_copy(update={"trace": trace})
    shown = describe_event(result, TraceIndex(d), {e.id: e for e in trace})
    start = shown.plain.index("SELECT 1")
    assert any(s.start == start and s.style for s in shown.spans)
    assert "text: |\n  SELECT 1\n  FROM t" in shown.plain


def test_a_quoted_value_with_a_control_character_escapes_it_once():
    # "[" makes the value quoted; the escape character must come out as the one `\x1b` the inspector shows
    # everywhere else, not as `\\x1b` (two backslashes, which the data does not have).
    text = structured({"note": "[bold red]M[/] \x1b[2J"}).plain
    assert text == 'note: "[bold red]M[/] \\x1b[2J"'
    assert "\x1b" not in text
    assert structured({"path": "[C:\\temp]"}).plain == 'path: "[C:\\\\temp]"'  # a real backslash, JSON-escaped
