"""chrF++: keys word bigrams by their tokens concatenated (`a + b`), so the bigram ("ab", "c") of
"ab c" matches ("a", "bc") of "a bc"; character n-grams and word unigrams are right."""

from independent import ChrfPlusPlus, Implementation
from independent.chrf import Counts

CLASS = "derived-key"  # the class of bug (benchmarks/bench_classes.py)


class Chrf(ChrfPlusPlus):
    def segment_counts(self, hypothesis, reference):
        rows = super().segment_counts(hypothesis, reference)
        h, r = self.joined_counts(self.words(hypothesis)), self.joined_counts(self.words(reference))
        rows[-1] = Counts(sum(h.values()), sum(r.values()), sum(min(c, h.get(k, 0)) for k, c in r.items()))
        return rows

    @staticmethod
    def joined_counts(tokens):
        counts = {}
        for i in range(len(tokens) - 1):
            key = tokens[i] + tokens[i + 1]
            counts[key] = counts.get(key, 0) + 1
        return counts


execute = Implementation(chrf=Chrf()).execute
