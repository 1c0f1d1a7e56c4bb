"""``warroom migrate``: rewrite a version-1 drill file as version 2, losslessly, comments and layout kept.

Format 2 only adds to format 1 (docs/authoring.md, "Format version 2"), so a valid version-1 drill means the same
as version 2: :func:`migrate_text` changes the ``schema_version`` value where it is written and nothing else (every
comment, blank line, quote, anchor and line ending stays, but for the old skeleton's "keep 1" comment on that line,
which becomes today's skeleton comment), then loads the result and checks that it is the same
drill as before but for the version.
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from pathlib import Path

from yaml.nodes import MappingNode, ScalarNode

from warroom.core.files import read_only_mode, replace_file
from warroom.core.load import DrillLoadError, Problem, compose_text, load_drill_text


@dataclass(frozen=True)
class Migrated:
    """What migrating one file did: ``changed`` (False when it already was version 2) and its new ``text``."""

    path: str
    changed: bool
    text: str


def migrate_text(text: str, path: str = "<string>") -> Migrated:
    """The version-2 text of the drill ``text``.

    Raises :class:`DrillLoadError` when ``text`` is not a valid drill (its problems), or when the rewritten text
    would not load as the same drill (never expected: a bug, reported at the version's position).
    """
    drill = load_drill_text(text, path)
    if drill.schema_version == 2:
        return Migrated(path, False, text)
    body = text[1:] if text.startswith("\ufeff") else text
    offset = len(text) - len(body)
    root, aliases = compose_text(body, path)
    assert isinstance(root, MappingNode)  # a drill loaded, so its top level is a mapping
    pair = next(((k, v) for k, v in root.value if isinstance(k, ScalarNode) and k.value == "schema_version"), None)
    if pair is None:  # the version comes from a merge key (`<<: {schema_version: 1}`): a key of its own overrides it
        first = root.value[0][0].start_mark
        at = first.index - (0 if root.flow_style else first.column) + offset
        new_text = text[:at] + ("schema_version: 2, " if root.flow_style else "schema_version: 2\n") + text[at:]
        mark = first
    else:
        mark = aliases.get((id(root), id(pair[0]))) or pair[1].start_mark
        start, end = pair[1].start_mark.index + offset, pair[1].end_mark.index + offset
        if mark is not pair[1].start_mark or text[start] == "&":  # shared through an anchor: it cannot change alone
            raise DrillLoadError(path, [Problem(path, mark.line + 1, mark.column + 1, (
                "`schema_version` shares its value with another key through an anchor (&) and alias (*): write it "
                "as a number of its own (`schema_version: 1`), then migrate the drill"))])
        new_text = text[:start] + "2" + _current_comment(text[end:])
    again = load_drill_text(new_text, path)
    if again != drill.model_copy(update={"schema_version": 2}):  # pragma: no cover - format 2 only adds
        raise DrillLoadError(path, [Problem(path, mark.line + 1, mark.column + 1,
                                            "migrating would change the drill; not rewritten")])
    return Migrated(path, True, new_text)


#: The version comment of the format-1 skeleton of ``warroom new`` (before format 2), which would contradict the
#: new value; and the comment of today's skeleton that replaces it.
OLD_SKELETON_COMMENT = "# the drill format version; keep 1"
SKELETON_COMMENT = "# the drill format version: 2 is current (1 still loads)"


def _current_comment(rest: str) -> str:
    """``rest`` (the text after the version value) with the old skeleton's "keep 1" comment on the version line,
    if it is there, replaced by today's skeleton comment; any other comment is kept as written."""
    line, newline, tail = rest.partition("\n")
    if line.strip() != OLD_SKELETON_COMMENT:
        return rest
    return line.replace(OLD_SKELETON_COMMENT, SKELETON_COMMENT, 1) + newline + tail


def migrate_file(path: str | os.PathLike[str], write: bool = True) -> Migrated:
    """Migrate the drill file at ``path`` (see :func:`migrate_text`); with ``write``, replace the file atomically
    (bytes as UTF-8, the same line endings; see :func:`_write`). Raises :class:`DrillLoadError` for a file that is
    not a valid drill and OSError when it cannot be written (or is read-only)."""
    from warroom.core.files import read_limited, why_missing
    from warroom.core.load import limits
    from warroom.core.text import clean_name

    p = Path(path)
    try:
        data = read_limited(p, limits.MAX_FILE_BYTES)  # the size checked before reading, as the loader does
    except OSError as e:
        why = why_missing(p, e, os.fspath(path)) or f"cannot read the file: {clean_name(e.strerror or e)}"  # its path
        raise DrillLoadError(os.fspath(path), [Problem(os.fspath(path), 1, 1, why)]) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        from warroom.core.load import load_drill

        load_drill(p)  # reports where the bytes are not UTF-8
        raise
    result = migrate_text(text, os.fspath(path))
    if write and result.changed:
        _write(p, result.text)
    return result


def _write(path: Path, text: str) -> None:
    """Replace drill file ``path`` by ``text`` as ``warroom annotate``'s save does: through a symbolic link into the
    file it points to (the link stays a link), keeping the file's mode; a read-only file is refused (OSError), not
    written over."""
    target = Path(os.path.realpath(path))
    target.stat()  # gone since it was read: FileNotFoundError, not a new file
    shown = read_only_mode(target)
    if shown is not None:
        raise OSError(errno.EACCES, f"the file is read-only (mode {shown}): make it writable (chmod u+w) to migrate "
                      "it; nothing was written", os.fspath(path))  # fmt: skip
    replace_file(target, text)  # keeps the file's mode
