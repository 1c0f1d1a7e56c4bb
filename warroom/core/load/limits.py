"""The limits of a drill file: each a clear problem when passed, never a crash or a hang (see docs/authoring.md).

Both load paths read them (:mod:`warroom.core.load._loader`, :mod:`warroom.core.load._fast.load`); they are looked up at
call
time (``limits.MAX_FILE_BYTES``), so a test may lower one.
"""

from __future__ import annotations

#: Largest drill file accepted, in bytes: 64 MiB, about 300,000 trace events in block style (see docs/authoring.md).
MAX_FILE_BYTES = 64 * 1024 * 1024
#: Deepest nesting of mappings and lists accepted (the drill's own structure uses about 6 levels).
MAX_DEPTH = 64
#: Most values that aliases (``*name``) may add to a drill by repeating what their anchor names.
MAX_ALIAS_EXPANSION = 100_000
#: Largest variant seed a session can store (a signed 64-bit integer): `warroom run --seed` refuses a bigger one
#: before the drill starts, rather than the session failing to be stored at its end.
MAX_SEED = 2**63 - 1
