"""bleu-sentence-components: reference_length: a tie between two closest references goes to the LONGER one."""

from independent import BleuSentenceComponents, BleuStatistics, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Statistics(BleuStatistics):
    def closest_ref_length(self, candidate_length, reference_lengths):
        return min(reference_lengths, key=lambda length: (abs(length - candidate_length), -length))


execute = Implementation(sentence_components=BleuSentenceComponents(Statistics())).execute
