"""``python -m backgammon.engine``: the engine's command line (see ``cli``)."""

import sys

from .cli import main

sys.exit(main())
