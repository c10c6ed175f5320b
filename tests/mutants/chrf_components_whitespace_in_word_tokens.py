"""With whitespace true the word tokens are split on U+0020 alone, so every other whitespace code point
(tab, U+00A0, U+3000, ...) stays inside the tokens: the whitespace flag leaks into the word tokenization."""

from dataclasses import replace

from independent.chrf_family import ChrfComponents

from mutants._chrf_family import execute_with

CLASS = "unicode"  # the class of bug (benchmarks/bench_classes.py)


class Components(ChrfComponents):
    def space_words(self, text):
        return [token for word in text.split(" ") if word for token in self.separate_punctuation(word)]

    def statistics(self, hypothesis, reference, opts):
        if not opts.whitespace:
            return super().statistics(hypothesis, reference, opts)
        rows = super().statistics(hypothesis, reference, replace(opts, word_order=0))
        hyp_words, ref_words = self.space_words(hypothesis), self.space_words(reference)
        return rows + [self.order_counts(hyp_words, ref_words, n) for n in range(1, opts.word_order + 1)]


execute = execute_with(Components())
