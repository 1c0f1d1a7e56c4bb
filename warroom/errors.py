"""warroom's exception tree: every error raised on purpose for bad input or an unusable state (docs/architecture.md,
"Errors").

A front end catches the one root, :class:`WarroomError`, and shows ``str(error)`` as it is (one or more lines, e.g.
``path:line:col: message`` for a drill that does not load); the CLI exits with the error's ``exit_code``. Classes
that also derive from a builtin (in brackets) keep ``except ValueError`` and the like working. The tree, with the
package that defines each class (tests/unit/test_errors.py checks that it is the tree the code has)::

    WarroomError                                      warroom.errors
    ├── SettingsError [ValueError]  (exit status 2)   warroom.errors
    ├── TooLarge [OSError]                            warroom.core.files
    ├── SpecialFile [OSError]                         warroom.core.files
    ├── ReadOnlyFile [PermissionError]                warroom.core.files
    ├── NotAnExportFile [OSError]                     warroom.core.files
    ├── DuplicateKey [json.decoder.JSONDecodeError]   warroom.core.files
    ├── DrillLoadError                                warroom.core.load
    │   └── DrillReadError
    ├── YamlSyntaxError                               warroom.core.load
    ├── UnknownDrill [FileNotFoundError]              warroom.core.library
    ├── DrillIsAFolder [FileNotFoundError]            warroom.core.library
    ├── FolderTooLarge [OSError]                      warroom.core.library
    ├── DrillSetError                                 warroom.core.load
    ├── TwinError [ValueError]                        warroom.core.model
    ├── VariantError [ValueError]                     warroom.core.variants
    ├── ReplayError [ValueError]                      warroom.core.play
    │   └── ActionLimitReached
    ├── ScoringError [ValueError]                     warroom.core.scoring
    ├── AnnotateError                                 warroom.core.author
    ├── KeyWriteError                                 warroom.core.author
    │   └── ChangedOnDisk
    ├── ProjectionError                               warroom.core.projection
    ├── TraceError [ValueError]                       warroom.importers
    │   └── NothingToPlay
    ├── RecordError [ValueError]                      warroom.importers
    ├── StoreError                                    warroom.store
    │   ├── StoreURLError
    │   ├── DataDirError
    │   ├── DamagedStore
    │   ├── InvalidSession
    │   ├── DuplicateSession
    │   ├── StoreUnreachable
    │   ├── StoreVersionError
    │   ├── SessionNotFound
    │   ├── RescoredMeanwhile
    │   └── CorruptSession
    ├── JournalError                                  warroom.store
    │   └── NotRegularFile
    ├── SessionError                                  warroom.store
    │   └── JournalWriteError
    ├── DrillUnavailable                              warroom.store
    ├── Unrecoverable                                 warroom.store
    ├── RosterError                                   warroom.serve
    ├── ServeError                                    warroom.serve
    ├── BadMessage                                    warroom.serve
    │   └── BrowserGone
    ├── DrillProblem                                  warroom.tui
    ├── SessionUnavailable                            warroom.tui
    │   └── JournalUnwritable
    ├── ResultsUnavailable                            warroom.tui
    ├── NoTerminal                                    warroom.tui
    ├── DrillNotLoaded [click.ClickException]         warroom.cli
    └── LogRefused                                    warroom.cli

Not in the tree, because they never leave the code that raises them: the loader's ``Abort`` and ``ScalarError``
(signals inside the YAML builder, turned into problems), the store's ``_Unusual`` (a fallback inside one query) and
``_Twice`` (a JSON object holding a key twice, inside :func:`warroom.core.files.record_json`).
"""

from __future__ import annotations

from typing import ClassVar


class WarroomError(Exception):
    """An error meant for a person, not a traceback.

    What the CLI and the TUI show: ``str(error)``, as it is (one or more lines, e.g. ``path:line:col: message``
    lines for a drill that does not load; text from a drill is escaped by the printer, never here). The CLI exits
    with :attr:`exit_code`: 1 for bad input or an unusable file or store (the default), 2 for a usage error (a bad
    option value).
    """

    #: Exit status of a ``warroom`` command that stops on this error.
    exit_code: ClassVar[int] = 1


class SettingsError(WarroomError, ValueError):
    """A setting from the command line or the environment cannot be used (e.g. a trainee name holding control
    characters). A usage error: exit status 2."""

    exit_code = 2
