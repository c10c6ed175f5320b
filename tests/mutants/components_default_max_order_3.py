"""bleu-sentence-components: an omitted max_order means 3 instead of 4."""

from independent import BleuSentenceComponents, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Components(BleuSentenceComponents):
    default_max_order = 3


execute = Implementation(sentence_components=Components()).execute
