"""``warroom schema``: print or write the drill format's JSON Schema (draft-07), built by
:mod:`warroom.core.author._schema`."""

from __future__ import annotations

from pathlib import Path

import click

from warroom.cli.common import output_option


@click.command("schema")
@output_option("Write the schema to this file instead of printing it (- for standard output).")
def schema(output: Path | None) -> None:
    """Print the drill format's JSON Schema (draft-07), with a description on every field.

    Point your editor at it for completion and checking while writing drills. With the YAML extension of VS Code
    (yaml-language-server), put this line at the top of a drill file:

        # yaml-language-server: $schema=../schema/drill.schema.json

    (the path is relative to the drill file; `warroom schema --output drill.schema.json` writes a copy anywhere).
    The schema checks keys and types; `warroom validate` also checks ids, references, times and the deadline.
    """
    from warroom.cli.common import emit
    from warroom.core.author import drill_json_schema_text
    from warroom.core.text import shown_path

    text = drill_json_schema_text()
    if output is None:
        click.echo(text, nl=False)
        return
    emit(text, output, what="schema")  # whole or not at all; through a symbolic link; a read-only file refused
    click.echo(f"wrote {shown_path(output)}", err=True)
