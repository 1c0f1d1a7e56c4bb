"""What the terminal UI knows without Textual or Rich (an import-linter contract keeps it so), tested without an app:
the services the screens go through for drills, sessions, best scores and scoring; the picker's entries and
groups; how a session is recorded; drill sets and session modes; the tutorial's lessons; the per-drill trace index;
which agent an event belongs to.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
