"""``warroom migrate FILE...``: rewrite version-1 drill files as version 2 (:mod:`warroom.core.author._migrate`)."""

from __future__ import annotations

from pathlib import Path

import click

from warroom.cli.common import GivenPath


@click.command("migrate")
@click.argument("files", nargs=-1, required=True, type=GivenPath(path_type=Path))
@click.option("--dry-run", is_flag=True, help="Say what would change; write nothing.")
def migrate(files: tuple[Path, ...], dry_run: bool) -> None:
    """Rewrite version-1 drill FILES as format version 2, comments and layout kept.

    Format 2 only adds to format 1, so only the `schema_version` line changes; the result is loaded again and must
    be the same drill. A file that is not a valid drill is reported (`path:line:col: message`) and left alone.
    Exit status 0 when every file is version 2 (or would be, with --dry-run), 1 when any could not be migrated.
    """
    from warroom.core.author import migrate_file
    from warroom.core.load import DrillLoadError
    from warroom.core.text import clean, shown_path

    failed = 0
    for path in files:
        shown = shown_path(path)  # a file name holding a newline or an escape sequence stays on its line, inert
        try:
            result = migrate_file(path, write=not dry_run)
        except DrillLoadError as e:
            failed += 1
            for problem in e.problems:
                click.echo(clean(problem), err=True)
            click.echo(f"{shown}: not migrated", err=True)
            continue
        except OSError as e:
            failed += 1
            click.echo(f"{shown}: cannot write the file: {e.strerror or e}", err=True)
            continue
        if not result.changed:
            click.echo(f"{shown}: already version 2")
        else:
            click.echo(f"{shown}: {'would be migrated' if dry_run else 'migrated'} to version 2")
    if failed:
        raise SystemExit(1)
