"""Pearson's chi-square goodness-of-fit test, with its p-value, in plain ``math``.

The dice statistics page needs only whole degrees of freedom (1, 5 and 20), for which the
chi-square survival function has closed forms: a finite sum for an even number of degrees and
the normal tail plus a finite sum for an odd one (Abramowitz and Stegun 26.4.4 and 26.4.5).
That is a dozen lines instead of SciPy, which would add some 40 MB to every install for one
function.

>>> round(chi_square_p_value(3.841458820694124, 1), 6)
0.05
>>> round(chi_square_p_value(11.070497693516351, 5), 6)
0.05
>>> round(chi_square_p_value(31.410432844230918, 20), 6)
0.05
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["ChiSquare", "chi_square", "chi_square_p_value", "chi_square_test"]


def chi_square(observed: Sequence[float], expected: Sequence[float]) -> float:
    """Pearson's statistic: the sum of (observed - expected)² / expected over the categories.

    >>> chi_square([10, 20], [15, 15])
    3.3333333333333335
    """
    if len(observed) != len(expected):
        raise ValueError("observed and expected need the same number of categories")
    if any(e <= 0 for e in expected):
        raise ValueError("every expected count must be positive")
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))


def chi_square_p_value(statistic: float, degrees: int) -> float:
    """The chance that fair dice give a statistic at least this large: P(χ²(degrees) ≥ statistic).

    >>> chi_square_p_value(0.0, 5)
    1.0
    >>> round(chi_square_p_value(2.0, 2), 10) == round(math.exp(-1), 10)
    True
    """
    if degrees < 1:
        raise ValueError("a chi-square test needs at least one degree of freedom")
    if statistic <= 0:
        return 1.0
    half = statistic / 2
    if degrees % 2 == 0:
        # Q(k/2, x/2) = exp(-x/2) * sum_{i < k/2} (x/2)^i / i!
        term = total = 1.0
        for i in range(1, degrees // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    root = math.sqrt(statistic)
    # 2 * (normal upper tail at sqrt(x)) + 2 * density(sqrt(x)) * sum_{r=1}^{(k-1)/2} x^(r-1/2) / (1*3*...*(2r-1))
    tail = math.erfc(root / math.sqrt(2))
    density = math.exp(-half) / math.sqrt(2 * math.pi)
    term, total = root, 0.0
    for r in range(1, (degrees - 1) // 2 + 1):
        if r > 1:
            term *= statistic / (2 * r - 1)
        total += term
    return min(1.0, tail + 2 * density * total)


@dataclass(frozen=True, slots=True)
class ChiSquare:
    """A test's result: the statistic, its degrees of freedom and the p-value."""

    statistic: float
    degrees: int
    p_value: float

    @property
    def verdict(self) -> str:
        """What the p-value says, in a player's words (5% is the usual line)."""
        if self.p_value < 0.01:
            return "very unlikely from fair dice (p below 1%)"
        if self.p_value < 0.05:
            return "unusual for fair dice (p below 5%), though one page in twenty shows that by chance"
        return "just what fair dice give"


def chi_square_test(observed: Sequence[float], expected: Sequence[float]) -> ChiSquare:
    """The goodness-of-fit test of ``observed`` against ``expected`` (categories - 1 degrees).

    >>> chi_square_test([10, 20], [15, 15]).degrees
    1
    """
    statistic = chi_square(observed, expected)
    degrees = len(observed) - 1
    return ChiSquare(statistic, degrees, chi_square_p_value(statistic, degrees))
