"""The backgammon rules engine: pure Python, no Django, no clock, no randomness it did not receive.

>>> from backgammon.engine import Position
>>> Position.from_id("4HPwATDgc/ABMA").pip_count()
(167, 167)
"""

from .board import *  # noqa: F401,F403
from .errors import *  # noqa: F401,F403
from .position_id import *  # noqa: F401,F403
from .variants import *  # noqa: F401,F403
from .actions import *  # noqa: F401,F403
from .game import *  # noqa: F401,F403
from .match_id import *  # noqa: F401,F403
from .dice import *  # noqa: F401,F403
from .match import *  # noqa: F401,F403
from .plays import *  # noqa: F401,F403
from .notation import *  # noqa: F401,F403
from .turn import *  # noqa: F401,F403
