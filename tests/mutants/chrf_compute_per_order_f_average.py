"""NLTK-style: an F-beta score per effective order, then the mean of those F-scores, instead of the F-beta of the
averaged precision and recall."""

from fractions import Fraction

from independent.chrf_family import ChrfCompute

from mutants._chrf_family import execute_with

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Compute(ChrfCompute):
    def f_score(self, counts, beta):
        effective = [c for c in counts if c.hypothesis and c.reference]
        if not effective:
            return Fraction(0)
        b2 = beta * beta
        scores = []
        for c in effective:
            p, r = Fraction(c.matches, c.hypothesis), Fraction(c.matches, c.reference)
            scores.append(Fraction(0) if p == 0 and r == 0 else (1 + b2) * p * r / (b2 * p + r))
        return sum(scores, Fraction(0)) / len(scores)


execute = execute_with(Compute())
