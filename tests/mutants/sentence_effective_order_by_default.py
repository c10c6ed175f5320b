"""bleu-sentence-compute: an omitted effective_order means true (sacreBLEU's sentence_bleu default) instead of false."""

from independent import BleuSentenceCompute, Implementation

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class SentenceCompute(BleuSentenceCompute):
    default_effective_order = True


execute = Implementation(sentence_compute=SentenceCompute()).execute
