"""bleu-sentence-components: does not enforce max_references_per_segment (8): 9 references are answered."""

from independent import BleuSentenceComponents, Implementation

CLASS = "validation"  # the class of bug (benchmarks/bench_classes.py)


class Components(BleuSentenceComponents):
    def limits(self):
        return {**super().limits(), "max_references_per_segment": 10**9}


execute = Implementation(sentence_components=Components()).execute
