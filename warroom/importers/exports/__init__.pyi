# The API of warroom.importers.exports (its __init__.py loads each name on first use, from the module named here).

from ._convert import Recorded, convert_export
from ._gemini import gemini_call, gemini_part, gemini_part_text
from ._messages import (
    Message,
    generation_info,
    message,
    message_fields,
    message_text,
    message_usage,
    messages,
    model_messages,
    model_said,
    part_text,
    tool_answer,
)
from ._responses import ANSWERS_FIELD, ITEM_INDEX, RESPONSES_ITEMS, is_responses_items, responses_messages
from ._tree import ancestors, attach_tools, root_ids
from ._values import (
    MAX_EXPORT_BYTES,
    UNFINISHED,
    error_text,
    first_record,
    python_literal,
    read_values,
    recorded_prices,
    time_ns,
    token_pair,
    tool_arguments,
)

__all__ = [
    "ANSWERS_FIELD",
    "ITEM_INDEX",
    "MAX_EXPORT_BYTES",
    "Message",
    "RESPONSES_ITEMS",
    "Recorded",
    "UNFINISHED",
    "ancestors",
    "attach_tools",
    "convert_export",
    "error_text",
    "first_record",
    "gemini_call",
    "gemini_part",
    "gemini_part_text",
    "generation_info",
    "is_responses_items",
    "message",
    "message_fields",
    "message_text",
    "message_usage",
    "messages",
    "model_messages",
    "model_said",
    "part_text",
    "python_literal",
    "read_values",
    "recorded_prices",
    "responses_messages",
    "root_ids",
    "time_ns",
    "token_pair",
    "tool_answer",
    "tool_arguments",
]
