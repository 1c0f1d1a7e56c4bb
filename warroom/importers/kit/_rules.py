"""The numbers and options the trace importers share: file limits, the defaults for what a trace does not say
(model name, prices, difficulty), a model's :class:`Price`, the options of one import (:class:`TraceOptions`) and
the error of a trace that cannot be a drill (:class:`TraceError`). Documented in docs/importing.md; change them
there too."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warroom.core.text import usd_price
from warroom.errors import WarroomError

if TYPE_CHECKING:
    from warroom.importers.kit._redact import Redactor

#: A price as ``--price`` takes it: a decimal number in ASCII digits (``5``, ``0.15``, ``.6``, ``1e-6``), a sign
#: allowed (a negative one is refused as such).
_PRICE_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def _nonzero(number: str) -> bool:
    """Whether the price ``number`` (a :data:`_PRICE_NUMBER`) writes a digit other than 0 before its exponent."""
    return any(c in "123456789" for c in number.lower().partition("e")[0])


@dataclass(frozen=True)
class Price:
    """A model's prices in USD per million input and output tokens."""

    input_usd_per_mtok: float
    output_usd_per_mtok: float

    @classmethod
    def parse(cls, text: str) -> Price:
        """Parse ``"IN/OUT"`` (USD per million tokens, e.g. ``"5/25"`` or ``"0.15/0.6"``).

        Raises ValueError with a readable message for anything else (missing slash, not a number, negative).
        """
        from warroom.core.text import cut_value

        parts = str(text).split("/")
        if len(parts) != 2:
            raise ValueError(f"{cut_value(text)} is not IN/OUT (USD per million input/output tokens, e.g. 5/25)")
        numbers = [p.strip(" \t\r\n") for p in parts]
        if not all(_PRICE_NUMBER.fullmatch(n) for n in numbers):  # float() reads ٢, 1_000, infinity and nan too
            raise ValueError(f"{cut_value(text)} is not IN/OUT with two numbers (e.g. 5/25 or 0.15/0.6)")
        values = [float(n) for n in numbers]
        if any(not math.isfinite(v) or v < 0 for v in values):
            raise ValueError(f"{cut_value(text)}: prices must be non-negative numbers")
        from warroom.core.model import MAX_USD_PER_MTOK, MIN_USD_PER_MTOK  # here: pydantic not loaded for --help

        if any(v > MAX_USD_PER_MTOK for v in values):  # a drill's price is at most that (beyond, no drill is made)
            raise ValueError(f"{cut_value(text)}: prices are at most {MAX_USD_PER_MTOK:,} USD per million tokens")
        tiny = [0 < v < MIN_USD_PER_MTOK or (v == 0 and _nonzero(n)) for v, n in zip(values, numbers, strict=True)]
        if any(tiny):  # as a drill's: 0, or a real price (1e-400 is no 0, though float() reads it as one)
            raise ValueError(f"{cut_value(text)}: a price is 0 (a free model) or at least 0.000001 USD per million "
                             "tokens")
        return cls(values[0] + 0.0, values[1] + 0.0)  # -0 is 0

    def model(self, name: str) -> dict[str, Any]:
        """A drill's ``models`` entry of the model ``name`` at these prices."""
        return {"name": name, "input_usd_per_mtok": self.input_usd_per_mtok,
                "output_usd_per_mtok": self.output_usd_per_mtok}

    def __str__(self) -> str:
        return f"{usd_price(self.input_usd_per_mtok)}/{usd_price(self.output_usd_per_mtok)} per million tokens"


#: Largest trace file read, in bytes (8 MiB, checked before reading): the trace's text goes verbatim into the drill,
#: whose YAML may be 2-3 times larger and must stay within a drill file's limit (64 MiB) and quick to load.
MAX_TRACE_BYTES = 8 * 1024 * 1024
#: Largest chat transcript file: a computer-use agent's transcript carries every screenshot as base64 (a few MB
#: each), which the drill names by its size only, so the file is far larger than its drill (whose own limit holds).
MAX_CHAT_BYTES = 64 * 1024 * 1024
#: The model named, and priced, when the trace does not say which model ran.
DEFAULT_MODEL_NAME = "unrecorded model"
#: Prices assumed for every model whose price the trace does not give (traces never give prices): USD per million
#: input/output tokens, a mid-range hosted model's list price.
DEFAULT_PRICE = Price(2.5, 10.0)
#: Difficulty of an imported drill until the author marks it up (a Who&When record's when it has no usable ``level``).
DEFAULT_DIFFICULTY = 3
#: Bounds on drill times, seconds: the format's largest `t`.
MAX_DRILL_TIME = 1_000_000.0


class TraceError(WarroomError, ValueError):
    """A trace file (or one trace in it) that cannot be turned into a drill; ``str()`` is one line for the user."""


@dataclass(frozen=True)
class TraceOptions:
    """What the importer fills in that a trace does not say: the prices of every model (``--price IN/OUT``); and
    what it is asked to do: the one trace to import from a file of several (``--trace-id``: OTLP/JSON, LangSmith,
    Langfuse; None: every trace), the redaction of every drill text (``--redact``; None: none), the reading time
    added after what a trainee reads (``--reading-time S``; None: the times as recorded) and the annotations that
    key the drills (``--ground-truth FILE``; None: the author marks each drill up)."""

    price: Price = DEFAULT_PRICE
    trace_id: str | None = None
    redactor: Redactor | None = None
    reading_time: float | None = None
    ground_truth: Path | None = None
