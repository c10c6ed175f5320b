"""Every tool: reads each integer input (max_order, decimals, beta, char_order, word_order, the brevity
penalty's lengths) into a signed 32-bit integer before checking its range, so it wraps modulo 2^32:
max_order 2^32 + 4 is read as 4, decimals 2^63 as 0, and the input is answered instead of rejected."""

from mutants._narrowed_integers import narrowing

CLASS = "integer-width"  # the class of bug (benchmarks/bench_classes.py)


def int32(value: int) -> int:
    """The value a signed 32-bit integer holds after storing ``value``: wraps modulo 2^32."""
    return (value + 2**31) % 2**32 - 2**31


execute = narrowing(int32, __doc__)
