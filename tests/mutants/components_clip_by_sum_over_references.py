"""bleu-sentence-components: clips by the SUM of an n-gram's counts over all references, not the largest in one."""

from independent import BleuSentenceComponents, BleuStatistics, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Statistics(BleuStatistics):
    def max_reference_count(self, key, reference_counts):
        return sum(counts.get(key, 0) for counts in reference_counts)


execute = Implementation(sentence_components=BleuSentenceComponents(Statistics())).execute
