"""The sentence tools pass the tokens through a one-token-per-line round trip (joined with LF, read
back with str.splitlines): a token holding a line terminator (LF, CR, CRLF, NEL, U+2028, U+2029,
VT, FF, U+001C-U+001E) becomes several tokens, one of them empty when it starts or ends the token."""

from independent import BleuSentenceComponents, BleuSentenceCompute, BleuStatistics, Implementation

CLASS = "unicode"  # the class of bug (benchmarks/bench_classes.py)


def through_lines(tokens):
    return "\n".join(tokens).splitlines() if tokens else []


class Statistics(BleuStatistics):
    def segment(self, hypothesis, references, max_order):
        return super().segment(through_lines(hypothesis), [through_lines(r) for r in references], max_order)


execute = Implementation(
    sentence_components=BleuSentenceComponents(Statistics()), sentence_compute=BleuSentenceCompute(Statistics())
).execute
