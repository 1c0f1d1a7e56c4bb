"""A small cohort played by hand on bundled drills, for checking the facilitator's figures against figures worked
out on paper (tests/cli/test_stats_by_hand.py).

Five trainees play three drills with a fault and one all-clear drill, headless: each session is a scripted action
log replayed by :class:`~warroom.core.play.Replay`, recorded by a
:class:`~warroom.store.journal.SessionRecorder` and scored by :func:`~warroom.core.scoring.score`, as the war room
does. The drills' facts the scripts rely on (from the drill files; the ids as sessions show them, by position):

- ``duplicate-charge-refunds`` (A): origin s1, evidence e06 at 12 s, deadline 37 s, damage e13 38 s $4,413,
  e15 49 s $4,527, e17 60 s $5,081 (full $14,021); distractor e09 at 23 s; a re-plan call costs $0.035.
- ``held-orders-release`` (B): origin s3, evidence e12 at 36 s, deadline 56 s, damage e16 58 s $3,940, e18 70 s
  $4,310, e20 82 s $3,620 (full $11,870); distractors e06 at 21 s and e14 at 46 s.
- ``stripe-sdk-upgrade`` (C): origin s2, evidence e08 at 36 s, deadline 80 s, damage e18 92 s 38, e21 125 s 412
  (full 450 refunds failed); distractors e03 at 11 s and e12 at 49 s.
- ``outage-callback-calls`` (N): all clear, as bundled before it got a fault with this run as its twin
  (tests/fixtures/all-clear, always a noise trial); distractors e06 19 s, e17 39 s, e20 45 s, e23 55 s, e25 67 s.

Every session is an assessment session (sessions of drills A and N in drill set ``week-1``) but one practice
session of cy's; dee quits drill B at 30 s (abandoned). :data:`PLAYS` lists them in the order played (which is each
trainee's start-time order).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from warroom.core.load import load_drill
from warroom.core.play import Replay
from warroom.core.scoring import score
from warroom.store.journal import SessionRecorder

DRILLS_DIR = Path(__file__).resolve().parents[1] / "drills"
#: Letter -> bundled drill id.
DRILL = {
    "A": "duplicate-charge-refunds",
    "B": "held-orders-release",
    "C": "stripe-sdk-upgrade",
    "N": "outage-callback-calls",
}
SET_ID = "week-1"

#: One step of a script: ("esc", t, step, cites) escalates at drill time t; ("quit", t) quits at t.
Step = tuple


@dataclass(frozen=True)
class Play:
    """One scripted session: ``trainee`` plays drill ``letter`` doing ``script``; ``mode`` practice or assessment."""

    trainee: str
    letter: str
    script: tuple[Step, ...]
    mode: str = "assessment"


PLAYS: list[Play] = [
    # ana: every fault contained on time, the all clear held (all hits, no false alarm).
    Play("ana", "A", (("esc", 12, "s1", ("e06",)),)),
    Play("ana", "B", (("esc", 41, "s3", ("e12",)),)),
    Play("ana", "C", (("esc", 36, "s2", ("e08",)),)),
    Play("ana", "N", ()),
    # ben: no hit, a false alarm (no hits, every all-clear drill escalated).
    Play("ben", "A", ()),
    Play("ben", "B", (("esc", 41, "s4", ("e12",)),)),
    Play("ben", "C", (("esc", 20, "s2", ("e03",)),)),
    Play("ben", "N", (("esc", 40, "s3", ("e17",)),)),
    # cy: late, unsupported, contained; the all clear held; a practice session besides.
    Play("cy", "A", (("esc", 45, "s1", ("e06",)),)),
    Play("cy", "B", (("esc", 46, "s3", ("e14",)),)),
    Play("cy", "C", (("esc", 46, "s2", ("e08",)),)),
    Play("cy", "N", ()),
    Play("cy", "A", (("esc", 12, "s1", ("e06",)),), mode="practice"),
    # dee: the docs' worked example on A, quits B, contained C with a half point, two false escalations on N.
    Play("dee", "A", (("esc", 14, "s2", ("e06",)), ("esc", 30, "s1", ("e06",)))),
    Play("dee", "B", (("quit", 30),)),
    Play("dee", "C", (("esc", 58, "s2", ("e08",)),)),
    Play("dee", "N", (("esc", 20, "s2", ("e06",)), ("esc", 60, "s4", ("e23",)))),
    # eve: never played the all-clear drill (no d'), cites a distractor on the right step.
    Play("eve", "A", (("esc", 24, "s1", ("e09",)),)),
    Play("eve", "B", (("esc", 36, "s3", ("e12",)),)),
    Play("eve", "C", ()),
]


#: The all-clear drill N, as bundled before it became a fault drill with this run as its twin.
ALL_CLEAR_DIR = Path(__file__).resolve().parent / "fixtures" / "all-clear"


def drill_path(letter: str) -> Path:
    return (ALL_CLEAR_DIR if letter == "N" else DRILLS_DIR) / f"{DRILL[letter]}.yaml"


def play(data_dir: Path, p: Play) -> str:
    """Play ``p`` headless, score and store it (in ``data_dir``'s store or ``$WARROOM_STORE``); returns the session
    id."""
    path = drill_path(p.letter)
    drill = load_drill(path)
    set_id = SET_ID if p.letter in ("A", "N") else None
    rec = SessionRecorder.start(data_dir, p.trainee, path, drill, mode=p.mode, set_id=set_id)
    replay = Replay(rec.drill, on_action=rec.record)
    for step in p.script:
        replay.advance_to(step[1])
        if step[0] == "quit":
            replay.quit()
        else:
            replay.escalate(step[2], "scripted", step[3])
    rec.finish(score(rec.drill, rec.actions))
    return rec.session_id


def play_cohort(data_dir: Path) -> list[str]:
    """Play every session of :data:`PLAYS` in order; returns their session ids in that order."""
    return [play(data_dir, p) for p in PLAYS]


def play_many(data_dir: Path, trainee: str, signal: int, noise: int) -> list[str]:
    """``trainee`` plays ``signal`` bundled fault drills as signal trials, escalating each as the ideal scripted
    trainee does (``warroom check``'s *ideal*: a hit), then ``noise`` others as noise trials (their healthy twins),
    holding (a correct rejection): enough trials for d′ and c. Assessment sessions, each on a seed that draws its
    trial at the real noise rate (the test asks for the ``real_noise_draw`` fixture); returns their ids in order."""
    from warroom.core.author._check import play_scripted
    from warroom.core.model import PlayedAs
    from warroom.core.variants import draw_played_as
    from warroom.store.journal import Trial

    twinned = []
    for path in sorted(DRILLS_DIR.glob("*.yaml")):
        drill = load_drill(path)
        if drill.twin is not None and path.stem not in DRILL.values() and not path.stem.startswith("tutorial"):
            twinned.append((path, drill))
    assert len(twinned) >= signal + noise, f"only {len(twinned)} bundled drills with a twin"
    ids = []
    for i, (path, drill) in enumerate(twinned[: signal + noise]):
        played_as = PlayedAs.SIGNAL if i < signal else PlayedAs.NOISE
        seed = next(s for s in range(1000) if draw_played_as(drill, s) is played_as)  # an assessment draws its trial
        trial = Trial(played_as)
        rec = SessionRecorder.start(data_dir, trainee, path, drill, mode="assessment", seed=seed, trial=trial)
        if played_as is PlayedAs.SIGNAL:
            for action in play_scripted(rec.drill, "ideal").actions:
                rec.record(action)
        rec.finish(score(rec.drill, rec.actions))
        ids.append(rec.session_id)
    return ids


def play_cohort_cleanly(mp: pytest.MonkeyPatch, data_dir: Path, store_url: str, cache_dir: Path) -> list[str]:
    """:func:`play_cohort` for a module-scoped fixture, which starts before any test's fixtures: with the ambient
    settings tests/conftest.py clears for each test cleared here too (``WARROOM_*``, the picker cache its own), the
    sessions playing their fault (conftest's ``_sessions_play_the_fault``) and ``$WARROOM_STORE`` set to
    ``store_url`` (unset if empty: the data directory's SQLite file). ``mp`` undoes it all."""
    from warroom.core.variants import _trial

    for name in list(os.environ):
        if name.startswith("WARROOM_"):
            mp.delenv(name)
    mp.setenv("LANG", "C.UTF-8")
    mp.setenv("WARROOM_CACHE_DIR", str(cache_dir))
    mp.setattr(_trial, "DEFAULT_NOISE_RATE", 0.0)
    if store_url:
        mp.setenv("WARROOM_STORE", store_url)
    return play_cohort(data_dir)
