"""Every tool: parses each integer input into a double, then coerces it with JavaScript's `value | 0`
(ToInt32) before checking its range: 2^53 + 1 becomes the double 2^53, whose low 32 bits are 0, so
decimals 2^53 + 1 is read as 0 and beta 2^32 + 4 as 4, and the input is answered instead of rejected."""

import math

from mutants._narrowed_integers import narrowing

CLASS = "integer-width"  # the class of bug (benchmarks/bench_classes.py)


def to_int32(value: int) -> int:
    """ECMAScript ToInt32 of the double nearest ``value``: truncated, modulo 2^32, as a signed 32-bit integer."""
    double = float(value)
    if not math.isfinite(double):
        return 0
    return (int(double) + 2**31) % 2**32 - 2**31


execute = narrowing(to_int32, __doc__)
