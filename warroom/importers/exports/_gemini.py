"""Gemini's content parts (``{"text": ...}``, ``{"functionCall": {...}}``, ...: an object with one field that says
what it is, no ``type``), read once for every importer that meets them (:func:`gemini_part_text`): in the REST
API's camel case or as the Python SDK dumps them (google-genai's ``Content.model_dump()``: snake case, every other
field None)."""

from __future__ import annotations

from typing import Any

from warroom.importers.spans import as_text

#: Gemini's part keys as the Python SDK dumps them, and as the REST API writes them.
_CAMEL = {"function_call": "functionCall", "function_response": "functionResponse", "inline_data": "inlineData",
          "file_data": "fileData", "mime_type": "mimeType", "file_uri": "fileUri", "executable_code": "executableCode",
          "code_execution_result": "codeExecutionResult", "thought_signature": "thoughtSignature",
          "video_metadata": "videoMetadata"}
#: The fields that say what a part is (the API's ``Part`` union; ``text`` is read first).
_KINDS = ("inlineData", "fileData", "functionCall", "functionResponse", "executableCode", "codeExecutionResult")
#: A part's fields that say something about the part, not what it is.
_ABOUT = ("videoMetadata", "partMetadata")
#: The parts whose fields are shown as text: a code part's language then its code, a result's outcome then output.
_CODE = {"executableCode": ("language", "code"), "codeExecutionResult": ("outcome", "output")}


def gemini_part(part: Any) -> Any:
    """A Gemini part with the Python SDK's snake-case keys as the REST API's (``function_call``: ``functionCall``),
    its None fields (which ``model_dump()`` writes), and those of the object it holds (a no-argument call's
    ``args: None``), left out; anything else as it is."""
    if not isinstance(part, dict):
        return part
    return {_CAMEL.get(k, k): ({_CAMEL.get(i, i): w for i, w in v.items() if w is not None}
                               if isinstance(v, dict) else v)
            for k, v in part.items() if v is not None}


def gemini_call(part: Any) -> dict[str, Any] | None:
    """The ``functionCall`` of a Gemini part (``{"id"?, "name", "args"}``), or None."""
    call = gemini_part(part).get("functionCall") if isinstance(part, dict) else None
    return call if isinstance(call, dict) else None


def gemini_answer(part: Any) -> dict[str, Any] | None:
    """The ``functionResponse`` of a Gemini part (``{"id"?, "name", "response"}``: a tool's answer, which Gemini
    sends in a ``user`` turn), or None."""
    told = gemini_part(part).get("functionResponse") if isinstance(part, dict) else None
    return told if isinstance(told, dict) else None


def gemini_part_text(part: dict[str, Any]) -> str | None:
    """A Gemini part (an object without ``type``) as a drill shows it: a text part's text verbatim, a ``thought``
    summary as ``[thinking] TEXT``, media by their type and URI or size (``[inlineData part image/png, 1,024
    characters]``, never the bytes), code and its result as ``[executableCode part PYTHON]`` and
    ``[codeExecutionResult part OUTCOME_OK]`` each followed by its text, a ``functionResponse`` as
    ``[tool call response NAME RESPONSE]`` (as ``otel`` shows a tool call response), a part of another kind by its
    field and value (``[toolCall part {...}]``); None for a ``functionCall`` (read as a tool call) and for an object
    that is no Gemini part (no object in it)."""
    part = gemini_part(part)
    if isinstance(part.get("text"), str):
        return f"[thinking] {part['text']}" if part.get("thought") is True else part["text"]
    kind = next((k for k in _KINDS if isinstance(part.get(k), dict)), None)
    if kind is None:  # a kind this reader does not know (a later API's): by its field and value, never refused
        kind = next((k for k, v in part.items() if isinstance(v, dict) and k not in _ABOUT), None)
        return None if kind is None else f"[{kind} part {as_text(part[kind])}]"
    if kind == "functionCall":
        return None
    held = part[kind]
    if kind in ("inlineData", "fileData"):
        named = " ".join(n for n in (f"{kind} part", held.get("mimeType"), held.get("fileUri"))
                         if isinstance(n, str) and n)
        return f"[{named}, {len(held['data']):,} characters]" if isinstance(held.get("data"), str) else f"[{named}]"
    if kind in _CODE:
        label, body = (held.get(k) for k in _CODE[kind])
        head = f"[{kind} part {label}]" if isinstance(label, str) and label else f"[{kind} part]"
        return f"{head}\n{body}" if isinstance(body, str) and body else head
    said = [held.get("id") or held.get("name"), as_text(held.get("response"))]  # a functionResponse
    return "[" + " ".join(["tool call response", *(s for s in said if isinstance(s, str) and s)]) + "]"

