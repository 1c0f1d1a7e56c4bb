"""What the ``warroom`` commands share: the options that set the invocation's one
:class:`~warroom.core.settings.Settings` (trainee, data directory, drill folders, store), opening the results store
with a clear message for each problem, how every command writes (escaped for a terminal, faithful in a file), the
drill argument (an id or a path, with did-you-mean), the progress bar over many files and the one way a table is
printed. Each name loads on first use, so ``warroom --help`` imports only the options.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
