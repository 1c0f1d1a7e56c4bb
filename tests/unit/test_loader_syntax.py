"""The loader's syntax errors: what a new author gets wrong in the `warroom new` skeleton (unclosed quotes, keys
indented too deep, a colon inside unquoted text), and errors at the end of a file without a final newline."""

from __future__ import annotations

import pytest
from malformed_cases import BASE

from warroom.core.load import DrillLoadError, Problem, load_drill_text

# -- syntax errors a new author makes in the `warroom new` skeleton -------------------------------------------------


def _skeleton_problem(edit) -> tuple[Problem, str]:
    from warroom.core.author import skeleton_text

    text = skeleton_text("weekly-signups")
    edited = edit(text)
    assert edited != text
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(edited, "weekly-signups.yaml")
    (p,) = info.value.problems
    return p, edited


def test_an_unclosed_quote_points_at_the_opening_quote_not_where_yaml_gives_up():
    # YAML reads on to the next " (four lines down, in `tags`) and fails there, at 20:54.
    p, text = _skeleton_problem(lambda t: t.replace('title: "Weekly signup report"', 'title: "Weekly signup report', 1))
    line = text.splitlines().index(next(ln for ln in text.splitlines() if ln.startswith('title: "Weekly')))
    assert (p.line, p.column) == (line + 1, 8) == (16, 8)
    assert p.message.startswith('this quoted text is never closed: add the closing " where the text ends')
    assert "on line 20, column 53" in p.message


def test_a_single_quoted_text_never_closed_is_found_too():
    text = BASE.replace("    title: Search tickets", "    title: 'Search tickets").replace(
        "    content: No open tickets.", "    content: 'No open tickets.'"
    )
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text)
    (p,) = info.value.problems
    assert (p.line, p.column) == (15, 12) and "never closed: add the closing '" in p.message


def test_a_key_indented_deeper_than_its_siblings_says_so():
    p, text = _skeleton_problem(lambda t: t.replace("  - id: s2\n    title:", "  - id: s2\n      title:", 1))
    s2 = text.splitlines().index("  - id: s2") + 1
    assert (p.line, p.column) == (s2 + 1, 7)
    assert p.message == (
        f"this line is indented deeper than the key `id` above it (line {s2}, column 5): indent `title` like `id`; "
        "if `title: ...` was meant as part of the text above, put that whole text in quotes"
    )


def test_a_deeper_key_like_line_in_text_gets_both_fixes_and_text_at_the_same_depth_the_colon_hint():
    text = BASE.replace("    content: No open tickets.", "    content: No open tickets,\n      see: the log")
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text)
    (p,) = info.value.problems
    assert (p.line, p.column) == (45, 7)
    assert "indented deeper than the key `content` above it" in p.message
    assert "put that whole text in quotes" in p.message
    flat = BASE.replace(
        "    content: No open tickets.", "    content: No open tickets,\n      more\n      see: the log"
    )
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(flat)
    (p,) = info.value.problems
    assert "a colon followed by a space inside unquoted text" in p.message



def test_a_block_key_without_its_colon_is_named_not_the_line_under_it():
    # QA: `  fault` (colon forgotten) above `    origin_step: s1` said "indent `origin_step` like the text": the
    # fix it suggested breaks the drill further.
    p, text = _skeleton_problem(lambda t: t.replace("\n  fault:\n", "\n  fault\n", 1))
    line = text.splitlines().index("  fault") + 1
    assert (p.line, p.column) == (line, 8)
    assert p.message == (
        "`fault` has no colon, so YAML reads it as text and the lines under it as more of that text: write `fault:` "
        "(a key ends with a colon)"
    )


def test_a_list_item_key_without_its_colon_is_named_not_the_key_under_it():
    # QA: `  - id s2` above `    title: ...` said "a colon followed by a space inside unquoted text" at the title.
    p, text = _skeleton_problem(lambda t: t.replace("  - id: s2\n", "  - id s2\n", 1))
    line = text.splitlines().index("  - id s2") + 1
    assert (p.line, p.column) == (line, 7)
    assert p.message == (
        "`id s2` is not a `key: value` line, so YAML reads it and the next line as one text: add `: ` after the key "
        "(`id: s2`)"
    )


def test_a_word_that_continues_a_text_is_not_taken_for_a_key():
    deeper = BASE.replace("    content: No open tickets.", "    content: No open tickets,\n      more\n        see: it")
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(deeper)
    (p,) = info.value.problems
    assert "indented deeper than the text above it" in p.message and "no colon" not in p.message


@pytest.mark.parametrize(
    ("text", "where"),
    [("a: [1,", "<string>:1:7: "), ("a: b\ni", "<string>:2:1: "), ("title: x\nb: {c: d", "<string>:2:9: ")],
)
def test_a_syntax_error_at_the_end_of_a_file_without_a_final_newline_is_placed_inside_the_file(text: str, where: str):
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text)
    first = str(info.value.problems[0])
    assert first.startswith(where), first
    assert "line 2, column 1)" not in first or "\n" in text, first  # the context's position is inside too


@pytest.mark.parametrize(
    ("text", "where", "fragment"),
    [
        ("a: 1\nauthor:your name\n\nb: 2\n", (2, 7), "write `author: your name` (a key ends with a colon and a space)"),
        ("a:\n  x: 1\n  goal:Send it  # why\n  y: 2\n", (3, 7), "write `goal: Send it`"),
        ("p:\n  - id: s1\n    title:Query\n    objective: x\n", (3, 10), "write `title: Query`"),
        ("a:\n  x: 1\n  goal Send it\n  y: 2\n", (3, 3), "`goal Send it` is not a `key: value` line: add `: `"),
        ("a: 1\nhttp://x:y\nb: 2\n", (2, 1), "`http://x:y` is not a `key: value` line"),
    ],
)
def test_a_line_of_a_mapping_without_its_colon_and_space_says_how_to_write_the_key(
    text: str, where: tuple[int, int], fragment: str
):
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text)
    (p,) = info.value.problems
    assert (p.line, p.column) == where
    assert fragment in p.message, p.message


@pytest.mark.parametrize("space", ["\u00a0", "\u3000", "\u2003"])
def test_indentation_with_a_space_that_is_not_the_plain_space_is_reported_at_that_space(space: str):
    text = BASE.replace("  - id: s2\n", f"{space} - id: s2\n")
    assert text != BASE
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text)
    line = BASE.splitlines().index("  - id: s2") + 1
    (p,) = info.value.problems
    assert (p.line, p.column) == (line, 1)
    assert f"(U+{ord(space):04X}) in the indentation: YAML indents with plain spaces only" in p.message


def test_a_no_break_space_inside_text_is_fine():
    drill = load_drill_text(BASE.replace("title: Minimal drill", "title: Minimal\u00a0drill"))
    assert drill.title == "Minimal\u00a0drill"


@pytest.mark.parametrize("indicator", [">", "|-", ">+", "|2  # the text"])
def test_a_block_text_written_at_its_keys_indentation_is_told_to_indent_it_not_to_quote_it(indicator):
    # `summary: >` then the text at `summary`'s own indentation said "add `: ` after the key; if it is more of the
    # text above, put that whole text in quotes": the text above is the `>`, and the fix is to indent the text
    p, text = _skeleton_problem(
        lambda t: t.replace(
            "    summary: The warehouse query failed with a permission error (ok false); the executor read it as zero "
            "signups.\n",
            f"    summary: {indicator}\n\n    The warehouse query failed with a permission error.\n",
            1,
        )
    )
    line = text.splitlines().index("    The warehouse query failed with a permission error.") + 1
    assert (p.line, p.column) == (line, 5)
    assert p.message == (
        f"`The warehouse query failed with a permission error.` is not a `key: value` line: if it is the text of "
        f"`summary` (line {line - 2}), indent that text deeper than `summary`, by more than 4 spaces (a `|` or `>` "
        "text is the lines indented under its key)"
    )
