"""``warroom serve``: the war room in a browser, through textual-serve: the facilitator's roster of trainees and their
sign-in tokens (kept as scrypt hashes), sign-in sessions (a cookie naming a server-side record) and the web server
(one ``warroom`` app process per browser connection, run as the signed-in trainee, and a limit on concurrent
sessions). The browser only ever receives the rendered terminal output of an app process running on the server:
drills are read on the server, and the answer key reaches the screen (and so the browser) only in the debrief.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
