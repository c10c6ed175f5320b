"""bleu-sentence-components: over-rejects: refuses an empty reference token list, which the contract allows
(it has length 0 and competes like any other)."""

from independent import BleuSentenceComponents, Implementation
from independent.errors import Rejection

CLASS = "over-rejection"  # the class of bug (benchmarks/bench_classes.py)


class Components(BleuSentenceComponents):
    def check_references(self, references):
        super().check_references(references)
        if any(len(reference) == 0 for reference in references):
            raise Rejection("invalid_input", "references: an empty reference")


execute = Implementation(sentence_components=Components()).execute
