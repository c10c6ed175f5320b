"""char_order + word_order below 1 is not rejected: both orders 0 answer score 0 with no statistics rows."""

from independent.chrf_family import ChrfComponents

from mutants._chrf_family import execute_with

CLASS = "validation"  # the class of bug (benchmarks/bench_classes.py)


class Components(ChrfComponents):
    def check_options(self, payload):
        self.integer_option(payload, "char_order", 0, self.max_char_order)
        self.integer_option(payload, "word_order", 0, self.max_word_order)
        self.boolean_option(payload, "whitespace")
        self.integer_option(payload, "beta", 1, 16)
        self.boolean_option(payload, "lowercase")


execute = execute_with(Components())
