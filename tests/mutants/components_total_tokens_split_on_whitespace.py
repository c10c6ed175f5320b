"""Counts the token totals over the tokens split on whitespace (joined, then re-split), not the tokens given."""

from independent import BleuSentenceComponents, Implementation

CLASS = "limit-form"  # the class of bug (benchmarks/bench_classes.py)


class Components(BleuSentenceComponents):
    def counted_tokens(self, payload):
        return " ".join(self.every_token(payload)).split()


execute = Implementation(sentence_components=Components()).execute
