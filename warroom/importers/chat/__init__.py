"""Chat transcripts to drills: OpenAI-style message lists (``warroom import chat``).

A file holds one conversation (an array of messages, or an object with ``messages``) or several (an array of them;
tau-bench trajectories, objects with ``traj``, have this shape). Each conversation becomes one format-2 drill:
user messages are ``human_message`` events that each start a plan step, system prompts ``log`` events, assistant
text ``executor_message`` events, assistant ``tool_calls`` ``tool_call`` events (one batch per message) and tool
messages ``tool_result`` events answering their call by ``tool_call_id``. Message text is verbatim; the drill
clock and token counts are estimated; no answer key is written (:mod:`warroom.importers.tracekit`).
docs/importing.md has the mapping field by field.

Public API: :func:`read_conversations`, :func:`conversations`, :func:`conversation_to_drill_data`,
:func:`convert_file`, :func:`import_chats`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from warroom.importers.chat.mapping import conversation_to_drill_data
from warroom.importers.chat.parse import Conversation, Message, ToolCall, conversations, read_conversations
from warroom.importers.tracekit import TraceOptions, import_files
from warroom.importers.who_and_when.files import ImportReport, Progress


def convert_file(path: Path, options: TraceOptions | None = None) -> list[tuple[dict[str, Any], str]]:
    """Every conversation in the file at ``path`` as ``(drill data, header comment)``; raises TraceError."""
    return [conversation_to_drill_data(c, Path(path), options) for c in read_conversations(Path(path))]


def import_chats(paths: Iterable[Path], out_dir: Path, options: TraceOptions | None = None, *,
                 force: bool = False, progress: Progress | None = None) -> ImportReport:
    """Convert every chat transcript (``*.json``, ``*.jsonl``) under ``paths`` into drills in ``out_dir`` (see
    :func:`warroom.importers.tracekit.import_files`)."""
    return import_files(paths, out_dir, lambda p: convert_file(p, options), suffixes=(".json", ".jsonl"), force=force,
                        redactor=options.redactor if options else None, progress=progress)


__all__ = ["Conversation", "Message", "ToolCall", "conversation_to_drill_data", "conversations", "convert_file",
           "import_chats", "read_conversations"]
