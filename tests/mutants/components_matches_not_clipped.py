"""bleu-sentence-components: counts every hypothesis n-gram that occurs in some reference, unclipped
(matches sums count(g), not min(count, max_reference_count))."""

from independent import BleuSentenceComponents, BleuStatistics, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Statistics(BleuStatistics):
    def clip(self, count, max_reference_count):
        return count if max_reference_count > 0 else 0


execute = Implementation(sentence_components=BleuSentenceComponents(Statistics())).execute
