"""The facilitator's console: what ``warroom serve`` shows a facilitator in a browser, as HTML built from the
results store and the live table (no web server here: :mod:`warroom.serve` routes the requests).

- ``_live``: the live class (who is signed in, on which drill, at what drill time, stuck or gone);
- ``_grid``: a drill set's completion grid (trainee x drill) and who has not started;
- ``_gradebook``: the trainee x drill matrix as CSV, for a set or a date range;
- ``_progress`` and ``_figures``: a trainee's progress over their sessions, drawn with matplotlib as SVG;
- ``_review``: a session's after-action review as HTML, two trainees compared on one drill;
- ``_html``: the pages (Jinja2 templates, every value escaped: drill and trace text is shown literally).
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
