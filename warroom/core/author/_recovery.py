"""The recovery copy of ``warroom annotate``: unsaved marks kept when the author mode is stopped (SIGHUP, SIGTERM, a
lost terminal) and offered again by the next ``warroom annotate`` of the same file. No UI.

The copy is ``FILE.unsaved`` beside the drill file ``FILE``: the drill file with the draft of the answer key written
into it (as ``s`` would have saved it), so a person can also read it or compare it with the file. Its name does not
end in ``.yaml``, so ``warroom validate DIR`` and the drill picker never take it for a drill.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from warroom.core.author._annotatefile import AnnotatedFile, AnnotateError, open_for_annotation
from warroom.core.author._annotation import META, KeyDraft
from warroom.core.author._keywrite import KeyWriteError, apply_draft
from warroom.core.files import replace_file
from warroom.core.text import clean_name, shown_path

#: What is added to a drill file's name to name its recovery copy.
RECOVERY_SUFFIX = ".unsaved"


def recovery_path(path: str | os.PathLike[str]) -> Path:
    """The recovery copy of drill file ``path``: ``path`` with ``.unsaved`` added (``incident.yaml.unsaved``)."""
    target = Path(path)
    return target.with_name(target.name + RECOVERY_SUFFIX)


def write_recovery(file: AnnotatedFile, draft: KeyDraft) -> Path:
    """Write ``draft`` into a copy of ``file``'s drill file, ``FILE.unsaved`` (the drill file itself is not touched):
    through a temporary file in the same folder, flushed to disk (``fsync``) and renamed into place, so the copy is
    whole or absent. Returns its path. Raises KeyWriteError (with the OS's reason) when the drill file cannot be read
    or the copy cannot be written."""
    target = recovery_path(file.path)
    from warroom.core.files import read_limited
    from warroom.core.load import limits

    try:
        text = read_limited(file.path, limits.MAX_FILE_BYTES).decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise KeyWriteError(f"{clean_name(file.path)}: cannot read the drill file: {exc}") from None
    result = apply_draft(text, draft, file.event_order, str(file.path))
    try:
        replace_file(target, result)
    except OSError as exc:
        raise KeyWriteError(f"{shown_path(target)}: cannot write the recovery copy: {exc.strerror or exc}") from None
    return target


class Recovered:
    """What :func:`recover` found: ``draft`` (the recovered answer key, or None when there is none to use) and
    ``message`` (what to tell the author, or None when there was no recovery copy)."""

    def __init__(self, draft: KeyDraft | None, message: str | None) -> None:
        self.draft = draft
        self.message = message


def recover(file: AnnotatedFile) -> Recovered:
    """The unsaved marks of an earlier ``warroom annotate`` of ``file``, from its recovery copy, if there is one.

    The copy's draft is used only when its trace, plan and the rest of the drill (all but the answer key, the
    distractors, the author line and the title, difficulty and briefing the author mode sets) are those of the drill
    file now; otherwise (the file was changed since, or the copy cannot be read) the copy is left where it is and the
    message says why it was not used. Never raises."""
    copy = recovery_path(file.path)
    if not copy.is_file():
        return Recovered(None, None)
    try:
        kept = open_for_annotation(copy)
    except AnnotateError as exc:
        return Recovered(None, f"{copy} holds unsaved marks that cannot be read back ({exc.problems[0]}); it is "
                               "left as it is")
    # the fields saving may change besides the key (the author line, what the author mode sets) do not count
    same = {name: getattr(file.drill, name) for name in ("author", *META)}
    if kept.drill.model_copy(update=same) != file.drill:
        return Recovered(None, f"{copy} holds unsaved marks of an earlier version of this drill (its trace or plan "
                               "differs); they were not loaded and the copy is left as it is")
    return Recovered(kept.draft, f"Unsaved marks recovered from {copy} (the author mode was stopped before they "
                                 "were saved): s saves them into the drill file; quitting without saving discards them")


def discard_recovery(path: str | os.PathLike[str]) -> None:
    """Remove the recovery copy of drill file ``path``, if any (its marks were saved, or discarded by the author).
    Never raises: a copy that cannot be removed stays."""
    with contextlib.suppress(OSError):
        recovery_path(path).unlink(missing_ok=True)
