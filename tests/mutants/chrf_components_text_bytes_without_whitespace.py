"""Measures max_text_bytes on the texts with whitespace removed (as the character n-grams see them)."""

from independent.chrf_family import ChrfComponents

from mutants._chrf_family import execute_with

CLASS = "limit-form"  # the class of bug (benchmarks/bench_classes.py)


class Components(ChrfComponents):
    def text_bytes(self, texts):
        return super().text_bytes(["".join(text.split()) for text in texts])


execute = execute_with(Components())
