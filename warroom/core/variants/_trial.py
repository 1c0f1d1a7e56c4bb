"""Signal or noise: what a session of a drill plays as a trial, drawn from the session's seed (docs/authoring.md,
"Twins: signal and noise trials").

A session of a drill with a twin (:mod:`warroom.core.model._twin`) is a **signal** trial (the drill's fault) or a
**noise** trial (its twin, an all-clear control). The choice is drawn from the seed that also picks the session's
variant, by one documented rule (:func:`draw_played_as`)::

    noise  if and only if  draw(seed, "played_as", 1000) < round(noise_rate * 1000)

where ``draw`` is :func:`warroom.core.variants._apply.draw` (a BLAKE2b hash of the seed and the label, the same on
every machine) and ``noise_rate`` the probability of a noise trial (:data:`DEFAULT_NOISE_RATE`, or the drill set's
``noise_rate``). A drill without a twin is always a signal trial; an all-clear drill is always a noise trial.
:func:`session_drill` makes the drill a session plays: the twin (for a noise trial of a drill with a twin) with
the variant of the seed applied after it, so that a signal and a noise session of one seed differ only in what
the twin changes.
"""

from __future__ import annotations

from warroom.core.model import Drill, PlayedAs, TwinError, id_width, twin_of
from warroom.core.variants._apply import VariantError, apply_variant, draw, validated_variant, variant_data
from warroom.core.variants._ids import ids_by_position, rename_data

#: The probability that a session of a drill with a twin is a noise trial, unless a drill set says otherwise.
DEFAULT_NOISE_RATE = 0.25

#: The label of the signal-or-noise draw (:func:`warroom.core.variants._apply.draw`).
PLAYED_AS_LABEL = "played_as"


def can_play_as(drill: Drill) -> tuple[PlayedAs, ...]:
    """The trials ``drill`` can be played as: signal and noise for a drill with a twin, noise for an all-clear
    drill, signal for any other."""
    if drill.is_all_clear:
        return (PlayedAs.NOISE,)
    return (PlayedAs.SIGNAL, PlayedAs.NOISE) if drill.twin is not None else (PlayedAs.SIGNAL,)


def never_noise(noise_rate: float | None) -> bool:
    """Whether sessions drawn with ``noise_rate`` (None: :data:`DEFAULT_NOISE_RATE`) are never noise trials: the
    rate rounds to 0 in 1000, as :func:`draw_played_as` draws."""
    return noise_rate is not None and round(noise_rate * 1000) == 0


def draw_played_as(drill: Drill, seed: int | None, noise_rate: float | None = None) -> PlayedAs:
    """What a session of ``drill`` with ``seed`` plays as: for a drill with a twin, noise when
    ``draw(seed, "played_as", 1000) < round(noise_rate * 1000)``, else signal (the module docstring; ``noise_rate``
    None: :data:`DEFAULT_NOISE_RATE`); the only trial it can be for any other drill. A drill with a twin played
    without a seed is a signal trial. Raises ValueError for a ``noise_rate`` outside 0..1."""
    if noise_rate is None:
        noise_rate = DEFAULT_NOISE_RATE
    if not 0 <= noise_rate <= 1:
        raise ValueError(f"a noise rate is between 0 and 1, not {noise_rate!r}")
    trials = can_play_as(drill)
    if len(trials) == 1 or seed is None:
        return trials[0]
    return PlayedAs.NOISE if draw(seed, PLAYED_AS_LABEL, 1000) < round(noise_rate * 1000) else PlayedAs.SIGNAL


def session_drill(
    drill: Drill, seed: int | None, played_as: PlayedAs, *, by_position: bool = True, twin: Drill | None = None
) -> Drill:
    """The drill a session of ``drill`` plays: for a noise trial of a drill with a twin its twin
    (:func:`~warroom.core.model.twin_of`), else the drill itself, then the variant of ``seed``
    (:func:`apply_variant`; the twin's variants are the drill's, applied after the twin is built), then, for a drill
    with a twin and ``by_position`` (a session of scoring rules 6 on: the edition's ``ids_by_position``), its trace
    events renamed by position (:func:`~warroom.core.variants._ids.ids_by_position`), in either trial. Raises
    :class:`VariantError` when the drill cannot be played as ``played_as`` (a noise trial of a drill without a twin,
    a signal trial of an all-clear drill) or its twin or variant cannot be made. ``twin``: the drill's twin when the
    caller made it already (:func:`~warroom.core.model.twin_of`; a pass over many sessions makes it once)."""
    return played_drill(drill, seed, played_as, by_position=by_position, twin=twin)[0]


def played_drill(
    drill: Drill, seed: int | None, played_as: PlayedAs, *, by_position: bool = True, twin: Drill | None = None
) -> tuple[Drill, list[str]]:
    """:func:`session_drill`, and the ids its trace and re-plan events had before they were renamed by position
    (in order), which ``scores verify`` compares with the renamed ones; the drill goes through the model once (a
    variant made, then renamed in a second round trip, was a fifth of verify's time)."""
    if played_as not in can_play_as(drill):
        what = "an all-clear drill has no fault" if drill.is_all_clear else "it has no twin (no `twin` section)"
        raise VariantError(f"drill {drill.id} cannot be played as a {played_as.value} trial: {what}")
    fault = drill
    if played_as is PlayedAs.NOISE and drill.twin is not None:
        try:
            drill = twin if twin is not None else twin_of(drill)
        except TwinError as exc:
            raise VariantError(str(exc)) from None
    if not by_position or fault.twin is None:
        played = apply_variant(drill, seed)
        replan = played.answer_key.replan if played.answer_key is not None else []
        return played, [e.id for e in [*played.trace, *replan]]
    if seed is None or drill.variants is None:
        replan = drill.answer_key.replan if drill.answer_key is not None else []
        return ids_by_position(drill, id_width(fault))[0], [e.id for e in [*drill.trace, *replan]]
    data = variant_data(drill, seed)  # renamed before it is validated: one round trip through the model, not two
    key = data.get("answer_key") or {}
    authored = [e["id"] for e in [*data["trace"], *(key.get("replan") or [])]]
    rename_data(data, id_width(fault), drill.id)
    return validated_variant(data, seed), authored
