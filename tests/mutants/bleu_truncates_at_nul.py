"""Cuts every token at its first U+0000, as a C string would (tokens handed to a char* API): tokens
that differ only after it count as one n-gram, and the n-gram rows echo the cut token."""

from independent import BleuStatistics, Implementation

CLASS = "unicode"  # the class of bug (benchmarks/bench_classes.py)


def c_string(token):
    return token.split("\x00", 1)[0]


class Statistics(BleuStatistics):
    def segment(self, hypothesis, references, max_order):
        return super().segment(
            [c_string(t) for t in hypothesis], [[c_string(t) for t in r] for r in references], max_order
        )


execute = Implementation(statistics=Statistics()).execute
