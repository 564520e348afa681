"""``python -m backgammon.engine``: the engine's command line (see ``cli``)."""

import os
import sys

from .cli import main

try:
    status = main()
    sys.stdout.flush()
except BrokenPipeError:
    # The reader went away (``... | head``): stop quietly, as command-line tools do. Point stdout
    # at /dev/null so that the interpreter's own flush at exit does not complain again.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    status = 1
sys.exit(status)
