"""A tool result that is one line of JSON text (what real tools and imported traces return) is shown as the tool
wrote it in the inspector, not re-quoted with every `"` escaped."""

from __future__ import annotations

from warroom.tui.render import structured


def test_a_one_line_json_text_output_is_shown_as_written():
    raw = '{"month": "2026-03", "returned": 20, "next_cursor": "c2"}'
    assert structured(raw).plain == raw
    assert structured('["INV-1", "INV-2"]').plain == '["INV-1", "INV-2"]'
    assert structured("- not a list, a line of text").plain == "- not a list, a line of text"


def test_a_top_level_string_that_reads_as_another_value_is_still_quoted():
    assert structured("42").plain == '"42"'
    assert structured("null").plain == '"null"'
    assert structured(" padded ").plain == '" padded "'


def test_nested_strings_are_still_quoted_where_they_would_read_as_structure():
    assert structured({"body": '{"a": 1}'}).plain == 'body: "{\\"a\\": 1}"'
