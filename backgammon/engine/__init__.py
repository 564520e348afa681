"""The backgammon rules engine: pure Python, no Django, no clock, no randomness it did not receive.

>>> from backgammon.engine import Position
>>> Position.from_id("4HPwATDgc/ABMA").pip_count()
(167, 167)
"""

from .actions import *
from .board import *
from .dice import *
from .errors import *
from .game import *
from .match import *
from .match_id import *
from .matfile import *
from .notation import *
from .plays import *
from .position_id import *
from .turn import *
from .variants import *
