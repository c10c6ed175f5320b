"""Keys n-grams by " ".join(tokens): tokens containing spaces collide (["a b", "c"] equals ["a", "b c"])."""

from independent import BleuStatistics, Implementation
from independent.bleu import Row, Segment

CLASS = "derived-key"  # the class of bug (benchmarks/bench_classes.py)


class Statistics(BleuStatistics):
    SEPARATOR = " "

    def segment(self, hypothesis, references, max_order):
        def count(tokens, n):
            found = {}
            for i in range(len(tokens) - n + 1):
                key = self.SEPARATOR.join(tokens[i : i + n])
                found[key] = found.get(key, 0) + 1
            return found

        matches, totals, rows = [], [], []
        for n in range(1, max_order + 1):
            refs = [count(r, n) for r in references]
            matched = 0
            for key, c in count(hypothesis, n).items():
                ref_max = max(r.get(key, 0) for r in refs)
                matched += min(c, ref_max)
                rows.append(Row(n, key.split(self.SEPARATOR) if n > 1 else [key], c, ref_max, min(c, ref_max)))
            matches.append(matched)
            totals.append(max(0, len(hypothesis) - n + 1))
        return Segment(len(hypothesis), matches, totals, rows)


execute = Implementation(statistics=Statistics()).execute
