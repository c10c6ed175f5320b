"""bleu-sentence-components: does not reject tokens holding a lone surrogate (the contract's validation does)."""

from independent import BleuSentenceComponents, Implementation

CLASS = "validation"  # the class of bug (benchmarks/bench_classes.py)


class Components(BleuSentenceComponents):
    def has_lone_surrogate(self, token):
        return False

    def token_size(self, token):
        return len(token.encode("utf-8", "surrogatepass"))


execute = Implementation(sentence_components=Components()).execute
