"""chrF statistics are gathered in one buffer shared by every request (a module-level list reused
to spare allocations): two requests at once interleave their segments' rows. Between filling and
reading it, the work releases the GIL (I/O, logging); a short sleep stands for it here."""

import time

from independent.chrf_family import ChrfCompute

from mutants._chrf_family import execute_with

CLASS = "concurrency"  # the class of bug (benchmarks/bench_classes.py)

_BUFFER: list = []  # the per-segment statistics of "the" request being computed


class Compute(ChrfCompute):
    def measured(self, payload):
        opts = self.options(payload)
        hyps, refs = self.prepared(payload, opts)
        _BUFFER.clear()
        for h, r in zip(hyps, refs):
            _BUFFER.append(self.statistics(h, r, opts))
            time.sleep(0.001)
        segments = list(_BUFFER[-len(hyps) :])
        return opts, segments, self.corpus_counts(segments)


execute = execute_with(Compute())
