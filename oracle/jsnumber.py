"""JavaScript number behaviour the contracts name.

``Number.prototype.toFixed(d)`` (ECMA-262, 21.1.3.3): "Let n be an integer for
which n / 10^f - x is as close to zero as possible. If there are two such n,
pick the larger n." The rounding is done on the exact binary value of x, so
0.125 (exact in binary) gives "0.13", while 1.005 (really 1.00499999999999989...)
gives "1.00". Python's ``round`` rounds ties to even and is therefore not it.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Context, Decimal

# Enough significant digits for any result: 21 integer digits + 100 fraction digits.
# (Decimal's default context keeps 28 and would raise on e.g. (1e20).toFixed(15).)
_EXACT = Context(prec=130)


def to_fixed(x: float, digits: int) -> str:
    """``x.toFixed(digits)`` for finite x with |x| < 1e21 and 0 <= digits <= 100."""
    if not math.isfinite(x) or abs(x) >= 1e21:
        raise ValueError("to_fixed is only defined here for finite |x| < 1e21")
    exact = Decimal(x)  # the exact binary value, every digit of it
    sign = "-" if exact < 0 else ""
    # ties pick the larger n for x >= 0; ECMA-262 handles x < 0 as -(−x).toFixed()
    rounded = exact.copy_abs().quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP, context=_EXACT)
    return sign + format(rounded, "f")


def round_to_fixed(x: float, digits: int) -> float:
    """The JSON number a JavaScript service returns for ``Number(x.toFixed(digits))``."""
    return float(to_fixed(x, digits))
