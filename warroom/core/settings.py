"""Settings of one warroom invocation: the trainee's name, the data directory and extra drill folders, resolved
from explicit values, then the environment (``$WARROOM_TRAINEE``, ``$WARROOM_DATA_DIR``), then platform defaults.

Shared by the command line (``warroom.cli``) and the terminal UI (``warroom.tui``); free of click so that both
layers can use it. Errors are :class:`~warroom.errors.SettingsError` (exit status 2), which the CLI reports
as a usage error.
"""

from __future__ import annotations

import getpass
import os
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from warroom.core.files import expand_home
from warroom.core.text import control_chars, is_invisible
from warroom.errors import SettingsError

#: Environment variable naming the trainee when ``--trainee`` is not given.
TRAINEE_ENV = "WARROOM_TRAINEE"
#: Environment variable naming the data directory when ``--data-dir`` is not given.
DATA_DIR_ENV = "WARROOM_DATA_DIR"
#: Environment variable naming the cache directory (the drill picker's cache, docs/war-room.md).
CACHE_DIR_ENV = "WARROOM_CACHE_DIR"
#: Environment variable naming a file that the path of each key is appended to (:func:`trace_key`; docs/serve.md,
#: "Tracing a tab's keys"): unset, nothing is written.
KEY_TRACE_ENV = "WARROOM_KEY_TRACE"
#: The type of the meta packet (textual-serve's ``M`` packet on a served app process's input) in which the server's
#: relay gives the moment it received a tab's keys (``{"type": KEYS_RECEIVED_META, "at": time.monotonic()}``), just
#: before the keys themselves: the app times an action a key sets off at that moment, not when its loaded process
#: reads the key (docs/serve.md, "When a key counts"). Only the relay writes meta packets: a browser's keys reach the
#: app inside data packets, so no tab can send a time of its own.
KEYS_RECEIVED_META = "warroom_keys_received"


def trace_key(who: str, line: str) -> None:
    """Append ``line`` to the key trace (the file named by :data:`KEY_TRACE_ENV`, when set) as ``TIME WHO+PID LINE``:
    what became of a key, by the server's relay (``who`` "serve") or an app process ("app"). For finding where a key
    went (a lost enter in a loaded test run); a file that cannot be written is let go (a trace never stops the app)."""
    path = os.environ.get(KEY_TRACE_ENV)
    if not path:
        return
    import time

    try:
        with open(path, "a", encoding="utf-8", errors="backslashreplace") as out:
            out.write(f"{time.time():.3f} {who}{os.getpid()} {line}\n")
    except OSError:
        return


#: Longest trainee name accepted, in characters (a name is a column of every table `warroom scores` prints).
MAX_TRAINEE_CHARS = 80


def trainee_name_problem(name: str) -> str | None:
    """Why ``name`` is not a trainee name people can read (None: it is one): a control character or bidirectional
    control, an invisible character such as a zero-width space or a Hangul filler, a name not in Unicode's composed
    form (NFC: a decomposed ``é`` looks like the composed one), a compatibility character (one NFKC rewrites, such as
    a fullwidth ``ａ``, a ligature ``ﬁ`` or a superscript), surrounding white space, or more than
    :data:`MAX_TRAINEE_CHARS` characters. The one rule for every name warroom stores: the command line, the roster,
    and the results store's checks of a journal's start line and of every row written (``store import`` included)."""
    why = "stored with every session and printed by `warroom scores`; use letters, digits, spaces and punctuation"
    bad = control_chars(name)
    if bad:
        return f"contains control characters ({', '.join(bad)}): a trainee name is {why}"
    invisible = sorted({f"U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed')}" for ch in name if is_invisible(ch)})
    if invisible:
        return (f"contains invisible characters ({', '.join(invisible)}): two names that look the same must be the "
                f"same name; a trainee name is {why}")  # fmt: skip
    if not unicodedata.is_normalized("NFC", name):
        return ("is not in Unicode's composed form, NFC (a letter written as a letter and a combining mark looks like "
                f"the one character of another name): two names that look the same must be the same name; a trainee "
                f"name is {why}")  # fmt: skip
    if not unicodedata.is_normalized("NFKC", name):
        odd = sorted({f"U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed')}" for ch in name
                      if unicodedata.normalize("NFKC", ch) != ch})  # fmt: skip
        return (f"contains compatibility characters ({', '.join(odd)}; Unicode's NFKC writes them as ordinary "
                f"letters: a fullwidth `ａｎｎ` looks like `ann`): two names that look the same must be the same name; "
                f"a trainee name is {why}")  # fmt: skip
    if len(name) > MAX_TRAINEE_CHARS:
        return f"is {len(name):,} characters long; at most {MAX_TRAINEE_CHARS} are allowed"
    if not name.strip():
        return "is empty"
    if name != name.strip():
        return "has white space around it"
    return None


def _checked_trainee(name: str, source: str) -> str:
    """``name`` when it is a name people can read (:func:`trainee_name_problem`); else a :class:`SettingsError`
    naming ``source``."""
    problem = trainee_name_problem(name)
    if problem:
        raise SettingsError(f"the trainee name from {source} {problem}")
    return name


def resolve_trainee(name: str | None = None, source: str = "--trainee") -> str:
    """The trainee's name: ``name`` if given (its error messages say it came from ``source``), else
    ``$WARROOM_TRAINEE``, else the OS user name (else ``trainee``), with surrounding white space removed.

    Raises :class:`SettingsError` (exit status 2) when ``name`` is given but empty, or the name holds a control
    character (newline and tab included), a bidirectional control or an invisible character, or is over
    :data:`MAX_TRAINEE_CHARS` characters: it is stored with the session and printed on terminals."""
    if name is not None:  # given, even empty: an unset shell variable (`--trainee "$NAME"`) names nobody
        if not name.strip():
            raise SettingsError(f"the trainee name from {source} is empty: give a name, or leave {source} out for "
                                f"${TRAINEE_ENV}, else the OS user name")
        return _checked_trainee(name.strip(), source)
    env = os.environ.get(TRAINEE_ENV, "").strip()
    if env:
        return _checked_trainee(env, f"${TRAINEE_ENV}")
    try:
        user = getpass.getuser().strip()
    except (OSError, KeyError):  # no user name in this environment (e.g. a container without passwd entry)
        return "trainee"
    return _checked_trainee(user, "the OS user name") if user else "trainee"


def resolve_data_dir(path: Path | None = None) -> Path:
    """The data directory: ``path`` if given, else ``$WARROOM_DATA_DIR``, else platformdirs' user data dir."""
    return _resolve_dir(path, DATA_DIR_ENV, "user_data_dir")


def resolve_cache_dir(path: Path | None = None) -> Path:
    """The cache directory (what can be rebuilt, such as the drill picker's cache): ``path`` if given, else
    ``$WARROOM_CACHE_DIR``, else platformdirs' user cache dir (``~/.cache/warroom`` on Linux). Not the data
    directory: deleting the cache loses nothing."""
    return _resolve_dir(path, CACHE_DIR_ENV, "user_cache_dir")


def _resolve_dir(path: Path | None, env_name: str, platform_dir: str) -> Path:
    """``path`` (``~`` expanded) if given, else the variable ``env_name`` when set and not blank, else platformdirs'
    ``platform_dir`` function's folder for warroom."""
    if path is not None:
        return expand_home(path)
    env = os.environ.get(env_name, "").strip()
    if env:
        return expand_home(env)
    import platformdirs

    return Path(getattr(platformdirs, platform_dir)("warroom", appauthor=False))


@dataclass(frozen=True)
class Settings:
    """Resolved settings for one ``warroom`` invocation."""

    trainee: str
    data_dir: Path
    drill_dirs: tuple[Path, ...] = field(default_factory=tuple)

    @classmethod
    def resolve(
        cls, *, trainee: str | None = None, data_dir: Path | None = None, drill_dirs: tuple[Path, ...] = ()
    ) -> Settings:
        """Settings from command-line values, falling back to the environment and platform defaults.

        Raises :class:`SettingsError` for an unusable trainee name."""
        return cls(trainee=resolve_trainee(trainee), data_dir=resolve_data_dir(data_dir), drill_dirs=tuple(drill_dirs))

    def override(
        self, *, trainee: str | None = None, data_dir: Path | None = None, drill_dirs: tuple[Path, ...] = ()
    ) -> Settings:
        """These settings with a subcommand's own ``--trainee`` / ``--data-dir`` applied where given, and its own
        ``--drills`` folders added after the root command's. Raises :class:`SettingsError` like :meth:`resolve`."""
        extra = tuple(d for d in drill_dirs if d not in self.drill_dirs)
        return Settings(
            trainee=resolve_trainee(trainee) if trainee is not None else self.trainee,
            data_dir=expand_home(data_dir) if data_dir else self.data_dir,
            drill_dirs=(*self.drill_dirs, *extra),
        )
