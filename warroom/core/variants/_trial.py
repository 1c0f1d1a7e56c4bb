"""The drill a trial plays: a drill, as a **signal** trial (with its fault) or a **noise** trial (a healthy run),
and a seed for its variant (:func:`drill_to_play`). ``warroom score --as`` and ``--seed`` build the drill to score
with it.

A noise trial of a drill with a fault needs the drill's healthy twin (issue 32: each fault drill gets one); until a
drill has one, asking for it raises :class:`NoTwinError`. An all-clear drill is a noise trial already: it has no
fault to play as signal.
"""

from __future__ import annotations

from warroom.core.model import Drill, PlayedAs
from warroom.core.variants._apply import VariantError, apply_variant


class NoTwinError(VariantError):
    """The trial asked for cannot be made of this drill: a noise trial of a drill with no healthy twin, or a signal
    trial of an all-clear drill."""


def drill_to_play(drill: Drill, played_as: PlayedAs | None = None, seed: int | None = None) -> Drill:
    """``drill`` as the trial ``played_as`` plays it (None: as it is, a signal trial for a drill with a fault, a
    noise trial for an all-clear drill), in the variant of ``seed`` (None: as written; a drill without variants is
    the same for every seed).

    Raises :class:`NoTwinError` for a noise trial of a drill with a fault (no drill has a healthy twin yet) or a
    signal trial of an all-clear drill, and :class:`VariantError` when the variant cannot be made."""
    if played_as is PlayedAs.NOISE and not drill.is_all_clear:
        raise NoTwinError(
            f"drill {drill.id!r} has no healthy twin: it cannot be played as a noise trial (a healthy run); only "
            "all-clear drills are noise trials for now"
        )
    if played_as is PlayedAs.SIGNAL and drill.is_all_clear:
        raise NoTwinError(
            f"drill {drill.id!r} is an all-clear drill (a healthy run): it has no fault to play as signal"
        )
    return drill if seed is None or drill.variants is None else apply_variant(drill, seed)
