"""The console's pages besides the live class: drill sets and their completion grids, trainees and their progress,
sessions and their reviews with the facilitator's notes, two trainees compared on a drill, the gradebook export and
the roster; and a trainee's own sessions (``/mine``), where they read their reviews and the notes left for them.

Every handler reads the store in a worker thread (:meth:`Console.in_store`) and renders a template of
:mod:`warroom.console`. A store that cannot be read is a page saying so (HTTP 503), never a traceback; a stored row
that cannot be read is left out of a list, and the page says how many (its own review is a page saying so, HTTP 422).
"""

from __future__ import annotations

import asyncio
import logging
import re
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from aiohttp import web

if TYPE_CHECKING:
    from warroom.serve._console import Console

log = logging.getLogger("warroom.serve")

#: Sessions a list page shows at most (newest first).
LIST_LIMIT = 500


def routes(console: Console) -> list[web.RouteDef]:
    """The routes of these pages, bound to ``console``."""
    p = _Pages(console)
    # each name or id one whole path segment, whatever it holds: aiohttp's own pattern, ``[^{}/]+``, left a trainee
    # named ``{x}``, or a set or session id holding a brace (stored by SQL), without a page (HTTP 404)
    return [
        web.get("/console/sets", p.sets),
        web.get("/console/sets/{set_id:[^/]+}", p.grid),
        web.get("/console/trainees", p.trainees),
        web.get("/console/trainees/{name:[^/]+}", p.trainee),
        web.get("/console/sessions", p.sessions),
        web.get("/console/sessions/{session_id:[^/]+}", p.session),
        web.post("/console/sessions/{session_id:[^/]+}/notes", p.add_note),
        web.get("/console/compare", p.compare),
        web.get("/console/gradebook", p.gradebook),
        web.get("/console/gradebook.csv", p.gradebook_csv),
        web.get("/console/roster", p.roster),
        web.get("/mine", p.mine),
        web.get("/mine/{session_id:[^/]+}", p.my_session),
    ]


def _store_problem(console: Console, request: web.Request, exc: Exception) -> web.Response:
    log.warning("console page %s: the store cannot be read: %s", request.raw_path, exc)
    response = console.page(request, "problem.html", "The store cannot be read", "", problem=str(exc))
    response.set_status(503)
    return response


def _skipped_note(path: str, problems: list[Any], *, name: bool = True) -> str:
    """The one line a page shows about the stored rows it left out because they cannot be read ("" for none); each
    is logged in full (the rows are never modified: ``warroom scores list`` names them too). Without ``name`` the
    line names no session (a response header: a forged session id may hold any character)."""
    if not problems:
        return ""
    from warroom.core.text import plural

    for problem in problems:
        log.warning("console page %s: skipped %s", path, problem)
    ids = sorted({str(getattr(p, "session_id", "?")) for p in problems})
    named = f" ({', '.join(ids[:3])}{', ...' if len(ids) > 3 else ''})" if name else " (the server's log names them)"
    verb = "was" if len(ids) == 1 else "were"
    return f"{plural(len(ids), 'stored session')} cannot be read and {verb} left out of this page{named}."


class _Pages:
    def __init__(self, console: Console) -> None:
        self.c = console
        self._drill_facts: dict[str, tuple[str, str | None]] = {}
        #: Each set file's last good reading (checked at start), and why a file cannot be read now (by path).
        self._good_sets: dict[Path, tuple[Any, list[tuple[str, str]]]] = {}
        self.set_problems: dict[Path, str] = {}
        self._sets()  # the readings the server started with, before any file can change

    # --- drills -------------------------------------------------------------------------------------------------

    def drill_facts(self, drill_id: str) -> tuple[str, str | None]:
        """A drill's title and fault kind (None for an all-clear drill), from the drill folders and the bundled
        library; the id itself and None when it cannot be loaded (read once per drill id)."""
        known = self._drill_facts.get(drill_id)
        if known is None:
            from warroom.core.library import DrillLibrary

            try:
                drill = DrillLibrary(self.c.drill_dirs).load(drill_id).drill
                key = drill.answer_key
                known = (drill.title, None if key is None else str(key.fault.kind))
            except Exception:  # not found, or does not load: named by its id
                known = (drill_id, None)
            self._drill_facts[drill_id] = known
        return known

    def fault_kind(self, drill_id: str) -> str | None:
        return self.drill_facts(drill_id)[1]

    def _sets(self) -> list[tuple[Path, Any, list[tuple[str, str]]]]:
        """The drill sets the console knows (``--set`` and ``--console-set`` files): path, model and drills. A set
        file that no longer reads, or names a drill that no longer loads (changed, moved or deleted since the
        server started), is shown as last read well, and :attr:`set_problems` says why: such a set's drill was
        dropped from its completion grid and its gradebook unsaid (the set with it when its file broke)."""
        from warroom.core.library import resolve_set_drills
        from warroom.core.load import load_drill_set

        out = []
        for path in self.c.set_files:
            try:
                model = load_drill_set(path)
                drills, problems = resolve_set_drills(model, path, self.c.drill_dirs)
                errors = [str(p) for p in problems if p.severity == "error"]
                if errors:
                    raise ValueError("; ".join(errors[:3]) + ("; ..." if len(errors) > 3 else ""))
            except Exception as exc:
                self._set_unreadable(path, exc)
                if path in self._good_sets:
                    out.append((path, *self._good_sets[path]))
                continue
            named = [(d.drill.id, d.drill.title) for d in drills if d.drill is not None]
            self._good_sets[path] = (model, named)
            self.set_problems.pop(path, None)
            out.append((path, model, named))
        return out

    def _set_unreadable(self, path: Path, exc: Exception) -> None:
        kept = "its last good reading is shown" if path in self._good_sets else "it is left out"
        why = (f"The drill set file {path.name}, or a drill it names, cannot be read now: {kept} (the server's log "
               "says why).")
        if self.set_problems.get(path) != why:  # logged once each time it changes, not at every page
            log.warning("drill set %s cannot be read now (%s): %s", path, exc, kept)
        self.set_problems[path] = why

    def set_note(self, *others: str) -> str:
        """The line a page shows about the set files that cannot be read now (and ``others``), "" when none."""
        return " ".join([*self.set_problems.values(), *(o for o in others if o)])

    # --- drill sets -----------------------------------------------------------------------------------------------

    async def sets(self, request: web.Request) -> web.StreamResponse:
        """``GET /console/sets``: the drill sets (given to the server, and those sessions were played in);
        ``?id=ID``: that set's grid (an id a path cannot hold: ``..``)."""
        if request.query.get("id"):
            return await self.grid(request)
        await self.c.counting_note()
        loop = asyncio.get_running_loop()
        known = await loop.run_in_executor(None, self._sets)

        def played(store: Any) -> tuple[dict[str, int], list[Any]]:
            counts: dict[str, int] = {}
            rows, problems = store.query_readable(limit=0)
            for row in rows:
                if row.set_id:
                    counts[row.set_id] = counts.get(row.set_id, 0) + 1
            return counts, problems

        try:
            counts, problems = await self.c.in_store(played)
        except Exception as exc:
            return _store_problem(self.c, request, exc)
        files = {model.set: (model, drills) for _, model, drills in known}
        rows = [(sid, files[sid][0].title if sid in files else "", counts.get(sid, 0), sid in files)
                for sid in sorted({*files, *counts})]  # fmt: skip
        return self.c.page(request, "sets.html", "Drill sets", "/console/sets", sets=rows,
                           skipped=self.set_note(_skipped_note(request.raw_path, problems)))  # fmt: skip

    async def grid(self, request: web.Request) -> web.StreamResponse:
        """``GET /console/sets/{set_id}``: the set's completion grid."""
        from warroom.console import completion_grid

        set_id = request.match_info.get("set_id") or request.query.get("id", "")
        await self.c.counting_note()
        loop = asyncio.get_running_loop()
        known = {model.set: (model, drills) for _, model, drills in await loop.run_in_executor(None, self._sets)}
        try:
            # counted sessions only: one whose results disagree with its action log is no grade (`scores verify`)
            # and every session, for first attempts made outside the set or not verified (the set's gradebook's cells)
            graded = await self.c.in_store(lambda store: _graded(store, set_id=set_id))
        except Exception as exc:
            return _store_problem(self.c, request, exc)
        sessions = graded.rows
        if set_id in known:
            model, drills = known[set_id]
            title, mode, attempts, due = model.title, model.mode, model.attempts, model.due_date
        else:  # a set only known from its sessions: its drills as played, no attempts or due date
            title, mode, attempts, due = "", "", None, None
            drills = [(d, self.drill_facts(d)[0]) for d in sorted({s.drill_id for s in sessions})]
            if not sessions:
                raise web.HTTPNotFound(text=f"no drill set {set_id!r} is known to this console")
        playing = {(row.trainee, row.drill_id or "") for row in self.c.live.snapshot
                   if row.state == "playing" and row.set_id == set_id}  # fmt: skip
        # every other session (those of the set not verified too): a first attempt made there
        earlier = [r for r in graded.every if r.mode != "tutorial"]
        trainees, today = self.c.roster_trainees(), date.today()

        def built() -> Any:  # in a worker thread: a whole class's grid kept every tab waiting on the event loop
            return completion_grid(set_id, title, mode, attempts, due, drills, trainees, sessions, playing, today,
                                   earlier, graded.stored, graded.unverified)  # fmt: skip

        grid = await loop.run_in_executor(None, built)
        return await self.c.page_off_loop(request, "grid.html", f"Drill set {set_id}", "/console/sets", grid=grid,
                                          skipped=self.set_note(_skipped_note(request.raw_path, graded.problems)))

    # --- trainees -------------------------------------------------------------------------------------------------

    async def trainees(self, request: web.Request) -> web.StreamResponse:
        """``GET /console/trainees``: every trainee (roster and store) with their figures over the counted
        sessions, counts beside every rate; ``?name=NAME``: that trainee's page (a name a path cannot hold: ``..``)."""
        if request.query.get("name"):  # (an empty name is no trainee's: the list, where it drew a page of nobody)
            return await self.trainee(request)
        await self.c.counting_note()

        def figures(store: Any) -> Any:
            from warroom.store.cohort import cohort_stats

            return cohort_stats(store)

        try:
            result = await self.c.in_store(figures)
        except Exception as exc:
            return _store_problem(self.c, request, exc)
        stats = {t.trainee: t for t in result.stats.trainees}
        names = list(dict.fromkeys([*self.c.roster_trainees(), *sorted(stats)]))
        rows = [(name, stats.get(name)) for name in names]
        return await self.c.page_off_loop(request, "trainees.html", "Trainees", "/console/trainees", rows=rows,
                                          label=result.counted.label)  # a whole class's figures  # fmt: skip

    async def trainee(self, request: web.Request) -> web.StreamResponse:
        """``GET /console/trainees/{name}``: one trainee's progress (plots) and sessions."""
        from warroom.console import detect_plot, kinds_plot, progress, sensitivity_plot

        name = request.match_info.get("name") or request.query.get("name", "")
        await self.c.counting_note()

        def read(store: Any) -> tuple[list[Any], Any, tuple[list[Any], int, dict[str, str]], list[Any]]:
            from warroom.store.cohort import FactsQuery, prepared, read_facts

            query = prepared(store, FactsQuery(trainee=name))  # (the first attempts among those not verified too)
            facts, uncounted = read_facts(store, query, with_left_out=True)
            sessions, unread = store.query_readable(trainee=name, limit=LIST_LIMIT, sort="when")  # the newest first
            checks = store.checks([s.session_id for s in sessions])
            left_out = {sid: c.state for sid, c in checks.items() if c.state != "verified"}
            listed = (sessions, store.count(trainee=name), left_out)  # (how many: a list cut says so)
            return facts, query.within, listed, [*uncounted, *unread]

        try:
            facts, within, (sessions, stored, left_out), problems = await self.c.in_store(read)
        except Exception as exc:
            return _store_problem(self.c, request, exc)
        if not (sessions or facts or problems) and name not in self.c.roster_trainees():  # a typo, a name gone: its
            # page said "No counted session yet" of a trainee nobody is, as if they had not played
            raise web.HTTPNotFound(text=f"no trainee {name!r}: not on the roster, and no session of that name is "
                                        "stored")  # fmt: skip

        def draw() -> tuple[Any, list[tuple[str, str]]]:
            made = progress(name, facts, self.fault_kind, within)
            plots = [("sensitivity", sensitivity_plot(made)), ("kinds", kinds_plot(made))]
            plots.append(("detect", detect_plot(made)))
            return made, [(key, svg) for key, svg in plots if svg is not None]

        made, plots = await asyncio.get_running_loop().run_in_executor(None, draw)
        from markupsafe import Markup

        figures = [(key, Markup(svg)) for key, svg in plots]  # matplotlib's SVG, its text escaped by matplotlib
        from warroom.core.stats import MIN_NOISE_TRIALS, MIN_SIGNAL_TRIALS

        return await self.c.page_off_loop(request, "trainee.html", f"Trainee {name}", "/console/trainees", name=name,
                                          progress=made, figures=figures, sessions=sessions, stored=stored,
                                          left_out=left_out, minimum=(MIN_SIGNAL_TRIALS, MIN_NOISE_TRIALS),
                                          skipped=_skipped_note(request.raw_path, problems))  # fmt: skip

    # --- sessions and reviews -------------------------------------------------------------------------------------

    async def sessions(self, request: web.Request) -> web.StreamResponse:
        """``GET /console/sessions``: stored sessions, newest first (``?trainee=``, ``?drill=``, ``?set=``)."""
        await self.c.counting_note()
        q = request.query
        trainee, drill, set_id = q.get("trainee") or None, q.get("drill") or None, q.get("set") or None
        def read(store: Any) -> tuple[list[Any], list[Any], dict[str, str], int]:
            rows, problems = store.query_readable(trainee=trainee, drill=drill, set_id=set_id, limit=LIST_LIMIT)
            checks = store.checks([r.session_id for r in rows])
            stored = store.count(trainee=trainee, drill=drill, set_id=set_id) if len(rows) >= LIST_LIMIT else len(rows)
            return rows, problems, {sid: c.state for sid, c in checks.items() if c.state != "verified"}, stored

        try:
            rows, problems, left_out, stored = await self.c.in_store(read)
        except Exception as exc:
            return _store_problem(self.c, request, exc)
        return await self.c.page_off_loop(request, "sessions.html", "Sessions", "/console/sessions", rows=rows,
                                          trainee=trainee, drill=drill, set_id=set_id, stored=stored,
                                          left_out=left_out,
                                          skipped=_skipped_note(request.raw_path, problems))  # fmt: skip

    async def _review(self, session_id: str, trainee: str | None = None) -> Any:
        """The review data of a stored session (``trainee``: only when it is theirs), or None when there is none."""
        from warroom.store.errors import SessionNotFound

        def read(store: Any) -> Any:
            from warroom.store.review import load_review

            try:
                session = store.get(session_id)
            except SessionNotFound:
                return None
            if session.session_id != session_id or (trainee is not None and session.trainee != trainee):
                return None  # an exact id only: no prefix guessing from a browser
            return load_review(session, self.c.drill_dirs, store)  # verified too: says when its results disagree

        return await self.c.in_store(read)

    async def session(self, request: web.Request) -> web.StreamResponse:
        """``GET /console/sessions/{session_id}``: the session's after-action review, its notes and a note form."""
        return await self._session_page(request, request.match_info["session_id"], None)

    async def _session_page(self, request: web.Request, session_id: str, trainee: str | None) -> web.StreamResponse:
        from warroom.console import review_lines
        from warroom.store.errors import CorruptSession

        await self.c.counting_note()
        try:
            data = await self._review(session_id, trainee)
        except CorruptSession as exc:  # this one row: the store itself is readable (never a 503)
            log.warning("console page %s: %s", request.raw_path, exc)
            here = "/mine" if trainee is not None else "/console/sessions"
            response = self.c.page(request, "problem.html", "The session cannot be read", here, problem=str(exc))
            response.set_status(422)
            return response
        except Exception as exc:
            return _store_problem(self.c, request, exc)
        if data is None:
            raise web.HTTPNotFound(text=f"no stored session {session_id!r}")
        lines = review_lines(data.review_rows.rows) if data.review_rows is not None else []
        here = "/mine" if trainee is not None else "/console/sessions"
        # A trainee never saw the answer key of a drill they quit (no debrief): their own page keeps it hidden, so
        # it cannot be read before another attempt.
        from warroom.core.model import session_reached_debrief

        hidden = trainee is not None and not session_reached_debrief(data.session.outcome)
        return await self.c.page_off_loop(request, "review.html", f"Session {session_id}", here, data=data,
                                          s=data.session, lines=[] if hidden else lines,
                                          facilitator=trainee is None, hidden=hidden,
                                          notices=_public(data.notices))  # fmt: skip

    async def add_note(self, request: web.Request) -> web.StreamResponse:
        """``POST /console/sessions/{session_id}/notes`` (form field ``text``): store a note by the signed-in
        facilitator, then back to the review. A request from another site's page is refused (the sign-in's
        middleware, :func:`~warroom.serve._signin.from_another_site`)."""
        session_id = request.match_info["session_id"]
        from warroom.serve._live import utc
        from warroom.serve._signin import read_form

        form = await read_form(request, self.c.signins.proxies)
        text = str(form.get("text", ""))[:10_000]
        author = self.c.signins.facilitator_of(request) or "facilitator"
        from warroom.store.errors import StoreError

        def write(store: Any) -> Any:
            return store.add_note(session_id, author=author, text=text, at=utc())

        try:
            await self.c.in_store(write)
        except StoreError as exc:
            back = f"/console/sessions/{quote(session_id, safe='')}"
            response = self.c.page(request, "problem.html", "The note was not stored", "/console/sessions",
                                   problem=str(exc), back=back)  # fmt: skip
            response.set_status(400)
            return response
        log.info("note on session %s by %r", session_id, author)
        raise web.HTTPSeeOther(f"/console/sessions/{quote(session_id, safe='')}#notes")

    async def compare(self, request: web.Request) -> web.StreamResponse:
        """``GET /console/compare?drill=ID&a=TRAINEE&b=TRAINEE``: two trainees' sessions of one drill side by side
        (each one's first session of it unless ``sa`` / ``sb`` name a session)."""
        from warroom.console import compare_lines, first_attempt_first

        q = request.query
        drill, names = q.get("drill", ""), (q.get("a", ""), q.get("b", ""))
        await self.c.counting_note()

        def read(store: Any) -> Any:
            rows, problems = store.query_readable(drill=drill, limit=0, sort="when") if drill else ([], [])
            trainees = sorted({r.trainee for r in rows})
            order = first_attempt_first(store, rows)  # the gradebook's first attempt, not the earliest start: a
            # replay stamped earlier by a clock set back was compared as the trainee's first session
            picked = []
            for name, key in zip(names, ("sa", "sb"), strict=True):
                mine = sorted((r for r in rows if r.trainee == name), key=order)
                chosen = next((r for r in mine if r.session_id == q.get(key)), mine[0] if mine else None)
                picked.append((mine, chosen))
            return rows, trainees, picked, problems

        try:
            rows, trainees, picked, problems = await self.c.in_store(read)
            reviews = [await self._review(chosen.session_id) if chosen else None for _, chosen in picked]
        except Exception as exc:
            return _store_problem(self.c, request, exc)
        lines = []
        first, second = reviews
        if first is not None and second is not None and first.review_rows and second.review_rows:
            lines = compare_lines(first.review_rows.rows, second.review_rows.rows)
        drills = sorted({r.drill_id for r in rows}) if rows else []
        return await self.c.page_off_loop(request, "compare.html", "Compare two trainees", "/console/sessions",
                                          drill=drill, names=names, trainees=trainees, picked=picked,
                                          reviews=reviews, lines=lines,
                                          drills=drills, skipped=_skipped_note(request.raw_path, problems))  # fmt: skip

    # --- gradebook and roster -------------------------------------------------------------------------------------

    async def gradebook(self, request: web.Request) -> web.StreamResponse:
        """``GET /console/gradebook``: the export's form (a set, or a date range)."""
        await self.c.counting_note()
        loop = asyncio.get_running_loop()
        known = [model.set for _, model, _ in await loop.run_in_executor(None, self._sets)]
        try:
            rows, problems = await self.c.in_store(lambda s: s.query_readable(limit=0))
        except Exception as exc:
            return _store_problem(self.c, request, exc)
        played = sorted({r.set_id for r in rows if r.set_id})
        sets = list(dict.fromkeys([*known, *played]))
        return self.c.page(request, "gradebook.html", "Gradebook export", "/console/gradebook", sets=sets,
                           skipped=self.set_note(_skipped_note(request.raw_path, problems)))  # fmt: skip

    async def gradebook_csv(self, request: web.Request) -> web.StreamResponse:
        """``GET /console/gradebook.csv?set=ID`` or ``?since=DATE&until=DATE``: the trainee x drill matrix."""
        from warroom.console import gradebook_csv
        from warroom.store.timestamps import parse_since

        q = request.query
        set_id = q.get("set") or None
        try:
            since = parse_since(q["since"]) if q.get("since") else None
            until = parse_since(q["until"]) if q.get("until") else None
        except ValueError as exc:
            raise web.HTTPBadRequest(text=f"a date is not understood: {exc}") from None
        if since is not None and until is not None and until <= since:  # dates swapped: no session is in such a
            # range, and the CSV of blank grades it made looked like a class that played nothing
            wrong = f"no time is from {q['since'].strip()} until {q['until'].strip()} (not included)"
            raise web.HTTPBadRequest(text=f"{wrong}: give the earlier date as from and the later as until")
        loop = asyncio.get_running_loop()
        known = {model.set: drills for _, model, drills in await loop.run_in_executor(None, self._sets)}
        try:  # every session too, for first attempts made outside the scope or not verified (their replays in the
            # scope are not the first attempt)
            graded = await self.c.in_store(lambda store: _graded(store, set_id=set_id, since=since))
        except Exception as exc:
            return _store_problem(self.c, request, exc)
        if set_id is not None and set_id not in known and not graded.rows:  # a typo must not download an empty grade
            raise web.HTTPNotFound(text=f"no drill set {set_id!r}: none was given with --set or --console-set, and "
                                        "no session was played in one of that id")  # fmt: skip
        rows = [r for r in graded.rows if r.mode != "tutorial" and (until is None or r.started_at < until)]
        drills = [d for d, _ in known.get(set_id or "", [])]
        in_scope = {r.session_id for r in rows}
        earlier = [r for r in graded.every if r.mode != "tutorial" and r.session_id not in in_scope]
        text = await loop.run_in_executor(None, gradebook_csv, rows, drills, self.c.roster_trainees(), earlier,
                                          graded.stored, graded.unverified)  # fmt: skip
        problems = graded.problems
        # a header holds no control character: a set id stored by SQL (never checked by warroom) may hold any
        name = "gradebook-" + re.sub(r"[^A-Za-z0-9._-]", "-", set_id or "sessions")[:80] + ".csv"
        # the class's grades: never kept by the browser's cache or a proxy on the way (as every console page)
        headers = {"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"}
        if problems:  # a download has no page to say it on: a header, and the server's log names each row
            headers["X-Warroom-Skipped"] = _skipped_note(request.raw_path, problems, name=False)
        if self.set_problems:  # (a file name in a header: printable ASCII only, any other character is no header's)
            headers["X-Warroom-Set-Problem"] = re.sub(r"[^\x20-\x7e]", "?", self.set_note())
        return web.Response(text=text, content_type="text/csv", charset="utf-8", headers=headers)

    async def roster(self, request: web.Request) -> web.StreamResponse:
        """``GET /console/roster``: who is on the roster, their role, and whether they are signed in now."""
        await self.c.counting_note()
        roster = self.c.signins.roster
        entries = [(name, roster.role_of(name)) for name in roster.entries] if roster is not None else []
        live = {row.trainee for row in self.c.live.snapshot if row.state != "disconnected"}
        return self.c.page(request, "roster.html", "Roster", "/console/roster", entries=entries, live=live,
                           path=self.c.signins.roster_path)  # fmt: skip

    # --- a trainee's own sessions ---------------------------------------------------------------------------------

    async def mine(self, request: web.Request) -> web.StreamResponse:
        """``GET /mine``: the signed-in trainee's own sessions, with the notes left on them."""
        trainee = self.c.signins.trainee_of(request) or ""

        def read(store: Any) -> tuple[list[Any], dict[str, list[Any]], list[Any]]:
            rows, problems = store.query_readable(trainee=trainee, limit=LIST_LIMIT)
            return rows, store.facilitator_notes([r.session_id for r in rows]), problems

        try:
            rows, notes, problems = await self.c.in_store(read)
        except Exception as exc:
            return _store_problem(self.c, request, exc)
        return await self.c.page_off_loop(request, "mine.html", "Your sessions", "/mine", rows=rows, notes=notes,
                                          trainee=trainee,
                                          skipped=_skipped_note(request.raw_path, problems))  # fmt: skip

    async def my_session(self, request: web.Request) -> web.StreamResponse:
        """``GET /mine/{session_id}``: the review of one of the trainee's own sessions, with its notes."""
        trainee = self.c.signins.trainee_of(request) or ""
        return await self._session_page(request, request.match_info["session_id"], trainee)


def _public(notices: list[str]) -> list[str]:
    """The review's notices without the server's file paths (a drill file's path is the server's own business)."""
    return [re.sub(r"(?:/[^\s/:()]+)+/([^\s/:()]+)", r"\1", n) for n in notices]


def _graded(store: Any, *, set_id: str | None = None, since: str | None = None) -> Any:
    """:func:`warroom.console.graded_sessions` (imported when a grade is read)."""
    from warroom.console import graded_sessions

    return graded_sessions(store, set_id=set_id, since=since)
