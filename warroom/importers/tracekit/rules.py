"""The numbers and options the trace importers share (documented in docs/importing.md; change them there too)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from warroom.errors import WarroomError
from warroom.importers.who_and_when.rules import Price

if TYPE_CHECKING:
    from warroom.importers.redact import Redactor

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
#: Difficulty of an imported drill until the author marks it up.
DEFAULT_DIFFICULTY = 3
#: Bounds on drill times, seconds: the format's largest `t`.
MAX_DRILL_TIME = 1_000_000.0


class TraceError(WarroomError, ValueError):
    """A trace file (or one trace in it) that cannot be turned into a drill; ``str()`` is one line for the user."""


@dataclass(frozen=True)
class TraceOptions:
    """What the importer fills in that a trace does not say: the prices of every model (``--price IN/OUT``); and
    what it is asked to do: the one trace to import from a file of several (``--trace-id``: OTLP/JSON, LangSmith,
    Langfuse; None: every trace), the redaction of every drill text (``--redact``; None: none)."""

    price: Price = DEFAULT_PRICE
    trace_id: str | None = None
    redactor: Redactor | None = None
