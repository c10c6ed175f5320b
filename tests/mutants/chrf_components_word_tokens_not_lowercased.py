"""lowercase true lowercases the texts for the character n-grams only; the word tokens come from the original texts."""

from dataclasses import replace

from independent.chrf_family import ChrfComponents

from mutants._chrf_family import execute_with

CLASS = "unicode"  # the class of bug (benchmarks/bench_classes.py)


class Components(ChrfComponents):
    def measured(self, payload):
        opts = self.options(payload)
        hyps, refs = self.prepared(payload, opts)
        chars, words = replace(opts, word_order=0), replace(opts, char_order=0)
        segments = [
            self.statistics(h, r, chars) + self.statistics(oh, orf, words)
            for h, r, oh, orf in zip(hyps, refs, payload["hypotheses"], payload["references"])
        ]
        return opts, segments, self.corpus_counts(segments)


execute = execute_with(Components())
