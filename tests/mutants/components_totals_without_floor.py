"""bleu-sentence-components: totals[n-1] is len - n + 1 without max(0, ...): negative for a hypothesis shorter than n."""

from independent import BleuSentenceComponents, BleuStatistics, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Statistics(BleuStatistics):
    def total(self, length, n):
        return length - n + 1


execute = Implementation(sentence_components=BleuSentenceComponents(Statistics())).execute
