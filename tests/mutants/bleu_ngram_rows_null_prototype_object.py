"""bleu-ngrams-count: collects each order's n-gram rows in an `Object.create(null)` map keyed by the
n-gram (a unigram by its token) and lists `Object.keys`: integer-like keys ("7", "1990") come first
in ascending order, not in order of first occurrence."""

from independent import BleuNgramsCount, BleuStatistics, Implementation

from mutants._javascript import object_key_order

CLASS = "plain-object-map"  # the class of bug (benchmarks/bench_classes.py)


class NgramsCount(BleuNgramsCount):
    def ngram_rows(self, segments):
        rows = super().ngram_rows(segments)
        ordered = []
        for i, segment in enumerate(segments):
            for order in sorted({row["order"] for row in rows if row["segment"] == i}):
                group = {"\u0000".join(r["ngram"]): r for r in rows if r["segment"] == i and r["order"] == order}
                ordered += [group[key] for key in object_key_order(list(group))]
        return ordered


execute = Implementation(ngrams_count=NgramsCount(BleuStatistics())).execute
