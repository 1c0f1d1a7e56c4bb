"""Tool arguments and tool output shown as readable blocks: YAML-like structure, multi-line strings as lines.

A tool call's ``arguments`` and a tool result's ``output`` are free-form data from the drill. Shown as JSON, a file's
contents or a ticket body nested in them is one long string full of ``\\n`` and ``\\"``, and the decisive line gets
buried. :func:`structured` shows the structure as indented ``key: value`` lines (``- item`` for lists), and every
string that spans lines as a literal block (``key: |`` and its lines, indented), syntax-highlighted when its language
is known: declared in the same mapping (a ``language`` / ``lang`` / ``syntax`` key), implied by a file name in it
(``path: src/refund.py``), or named by its key (``sql``, ``diff``). The language is never guessed from the text.

Safety: all text is drill data. Every string is cleaned with :func:`warroom.core.text.clean` (control and bidi
characters shown as escapes) before it is highlighted or shown, and the result is a Rich :class:`~rich.text.Text`
built from plain strings, so nothing in it is read as markup.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from rich.syntax import Syntax
from rich.text import Text

from warroom.core.text import clean, clean_line, json_text

#: Keys whose string value declares the language of the multi-line strings beside it.
LANGUAGE_KEYS = ("language", "lang", "syntax")
#: Keys whose string value may be a file name, whose extension names the language of the strings beside it.
FILE_KEYS = ("path", "file", "filename", "file_name", "file_path", "filepath", "name", "target")
#: Keys that name the language of their own (multi-line string) value.
KEY_LANGUAGES = {"sql": "sql", "query": "sql", "diff": "diff", "patch": "diff", "python": "python",
                 "bash": "bash", "shell": "bash", "script": "bash", "yaml": "yaml", "json": "json"}

_STYLES = {"key": "bold blue", "str": "green", "num": "cyan", "const": "magenta", "mark": "dim"}
_PLAIN_NUMBER = re.compile(r"^[-+]?(\d[\d_]*)?(\.\d*)?([eE][-+]?\d+)?$")
_SPECIAL = {"", "null", "~", "true", "false", "yes", "no", "on", "off"}
_FILE_NAME = re.compile(r"[^/\\\s]+\.[A-Za-z0-9]{1,10}$")


def _lexer_for_name(name: str) -> str | None:
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        get_lexer_by_name(name)
    except ClassNotFound:
        return None
    return name


#: Extensions Pygments maps to a dialect where the plain language reads better (``.sql`` is T-SQL to it).
_EXTENSIONS = {".sql": "sql"}


def _lexer_for_file(file_name: str) -> str | None:
    from pygments.lexers import get_lexer_for_filename
    from pygments.util import ClassNotFound

    dot = file_name.rfind(".")
    if dot >= 0 and file_name[dot:].lower() in _EXTENSIONS:
        return _EXTENSIONS[file_name[dot:].lower()]
    try:
        lexer = get_lexer_for_filename(file_name)
    except ClassNotFound:
        return None
    return lexer.aliases[0] if lexer.aliases else None


def language_hint(mapping: Any) -> str | None:
    """The language a mapping declares for the text in it (a ``language`` key), else the one its file name implies
    (a ``path`` key's extension), else None. Anything other than a mapping gives None."""
    if not isinstance(mapping, Mapping):
        return None
    for key in LANGUAGE_KEYS:
        value = mapping.get(key)
        if isinstance(value, str) and value.strip():
            found = _lexer_for_name(value.strip().lower())
            if found:
                return found
    for key in FILE_KEYS:
        value = mapping.get(key)
        if isinstance(value, str) and _FILE_NAME.search(value.strip()):
            found = _lexer_for_file(value.strip())
            if found:
                return found
    return None


def _scalar(value: Any, *, top: bool = False) -> Text:
    """One value; a string quoted (JSON) where it would read as something else. ``top``: the whole output, where
    a leading ``{`` or ``-`` cannot be mistaken for structure (JSON text a tool returned stays as it is)."""
    if value is None:
        return Text("null", style=_STYLES["const"])
    if isinstance(value, bool):
        return Text("true" if value else "false", style=_STYLES["const"])
    if isinstance(value, (int, float)):
        return Text(json.dumps(value) if isinstance(value, float) else str(value), style=_STYLES["num"])
    s = clean(value) if isinstance(value, str) else clean_line(value)
    # Quoted where the bare text would read as something else (a number, true, null) or hide spaces at its ends.
    # Quoted, the text is JSON made from the raw string, not from the cleaned one (whose `\x1b` JSON would show as
    # `\\x1b`: a backslash the data does not have); a control character keeps the spelling `clean` gives it.
    if s.lower() in _SPECIAL or _PLAIN_NUMBER.match(s) or s != s.strip() or (
            not top and s[:1] in "-?:[]{}#&*!|>'\"%@`,"):
        s = _CONTROL_ESCAPE.sub(r"\1\\x\2", json_text(value if isinstance(value, str) else s))
    return Text(s, style=_STYLES["str"])


#: A ``\u00XX`` escape of a C0 control character or DEL in JSON text, after an even number of backslashes.
_CONTROL_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\u00([01][0-9a-f]|7f)")


def _block(text: str, indent: int, language: str | None) -> Text:
    """A multi-line string as its lines, each indented by ``indent`` spaces, highlighted in ``language``."""
    code = clean(text).rstrip("\n")
    if language:
        body = Syntax(code, language, theme="ansi_dark", background_color="default").highlight(code)
        body.rstrip()
    else:
        body = Text(code)
    out = Text()
    pad = " " * indent
    for n, line in enumerate(body.split("\n", allow_blank=True)):
        if n:
            out.append("\n")
        out.append(pad)
        out.append_text(line)
    return out


def _entry(out: Text, indent: int, value: Any, language: str | None, key: str | None) -> None:
    """Append ``value`` after a ``key:`` or ``- `` already written on the current line."""
    if isinstance(value, str) and "\n" in value.strip("\n"):
        out.append(" |", style=_STYLES["mark"])
        out.append("\n")
        own = KEY_LANGUAGES.get(key.lower()) if key else None
        out.append_text(_block(value, indent + 2, own or language))
    elif (isinstance(value, Mapping) and value) or (isinstance(value, (list, tuple)) and value):
        out.append("\n")
        _lines(out, value, indent + 2, language)
    elif isinstance(value, Mapping):
        out.append(" {}", style=_STYLES["mark"])
    elif isinstance(value, (list, tuple)):
        out.append(" []", style=_STYLES["mark"])
    else:
        out.append(" ")
        out.append_text(_scalar(value))


def _lines(out: Text, value: Any, indent: int, language: str | None) -> None:
    pad = " " * indent
    if isinstance(value, Mapping):
        language = language_hint(value) or language
        for n, (key, item) in enumerate(value.items()):
            if n:
                out.append("\n")
            out.append(pad)
            out.append(clean_line(key), style=_STYLES["key"])
            out.append(":")
            _entry(out, indent, item, language, str(key))
    else:
        for n, item in enumerate(value):
            if n:
                out.append("\n")
            out.append(pad)
            out.append("-", style=_STYLES["mark"])
            _entry(out, indent, item, language, None)


def structured(value: Any, language: str | None = None) -> Text:
    """``value`` (tool arguments or output: JSON-like data) as indented lines: mappings as ``key: value``, lists as
    ``- item``, strings spanning lines as literal blocks (highlighted when the language is known; ``language`` is
    the one to assume when the data declares none, e.g. from the tool call's file name). A plain string is shown as
    its lines. Every piece of text is cleaned (control characters escaped); nothing is read as markup."""
    if isinstance(value, str):
        return _block(value, 0, language) if "\n" in value else _scalar(value, top=True)
    if isinstance(value, (Mapping, list, tuple)) and value:
        out = Text()
        _lines(out, value, 0, language)
        return out
    return _scalar(value) if not isinstance(value, (Mapping, list, tuple)) else Text(json.dumps(value))
