"""chrF++: counts word n-grams in a plain object with `key in counts ? counts[key]++ : counts[key] = 1`;
`"constructor" in {}` is true, so a word named like an inherited property starts from a function and
its counts, and every score built on them, are NaN."""

from independent import ChrfPlusPlus, Implementation

from mutants._javascript import OBJECT_PROTOTYPE_NAMES

CLASS = "in-key-check"  # the class of bug (benchmarks/bench_classes.py)


class Chrf(ChrfPlusPlus):
    def compute(self, payload):
        output = super().compute(payload)
        poisoned = [
            bool(OBJECT_PROTOTYPE_NAMES & {*row["hypothesis"], *row["reference"]}) for row in output["word_tokens"]
        ]
        if any(poisoned):
            output["score"], output["score_fraction"] = "NaN", "NaN"
            output["segment_scores"] = [
                "NaN" if bad else score for bad, score in zip(poisoned, output["segment_scores"])
            ]
        return output


execute = Implementation(chrf=Chrf()).execute
