"""Does not enforce max_segments (1000): validates each segment but not the segment count."""

from mutants._relaxed_schema import bleu_with_relaxed_schema

CLASS = "validation"  # the class of bug (benchmarks/bench_classes.py)


def _without_segment_limit(schema):
    props = {
        k: ({kk: vv for kk, vv in v.items() if kk != "maxItems"} if k in ("hypotheses", "references") else v)
        for k, v in schema["properties"].items()
    }
    return {**schema, "properties": props}


execute = bleu_with_relaxed_schema(_without_segment_limit)
