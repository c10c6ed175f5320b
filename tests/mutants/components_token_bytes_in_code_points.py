"""bleu-sentence-components: measures max_token_bytes in code points instead of UTF-8 bytes."""

from independent import BleuSentenceComponents, Implementation

CLASS = "unicode"  # the class of bug (benchmarks/bench_classes.py)


class Components(BleuSentenceComponents):
    def token_size(self, token):
        return len(token)


execute = Implementation(sentence_components=Components()).execute
