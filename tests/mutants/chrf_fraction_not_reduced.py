"""Writes score_fraction from the unreduced numerator and denominator of 100*(1+b^2)PR / (b^2 P + R)."""

from fractions import Fraction

from independent import ChrfPlusPlus, Implementation

CLASS = "rounding"  # the class of bug (benchmarks/bench_classes.py)


class Chrf(ChrfPlusPlus):
    def compute(self, payload):
        output = super().compute(payload)
        value = Fraction(*map(int, output["score_fraction"].split("/")))
        if value:
            b2 = output["beta"] ** 2
            numerator, denominator = 100 * (1 + b2) * value.numerator, (1 + b2) * value.denominator
            output["score_fraction"] = f"{numerator}/{denominator}" if b2 else output["score_fraction"]
        return output


execute = Implementation(chrf=Chrf()).execute
