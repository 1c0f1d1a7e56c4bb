"""The key trace (``$WARROOM_KEY_TRACE``, docs/serve.md "Tracing a tab's keys"): what the server's relay did with each
message of a tab, one line each; nothing written when the variable is unset."""

from __future__ import annotations

import re

import pytest

from warroom.serve._tab import BURST_BYTES, BadMessage, relay_messages

from .test_serve_left7 import _Service, _Tab


class _ClosedService(_Service):
    """An app process whose input is closed: textual-serve's write says False."""

    async def send_bytes(self, data: bytes) -> bool:
        return False


async def test_the_relay_traces_each_message_of_a_tab(tmp_path, monkeypatch):
    trace = tmp_path / "keys.trace"
    monkeypatch.setenv("WARROOM_KEY_TRACE", str(trace))
    service = _Service()
    await relay_messages(_Tab([["resize", {"width": 100, "height": 30}], ["stdin", "\r"], ["stdin", ""], ["blur"]]),
                         service)  # type: ignore[arg-type]  # fmt: skip
    with pytest.raises(BadMessage):
        await relay_messages(_Tab([["stdin", 5]]), _ClosedService())  # type: ignore[arg-type]
    with pytest.raises(BadMessage):  # keys the app process no longer takes are said so, then refused no more
        await relay_messages(_Tab([["stdin", "j"], ["exec", "x"]]), _ClosedService())  # type: ignore[arg-type]
    lines = trace.read_text(encoding="utf-8").splitlines()
    assert all(re.match(r"\d+\.\d{3} serve\d+ tab of app\?: ", line) for line in lines), lines
    said = [line.split(": ", 1)[1] for line in lines]
    left = [int(n) for n in re.findall(r"budget left (\d+) bytes", "\n".join(said))]
    assert len(left) == 2 and all(BURST_BYTES - 128 <= n < BURST_BYTES for n in left)  # a message or two taken
    said = [re.sub(r"budget left \d+", "budget left N", line) for line in said]
    assert said == [
        "resize {'width': 100, 'height': 30}",
        "keys b'\\r' written; budget left N bytes",
        "empty keys dropped",
        "blur",
        "refused (keys that are not text); the session ends",
        "keys b'j' NOT written (its input closed); budget left N bytes",
        "refused (an unknown kind of message 'exec'); the session ends",
    ]
    assert service.given == [(100, 30), b"\r", "blur"]


async def test_nothing_is_traced_without_the_variable(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("WARROOM_KEY_TRACE", raising=False)
    await relay_messages(_Tab([["stdin", "\r"]]), _Service())  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []
