"""The probe dialog: ask the executor to verify a plan step (format 2 verification probes, key ``v``).

:class:`ProbeScreen` lists the drill's probes, one line each: the probe's id, the plan step it verifies, what it
asks and what it costs (seconds of drill time until the result, USD at the executor's prices), and whether it can
be asked now. It opens on the first probe of the plan step of the event the trainee chose (else the first that
can be asked); ↑ ↓ j k move, enter requests the highlighted probe, escape cancels. What a probe reveals is never
shown here: it comes in as a trace event, under the probe's id, once the executor has verified.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from warroom.core.model import Drill, Probe, Role
from warroom.core.play import Replay, ReplayError
from warroom.core.text import seconds, usd
from warroom.tui.render import shown_line
from warroom.tui.widgets import Dialog, mouse_button


def probe_status(replay: Replay, probe: Probe) -> str:
    """Why ``probe`` cannot be asked now ("" when it can): already requested, or its plan step not started."""
    if replay.probes.requested(probe.id):
        return "answered" if probe.id in replay.probes.revealed else "asked"
    if not any(e.step == probe.step for e in replay.released):
        return "step not started"
    return ""


def probe_cost(drill: Drill, probe: Probe) -> str:
    """What asking costs, in words: seconds of drill time and USD at the executor's prices."""
    cost = drill.models.spec(Role.EXECUTOR).cost(probe.usage)
    return f"{seconds(probe.seconds)}, {usd(cost)}"


class ProbeList(OptionList):
    """The probes, moved with the trace's keys (j k besides ↑ ↓)."""

    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
    ]


class ProbeScreen(Dialog["str | None"]):
    """Pick a probe to request. Dismisses with the probe's id, or None when cancelled.

    Args:
        probes: the drill's probes, in order.
        step: the plan step of the event the trainee chose (None: none), to open on its first probe.
        status: a probe's state as a short phrase ("" when it can be asked now, else e.g. "requested").
        cost: a probe's cost in words (seconds and USD).
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel", priority=True)]

    def __init__(
        self, probes: Sequence[Probe], step: str | None, status: Callable[[Probe], str], cost: Callable[[Probe], str]
    ) -> None:
        super().__init__()
        self.probes = list(probes)
        self.step = step
        self.status = status
        self.cost = cost

    def compose(self) -> ComposeResult:
        with Vertical(id="probe-box", classes="dialog"):
            yield Label(Text("Ask the executor to verify a step"), classes="dialog-title")
            yield ProbeList(*(self._option(p) for p in self.probes), id="probe-list")
            with Horizontal(classes="mouse-buttons"):  # a click on a probe asks it; this cancels, for the mouse
                yield Label("enter asks · escape cancels · the trace runs on while you wait", classes="dialog-hint")
                yield mouse_button("probe-cancel", "Cancel (esc)", "screen.cancel")

    def _option(self, probe: Probe) -> Option:
        line = Text()
        line.append(shown_line(probe.id), style="bold")
        line.append(f" {shown_line(probe.step)}: ")
        line.append(shown_line(probe.ask))
        line.append(f" ({self.cost(probe)})", style="dim")
        state = self.status(probe)
        if state:
            line.append(f" [{state}]", style="yellow")
        return Option(line, id=probe.id, disabled=bool(state))

    def on_mount(self) -> None:
        options = self.query_one(ProbeList)
        ready = [i for i, p in enumerate(self.probes) if not self.status(p)]
        on_step = [i for i in ready if self.probes[i].step == self.step]
        if on_step or ready:
            options.highlighted = (on_step or ready)[0]
        options.focus()

    @on(OptionList.OptionSelected, "#probe-list")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(str(event.option.id))


def open_probe_dialog(screen: Any) -> None:
    """The war room's ``v``: open the probe dialog on ``screen`` (a war room), on the plan step of the event the
    trainee chose (moved onto or inspected; following the newest event, none); the chosen probe is requested through
    the screen's replay (:func:`request_probe`)."""
    if screen.replay.ended:
        return
    ev = screen.chosen_event()
    dialog = ProbeScreen(screen.drill.probes, ev.step if ev is not None else None,
                         lambda p: probe_status(screen.replay, p), lambda p: probe_cost(screen.drill, p))
    screen.open_dialog(dialog, lambda probe_id: request_probe(screen, probe_id))


def request_probe(screen: Any, probe_id: str | None) -> None:
    """Request the probe ``probe_id`` chosen in the dialog (None: cancelled) through ``screen``'s journalled
    actions; a ReplayError is shown as a notice."""
    if probe_id is None or screen.replay.ended:
        return
    try:
        if screen._act(screen.replay.probe, probe_id) is None:
            return
    except ReplayError as exc:
        screen.notify(str(exc), severity="error", markup=False)
        return
    wait = seconds(screen.replay.probes.by_id[probe_id].seconds)
    screen.notify(f"Probe {shown_line(probe_id)} asked: the executor's answer comes in {wait} of drill time.",
                  title="Verifying", markup=False)
