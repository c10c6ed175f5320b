"""Weights precision beta^2 times more than recall: (1 + b^2) P R / (b^2 R + P), the roles swapped."""

from fractions import Fraction

from independent import ChrfPlusPlus, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Chrf(ChrfPlusPlus):
    def f_score(self, counts, beta):
        effective = [c for c in counts if c.hypothesis and c.reference]
        if not effective:
            return Fraction(0)
        precision = sum(Fraction(c.matches, c.hypothesis) for c in effective) / len(effective)
        recall = sum(Fraction(c.matches, c.reference) for c in effective) / len(effective)
        if precision == 0 and recall == 0:
            return Fraction(0)
        b2 = beta * beta
        return (1 + b2) * precision * recall / (b2 * recall + precision)


execute = Implementation(chrf=Chrf()).execute
