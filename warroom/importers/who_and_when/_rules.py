"""The rules for what a Who&When record lacks, and the importer's options and error.

Every number here is documented in docs/importing.md; change it there too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from warroom.errors import WarroomError
from warroom.importers.kit import Price

if TYPE_CHECKING:
    from warroom.importers.kit import Redactor

#: Gap before the closing event the importer adds when a record stops at its mistake step, seconds (at least).
CLOSING_EVENT_MIN_GAP = 10.0
#: The deadline comes :data:`warroom.importers.kit.DEADLINE_WINDOW` seconds of drill time after the evidence, or
#: sooner: this many seconds before the first damage event.
DEADLINE_BEFORE_DAMAGE = 1.0
#: Largest record file read, in bytes (8 MiB, checked before reading): the shared corpus's largest record is 0.3 MiB,
#: and a record's text goes verbatim into a drill, which must stay quick to load and play.
MAX_RECORD_BYTES = 8 * 1024 * 1024
MAGENTIC_ONE = "magentic-one"
CAPTAIN_AGENT = "captain-agent"
SUBSETS = (MAGENTIC_ONE, CAPTAIN_AGENT)

CORPUS = "Who&When"
CORPUS_REFERENCE = (
    'Who&When benchmark ("Which Agent Causes Task Failures and When?", ICML 2025), '
    "github.com/ag2ai/Agents_Failure_Attribution, MIT License"
)
IMPORTER_SOURCE = "warroom importer"

#: Speaker names of the code-execution terminal, spaces dropped and lower-cased.
TERMINAL_NAMES = frozenset({"computerterminal", "computer_terminal"})


class RecordError(WarroomError, ValueError):
    """A Who&When record that cannot be turned into a drill; ``str()`` is a one-line message for the user."""


#: Default planner prices: a frontier model (the seed material's $5/$25 per million tokens).
DEFAULT_PLANNER_PRICE = Price(5.0, 25.0)
#: Default executor prices: a cheap, fast model (the seed material's $1/$5 per million tokens).
DEFAULT_EXECUTOR_PRICE = Price(1.0, 5.0)


@dataclass(frozen=True)
class ImportOptions:
    """What the importer fills in that a record does not say: model prices; and the redaction of every drill text
    (``--redact``; None: none)."""

    planner_price: Price = DEFAULT_PLANNER_PRICE
    executor_price: Price = DEFAULT_EXECUTOR_PRICE
    redactor: Redactor | None = None

