"""``warroom import chat``: the chat transcript importer as the registry lists it."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warroom.importers.kit import GROUND_TRUTH_OPTION, PRICE_OPTION, READING_TIME_OPTION, TraceImporter, run_import

if TYPE_CHECKING:
    from warroom.importers.kit import DrillData, Refused, TraceOptions


class Chat(TraceImporter):
    """Chat transcripts: one drill per conversation, on a clock estimated from the text."""

    name = "chat"
    title = "a chat transcript"
    options = (PRICE_OPTION, READING_TIME_OPTION, GROUND_TRUTH_OPTION)
    help = """Convert chat transcripts (OpenAI-style message lists, *.json or JSON Lines *.jsonl) into drills.

    A file holds one conversation (an array of messages, or an object with `messages`), an array of them
    (tau-bench trajectories), or JSON Lines of them (*.jsonl), one drill per conversation; Anthropic content
    blocks, Gemini `contents`, legacy function calls and team transcripts (Magentic-One: `role: human`, then each
    agent as the speaker) are read too. The drill clock is estimated, and the token counts the file does not
    record; no answer key is written
    (the author marks up the incident), unless --ground-truth gives the dataset's annotations. A bad file is reported
    as `path:line:col: message` and the rest still import. Exit status: 0 when every file imported, 1 when any failed, 2
    on usage errors.

    Example: warroom import chat runs/incident.json --out drills/imported
    """

    def recognises(self, values: Sequence[Any]) -> bool:
        from warroom.importers.chat._shapes import is_chat

        return is_chat(values[0])

    def check_annotations(self, path: Path) -> None:
        from warroom.importers.chat._truth import read_ground_truth

        read_ground_truth(path)

    def read(self, path: Path, options: TraceOptions) -> list[DrillData | Refused]:
        from warroom.importers.chat._keying import keyed_drills
        from warroom.importers.chat._mapping import conversation_to_drill_data
        from warroom.importers.chat._parse import read_conversations

        conversations = read_conversations(path)
        if options.ground_truth is not None:
            return keyed_drills(conversations, path, options)
        return [conversation_to_drill_data(c, path, options) for c in conversations]


#: The chat importer (the registry finds it in this package's API).
IMPORTER = Chat()
#: Import every file under ``paths`` into drills in ``out_dir``: :func:`warroom.importers.kit.run_import`.
import_chats = partial(run_import, IMPORTER)
