"""The roster of a served class: trainee names and their sign-in tokens, the tokens kept only as hashes.

A roster is a YAML file the facilitator writes with ``warroom serve roster add FILE NAME``::

    trainees:
      - name: Ada Lovelace
        token: scrypt$16384$8$1$<salt, base64>$<hash, base64>
      - name: Fran Allen
        token: scrypt$16384$8$1$<salt, base64>$<hash, base64>
        role: facilitator

An entry's ``role`` is ``trainee`` (the default: signs in to their own war room) or ``facilitator`` (signs in to the
facilitator's console, never to a war room). Each token is a random string printed once when the name is added (or
its token rotated); the file holds only its scrypt hash (:func:`hash_token`, standard library ``hashlib.scrypt``),
so a copy of the roster does not let anyone sign in.
Errors in a roster file are :class:`RosterError` with a ``path:line:col: message`` text.
"""

from __future__ import annotations

import base64
import errno
import functools
import hashlib
import hmac
import os
import secrets
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import yaml

from warroom.core.files import read_limited, read_only_mode, real_path, replace_file
from warroom.core.settings import resolve_trainee
from warroom.core.text import did_you_mean, shown_path
from warroom.errors import SettingsError, WarroomError

#: The role of a roster entry who plays drills in their own war room.
TRAINEE = "trainee"
#: The role of a roster entry who signs in to the facilitator's console (and never to a war room).
FACILITATOR = "facilitator"
#: Every role, the default first.
ROLES = (TRAINEE, FACILITATOR)

#: scrypt cost parameters: n (CPU/memory cost, a power of 2), r (block size), p (parallelism); about 16 MiB and
#: some tens of milliseconds per check.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
_SCHEME = "scrypt"
#: Longest token accepted at sign-in, in characters (a longer one is refused without hashing it).
MAX_TOKEN_CHARS = 200
#: Largest roster file read, in bytes (a class of thousands is a few hundred KiB).
MAX_ROSTER_BYTES = 8 * 1024 * 1024


class RosterError(WarroomError):
    """A roster file that cannot be read or holds a bad entry; the message is ``path:line:col: message``."""


def new_token() -> str:
    """A new random sign-in token: 22 URL-safe characters (128 bits)."""
    return secrets.token_urlsafe(16)


def _scrypt(token: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(token.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=128 * r * (n + p + 2) * 2, dklen=32)


def hash_token(token: str) -> str:
    """The stored form of ``token``: ``scrypt$N$R$P$SALT$HASH`` (salt and hash in base64), a fresh salt each time."""
    salt = os.urandom(16)
    digest = _scrypt(token, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
    b64 = base64.b64encode
    return f"{_SCHEME}${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${b64(salt).decode()}${b64(digest).decode()}"


def _parse_hash(stored: str) -> tuple[int, int, int, bytes, bytes]:
    """The parts of a stored hash; ValueError when it is not one :func:`hash_token` writes."""
    scheme, n, r, p, salt, digest = stored.split("$")
    if scheme != _SCHEME:
        raise ValueError(f"unknown hash scheme {scheme!r}")
    n_, r_, p_ = int(n), int(r), int(p)
    # Only the parameters warroom writes: others would cost a sign-in another time than a name not on the roster
    # (checked against a hash of these), telling which names are on it; larger ones seconds of CPU a guess, or more
    # memory than hashlib allows (a ValueError at every sign-in of that name).
    if (n_, r_, p_) != (SCRYPT_N, SCRYPT_R, SCRYPT_P):
        raise ValueError("scrypt parameters out of range")
    return n_, r_, p_, base64.b64decode(salt, validate=True), base64.b64decode(digest, validate=True)


@functools.cache
def _decoy_hash() -> str:
    """A stored hash of a random token nobody knows, with the roster's cost: what a name not on the roster is checked
    against."""
    return hash_token(secrets.token_urlsafe(32))


def verify_token(token: str, stored: str) -> bool:
    """True when ``token`` hashes to ``stored`` (compared in constant time); False for a wrong token, an over-long
    one or a malformed stored hash."""
    if len(token) > MAX_TOKEN_CHARS:
        return False
    try:
        n, r, p, salt, digest = _parse_hash(stored)
    except ValueError:
        return False
    return hmac.compare_digest(_scrypt(token, salt, n, r, p), digest)


@dataclass(frozen=True)
class Roster:
    """Name -> stored token hash, in the file's order, and the names whose role is :data:`FACILITATOR` (every other
    entry is a trainee)."""

    entries: dict[str, str]
    facilitators: frozenset[str] = frozenset()

    def role_of(self, name: str) -> str:
        """The role of ``name`` on the roster (:data:`TRAINEE` or :data:`FACILITATOR`)."""
        return FACILITATOR if name in self.facilitators else TRAINEE

    @property
    def trainees(self) -> list[str]:
        """The names of the roster whose role is trainee, in the file's order."""
        return [name for name in self.entries if name not in self.facilitators]

    @classmethod
    def load(cls, path: Path) -> Roster:
        """Read a roster file. A missing file is an empty roster (``roster add`` creates it); anything else wrong
        (unreadable, not YAML, a bad shape, a bad name or hash, a name twice) raises :class:`RosterError`."""
        if not path.exists():
            return cls({})
        shown = shown_path(path)  # on its line: a name holding a newline forges no line
        try:
            text = read_limited(path, MAX_ROSTER_BYTES).decode("utf-8")  # the size checked before reading
            node = yaml.compose(text)
        except (OSError, UnicodeDecodeError) as exc:
            raise RosterError(f"{shown}:1:1: cannot read the roster: {exc}") from None
        except RecursionError:  # the composer recurses once per level of nesting
            raise RosterError(f"{shown}:1:1: not a YAML roster: lists or mappings nested too deeply") from None
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
            raise RosterError(f"{shown}:{line}:{col}: not a YAML roster: {getattr(exc, 'problem', exc)}") from None
        entries, facilitators = _entries(path, node)
        return cls(entries, frozenset(facilitators))

    def save(self, path: Path) -> None:
        """Write the roster to ``path`` atomically (a temporary file renamed over it), readable by its owner only;
        through a symbolic link into the file it points to (the link kept). Raises OSError when it cannot be
        written, or is read-only (refused, never replaced)."""
        data = {
            "trainees": [
                {"name": name, "token": stored, **({"role": FACILITATOR} if name in self.facilitators else {})}
                for name, stored in self.entries.items()
            ]
        }
        text = "# warroom serve roster: tokens are scrypt hashes (docs/serve.md)\n"
        text += yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
        mode = read_only_mode(path)
        if mode is not None:
            raise OSError(errno.EACCES, f"the roster is read-only (mode {mode}): make it writable (chmod u+w) to "
                          "change it; nothing was written")  # fmt: skip
        replace_file(real_path(path), text, mode=0o600)

    def with_trainee(self, name: str, token: str, role: str | None = None) -> Roster:
        """A copy with ``name`` (checked like ``--trainee``; SettingsError when unusable) holding ``token``'s hash,
        replacing an earlier token of the same name, in ``role`` (None: the name's role so far, a trainee for a new
        name)."""
        if not name.strip():
            raise SettingsError("the trainee name is empty")
        checked = resolve_trainee(name, source="the command line")
        role = role or self.role_of(checked)
        facilitators = self.facilitators | {checked} if role == FACILITATOR else self.facilitators - {checked}
        return Roster({**self.entries, checked: hash_token(token)}, facilitators)

    def not_on_it(self, missing: list[str]) -> str:
        """The problem of ``missing`` names, each with a did-you-mean when a name on the roster is one slip of the
        keyboard away (``'Alan Turning' (did you mean `Alan Turing`?)``)."""
        named = (repr(n) + self._like(n) for n in missing)
        return f"not on the roster: {', '.join(named)}"

    def _like(self, name: str) -> str:
        """The did-you-mean of ``name``: the name on the roster that differs from it only in letter case or Unicode
        form (``ALAN TURING``, which no slip-of-the-keyboard rule offered), else one a slip away."""
        key = unicodedata.normalize("NFC", name.strip()).casefold()
        same = [n for n in self.entries if unicodedata.normalize("NFC", n).casefold() == key]
        return f" (did you mean `{same[0]}`?)" if len(same) == 1 else did_you_mean(name.strip(), self.entries)

    def without(self, names: list[str]) -> Roster:
        """A copy without ``names`` (each must be on the roster: SettingsError naming those that are not)."""
        missing = [n for n in names if n.strip() not in self.entries]
        if missing:
            raise SettingsError(self.not_on_it(missing))
        gone = {n.strip() for n in names}
        return Roster({k: v for k, v in self.entries.items() if k not in gone}, self.facilitators - gone)

    def check(self, name: str, token: str) -> str | None:
        """The roster's spelling of the trainee's name when ``token`` is theirs, else None. Surrounding white space
        of both is ignored, and the name is read in Unicode's composed form (NFC), the roster's: ``Zoë`` typed as a
        letter and a combining mark is ``Zoë``. A name not on the roster costs the same hash as one on it (checked
        against a hash no token matches), so how long a check takes does not tell which names are on the roster."""
        name = unicodedata.normalize("NFC", name.strip())
        stored = self.entries.get(name)
        ok = verify_token(token.strip(), stored if stored is not None else _decoy_hash())
        # scrypt keys HMAC with the token, zero-padded: `TOKEN\0` hashes as `TOKEN` does; no token holds a NUL
        return name if ok and stored is not None and "\x00" not in token else None


def _entries(path: Path, node: yaml.Node | None) -> tuple[dict[str, str], list[str]]:
    """The roster's name -> token hash entries, and the names of its facilitators."""

    def where(n: yaml.Node) -> str:
        return f"{shown_path(path)}:{n.start_mark.line + 1}:{n.start_mark.column + 1}"

    if node is None:
        return {}, []
    if not isinstance(node, yaml.MappingNode):
        raise RosterError(f"{where(node)}: a roster is a mapping with one key, trainees")
    trainees: yaml.Node | None = None
    for key, value in node.value:
        if key.value != "trainees":
            raise RosterError(f"{where(key)}: unknown key {key.value!r}; a roster has one key, trainees")
        trainees = value
    if trainees is None or (isinstance(trainees, yaml.ScalarNode) and trainees.value in ("", "null", "~")):
        return {}, []
    if not isinstance(trainees, yaml.SequenceNode):
        raise RosterError(f"{where(trainees)}: trainees is a list of entries with a name and a token")
    entries: dict[str, str] = {}
    facilitators: list[str] = []
    for item in trainees.value:
        fields = {k.value: v for k, v in item.value} if isinstance(item, yaml.MappingNode) else {}
        if not {"name", "token"} <= set(fields) <= {"name", "token", "role"} or not all(
            isinstance(v, yaml.ScalarNode) for v in fields.values()
        ):
            raise RosterError(f"{where(item)}: each entry is a mapping with a name, a token and optionally a role")
        role = fields.get("role")
        if role is not None and role.value not in ROLES:
            raise RosterError(f"{where(role)}: the role {role.value!r} is not one of {', '.join(ROLES)}")
        try:
            text = str(fields["name"].value)
            name = resolve_trainee(text, source="the roster") if text.strip() else ""
        except SettingsError as exc:
            raise RosterError(f"{where(fields['name'])}: {exc}") from None
        if not name:
            raise RosterError(f"{where(fields['name'])}: the trainee name is empty")
        if name in entries:
            raise RosterError(f"{where(fields['name'])}: {name!r} is in the roster twice")
        try:
            _parse_hash(str(fields["token"].value))
        except (ValueError, TypeError):
            raise RosterError(
                f"{where(fields['token'])}: the token of {name!r} is not a hash written by `warroom serve roster "
                "add` (a roster never holds a plain token)"
            ) from None
        entries[name] = str(fields["token"].value)
        if role is not None and role.value == FACILITATOR:
            facilitators.append(name)
    return entries, facilitators
