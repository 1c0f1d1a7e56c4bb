"""``warroom serve``: the war room in a browser, through textual-serve.

- :mod:`warroom.serve.roster`: the facilitator's roster of trainees and their sign-in tokens, kept as scrypt hashes.
- :mod:`warroom.serve.signin`: sign-in sessions (a cookie naming a server-side record) and the sign-in page.
- :mod:`warroom.serve.server`: the web server: one ``warroom`` app process per browser connection, run as the
  signed-in trainee, and a limit on concurrent sessions.

The browser only ever receives the rendered terminal output of an app process running on the server: drills are
read on the server, and the answer key reaches the screen (and so the browser) only in the debrief.
"""
