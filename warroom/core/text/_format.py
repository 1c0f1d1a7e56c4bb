"""Text for people, shared by the CLI and the terminal UI: drill text made safe, and one way to write each number.

Drill text (titles, objectives, model names, tool arguments and output, problem messages quoting the author's
values) is data. :func:`clean` writes every control character except newline and tab as a visible ``\\xNN``
escape (C0, DEL and C1, e.g. ESC ``\\x1b``, BEL ``\\x07``, CSI ``\\x9b``), so drill text printed by ``warroom
cost`` or shown in the war room can never move the cursor, retitle the terminal or change colours. JSON output
is written with :func:`json_text`, which escapes the same characters as ``\\uNNNN`` (faithful: a JSON reader gets
the original text back). :func:`control_chars` finds the characters a name such as the trainee's must not contain,
and :func:`spreadsheet_safe` keeps a CSV text cell from running as a spreadsheet formula.

Numbers: :func:`seconds` for drill times and durations (:func:`clock` for ``mm:ss``, rounded the same way),
:func:`usd` for money, :func:`damage` for a damage amount with its unit (USD damage is money: ``$931,837.50
refunded in error``; any other unit ``14,021 records``) and :func:`damage_amount` for the amount alone,
:func:`amount` for plain amounts, :func:`number` for any other figure (a mean score), :func:`percent` for shares.
Halves round away from zero (``18.25 s`` is ``18.3 s`` everywhere, 19.5 s is ``00:20``), not to even.

No Textual or Rich import here: the domain core uses it too.
"""

from __future__ import annotations

import math
import os
import re
import unicodedata
from decimal import ROUND_HALF_UP, Decimal, localcontext
from typing import Any

#: The playback speeds the war room offers (+ and - step through them; ``warroom run --speed`` takes one), as
#: multipliers of real time: drill seconds per real second.
PLAYBACK_SPEEDS: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)

#: The bidirectional controls, as a regular expression's character class body: the embeddings and overrides
#: (U+202A-U+202E), the isolates (U+2066-U+2069) and the marks (U+061C, U+200E, U+200F). Every screen and message
#: shows them escaped (:func:`clean`), every field as a sign, and no note or trainee name may hold one.
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"

#: Control characters other than newline and tab (C0, DEL and C1), shown as visible escapes; so are the
#: bidirectional embedding, override and isolate controls (U+202A-U+202E, U+2066-U+2069), which make a bidi-aware
#: terminal reorder the text after them, warroom's own text on the same line included ("Trojan Source"), and the
#: bidirectional marks (U+200E LEFT-TO-RIGHT MARK, U+200F RIGHT-TO-LEFT MARK, U+061C ARABIC LETTER MARK), which
#: reorder the neutral characters around them (``1 - 2`` read as ``2 - 1``) and show nothing. So is a
#: lone surrogate: a byte of a file name that is not UTF-8 (Python's ``surrogateescape``, U+DC80-U+DCFF, shown as
#: the byte, ``\\xff``), which would otherwise reach the terminal raw or end the command unwritable.
_CONTROL = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{BIDI_CONTROLS}\ud800-\udfff]")

#: A lone UTF-16 surrogate (U+D800-U+DFFF): half of a pair, not a character; no UTF-8 file can hold one.
SURROGATE = re.compile("[\ud800-\udfff]")
#: A ``\uD83D``-style escape of half a UTF-16 surrogate pair, in JSON or YAML text: only then can decoded text hold
#: a lone surrogate (YAML's PyYAML path refuses it; JSON and yaml-rs join a pair).
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")

#: The longest id the drill format accepts (``Identifier`` in :mod:`warroom.core.model._fields`).
ID_MAX_LENGTH = 80


def _escape_control(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8, kept by surrogateescape (a file name): the byte
        code -= 0xDC00
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def clean(text: object) -> str:
    """``str(text)`` with every control character except newline and tab written as ``\\xNN`` (``\\x1b``), and
    every bidirectional override, embedding or isolate control as ``\\uNNNN`` (``\\u202e``); a lone surrogate as
    ``\\uNNNN``, except a byte that is not UTF-8 in a file name (``surrogateescape``): ``\\xNN``, the byte.

    Idempotent: cleaning cleaned text changes nothing.
    """
    return _CONTROL.sub(_escape_control, str(text))


#: Every character :func:`clean` escapes, and newline and tab too: what a one-line name (a trainee) must not hold.
_CONTROL_OR_SPACE = re.compile(f"[\x00-\x1f\x7f-\x9f{BIDI_CONTROLS}\ud800-\udfff]")


#: The longest option value a refusal echoes whole (:func:`cut_value`).
SHOWN_VALUE = 30


def cut_value(value: str, what: str | None = None, *, limit: int = SHOWN_VALUE) -> str:
    """An option value as a refusal shows it: quoted (``'12x'``) up to ``limit`` characters (spaces around it
    aside), else by its start and end and its length, ``99999999…9999 (5,000 digits)`` (``what``: the length in
    words, default its characters), where echoing 5,000 digits whole buried the message; control characters
    escaped."""
    text = value.strip()
    if len(text) <= limit:
        return clean(repr(value))
    return clean(f"{text[:12]}…{text[-4:]} ({what or f'{len(text):,} characters'})")


#: The longest path a message names whole (:func:`shown_path`): click's own path refusals are cut to it too.
SHOWN_PATH = 200


def shown_path(path: object) -> str:
    """A file or folder name as a message names it: whole, cleaned to stay on its line (:func:`clean_name`), up to
    :data:`SHOWN_PATH` characters, else by its start and end and its length (``/tmp/aaaaaaa…yaml (5,010
    characters)``, :func:`cut_value`'s form): a message echoing a 5,000-character path whole buried what it said."""
    name = os.fsdecode(path) if isinstance(path, (str, bytes, os.PathLike)) else str(path)
    if len(name.strip()) <= SHOWN_PATH:
        return clean_name(name)
    return clean_name(cut_value(name, limit=SHOWN_PATH))


def clean_name(text: object) -> str:
    """``text`` cleaned (see :func:`clean`) with newlines and tabs escaped too (``\\x0a``, ``\\x09``): a name that must
    stay on its line, such as a file name in a summary line (a name holding a newline would otherwise forge a line
    of its own)."""
    return _CONTROL_OR_SPACE.sub(_escape_control, str(text))


#: Characters that show nothing but are neither format characters nor separators: Unicode's default-ignorable code
#: points of other categories (the combining grapheme joiner, the Hangul fillers, Khmer's inherent vowels, the
#: Mongolian and other variation selectors, the tag block) and the blank Braille pattern. ``ann`` followed by one of
#: them looked like ``ann`` and was another name.
_BLANK_RANGES: tuple[tuple[int, int], ...] = (
    (0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F), (0x2800, 0x2800), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0xE0000, 0xE0FFF),
)  # fmt: skip


def is_invisible(ch: str) -> bool:
    """A format character (Unicode category Cf: zero-width space and joiners, word joiner, BOM...), a separator
    other than the plain space (line and paragraph separators, no-break and other odd spaces), or another character
    that shows nothing (:data:`_BLANK_RANGES`)."""
    category = unicodedata.category(ch)
    if category == "Cf" or (category in ("Zl", "Zp", "Zs") and ch != " "):
        return True
    return any(low <= ord(ch) <= high for low, high in _BLANK_RANGES)


def visible_name(text: object) -> str:
    """A name (a trainee's, a note's author) as a screen shows it: :func:`clean_name`, and every invisible character
    (:func:`is_invisible`: a zero-width space, a word joiner, a no-break space, a Hangul filler) written as
    ``\\uNNNN`` too. Names are checked when stored, but a row written into the store by other means (SQL) can
    hold one: ``ann`` followed by a zero-width space is shown ``ann\\u200b``, never as ``ann``."""
    return "".join(_escaped(ch) if is_invisible(ch) else ch for ch in clean_name(text))


def _escaped(ch: str) -> str:
    code = ord(ch)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def control_chars(text: str) -> list[str]:
    """The distinct control characters (newline and tab included) and bidirectional controls in ``text``, each
    written as :func:`clean` shows it (``\\x1b``, ``\\x0a``, ``\\u202e``), in order of first appearance; empty
    when there is none."""
    out: list[str] = []
    for ch in _CONTROL_OR_SPACE.findall(text):
        shown = f"\\x{ord(ch):02x}" if ord(ch) <= 0xFF else f"\\u{ord(ch):04x}"
        if shown not in out:
            out.append(shown)
    return out


def no_negative_zero(value: Any) -> Any:
    """``value`` (JSON data: dicts, lists and tuples of scalars) with every float ``-0.0`` made ``0.0`` (a figure
    rounded to zero from below, c of a trainee with H = 1 - F, a stored ``-0.0``): no export writes a negative zero.
    Anything else comes back as it is (the same object when it holds no float)."""
    if isinstance(value, float):
        return value + 0.0  # -0.0 + 0.0 is 0.0
    if isinstance(value, dict):
        return {k: no_negative_zero(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [no_negative_zero(v) for v in value]
    return value


def json_text(value: object, *, indent: int | None = None) -> str:
    """``value`` as JSON text that is safe on a terminal and still faithful: non-ASCII text stays readable
    (``ensure_ascii=False``), while every character :func:`clean` escapes (C0, DEL, C1, bidi controls) is written
    as a ``\\uNNNN`` escape, which a JSON reader turns back into the original character. No NaN or infinity
    (``ValueError``); no negative zero (:func:`no_negative_zero`)."""
    import json

    text = json.dumps(no_negative_zero(value), indent=indent, ensure_ascii=False, allow_nan=False)
    # Outside strings JSON text holds only ASCII punctuation, digits, letters and whitespace, so every match is
    # inside a string, where the escape means the same character.
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


#: First characters that make a spreadsheet (Excel, LibreOffice, Google Sheets) read a cell as a formula (OWASP
#: "CSV Injection"): ``=``, ``+``, ``-``, ``@``, tab and carriage return, and the fullwidth ``＝ ＋ － ＠`` (a
#: spreadsheet with an East Asian input mode reads them as the ASCII ones).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def spreadsheet_safe(value: object) -> object:
    """A CSV cell that a spreadsheet shows as written: text whose first character, or first character that is not
    white space (any Unicode white space: `` =1``, a no-break space before ``=``), is one of
    :data:`FORMULA_STARTS` gets a leading single quote (``'=HYPERLINK(...)``, ``'-10`` for the text "-10",
    ``'\u00a0=1``); numbers, booleans and None come back unchanged (a negative number stays a number), and so does
    any other text."""
    if isinstance(value, str) and (value.startswith(FORMULA_STARTS) or value.lstrip().startswith(FORMULA_STARTS)):
        return "'" + value
    return value


def clean_line(text: object) -> str:
    """``text`` cleaned (see :func:`clean`) and folded to one line: runs of newlines, tabs and spaces become one
    space."""
    return " ".join(clean(text).split())


#: An identifier for a drill, plan step or trace event: letters, digits, ``-``, ``_`` and ``.``, starting with a
#: letter or digit (the drill format's ``Identifier``; at most :data:`ID_MAX_LENGTH` characters).
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"


def is_valid_id(value: str) -> bool:
    """True when ``value`` is a valid id in the drill format (drill, plan step, trace event): the whole string
    matches the format's id pattern (letters, digits, ``-``, ``_``, ``.``, starting with a letter or digit; no
    trailing newline) and it has at most 80 characters."""
    return isinstance(value, str) and len(value) <= ID_MAX_LENGTH and re.fullmatch(ID_PATTERN, value) is not None


#: The smallest amount of USD written out (a billionth of a dollar); a smaller positive one is shown as below it.
LEAST_USD_SHOWN = 1e-9


def round_half_up(x: float, digits: int = 0) -> float:
    """``x`` rounded to ``digits`` decimals, halves away from zero (not Python's banker's rounding); an infinity or
    NaN is returned as it is. The rounding is exact at any size (a float has at most 309 digits before its point)."""
    if not math.isfinite(x):
        return x
    q = Decimal(1).scaleb(-digits)
    with localcontext(prec=330 + max(digits, 0)):
        return float(Decimal(repr(x)).quantize(q, rounding=ROUND_HALF_UP))


def _decimal(value: float, digits: int) -> str:
    """``value`` rounded half away from zero to at most ``digits`` decimals, thousands separated, trailing zeros
    (and a bare decimal point) dropped; ``-0`` is written ``0``."""
    text = f"{round_half_up(float(value), digits):,.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def seconds(value: float | None, none: str = "-") -> str:
    """Seconds of drill time (a time or a duration) for people: one decimal at most, halves rounded up, thousands
    separated: ``18.3 s`` for 18.25, ``12 s``, ``1,234.5 s``. ``none`` (``-``) for None."""
    return none if value is None else f"{_decimal(value, 1)} s"


def seconds_figure(value: float) -> str:
    """Seconds of drill time as a bare number, written as :func:`seconds` writes them (one decimal at most, halves
    rounded up): ``18.3`` for 18.25. For a formula that stands next to such times (``25 x (1 - 8.3/18)``)."""
    return _decimal(value, 1)


def exact_figure(value: float, places: int | None = None) -> str:
    """``value`` written exactly: the shortest text that reads back as the same float, without a trailing ``.0``
    (``20``, ``7.1234567``, ``32.0000001``, ``1e-300``). For a number given back to be read or edited (a dialog's
    field opened on it, an error naming the value refused), where six significant digits (``:g``) would write
    another number. ``places``: rounded to that many decimals first, for a value computed from others (a moment
    halfway to the trace's end), whose float arithmetic's noise is no part of it (``44.199999999999996`` is
    ``44.2``)."""
    text = repr(float(value) if places is None else round(float(value), places))
    return text[:-2] if text.endswith(".0") else text


#: The decimals :func:`exact_seconds` keeps: a nanosecond, finer than any drill time an author writes.
EXACT_PLACES = 9


def exact_seconds(value: float) -> str:
    """Seconds of drill time written exactly (:func:`exact_figure`, to the nanosecond): ``7.1234567 s``, ``10 s``;
    a moment computed from others without its float noise (``44.2 s``, not ``44.199999999999996 s``). Where two
    close moments must not read as one (``warroom check``'s notes: "ended at 7.12346 s, before ... at 7.12346 s"),
    which :func:`seconds` (a tenth) and ``:g`` (six digits) would write alike."""
    return f"{exact_figure(value, EXACT_PLACES)} s"


def clock(value: float) -> str:
    """Drill time as ``mm:ss`` (``h:mm:ss`` from an hour), rounded to the whole second half up like
    :func:`seconds` (19.5 s is ``00:20``, next to ``19.5 s``; 19.4 s is ``00:19``); negative times clamp to
    ``00:00``."""
    s = max(int(round_half_up(float(value))), 0)
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m:02d}:{sec:02d}"


def number(value: float | None, digits: int = 2, none: str = "-") -> str:
    """Any number for people: thousands separated, at most ``digits`` decimals (halves rounded up, trailing zeros
    dropped): ``number(6.25, 1)`` is ``6.3``, ``number(62.5, 1)`` ``62.5``, ``number(7.0, 1)`` ``7``. ``none``
    (``-``) for None."""
    return none if value is None else _decimal(value, digits)


def percent(fraction: float | None, none: str = "-") -> str:
    """A share (0.0-1.0) as a whole percentage, halves rounded up: ``13%`` for 0.125, ``67%`` for 2/3. ``none``
    (``-``) for None. A share strictly between 0 and 1 is never shown as ``0%`` or ``100%``, which say none and
    all: 1 of 10,000 is ``<1%``, 9,999 of 10,000 ``>99%``."""
    if fraction is None:
        return none
    shown = _decimal(fraction * 100, 0)
    if shown == "0" and fraction > 0:
        return "<1%"
    if shown == "100" and fraction < 1:
        return ">99%"
    return f"{shown}%"


def amount(value: float | None, none: str = "-") -> str:
    """A damage amount (or any count of things) for people: thousands separated, at most two decimals (halves
    rounded up, trailing zeros dropped): ``14,021``, ``931,837.5``, ``0.25``. ``none`` (``-``) for None."""
    return none if value is None else _decimal(value, 2)


def is_usd_unit(unit: str | None) -> bool:
    """True when a damage unit is US dollars: ``USD``, or ``USD`` followed by a space and a description (``USD
    refunded in error``)."""
    return bool(unit) and (unit == "USD" or unit.startswith("USD "))  # type: ignore[union-attr]


def damage_amount(value: float | None, unit: str | None, none: str = "-") -> str:
    """A damage amount without its unit: as money (:func:`usd`, ``$931,837.50``) when ``unit`` is USD
    (:func:`is_usd_unit`), else as :func:`amount` (``14,021``). ``none`` (``-``) for None."""
    if value is None:
        return none
    return usd(value) if is_usd_unit(unit) else amount(value)


def damage_shown_otherwise(value: float, unit: str | None) -> str | None:
    """How play shows the damage amount ``value`` (:func:`damage_amount`) when that reads as another number
    (amounts show to two decimals, money as dollars and cents: 12.345 shows as 12.35, 0.001 records as 0), else
    None: the one check of an amount for ``warroom validate`` and ``warroom project --damage``."""
    shown = damage_amount(value, unit)
    try:
        read = float(shown.lstrip("$").replace(",", ""))
    except ValueError:  # a form that reads as no number: nothing to compare
        return None
    return None if math.isclose(read, value, rel_tol=1e-12, abs_tol=0.0) else shown


def damage(value: float | None, unit: str | None, none: str = "-") -> str:
    """A damage amount with its unit, the one way warroom writes damage: ``$931,837.50 refunded in error`` for
    ``USD refunded in error``, ``$120.00`` for ``USD``, ``14,021 records`` for ``records``, the bare amount when
    there is no unit. ``none`` (``-``) for None. The unit is not cleaned (callers clean what they print)."""
    if value is None:
        return none
    if is_usd_unit(unit):
        rest = unit[3:].strip()  # type: ignore[index]
        return usd(value) + (f" {rest}" if rest else "")
    return f"{amount(value)} {unit}" if unit else amount(value)


def usd(value: float | None, none: str = "-") -> str:
    """An amount of USD for people (the rules of docs/scoring.md): ``$14.02`` from one dollar up (two decimals,
    thousands separated), below a dollar four significant digits with trailing zeros dropped but at least two
    decimals (``$0.0506``, ``$0.128``, ``$0.00195``, ``$0.50``), ``$0.00`` for zero (a negative zero too), a leading
    ``-`` when negative. Bounded: a positive amount below :data:`LEAST_USD_SHOWN` is ``<$0.000000001`` (``5e-320``
    is not 330 characters), a negative one above its opposite ``>-$0.000000001``. ``none`` (``-``) for None."""
    if value is None:
        return none
    dollars = float(value)
    if dollars < 0:
        return ">-$0.000000001" if dollars > -LEAST_USD_SHOWN else "-" + usd(-dollars)
    if dollars == 0:
        return "$0.00"
    if dollars < LEAST_USD_SHOWN:
        return "<$0.000000001"
    if dollars >= 1:
        return f"${round_half_up(dollars, 2):,.2f}"
    text = f"{Decimal(repr(dollars)):.4g}" if dollars >= 1e-4 else f"{dollars:.4g}"
    if "e" in text:  # tiny amounts: write them out in full, never in scientific notation
        text = format(Decimal(text), "f")
    if "." in text:
        whole, frac = text.split(".")
        frac = frac.rstrip("0").ljust(2, "0")
        text = f"{whole}.{frac}"
    else:
        text += ".00"
    return "$" + text


def speed(value: float) -> str:
    """A playback speed such as ``1x``, ``0.5x``."""
    return f"{value:g}x"


def usd_price(per_mtok: float) -> str:
    """A model price in USD per million tokens: :func:`usd` without ``.00`` on whole dollars (``$5``, ``$0.15``,
    ``$2.50``, ``$0.005``)."""
    text = usd(float(per_mtok))
    return text[:-3] if text.endswith(".00") and text not in ("$0.00", "-$0.00") else text
