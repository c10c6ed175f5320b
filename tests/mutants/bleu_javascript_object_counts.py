"""Counts unigrams in a plain JavaScript object (counts[token] = (counts[token] || 0) + 1, as npm bleu-score does):
a token named like an inherited property (constructor, toString, hasOwnProperty, valueOf, __proto__) reads a
function or Object.prototype instead of undefined, so its counts turn into NaN, and writes to __proto__ are lost."""

from independent import BleuCorpusCompute, BleuNgramsCount, BleuStatistics, Implementation
from independent.bleu import Row, Segment

CLASS = "plain-object-map"  # the class of bug (benchmarks/bench_classes.py)

INHERITED = frozenset({"__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"})
NOT_A_NUMBER = float("nan")  # what JavaScript's arithmetic makes of a function or an object plus 1


class PlainObject:
    """A JavaScript object used as a map: own keys, plus the names every object inherits."""

    def __init__(self):
        self.own = {}

    def read(self, key):  # obj[key]: undefined (None) only when neither own nor inherited
        return self.own[key] if key in self.own else (NOT_A_NUMBER if key in INHERITED else None)

    def write(self, key, value):
        if key != "__proto__":  # assigning a number to __proto__ is silently ignored
            self.own[key] = value

    def keys(self):  # Object.keys: own keys in insertion order
        return list(self.own)


class Statistics(BleuStatistics):
    def segment(self, hypothesis, references, max_order):
        def count(tokens, n):
            found = PlainObject() if n == 1 else None
            exact = {}
            for i in range(len(tokens) - n + 1):
                if found is not None:
                    found.write(tokens[i], (found.read(tokens[i]) or 0) + 1)
                else:
                    exact[tuple(tokens[i : i + n])] = exact.get(tuple(tokens[i : i + n]), 0) + 1
            if found is None:
                return exact, (lambda key: exact.get(key, 0)), [list(key) for key in exact]
            return found, (lambda key: found.read(key) or 0), [[key] for key in found.keys()]

        matches, totals, rows = [], [], []
        for n in range(1, max_order + 1):
            refs = [count(r, n) for r in references]
            own, read, ngrams = count(hypothesis, n)
            matched = 0
            for ngram in ngrams:
                key = ngram[0] if n == 1 else tuple(ngram)
                c = read(key)
                ref_max = max(reference_read(key) for _, reference_read, _ in refs)
                clipped = min(c, ref_max) if c == c and ref_max == ref_max else NOT_A_NUMBER  # Math.min
                matched += clipped
                rows.append(Row(n, ngram, c, ref_max, clipped))
            matches.append(matched)
            totals.append(max(0, len(hypothesis) - n + 1))
        return Segment(len(hypothesis), matches, totals, rows)


class CorpusCompute(BleuCorpusCompute):
    def rounded(self, value, payload):
        return value if value != value else super().rounded(value, payload)  # Number(NaN.toFixed(d)) is NaN


statistics = Statistics()
execute = Implementation(
    ngrams_count=BleuNgramsCount(statistics), corpus_compute=CorpusCompute(statistics), statistics=statistics
).execute
