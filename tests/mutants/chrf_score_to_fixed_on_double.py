"""chrF++: rounds the score and segment scores with toFixed(6) on the nearest double instead of ties to
even on the exact value: an exact tie such as 50.1953125 (a dyadic value) goes up to 50.195313."""

import math
from fractions import Fraction

from independent import ChrfPlusPlus, Implementation

CLASS = "rounding"  # the class of bug (benchmarks/bench_classes.py)


class Chrf(ChrfPlusPlus):
    @staticmethod
    def six_decimals(value):
        x = Fraction(float(value))  # the double's exact value; toFixed takes the nearest, the larger on a tie
        whole = math.floor(x * 10**6 + Fraction(1, 2))
        return f"{whole // 10**6}.{whole % 10**6:06d}"


execute = Implementation(chrf=Chrf()).execute
