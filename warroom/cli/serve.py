"""``warroom serve``: the war room in a browser (textual-serve), and ``warroom serve roster add`` for its roster.

See docs/serve.md for the set-up of a class, the roster file and what the browser receives.
"""

from __future__ import annotations

import ipaddress
from pathlib import Path

import click

from warroom.cli.common import data_dir_setting, drills_setting, store_option, trainee_setting, use_store
from warroom.core.settings import Settings

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


def is_loopback(host: str) -> bool:
    """True for a loopback host (127.0.0.0/8, ::1, ``localhost``); False for anything else, ``0.0.0.0`` included."""
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@click.group("serve", invoke_without_command=True)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on; anything but loopback "
              "opens the war room to the network (use a --roster).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port to listen on.")
@click.option("--roster", "roster_path", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Roster of trainees and token hashes (`warroom serve roster add`); without it, nobody signs in "
              "and every browser plays as the --trainee.")
@click.option("--max-sessions", type=click.IntRange(min=1), default=None,
              help="Most sessions (browser tabs) at once; the one over the limit gets an HTTP 503 page.")
@click.option("--set", "drill_set", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Offer only the drills of this drill set, in its order and mode (checked before serving).")
@store_option
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
    drill_set: Path | None,
    store_url: str | None,
) -> None:
    """Serve the war room to browsers: sign-in, the drill picker, the war room, the debrief.

    Each browser tab runs its own warroom process on this host, as the trainee the roster names for its sign-in
    token; results go to the store (--store URL, else $WARROOM_STORE, else the local SQLite file). A tab closed
    mid-drill is stored as an abandoned session. Stop with Ctrl+C.
    """
    if ctx.invoked_subcommand is not None:
        return
    try:
        import textual_serve  # noqa: F401  (checked first: the server is built on it and its aiohttp)
    except ImportError:
        raise click.ClickException(
            "`warroom serve` needs textual-serve, which is not installed: pip install 'warroom[serve]'"
        ) from None
    from warroom.cli.common import check_store, load_set_option, settings_of
    from warroom.serve import AppOptions, Roster, RosterError, ServeError, SignIns, WarroomServer

    settings: Settings = settings_of(ctx)
    use_store(store_url)
    if drill_set is not None:
        load_set_option(drill_set, settings)  # a bad set file stops here, not in every browser tab
    roster = None
    if roster_path is not None:
        try:
            roster = Roster.load(roster_path)
        except RosterError as exc:
            raise click.ClickException(str(exc)) from None
        if not roster.entries:
            raise click.ClickException(f"{roster_path}: the roster has no trainees; add one with "
                                       "`warroom serve roster add`")
    if not is_loopback(host) and roster is None:
        click.echo(f"warning: serving on {host} without a --roster: anyone who can reach this host plays as "
                   f"{settings.trainee!r} without signing in", err=True)
    check_store(settings, list(roster.entries) if roster is not None else None)  # the host stores every trainee's
    options = AppOptions(drill_dirs=settings.drill_dirs, data_dir=settings.data_dir, drill_set=drill_set)
    signins = SignIns(roster=roster, default_trainee=settings.trainee)
    try:
        WarroomServer(signins, options, host=host, port=port, max_sessions=max_sessions).serve()
    except ServeError as exc:
        raise click.ClickException(str(exc)) from None


@serve.group("roster")
def roster_group() -> None:
    """Manage the roster file of `warroom serve --roster`."""


@roster_group.command("add")
@click.argument("roster_path", metavar="ROSTER", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("names", metavar="NAME...", nargs=-1, required=True)
def roster_add(roster_path: Path, names: tuple[str, ...]) -> None:
    """Add trainees to ROSTER (created when missing) and print each one's new sign-in token, once.

    The file keeps only a hash of each token: hand each trainee their token now. Adding a name already on the
    roster gives it a new token (the old one stops working at the next `warroom serve`).
    """
    from warroom.errors import SettingsError
    from warroom.serve import Roster, RosterError, new_token

    try:
        roster = Roster.load(roster_path)
    except RosterError as exc:
        raise click.ClickException(str(exc)) from None
    issued: list[tuple[str, str]] = []
    for name in names:
        token = new_token()
        try:
            roster = roster.with_trainee(name, token)
        except SettingsError as exc:
            raise click.UsageError(f"NAME {name!r}: {exc}") from None
        if any(name.strip() == earlier for earlier, _ in issued):  # two tokens printed, only the last one valid
            raise click.UsageError(f"NAME {name.strip()!r} is given twice: each trainee gets one token")
        issued.append((name.strip(), token))
    try:
        roster.save(roster_path)
    except OSError as exc:
        raise click.ClickException(f"{roster_path}: cannot write the roster: {exc.strerror or exc}") from None
    for name, token in issued:
        click.echo(f"{name}\t{token}")
