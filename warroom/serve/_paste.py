"""The terminal page's paste guard: a script added to textual-serve's page that cuts a paste to what a tab may send.

A tab's message holds at most :data:`~warroom.serve._tab.MAX_KEYS_BYTES` of keys, and a tab may send
:data:`~warroom.serve._tab.RATE_BYTES` a second, :data:`~warroom.serve._tab.BURST_BYTES` at once
(:class:`~warroom.serve._tab.InputBudget`); past either the server ends the tab's session (1008), and past
:data:`~warroom.serve._tab.MAX_MESSAGE_BYTES` aiohttp does (1009). textual-serve's page sends whatever the trainee
pastes as one message, so a paste of a long log ended the trainee's session. The script wraps the page's websocket
``send``: it keeps the server's budget as the server counts it and, when a paste (of any length: a short one pasted
again and again while ctrl+v is held down used the budget up too) or a long message of keys would not fit, sends only
the start of the paste that fits (with some budget kept for the keys typed next), or nothing when nothing fits, and
shows the trainee a notice saying so and why (its text set as text, never as markup). Keys holding a lone surrogate
(half of a UTF-16 pair: a clipboard's broken text), which the server refuses as no UTF-8, ending the session, are sent
with each one as U+FFFD, as the war room in a terminal takes them. Every other message is sent as it was.
"""

from __future__ import annotations

from warroom.serve._tab import (
    BURST_BYTES,
    KEY_COST,
    MAX_KEYS_BYTES,
    MESSAGE_COST,
    MOTION_BUTTONS,
    MOTION_COST,
    RATE_BYTES,
)

#: Bytes of the tab's input budget a paste leaves for the keys typed after it (and for the server's clock counting a
#: message's arrival, not its sending: a message slow to upload leaves the server less refilled than the page).
KEPT_BYTES = 4 * 1024
#: Seconds the notice stays on the page.
NOTICE_SECONDS = 12

_SCRIPT = r"""<script>
(function () {
  "use strict";
  var MAX_KEYS = @MAX_KEYS@, RATE = @RATE@, BURST = @BURST@, LEAST = @LEAST@, KEY_COST = @KEY_COST@, KEPT = @KEPT@;
  var START = "\x1b[200~", END = "\x1b[201~", MOTION_COST = @MOTION_COST@;
  var MOTION = /^\["stdin", ?"(?:\\u001[bB]\[<(?:@MOTION_BUTTONS@);\d{1,4};\d{1,4}M){1,8}"\]$/;
  var PASTE = /\x1b\[200~[\s\S]*?(?:\x1b\[201~|$)/g;
  var PRESS = /\x1b\[[0-?]*[ -\/]*[@-~]|\x1bO.|\x1b.|./gsu;
  var encoder = new TextEncoder();
  var tokens = BURST, last = performance.now(), hide = null;

  function refill() {
    var now = performance.now();
    tokens = Math.min(BURST, tokens + (now - last) / 1000 * RATE);
    last = now;
  }
  function cost(text) {  // what the server takes from the budget for a message (warroom/serve/_tab.py)
    if (text.length <= 256 && MOTION.test(text)) { return MOTION_COST; }
    var least = Math.max(text.length, LEAST);
    if (!text.startsWith('["stdin"')) { return least; }
    var keys;
    try { keys = JSON.parse(text)[1]; } catch (e) { return least; }
    if (typeof keys !== "string") { return least; }
    var presses = keys.replace(PASTE, "\0").match(PRESS) || [];
    return Math.max(least, presses.length * KEY_COST);
  }
  function fits(keys, room) {
    return encoder.encode(keys).length <= MAX_KEYS && cost(JSON.stringify(["stdin", keys])) <= room;
  }
  function cut(keys, room) {  // the longest start of the paste that fits, or null
    var bracketed = keys.startsWith(START) && keys.endsWith(END) && keys.length >= START.length + END.length;
    var head = bracketed ? START : "", tail = bracketed ? END : "";
    var body = bracketed ? keys.slice(START.length, keys.length - END.length) : keys;
    var chars = Array.from(body.slice(0, 2 * MAX_KEYS)).slice(0, MAX_KEYS);  // whole characters
    var low = 0, high = chars.length;
    while (low < high) {
      var middle = Math.ceil((low + high) / 2);
      if (fits(head + chars.slice(0, middle).join("") + tail, room)) { low = middle; } else { high = middle - 1; }
    }
    return low > 0 ? {keys: head + chars.slice(0, low).join("") + tail, kept: low, of: Array.from(body).length}
                   : null;
  }
  function notice(text) {
    var box = document.getElementById("warroom-paste-notice");
    if (!box) {
      box = document.createElement("div");
      box.id = "warroom-paste-notice";
      box.setAttribute("role", "alert");
      box.style.cssText = "position:fixed;top:0;left:0;right:0;z-index:100;padding:.6em 1em;background:#5e0ba7;" +
        "color:#fff;font:14px menlo,'Roboto Mono',monospace;";
      document.body.appendChild(box);
    }
    box.textContent = text;
    box.style.display = "block";
    clearTimeout(hide);
    hide = setTimeout(function () { box.style.display = "none"; }, @NOTICE_MS@);
  }
  function guarded(data) {  // the message to send instead of data (null: none): a paste of any length (a short one
    // pasted again and again, ctrl+v held down, used the budget up too), or any message of 256 characters or more
    if (typeof data !== "string" || !data.startsWith('["stdin"')) { return data; }
    if (data.length < 256 && data.indexOf("\\u001b[200~") < 0) { return data; }
    var keys;
    try { keys = JSON.parse(data)[1]; } catch (e) { return data; }
    if (typeof keys !== "string") { return data; }
    var room = Math.min(BURST, tokens) - KEPT;
    if (fits(keys, room)) { return data; }
    var wait = Math.ceil((BURST - tokens) / RATE);
    var part = room > 0 ? cut(keys, room) : null;
    if (part === null) {
      notice("Your paste was not sent: a war room tab sends at most " + (MAX_KEYS / 1024) + " KiB at once and " +
             (RATE / 1024) + " KiB a second, and this tab has just sent its share. Paste again in " + wait + " s.");
      return null;
    }
    notice("Your paste was cut to its first " + part.kept + " of " + part.of + " characters: a war room tab sends " +
           "at most " + (MAX_KEYS / 1024) + " KiB at once and " + (RATE / 1024) + " KiB a second. Paste the rest " +
           "in parts, a few seconds apart.");
    return JSON.stringify(["stdin", part.keys]);
  }
  function wellFormed(data) {  // keys with each lone surrogate as U+FFFD, as the war room in a terminal takes them
    if (typeof data !== "string" || !data.startsWith('["stdin"') || !/\\u[dD][89a-fA-F]/.test(data)) { return data; }
    var keys;
    try { keys = JSON.parse(data)[1]; } catch (e) { return data; }
    if (typeof keys !== "string") { return data; }
    var fixed = keys.replace(/\p{Cs}/gu, "\ufffd");
    return fixed === keys ? data : JSON.stringify(["stdin", fixed]);
  }
  var send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    refill();
    var sent = guarded(wellFormed(data));
    if (sent === null) { return; }
    tokens -= typeof sent === "string" ? cost(sent) : LEAST;
    return send.call(this, sent);
  };
})();
</script>"""


def paste_guard() -> str:
    """The ``<script>`` element of the paste guard, the server's limits written into it."""
    values = {"MAX_KEYS": MAX_KEYS_BYTES, "RATE": RATE_BYTES, "BURST": BURST_BYTES, "LEAST": MESSAGE_COST,
              "KEY_COST": KEY_COST, "MOTION_COST": MOTION_COST, "KEPT": KEPT_BYTES,
              "NOTICE_MS": NOTICE_SECONDS * 1000, "MOTION_BUTTONS": "|".join(map(str, MOTION_BUTTONS))}  # fmt: skip
    script = _SCRIPT
    for name, value in values.items():
        script = script.replace(f"@{name}@", str(value))
    return script


def with_paste_guard(page: str) -> str:
    """The terminal page ``page`` with the paste guard first in its ``<head>`` (before textual-serve's script opens
    the tab's websocket)."""
    return page.replace("<head>", "<head>" + paste_guard(), 1)
