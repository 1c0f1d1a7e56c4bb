"""``warroom serve``: the war room in a browser (textual-serve), and ``warroom serve roster add`` for its roster.

See docs/serve.md for the set-up of a class, the roster file and what the browser receives.
"""

from __future__ import annotations

import errno
import ipaddress
from pathlib import Path
from typing import Any

import click

from warroom.cli.common import (
    FiniteFloat,
    GivenPath,
    WholeNumber,
    data_dir_setting,
    drills_setting,
    store_setting,
    trainee_setting,
)
from warroom.core.settings import Settings
from warroom.core.text import clean_name

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


def is_loopback(host: str) -> bool:
    """True for a loopback host (127.0.0.0/8, ::1, ``localhost``); False for anything else, ``0.0.0.0`` included."""
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _proxies(ctx: click.Context, param: click.Parameter, value: str) -> tuple[Any, ...]:
    """``--forwarded-allow-ips`` read: the proxies' networks (a usage error names the first that is none), with a
    warning on stderr when they trust every client (the server's log says it too, once it starts)."""
    from warroom.serve import trusted_proxies, wide_proxies_warning

    try:
        proxies = trusted_proxies(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc), ctx, param) from None
    wide = wide_proxies_warning(proxies)
    if wide:
        click.echo(f"warning: {wide}", err=True)
    return proxies


def _host_names(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...]:
    """``--allowed-host`` read: each a host name (letters, digits, ``-``, ``.``, ``_``; an address in brackets or
    not), a usage error naming the first that is none (a URL, a pattern such as ``*``, a space)."""
    import re

    for name in value:
        if not re.fullmatch(r"[A-Za-z0-9._-]+|\[?[0-9A-Fa-f:.%]+\]?", name):
            raise click.BadParameter(f"{name[:60]!r} is not a host name (give the name alone, such as "
                                     "warroom.school.example: no scheme, port, path or pattern)", ctx, param)
    return value


def _host(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """``--host`` read: an empty one (``--host "$HOST"``, the variable unset) is a usage error, where it listened on
    every address of the machine (the server's empty host) behind a banner naming none (``http://:8000``)."""
    if not value.strip():
        raise click.BadParameter("an empty address names none: give 127.0.0.1 (this machine only), or 0.0.0.0 (every "
                                 "address: the network, with a --roster)", ctx, param)
    return value


@click.group("serve", invoke_without_command=True)
@click.option("--host", default="127.0.0.1", show_default=True, callback=_host,
              help="Address to listen on; anything but loopback opens the war room to the network (use a --roster).")
@click.option("--port", type=WholeNumber(0, 65535), default=8000, show_default=True, help="Port to listen on.")
@click.option("--roster", "roster_path", type=GivenPath(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Roster of trainees and token hashes (`warroom serve roster add`); without it, nobody signs in "
              "and every browser plays as the --trainee.")
@click.option("--max-sessions", type=WholeNumber(min=1), default=None,
              help="Most sessions (browser tabs) at once; the one over the limit gets an HTTP 503 page.")
@click.option("--tabs-per-trainee", type=WholeNumber(min=1), default=1, show_default=True,
              help="War room tabs one trainee plays in at once; another tab offers to take over.")
@click.option("--set", "drill_set", type=GivenPath(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Offer only the drills of this drill set, in its order and mode (checked before serving).")
@click.option("--console-set", "console_sets", type=GivenPath(exists=True, dir_okay=False, path_type=Path),
              multiple=True, help="A drill set whose completion grid the console shows, besides the --set served "
              "(repeat for several).")
@click.option("--stuck-after", type=FiniteFloat(min=5), default=90.0, show_default=True,
              help="Seconds without an action after which the console shows a trainee playing a drill as stuck.")
@click.option("--forwarded-allow-ips", "proxies", default="", metavar="ADDRESSES", callback=_proxies,
              help="Reverse proxies (addresses or networks, comma-separated: 127.0.0.1, 10.0.0.0/8) whose "
              "X-Forwarded-For names the client for the sign-in limits and the log; default none: every client is "
              "the address that connected.")
@click.option("--allowed-host", "allowed_hosts", multiple=True, metavar="NAME", callback=_host_names,
              help="A host name browsers reach this server by (a reverse proxy's public name, the server's DNS "
              "name; repeat for several), besides its addresses, localhost and this machine's names: a request "
              "for any other name is refused (HTTP 421), as a page of another site rebinding its name would be.")
@store_setting
@drills_setting
@trainee_setting
@data_dir_setting
@click.pass_context
def serve(
    ctx: click.Context,
    host: str,
    port: int,
    roster_path: Path | None,
    max_sessions: int | None,
    tabs_per_trainee: int,
    drill_set: Path | None,
    console_sets: tuple[Path, ...],
    stuck_after: float,
    proxies: tuple[Any, ...],
    allowed_hosts: tuple[str, ...],
) -> None:
    """Serve the war room to browsers: sign-in, the drill picker, the war room, the debrief.

    Each browser tab runs its own warroom process on this host, as the trainee the roster names for its sign-in
    token; results go to the store (--store URL, else $WARROOM_STORE, else the local SQLite file). A tab closed
    mid-drill is stored as an abandoned session. A facilitator of the roster signs in to the console (/console):
    the class live, drill sets' completion grids, progress, reviews, notes and the gradebook. Stop with Ctrl+C."""
    if ctx.invoked_subcommand is not None:
        return
    _need_textual_serve()
    from warroom.cli.common import check_store, load_set_option, recover_and_report, settings_of
    from warroom.serve import AppOptions, Console, LiveClass, ServeError, SignIns, WarroomServer, host_id
    settings: Settings = settings_of(ctx)
    for set_file in (drill_set, *console_sets):
        if set_file is not None:
            load_set_option(set_file, settings)  # a bad set file stops here, not in every browser tab
    roster, stamp = _served_roster(roster_path) if roster_path is not None else (None, None)
    _warn_of_stop_grace()
    if not is_loopback(host) and roster is None:
        click.echo(f"warning: serving on {host} without a --roster: anyone who can reach this host plays as "
                   f"{settings.trainee!r} without signing in", err=True)
    check_store(settings, roster.trainees if roster is not None else None)  # the host stores every trainee's
    recover_and_report(settings, told=False)  # sessions killed with a host that was (a power cut, the OOM killer):
    # the console counted them only once their trainee opened a tab again, where `warroom scores summary` counted them
    # at once; each trainee is told in their next tab (the server's log is no trainee's: the settings' trainee, every
    # tab's without a roster, was never told)
    _warm_picker_cache(settings)
    options = AppOptions(drill_dirs=settings.drill_dirs, data_dir=settings.data_dir, drill_set=drill_set)
    signins = SignIns(roster=roster, default_trainee=settings.trainee, roster_path=roster_path, proxies=proxies,
                      roster_stamp=stamp)  # fmt: skip
    live = LiveClass(host_id(port, host), settings.data_dir)
    signins.on_change = live.signin_changed
    console = None
    if roster is not None:
        sets = tuple(dict.fromkeys(p.resolve() for p in (drill_set, *console_sets) if p is not None))
        console = _console(roster, Console(signins, live, settings.data_dir, drill_dirs=settings.drill_dirs,
                                           set_files=sets, stuck_after=stuck_after))  # fmt: skip
    server = WarroomServer(signins, options, host=host, port=port, max_sessions=max_sessions, live=live,
                           console=console, tabs_per_trainee=tabs_per_trainee,
                           allowed_hosts=allowed_hosts)  # fmt: skip
    try:
        server.serve()
    except ServeError as exc:
        raise click.ClickException(str(exc)) from None


def _warn_of_stop_grace() -> None:
    """Say on stderr that ``$WARROOM_SERVE_STOP_GRACE``, ``$WARROOM_SERVE_WRITE_STALL`` or
    ``$WARROOM_SERVE_HEARTBEAT`` sets no number of seconds (the default is used then)."""
    from warroom.serve import HEARTBEAT_WARNING, STOP_GRACE_WARNING, WRITE_STALL_WARNING

    for warning in (STOP_GRACE_WARNING, WRITE_STALL_WARNING, HEARTBEAT_WARNING):
        if warning is not None:
            click.echo(f"warning: {warning}", err=True)


def _need_textual_serve() -> None:
    """Checked first: the server is built on textual-serve and its aiohttp."""
    try:
        import textual_serve  # noqa: F401
    except ImportError:
        raise click.ClickException(
            "`warroom serve` needs textual-serve, which is not installed: pip install 'warroom[serve]'"
        ) from None


def _warm_picker_cache(settings: Settings) -> None:
    """Read the drill library once before serving, so that the picker's cache (warroom.core.library's, in the cache
    directory) is written before any tab starts: else every app process of a class that starts together reads and
    checks every drill file itself (0.9 s of CPU each for the 44 bundled drills, against 0.1 s from the cache), and
    on a loaded host the last tabs waited minutes for the picker (benchmarks/README.md, issue 36)."""
    from warroom.core.settings import resolve_cache_dir
    from warroom.tui.logic import Services

    Services(trainee=settings.trainee, data_dir=settings.data_dir, drill_dirs=settings.drill_dirs,
             cache_dir=resolve_cache_dir()).catalog()  # fmt: skip


def _console(roster: Any, console: Any) -> Any:
    """The console of a served class; a note on stderr when no facilitator of the roster can open it."""
    if not roster.facilitators:
        click.echo("note: the roster has no facilitator, so nobody can open the console (add one with "
                   "`warroom serve roster add --facilitator ROSTER NAME`)", err=True)
    return console


@serve.group("roster")
def roster_group() -> None:
    """Manage the roster file of `warroom serve --roster`."""


def _served_roster(roster_path: Path) -> tuple[Any, tuple[int, int]]:
    """The roster ``warroom serve`` serves, and its file's stamp from before it was read (the server reads the file
    again once its stamp changes: a change from now on is read). A roster of nobody is refused."""
    from warroom.serve import SignIns

    stamp = SignIns.stamp_of(roster_path)
    roster = _load_roster(roster_path)
    if not roster.entries:
        raise click.ClickException(f"{clean_name(roster_path)}: the roster has no trainees; add one with "
                                   "`warroom serve roster add`")  # fmt: skip
    return roster, stamp


def _load_roster(roster_path: Path, *, must_exist: bool = False) -> Any:
    from warroom.serve import Roster, RosterError

    if must_exist and not roster_path.exists():
        from warroom.core.files import why_missing

        shown = clean_name(roster_path)
        why = why_missing(roster_path) or "no such roster (`warroom serve roster add` creates one)"
        raise click.ClickException(f"{shown}: {why}")
    try:
        return Roster.load(roster_path)
    except RosterError as exc:
        raise click.ClickException(clean_name(exc)) from None


def _save_roster(roster: Any, roster_path: Path) -> None:
    try:
        roster.save(roster_path)
    except OSError as exc:
        shown = clean_name(roster_path)
        from warroom.cli.common import missing_folder

        why = missing_folder(roster_path) if exc.errno in (errno.ENOENT, errno.ENOTDIR) else None
        raise click.ClickException(f"{shown}: cannot write the roster: {why or exc.strerror or exc}") from None


def _issue_tokens(roster: Any, names: tuple[str, ...], role: str | None, roster_path: Path) -> None:
    """Give each of ``names`` a new token on ``roster`` (in ``role``; None: each name's role so far), save it to
    ``roster_path`` and print each ``NAME<TAB>TOKEN``, once. A bad or repeated NAME is a usage error, and nothing
    is written."""
    from warroom.errors import SettingsError
    from warroom.serve import new_token

    issued: list[tuple[str, str]] = []
    for name in names:
        token = new_token()
        try:
            roster = roster.with_trainee(name, token, role)
        except SettingsError as exc:
            raise click.UsageError(f"NAME {name!r}: {exc}") from None
        if any(name.strip() == earlier for earlier, _ in issued):  # two tokens printed, only the last one valid
            raise click.UsageError(f"NAME {name.strip()!r} is given twice: each name gets one token")
        issued.append((name.strip(), token))
    _save_roster(roster, roster_path)
    for name, token in issued:
        click.echo(f"{name}\t{token}")


@roster_group.command("add")
@click.argument("roster_path", metavar="ROSTER", type=GivenPath(dir_okay=False, path_type=Path))
@click.argument("names", metavar="NAME...", nargs=-1, required=True)
@click.option("--facilitator", is_flag=True, help="Add them as facilitators: they sign in to the console (/console), "
              "never to a war room.")
def roster_add(roster_path: Path, names: tuple[str, ...], facilitator: bool) -> None:
    """Add trainees (or, with --facilitator, facilitators) to ROSTER (created when missing) and print each one's new
    sign-in token, once.

    The file keeps only a hash of each token: hand each person their token now. Adding a name already on the
    roster gives it a new token (as `roster rotate` does) and the role asked for; a running `warroom serve` reads
    the changed roster at once (the old token and its sign-ins stop working).
    """
    from warroom.serve import FACILITATOR, TRAINEE

    _issue_tokens(_load_roster(roster_path), names, FACILITATOR if facilitator else TRAINEE, roster_path)


@roster_group.command("list")
@click.argument("roster_path", metavar="ROSTER", type=GivenPath(dir_okay=False, path_type=Path))
def roster_list(roster_path: Path) -> None:
    """List the names on ROSTER with their role, one per line (`NAME<TAB>ROLE`), in the file's order; tokens are
    never shown (the file holds only their hashes)."""
    from warroom.core.text import clean_line

    roster = _load_roster(roster_path, must_exist=True)
    for name in roster.entries:
        click.echo(f"{clean_line(name)}\t{roster.role_of(name)}")


@roster_group.command("remove")
@click.argument("roster_path", metavar="ROSTER", type=GivenPath(dir_okay=False, path_type=Path))
@click.argument("names", metavar="NAME...", nargs=-1, required=True)
def roster_remove(roster_path: Path, names: tuple[str, ...]) -> None:
    """Remove NAMEs from ROSTER. A running `warroom serve` reads the changed roster at once: their sign-ins end
    (an open war room tab plays on until it is closed; its sessions are kept)."""
    from warroom.errors import SettingsError

    roster = _load_roster(roster_path, must_exist=True)
    try:
        roster = roster.without(list(names))
    except SettingsError as exc:
        raise click.UsageError(str(exc)) from None
    _save_roster(roster, roster_path)
    click.echo(f"removed {', '.join(n.strip() for n in names)}; {len(roster.entries)} left on the roster")


@roster_group.command("rotate")
@click.argument("roster_path", metavar="ROSTER", type=GivenPath(dir_okay=False, path_type=Path))
@click.argument("names", metavar="NAME...", nargs=-1, required=True)
def roster_rotate(roster_path: Path, names: tuple[str, ...]) -> None:
    """Give NAMEs (already on ROSTER) new sign-in tokens and print each, once (`NAME<TAB>TOKEN`). The old token
    stops working at once, also on a running `warroom serve`, and the sign-ins made with it end."""
    roster = _load_roster(roster_path, must_exist=True)
    missing = [n for n in names if n.strip() not in roster.entries]
    if missing:
        raise click.UsageError(f"{roster.not_on_it(missing)} (`roster add` adds them)")
    _issue_tokens(roster, names, None, roster_path)
