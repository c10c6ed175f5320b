"""bleu-sentence-components: max_total_tokens and max_total_token_bytes count the hypothesis tokens only,
where the contract counts every reference token too."""

from independent import BleuSentenceComponents, Implementation

CLASS = "validation"  # the class of bug (benchmarks/bench_classes.py)


class Components(BleuSentenceComponents):
    def counted_tokens(self, payload):
        return payload["hypothesis"]


execute = Implementation(sentence_components=Components()).execute
