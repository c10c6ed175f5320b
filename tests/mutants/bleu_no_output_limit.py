"""Never applies the 1,000,000-byte output limit of bleu-ngrams-count: answers huge detail "ngrams" outputs."""

from independent import BleuNgramsCount, BleuStatistics, Implementation

CLASS = "validation"  # the class of bug (benchmarks/bench_classes.py)


class NgramsCount(BleuNgramsCount):
    def check_output_size(self, output):
        pass


execute = Implementation(ngrams_count=NgramsCount(BleuStatistics())).execute
