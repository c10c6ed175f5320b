"""Keys n-grams by one JavaScript number packing token ids, ((id_1 * V + id_2) * V + ...) with V the
segment's vocabulary size: past 2^53 the double rounds, so n-grams of orders 5-8 over hundreds of
distinct tokens that differ only in their last token share a key (bleu-ngrams-count, bleu-corpus-compute)."""

from independent import BleuStatistics, Implementation

CLASS = "derived-key"  # the class of bug (benchmarks/bench_classes.py)


class Statistics(BleuStatistics):
    def segment(self, hypothesis, references, max_order):
        self._size = float(max(1, len(set(hypothesis).union(*map(set, references)))))
        self._packed_counts = {}  # id(counts) -> (counts, {packed key: count})
        return super().segment(hypothesis, references, max_order)

    def packed(self, ids) -> float:
        value = 0.0
        for i in ids:
            value = value * self._size + float(i)  # rounds once past 2^53: the bug
        return value

    def count(self, ids, n):
        """Counts by packed key; each key is shown as the n-gram that first had it."""
        found, first = {}, {}
        for start in range(len(ids) - n + 1):
            ngram = tuple(ids[start : start + n])
            shown = first.setdefault(self.packed(ngram), ngram)
            found[shown] = found.get(shown, 0) + 1
        return found

    def max_reference_count(self, key, reference_counts):
        packed = self.packed(key)
        return max(self.by_packed_key(counts).get(packed, 0) for counts in reference_counts)

    def by_packed_key(self, counts):
        if id(counts) not in self._packed_counts:
            self._packed_counts[id(counts)] = (counts, {self.packed(k): c for k, c in counts.items()})
        return self._packed_counts[id(counts)][1]


execute = Implementation(statistics=Statistics()).execute
