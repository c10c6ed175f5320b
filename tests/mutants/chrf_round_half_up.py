"""Rounds the six-decimal scores half UP on the exact value instead of half to even."""

import math
from fractions import Fraction

from independent import ChrfPlusPlus, Implementation

CLASS = "rounding"  # the class of bug (benchmarks/bench_classes.py)


class Chrf(ChrfPlusPlus):
    @staticmethod
    def six_decimals(value):
        whole = math.floor(value * 10**6 + Fraction(1, 2))
        return f"{whole // 10**6}.{whole % 10**6:06d}"


execute = Implementation(chrf=Chrf()).execute
