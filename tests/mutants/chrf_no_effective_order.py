"""Averages precision and recall over all 8 orders, counting an order missing on either side as 0 (no effective order)."""

from fractions import Fraction

from independent import ChrfPlusPlus, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Chrf(ChrfPlusPlus):
    def f_score(self, counts, beta):
        precision = sum(Fraction(c.matches, c.hypothesis) if c.hypothesis else Fraction(0) for c in counts) / len(
            counts
        )
        recall = sum(Fraction(c.matches, c.reference) if c.reference else Fraction(0) for c in counts) / len(counts)
        if precision == 0 and recall == 0:
            return Fraction(0)
        b2 = beta * beta
        return (1 + b2) * precision * recall / (b2 * precision + recall)


execute = Implementation(chrf=Chrf()).execute
