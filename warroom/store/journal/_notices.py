"""What recovery tells a trainee who was not there: a notice box per trainee in the data directory.

A session killed mid-drill is recovered by whichever warroom starts next in its data directory: the trainee's own
war room, a facilitator's ``warroom scores``, ``warroom serve`` when the session's app process has died. What was
recovered (the trainee, the drill, the score) is the trainee's business only, so it is shown to the trainee concerned
and to nobody else: when someone else's start recovers it, :func:`leave_notice` keeps the notice for that trainee in
``journals/notices/``, and :func:`take_notices` hands it to them at their next start (the war room shows it and it is
gone). A shared data folder's trainees, and every browser of ``warroom serve``, share the folder, not the notices.

Each trainee's notices are one JSON Lines file named after a hash of the trainee's name (any name makes a safe file
name; nobody can tell from the folder whose box is whose without the name), at most :data:`MAX_BOX_BYTES`.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from warroom.store.datadir import journals_dir

#: The folder of the notice boxes, in ``journals/``.
NOTICES = "notices"
#: The most a trainee's box holds, in bytes: past it, older notices are kept and newer ones dropped (the sessions
#: themselves are stored; ``warroom scores --mine`` lists them).
MAX_BOX_BYTES = 256 * 1024


def _box(data_dir: Path, trainee: str) -> Path:
    name = hashlib.sha256(trainee.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return journals_dir(data_dir) / NOTICES / f"{name}.jsonl"


def leave_notice(data_dir: Path, trainee: str, text: str, at: str) -> bool:
    """Keep ``text`` (said at ``at``, ISO 8601) for ``trainee``'s next start. Returns False when it could not be
    kept (a full box, a folder that cannot be written); nothing is raised."""
    box = _box(Path(data_dir), trainee)
    line = (json.dumps({"at": at, "text": text}, ensure_ascii=False) + "\n").encode("utf-8", "surrogatepass")
    try:
        box.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(box, os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError:
        return False
    try:
        if os.fstat(fd).st_size + len(line) > MAX_BOX_BYTES:
            return False
        os.write(fd, line)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def take_notices(data_dir: Path, trainee: str) -> list[str]:
    """The notices kept for ``trainee``, oldest first; the box is emptied (moved aside, read, then deleted), so two
    starts never both show one notice. Unreadable lines are skipped; nothing is raised."""
    box = _box(Path(data_dir), trainee)
    taken = box.with_name(f".{box.stem}.{os.getpid()}.taken")
    try:
        os.replace(box, taken)
    except OSError:
        return []
    try:
        fd = os.open(taken, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as f:
            raw = f.read(MAX_BOX_BYTES + 1)
    except OSError:
        return []
    finally:
        try:
            taken.unlink()
        except OSError:
            pass
    out = []
    for line in raw.splitlines():
        try:
            text = json.loads(line.decode("utf-8", "surrogatepass"))["text"]
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            continue
        if isinstance(text, str):
            out.append(text)
    return out
