"""bleu-sentence-components: an omitted max_order means 3 instead of 4."""

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)
from independent import BleuSentenceComponents, Implementation


class Components(BleuSentenceComponents):
    default_max_order = 3


execute = Implementation(sentence_components=Components()).execute
