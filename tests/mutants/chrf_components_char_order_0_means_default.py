"""char_order 0 is read as omitted (``payload.get("char_order") or 6``), so it means the default 6."""

from independent.chrf_family import ChrfComponents

from mutants._chrf_family import execute_with

CLASS = "semantics"  # the class of bug (benchmarks/bench_classes.py)


class Components(ChrfComponents):
    def orders(self, payload):
        return (
            int(payload.get("char_order") or self.default_char_order),
            int(payload.get("word_order", self.default_word_order)),
        )


execute = execute_with(Components())
