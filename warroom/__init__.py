"""warroom: a War Room incident-drill engine for planner-executor AI agents.

A drill is a YAML file that scripts one agent trace with a hidden silent failure; the trainee watches it replay
in a terminal UI and must escalate back to the planner, naming the plan step at fault, before the cascade does
its damage. See README.md and docs/architecture.md for the flow: drill YAML -> Drill -> Replay -> Scorecard.
"""

__version__ = "0.1.0"
