"""Reading one JSON record file for an importer, within limits: never a hang, a traceback or gigabytes of memory.

:func:`read_json_object` refuses, each with a one-line reason (a :class:`ValueError` subclass the importer
chooses, so that it is reported per file): anything that is not a regular file (a folder, a FIFO, a device: opened
without blocking and checked before a byte is read), a file over ``max_bytes`` (checked before reading, and again
while reading in case it grows), bytes that are not UTF-8, text that is not JSON, JSON nested too deeply, a number
with more than :data:`MAX_INTEGER_DIGITS` digits (never converted: Python refuses ints over 4,300 digits and a huge
one costs quadratic time), and text with an unpaired UTF-16 surrogate escape (``"\\ud800"``: JSON allows it, but it
is not a character and cannot be written to a UTF-8 drill file).
A file that stops inside a character of several bytes, within a JSON string on its last line (a write stopped
part-way), is read without that half character, as the cut-off text it is; a gzip file cut off is named as such,
with a command that decompresses what it holds (``gunzip`` refuses it).

:func:`json_lines` reads JSON Lines (one value per line) for every importer that reads them, and skips a last line
cut off mid-value (a writer stopped mid-write) with a :class:`ReadWarning`; :func:`collect_warnings` gathers the
warnings of the file being read, :func:`warn` adds one.
"""

from __future__ import annotations

import json
import os
import re
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from warroom.core.files import DuplicateKey, compression_of, record_json, wide_encoding_of
from warroom.core.text import SURROGATE_ESCAPE, plural

#: Most digits a JSON integer may have (a history index or a level has a few; an ISBN or an id has under 30).
MAX_INTEGER_DIGITS = 30

_UTF8_BOM = b"\xef\xbb\xbf"


class BigInteger:
    """A JSON integer with more than :data:`MAX_INTEGER_DIGITS` digits: only its length is kept (never converted)."""

    __slots__ = ("digits",)

    def __init__(self, text: str) -> None:
        self.digits = len(text.lstrip("-"))


def bounded_int(text: str) -> int | BigInteger:
    """A JSON integer's ``text`` as an int, or as a :class:`BigInteger` when it has too many digits to convert."""
    return BigInteger(text) if len(text.lstrip("-")) > MAX_INTEGER_DIGITS else int(text)


#: The words of every refusal of a file for its size (``the file is 54.1 MiB; records are limited to 8 MiB``).
SIZE_LIMIT_WORDS = "records are limited to"


def read_head(path: Path, max_bytes: int) -> str:
    """The first ``max_bytes`` of the regular file at ``path`` as text (a byte-order mark dropped, a character cut
    at the end and any byte that is not UTF-8 left out), read without reading the rest; empty when it cannot be
    read. For recognising a file too large to read whole (the JSON values it starts with)."""
    from warroom.core.files import open_regular

    try:
        with open_regular(path) as f:
            raw = f.read(max_bytes)
    except OSError:  # (SpecialFile too: a FIFO is never read)
        return ""
    return raw.removeprefix(_UTF8_BOM).decode("utf-8", "ignore")


def _read_bytes(path: Path, max_bytes: int, error: type[ValueError]) -> bytes:
    from warroom.core.files import SpecialFile, broken_link, open_regular

    try:  # opened without waiting and checked open: a FIFO opens at once, then is refused
        f = open_regular(path)
    except SpecialFile as e:  # e.g. "is a FIFO, not a record file"
        kind = "a directory" if e.kind == "a folder" else e.kind
        raise error(f"is {kind}, not a record file") from None
    except OSError as e:
        raise error(broken_link(path, e) or f"cannot read the file: {e.strerror or e}") from None
    with f:
        info = os.fstat(f.fileno())
        limit = f"{SIZE_LIMIT_WORDS} {max_bytes / 1048576:g} MiB"
        if info.st_size > max_bytes:
            raise error(f"the file is {info.st_size / 1048576:.1f} MiB; {limit}")
        try:
            raw = f.read(max_bytes + 1)
        except OSError as e:
            raise error(f"cannot read the file: {e.strerror or e}") from None
    if len(raw) > max_bytes:  # it grew while we read it
        raise error(f"the file is larger than {max_bytes / 1048576:g} MiB; {limit}")
    return raw


def _decode(raw: bytes, error: type[ValueError]) -> str:
    wide = wide_encoding_of(raw)  # UTF-16 or UTF-32, with its byte-order mark or without
    if wide is not None:
        marked = " (its byte-order mark)" if wide in ("UTF-16", "UTF-32") else ""
        raise error(f"{wide} text{marked}, not UTF-8: convert it first (`iconv -f {wide} -t UTF-8 FILE > OUT.json`) "
                    "and import that")
    bom = len(_UTF8_BOM) if raw.startswith(_UTF8_BOM) else 0
    try:
        text = raw[bom:].decode("utf-8")
        if b"\x00" in raw[:64]:  # a compressed file that is valid UTF-8 all the same (a stored zip's bytes can be)
            _refuse_compressed(raw, error)
        return text
    except UnicodeDecodeError as e:
        if e.reason == "unexpected end of data":  # the file stops inside a character of several bytes
            head = raw[bom:bom + e.start].decode("utf-8")
            if _ends_inside_a_string(head):
                return head  # a write stopped mid-character in a string: read as the text cut off before it
        if raw.startswith(b"\x1f\x8b") and _gzip_cut_off(raw):
            raise error("compressed (gzip) and cut off: the gzip stream ends part-way (a write stopped?); "
                        "`gunzip` refuses it, but `gzip -dc FILE > OUT.jsonl` writes the text it holds (a last line "
                        "cut off is then skipped with a warning): import that") from None
        _refuse_compressed(raw, error)
        offset = bom + e.start
        line = raw.count(b"\n", 0, offset) + 1
        column = len(raw[raw.rfind(b"\n", 0, offset) + 1:offset].decode("utf-8", "replace")) + 1
        raise error(f"not UTF-8 text: byte 0x{raw[offset]:02x} at offset {offset} (line {line}, column {column})"
                    ) from None


def _refuse_compressed(raw: bytes, error: type[ValueError]) -> None:
    """Raise ``error`` naming the compressed file ``raw`` is (by its first bytes), with the command that decompresses
    it; nothing when it is not one."""
    compressed = compression_of(raw)
    if compressed is not None:
        raise error(f"compressed ({compressed[0]}), not UTF-8 JSON text: decompress it first (`{compressed[1]} "
                    "FILE`) and import the JSON it holds") from None


def _ends_inside_a_string(text: str) -> bool:
    """Whether the last line of ``text`` stops inside a JSON string (an unterminated one)."""
    try:
        json.loads(text.rsplit("\n", 1)[-1])
    except json.JSONDecodeError as e:
        return e.msg.startswith("Unterminated string")
    except (ValueError, RecursionError):
        return False
    return False


#: Most bytes :func:`_gzip_cut_off` decompresses to find the end of a gzip stream (a bomb is not followed further).
_GZIP_BUDGET = 256 * 1024 * 1024


def _gzip_cut_off(raw: bytes) -> bool:
    """Whether the gzip data ``raw`` stops before its stream's end (a write stopped part-way); False for a whole
    stream, a damaged one, or one that decompresses to more than :data:`_GZIP_BUDGET` before its end is found."""
    inflate = zlib.decompressobj(wbits=31)
    data, made = raw, 0
    try:
        while data and not inflate.eof and made <= _GZIP_BUDGET:
            made += len(inflate.decompress(data, 1 << 20))
            data = inflate.unconsumed_tail
    except zlib.error:
        return False
    return not inflate.eof and made <= _GZIP_BUDGET


def _first_problem_value(data: Any) -> str | None:
    """Where the first big integer or unpaired surrogate is (``history[3].content``), else None."""
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, BigInteger):
            return (f"{where or 'the record'} is a number with {value.digits:,} digits; numbers are limited to "
                    f"{MAX_INTEGER_DIGITS} digits")
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as e:
                bad = f"\\u{ord(value[e.start]):04x}"
                return f"{where or 'the record'} contains an unpaired surrogate ({bad}), which is not a character"
        elif isinstance(value, dict):
            for k, v in reversed(list(value.items())):
                stack.append((f"{where}.{k}" if where else str(k), v))
                stack.append((f"a key in {where or 'the record'}", k))
        elif isinstance(value, list):
            stack.extend((f"{where}[{i}]", v) for i, v in reversed(list(enumerate(value))))
    return None


def read_text(path: Path, max_bytes: int, error: type[ValueError] = ValueError) -> str:
    """The UTF-8 text of the regular file at ``path`` (a byte-order mark dropped), within ``max_bytes``.

    Raises ``error`` with a one-line reason for a file that is not regular, too big, empty or not UTF-8. NUL bytes
    at the end are left out with a warning, and a byte-order mark at the start of a line too (where files were
    joined).
    """
    text = _decode(_read_bytes(Path(path), max_bytes, error), error)
    if text.endswith("\x00"):
        text = _without_nul_tail(text, error)
    if "\n\ufeff" in text:  # files that started with a byte-order mark, joined (`cat a.jsonl b.jsonl`): each mark
        text = text.replace("\n\ufeff", "\n")  # dropped, as at the file's start (JSON has none between values)
    if not text.strip():
        raise error("the file is empty, not a JSON record")
    return text


def _without_nul_tail(text: str, error: type[ValueError]) -> str:
    """``text`` without the NUL bytes it ends in, with a :func:`warn` at the line where they start: a file whose
    length reached the disk before its last blocks did (a crash, on a file system that allocates late) ends in
    zeros, which no JSON holds and no editor shows. Raises ``error`` when the file holds nothing else."""
    kept = text.rstrip("\x00")
    zeros = len(text) - len(kept)
    if not kept.strip():
        raise error(f"the file holds only NUL bytes ({zeros:,}), no JSON: a crash may have left it unwritten; "
                    "import the file the trace was written to again")
    warn(f"the file ends in {zeros:,} NUL bytes (zeros where a write had not reached the disk when the machine "
         "stopped?); they are skipped, and the text before them is read", kept.count("\n") + 1)
    return kept


def parse_json(text: str, error: type[ValueError] = ValueError, what: str = "a Who&When record") -> Any:
    """The JSON value in ``text``, within this module's limits (nesting, integer digits, unpaired surrogates), and
    without an object holding a key twice (JSON readers keep either one: refused, naming the key).

    ``what`` names the expected content in the nesting message. Raises ``error`` with a one-line reason.
    """
    try:
        data = record_json(text, parse_int=bounded_int)
    except DuplicateKey as e:
        key = json.dumps(e.key, ensure_ascii=False)
        raise error(f"not {what} one can read one way at line {e.lineno} column {e.colno}: the key {key[:80]} is "
                    "given twice in one JSON object (JSON readers keep either one); keep one of them") from None
    except json.JSONDecodeError as e:
        raise error(f"not JSON: {_syntax(e)}") from None
    except RecursionError:
        raise error(f"not {what}: JSON nested too deeply") from None
    except ValueError as e:  # e.g. a float literal Python cannot convert
        raise error(f"not JSON: {e}") from None
    if SURROGATE_ESCAPE.search(text) or re.search(rf"\d{{{MAX_INTEGER_DIGITS + 1}}}", text):
        problem = _first_problem_value(data)  # only then can there be one: a linear walk, rarely needed
        if problem is not None:
            raise error(problem)
    return data


def _syntax(e: json.JSONDecodeError) -> str:
    """What is wrong at ``e``'s place, ``... at line N column M`` (the place is taken out of the message when the
    refusal is printed as ``path:line:col``). Text after a complete value (Python's "Extra data") says whether it is
    a second value (files joined with ``cat``) or a stray character, and what to do."""
    at = f"at line {e.lineno} column {e.colno}"
    if e.msg != "Extra data":
        return f"{e.msg.removesuffix(' at')} {at}"
    try:
        json.JSONDecoder().raw_decode(e.doc, e.pos)
    except (json.JSONDecodeError, RecursionError, ValueError):
        stray = json.dumps(e.doc[e.pos:e.pos + 20].split("\n")[0])[1:-1]  # escaped: shown literally
        return f"text after the end of the JSON value {at} (`{stray}`): remove it"
    return (f"a second JSON value starts here {at}, after the first one ended (files joined with `cat`?): import each "
            "value from a file of its own, or write them one per line (JSON Lines)")


def json_kind(data: Any) -> str:
    """The JSON name of a value's type: ``object``, ``array``, ``string``, ``number``, ``boolean`` or ``null``."""
    kinds = {dict: "object", list: "array", str: "string", bool: "boolean", int: "number", float: "number",
             type(None): "null"}
    return kinds.get(type(data), "value")


def read_json_object(path: Path, max_bytes: int, error: type[ValueError] = ValueError) -> dict[str, Any]:
    """The JSON object in the file at ``path``, read within the limits in this module's docstring.

    ``max_bytes`` is the largest file accepted. Raises ``error`` (a ValueError subclass) with a one-line reason
    for anything refused, and when the top level is not an object.
    """
    data = parse_json(read_text(path, max_bytes, error), error)
    if not isinstance(data, dict):
        raise error(f"not a Who&When record: the top level is a JSON {json_kind(data)}, not an object")
    return data


@dataclass(frozen=True)
class ReadWarning:
    """Something an importer left out of a file it still read, or could not read as recorded: at ``line`` (from 1;
    None for the file as a whole), ``message`` (one line, without the file's name)."""

    line: int | None
    message: str

    def at(self, path: Path | str) -> str:
        """The warning as the import commands print it: ``path:line: warning: message`` (``path: warning: ...``
        without a line)."""
        where = f"{path}:{self.line}" if self.line is not None else f"{path}"
        return f"{where}: warning: {self.message}"


#: The warnings of the file being read, while :func:`collect_warnings` runs; None outside it.
_WARNINGS: ContextVar[list[ReadWarning] | None] = ContextVar("warroom_import_warnings", default=None)


@contextmanager
def collect_warnings() -> Iterator[list[ReadWarning]]:
    """Gather every :func:`warn` made inside the ``with`` block into the list it yields (in order). Blocks nest:
    an inner one keeps its own warnings."""
    found: list[ReadWarning] = []
    token = _WARNINGS.set(found)
    try:
        yield found
    finally:
        _WARNINGS.reset(token)


def warn(message: str, line: int | None = None) -> None:
    """Record a :class:`ReadWarning` (``message`` at ``line``, None for the whole file) for the file being read;
    outside :func:`collect_warnings` nobody asked, and it is dropped."""
    found = _WARNINGS.get()
    if found is not None and ReadWarning(line, message) not in found:  # a file read twice (to recognise it) warns once
        found.append(ReadWarning(line, message))


def json_lines(text: str, whole: ValueError, what: str) -> list[tuple[int, Any]]:
    """The value of each non-blank line of the JSON Lines ``text`` as ``(line number from 1, value)``, each read by
    :func:`parse_json` (``what`` names the content in its messages). Lines end at ``\\n`` only: a U+2028 or a form
    feed inside a JSON string is text, not a line break. ``whole`` is the error of reading ``text`` as one JSON
    value, raised when ``text`` is not JSON Lines: fewer than two non-blank lines, ``whole`` not a "not JSON"
    error, or a first line that is not JSON either (one value over many lines); when that one value is cut off
    before its end, its message says so (``not JSON: ... (the file ends inside a JSON value, ...)``). A first line
    that is JSON refused for its limits (a big number, an unpaired surrogate) raises ``line 1: message``.

    A later line that is not JSON raises ``type(whole)`` with ``line N: message``, but for the last non-blank line
    when it is cut off mid-value (:func:`cut_off`: the text ends inside a string, an object or an array, as when
    the exporter writing it was stopped): that line is skipped with a :func:`warn` at its line.
    """
    error = type(whole)
    lines = [(n, line) for n, line in enumerate(text.split("\n"), 1) if line.strip()]
    if not str(whole).startswith("not JSON"):
        raise whole
    if len(lines) < 2:
        raise _cut_short(whole, text)
    out: list[tuple[int, Any]] = []
    for i, (n, line) in enumerate(lines):
        try:
            out.append((n, parse_json(line, error, what)))
        except error as e:
            if i == 0 and str(e).startswith("not JSON"):
                raise _cut_short(whole, text) from None  # not JSON Lines: one value over many lines, say
            if i == len(lines) - 1 and cut_off(line):
                before = "the line before it is" if i == 1 else f"the {plural(i, 'line')} before it are"
                warn(f"the last line is cut off: it ends inside a JSON value, after {len(line.rstrip()):,} "
                     f"characters (a write stopped part-way); it is skipped, and {before} read", n)
                break
            raise error(f"line {n}: {e}") from None
    return out


def _cut_short(whole: ValueError, text: str) -> ValueError:
    """``whole`` (the "not JSON" error of ``text`` read as one value), saying so when ``text`` is one JSON value cut
    off before its end: ``not JSON: MESSAGE (the file ends inside a JSON value, ...)``. A string cut off before a
    trailing newline is read without it (the newline is not an "invalid control character" of that string)."""
    if not cut_off(text):
        return whole
    message = str(whole)
    if "Invalid control character" in message:
        try:
            json.loads(text.rstrip())
        except json.JSONDecodeError as e:
            message = f"not JSON: {e.msg.removesuffix(' at')} at line {e.lineno} column {e.colno}"
    return type(whole)(f"{message} (the file ends inside a JSON value, after {len(text.rstrip()):,} characters, "
                       "as when a write stops part-way; no line of it is complete)")


#: What may follow the point where a cut-off line's JSON stops parsing: the start of ``true``, ``false``, ``null``
#: or a number's sign; a number's fraction or exponent begun; a ``\\u`` escape begun (the parser stops after the
#: backslash).
_UNFINISHED = re.compile(r"(?:t(?:r(?:u)?)?|f(?:a(?:l(?:s)?)?)?|n(?:u(?:l)?)?|-|(?:\.\d*)?(?:[eE][+-]?\d*)?"
                         r"|u[0-9a-fA-F]{0,3})")


def cut_off(line: str) -> bool:
    """Whether ``line``, which is not JSON, is the start of a JSON value cut off before its end (the text ends
    inside a string, an object, an array, a literal or a number), rather than JSON with a mistake in it: a line
    with a wrong character, an extra bracket, a trailing comma, a blank line, or one that is JSON (refused for its
    limits) is not."""
    text = line.rstrip()
    try:
        json.loads(text)
    except json.JSONDecodeError as e:
        if e.msg.startswith("Unterminated string"):
            return True
        rest = text[e.pos:]
        return e.pos > 0 and _UNFINISHED.fullmatch(rest) is not None  # the empty rest too: it stopped at the end
    except (ValueError, RecursionError):
        return False
    return False


#: A multipart/form-data part's name (``Content-Disposition: form-data; name="post.<id>"``).
_PART_NAME = re.compile(r'(?im)^content-disposition:\s*form-data;[^\n]*?\bname="([^"]*)"')


def multipart_parts(text: str, error: type[ValueError] | None = None, what: str = "a multipart part"
                    ) -> dict[str, Any] | None:
    """A captured ``multipart/form-data`` body (as LangSmith's SDK posts runs to ``/runs/multipart``) as its JSON
    parts by name (``{"post.<id>": {...}, "post.<id>.inputs": {...}, ...}``; a part that is not JSON kept as text),
    or None when ``text`` is not such a body: it starts with ``--BOUNDARY`` and a part with a ``Content-Disposition:
    form-data`` header.

    With ``error``, each JSON part is read within :func:`parse_json`'s limits, as a file is: a part that gives a key
    twice, holds a number of too many digits or an unpaired surrogate raises ``error`` (``line N: message``, the
    line of the file where the part's JSON starts; ``what`` names the content in its message); without it
    (recognising a file), such a part is read anyway."""
    first = text.lstrip("\r\n").split("\n", 1)[0].rstrip("\r")
    if not first.startswith("--") or len(first) < 3 or "content-disposition" not in text[:4000].lower():
        return None
    out: dict[str, Any] = {}
    at = text.index(first) + len(first)
    for chunk in text.split(first)[1:]:
        start, at = at, at + len(chunk) + len(first)
        if chunk.startswith("--"):  # the closing boundary
            break
        head, sep, body = chunk.lstrip("\r\n").partition("\r\n\r\n")
        if not sep:
            head, sep, body = chunk.lstrip("\n").partition("\n\n")
        name = _PART_NAME.search(head)
        if name is None:
            continue
        body = body.removesuffix("\n").removesuffix("\r")
        try:
            out[name.group(1)] = json.loads(body, parse_int=bounded_int)
        except (ValueError, RecursionError):
            out[name.group(1)] = body
            continue
        if error is not None:
            line = text.count("\n", 0, start + chunk.index(body)) + 1
            try:
                parse_json(body, error, what)
            except error as e:
                raise error(f"line {line}: {e}") from None
    return out or None
