"""Validates types only: accepts max_order 9 (or 0), empty-string tokens and 9 references per segment."""

from mutants._relaxed_schema import bleu_with_relaxed_schema

CLASS = "validation"  # the class of bug (benchmarks/bench_classes.py)

BOUNDS = ("minimum", "maximum", "minLength", "maxLength")


def _without_bounds(schema):
    if isinstance(schema, dict):
        return {
            k: _without_bounds(v) for k, v in schema.items() if k not in BOUNDS and not (k == "maxItems" and v == 8)
        }
    return schema


execute = bleu_with_relaxed_schema(_without_bounds)
