"""``warroom score DRILL LOG...``: score action logs from outside the war room, with the function the war room uses.

A log is a session journal (its start line, action lines and end line: docs/sessions.md) or plain JSON Lines of
actions, one object per line as the journal's ``action`` holds it (``{"t": 12.0, "kind": "escalate", "step": "s1",
"cites": ["e04"]}``). Each is re-played on the drill and scored (:func:`warroom.core.scoring.score`); a log the
rules refuse gets one ``path:line:col: message`` line, never a traceback, and the command exits 1.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field
from typing import Any

import click

from warroom.cli.common import DrillParam, GivenPath, WholeNumber, drills_setting, failure, say
from warroom.cli.scores import RulesOption
from warroom.core.text import clean_name, damage_amount, json_text, plural, seconds, shown_path
from warroom.errors import WarroomError

#: Longest log read, in bytes (a journal of a long session is a few hundred kilobytes).
MAX_LOG_BYTES = 64 * 1024 * 1024


class LogRefused(WarroomError):
    """A log that cannot be scored: ``str()`` is ``path:line:col: message``, the column of the problem in the line
    (1 when it is the line as a whole: an action the rules refuse); line 0 is the whole file (``path: message``)."""

    def __init__(self, path: str, line: int, message: str, col: int = 1) -> None:
        shown = shown_path(path)  # on its line: a log's name holding a newline forges no line
        super().__init__(f"{shown}:{line}:{max(col, 1)}: {message}" if line else f"{shown}: {message}")


@dataclass
class ActionLog:
    """What a log holds: its actions in order, the line of each, a journal's start line (None otherwise), and the
    first line that could not be read (``refused``; the actions are those before it)."""

    name: str
    actions: list[Any] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    start: dict[str, Any] | None = None
    refused: LogRefused | None = None


def _read_bytes(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read(MAX_LOG_BYTES + 1)
    from warroom.core.files import SpecialFile, TooLarge, read_limited, why_missing

    try:  # opened without waiting and checked open: a folder, a FIFO, a device is refused (a FIFO never waited on)
        return read_limited(path, MAX_LOG_BYTES)
    except SpecialFile as exc:
        raise LogRefused(path, 0, f"is {exc.kind}, not a log file") from None
    except TooLarge:
        raise LogRefused(path, 0, f"larger than {MAX_LOG_BYTES // 2**20} MiB; not read") from None
    except OSError as exc:
        raise LogRefused(path, 0, why_missing(path, exc) or f"cannot read it: {exc.strerror or exc}") from None


def read_log(path: str) -> ActionLog:
    """Read one log (a journal or plain JSON Lines of actions; ``-`` is standard input) up to its first line that
    is not JSON, not an object, or not a valid action (kept as ``refused``). Raises :class:`LogRefused` when the
    file cannot be read at all."""
    raw = _read_bytes(path)
    if len(raw) > MAX_LOG_BYTES:
        raise LogRefused(path, 0, f"larger than {MAX_LOG_BYTES // 2**20} MiB; not read")
    log = ActionLog(path)
    for n, line in enumerate(raw.removeprefix(b"\xef\xbb\xbf").split(b"\n"), start=1):
        if line.strip():
            try:
                _read_line(log, n, line)
            except LogRefused as exc:
                log.refused = exc
                break
    return log


def _read_line(log: ActionLog, n: int, line: bytes) -> None:
    """Add line ``n`` of ``log``: a journal's start or end line, or an action; raises :class:`LogRefused`."""
    from pydantic import ValidationError

    from warroom.core.files import record_json
    from warroom.store.results import ActionRecord, describe, error_column

    try:
        obj = record_json(line.decode("utf-8"))
    except (ValueError, RecursionError) as exc:
        raise _not_json(log.name, n, line, exc) from None
    if not isinstance(obj, dict):
        raise LogRefused(log.name, n, 'not a JSON object: each line is one action, {"t": ..., "kind": ...}')
    kind = obj.get("type")
    if kind == "start" and not log.actions and log.start is None:
        log.start = obj
        return
    if kind == "end" and log.start is not None:
        return
    if kind is not None and kind != "action":
        raise LogRefused(log.name, n, f"a line of type {kind!r} where an action was expected")
    try:
        record = ActionRecord.model_validate(obj if kind == "action" else {"action": obj})
    except ValidationError as exc:
        why = describe(exc)
        col = error_column(line.decode("utf-8"), exc) or 1
        raise LogRefused(log.name, n, f"not an action: {why if kind else why.removeprefix('action.')}", col) from None
    log.actions.append(record.action)
    log.lines.append(n)


def _not_json(name: str, n: int, line: bytes, exc: ValueError | RecursionError) -> LogRefused:
    """Why line ``n`` of the log ``name`` is not a JSON line, saying the cause and what to do: bytes that are not
    UTF-8, line ends of CR alone (the whole file then reads as its line 1), a compressed file, a drill, or JSON's own
    complaint."""
    from warroom.core.files import compression_of

    binary = isinstance(exc, UnicodeDecodeError) or b"\x00" in line  # text that starts `BZh` is not bzip2
    compressed = compression_of(line) if n == 1 and binary else None
    if compressed is not None:
        return LogRefused(name, n, f"compressed ({compressed[0]}), not a log's JSON Lines: decompress it first "
                          f"(`{compressed[1]} FILE`) and score the file it holds")
    if isinstance(exc, UnicodeDecodeError):
        return LogRefused(name, n, f"the log is not UTF-8 text (byte 0x{line[exc.start]:02x} here); a log is UTF-8 "
                          "JSON Lines: save it as UTF-8 (`iconv -f ENCODING -t UTF-8 LOG > LOG.jsonl`)",
                          _column(line, exc))
    cr = line.rstrip(b"\r").find(b"\r")  # a CR inside a line (JSON text holds none raw): lines end with CR alone
    if cr >= 0:
        return LogRefused(name, n, "the line ends are CR alone (\\r, an old Mac text format): a log holds one action "
                          "a line, each ending in a newline (\\n or \\r\\n); convert it (`tr '\\r' '\\n' < LOG > "
                          "LOG.jsonl`) and score that", len(line[:cr].decode("utf-8", "replace")) + 1)
    if n == 1 and re.match(rb"\s*(#|---|%YAML|[A-Za-z_][\w-]*:(\s|$))", line):  # a drill's first line
        return LogRefused(name, n, "this is YAML (a drill?), not an action log: `warroom score DRILL LOG...` takes "
                          "the drill first, then logs (session journals, or JSON Lines of actions)")
    why = exc if isinstance(exc, ValueError) else "nested too deeply"
    return LogRefused(name, n, f"not a JSON line ({why}): a log holds one action a line, as JSON "
                      '({"t": 12.0, "kind": "escalate", ...}), or is a session journal', _column(line, exc))


def _column(line: bytes, exc: Exception) -> int:
    """The column (1-based, in characters) where ``line`` stops being JSON: a decode error's own column, the
    character of a byte that is not UTF-8, else 1."""
    if isinstance(exc, json.JSONDecodeError):
        return exc.colno
    if isinstance(exc, UnicodeDecodeError):
        return len(line[: exc.start].decode("utf-8", "replace")) + 1
    return 1


def _score_log(drill: Any, log: ActionLog, rules: str) -> Any:
    """The scorecard of ``log`` on ``drill`` by ``rules``, or :class:`LogRefused` at the action the rules refuse."""
    from warroom.core.scoring import ScoringError, score

    if log.start is not None and log.start.get("drill_id") not in (None, drill.id):
        raise LogRefused(log.name, 1, f"this journal is of drill {log.start.get('drill_id')!r}, not {drill.id!r}")
    try:
        card = score(drill, log.actions, rules=rules)
    except ScoringError as exc:
        line = log.lines[exc.action - 1] if exc.action else 0
        raise LogRefused(log.name, line, str(exc)) from None
    if log.refused is not None:  # the actions before the bad line were fine: the bad line is the first problem
        raise log.refused
    return card


def _drill_for(
    drill: Any, log: ActionLog, played_as: str | None, seed: int | None, rules: str
) -> tuple[Any, int | None]:
    """The drill ``log`` is scored on and the seed of its variant (None: as written): as ``played_as``
    (:func:`warroom.core.variants.session_drill`: a noise trial plays the drill's twin), in the variant of ``seed``,
    else of the journal's seed; None: what the journal says it played, else the drill as written. A drill with a
    twin has its events' ids by position when the journal's recorded edition says so, or for a plain log ``rules``'s
    (:func:`warroom.core.scoring.ids_by_position`)."""
    from warroom.core.model import PlayedAs
    from warroom.core.scoring import ids_by_position
    from warroom.core.variants import can_play_as, session_drill

    if seed is None and log.start is not None and isinstance(log.start.get("seed"), int):
        seed = log.start["seed"]
    if drill.variants is None:
        seed = None
    if played_as is None and log.start is not None and log.start.get("played_as") in ("signal", "noise"):
        played_as = log.start["played_as"]
    trial = PlayedAs(played_as) if played_as else can_play_as(drill)[0]
    recorded = log.start.get("scoring_version") if log.start is not None else rules
    by_position = ids_by_position(recorded if isinstance(recorded, str) else None)
    return session_drill(drill, seed, trial, by_position=by_position), seed


def _short(name: str, card: Any, all_clear: bool) -> str:
    """One line for a scored log: its total, outcome, response and figures."""
    from warroom.core.model import RESPONSE_LABELS, outcome_label

    parts = [f"{card.total}/{card.max_total}", outcome_label(card.outcome, all_clear)]
    if card.response is not None:
        parts.append(f"response: {RESPONSE_LABELS[card.response]}")
    if card.time_to_detect is not None:
        parts.append(f"time to detect {seconds(card.time_to_detect)}")
    if card.full_damage:
        parts.append(
            f"damage {damage_amount(card.damage, card.damage_unit)} of "
            f"{damage_amount(card.full_damage, card.damage_unit)}"
        )
    parts.append(plural(card.false_escalations, "false escalation"))
    return f"{clean_name(name)}: " + "; ".join(parts) + f" (scoring rules version {card.scoring_version})"



@click.command("score")
@click.argument("drill", type=DrillParam(), metavar="DRILL")
@click.argument("logs", nargs=-1, required=True, metavar="LOG...", type=GivenPath(names="file"))
@click.option("--json", "as_json", is_flag=True, help="One JSON object per log per line: log, outcome, response, "
              "total and the scorecard; a refused log: log and error.")
@click.option("--rules", "rules", cls=RulesOption, default=None, metavar="VERSION",
              help="Score by this edition of the scoring rules ({editions}; default: the current one, {current}).")
@click.option("--as", "played_as", type=click.Choice(["signal", "noise"]), default=None,
              help="Score the trial as played as signal (the drill's fault) or noise (its healthy twin); default: as "
              "the drill is (an all-clear drill is a noise trial).")
@click.option("--seed", type=WholeNumber(min=0), default=None,
              help="Score on the variant of this seed (default: the journal's seed, else the drill as written).")
@click.option("--full", is_flag=True, help="Also print every line of each scorecard (text output).")
@drills_setting
def score_command(
    drill: Any, logs: tuple[str, ...], as_json: bool, rules: str | None, played_as: str | None, seed: int | None,
    full: bool,
) -> None:
    """Score action logs (session journals or JSON Lines of actions) with the rules the war room uses.

    Each LOG is a session journal or plain JSON Lines of actions, one per line, as a journal's action lines hold
    them: {"t": 12.0, "kind": "escalate", "step": "s1", "cites": ["e04"]}; `-` reads standard input. DRILL is a
    drill file or id. Prints each log's scorecard in one line (--full: every line of it), or with --json
    one JSON object per log per line with its outcome and the trial's response (hit, miss, localisation_error,
    false_alarm, correct_rejection or abandoned). A log the rules refuse (a line that is not an action, a time going
    backwards, an event not released yet, an action after the drill ended) gets one `path:line:col: message` line
    instead. Exit status 1 when any log was refused.
    """
    from warroom.cli.scores import check_rules_option
    from warroom.core.scoring import SCORING_VERSION

    check_rules_option(rules)
    rules = rules or SCORING_VERSION
    if played_as is not None:
        try:
            _drill_for(drill.drill, ActionLog("-"), played_as, None, rules)
        except WarroomError as exc:
            raise failure(f"--as {played_as}: {exc}") from None
    refused = 0
    if logs.count("-") > 1:  # the second would read nothing: an empty log, scored as a miss
        raise click.UsageError(f"`-` (standard input) is given {logs.count('-')} times, but standard input can be "
                               "read only once: give it once")
    for name in logs:
        try:
            log = read_log(name)
            played, used_seed = _drill_for(drill.drill, log, played_as, seed, rules)
            card = _score_log(played, log, rules)
        except WarroomError as exc:  # LogRefused, or the drill to play cannot be made (a variant, --as)
            refused += 1
            message = str(exc) if isinstance(exc, LogRefused) else f"{clean_name(name)}: {exc}"
            if as_json:
                say(json_text({"log": name, "error": message}))
            else:
                say(message, err=True)
            continue
        if as_json:
            response = card.response.value if card.response is not None else None
            say(json_text({
                "log": name, "drill_id": played.id, "seed": used_seed, "rules": card.scoring_version,
                "outcome": card.outcome.value, "response": response, "total": card.total, "scorecard": card.to_dict(),
            }))  # fmt: skip
        else:
            say(_short(name, card, played.is_all_clear))
            for line in card.lines if full else ():
                say("  " + line)
    if not as_json and len(logs) > 1:
        say(f"{plural(len(logs), 'log')}: {len(logs) - refused} scored, {refused} refused")
    if refused:
        raise SystemExit(1)
