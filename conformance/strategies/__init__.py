"""Hypothesis strategies aimed at the contracts' hard parts, one module per tool.

``families(tool_id, version)`` lists a tool's families in three categories:

- valid: inputs the target must answer, built to hit the contract's hard parts
  (hypotheses made from the references, confusable tokens, Unicode, every option);
- boundary: each limit exactly at and just past (accepted, or rejected with its code);
- invalid: exactly one rule broken per case (open point A7), with the code the
  contract determines, or "any" where it does not (A6).

No generated case depends on an open point of the contracts (reports/ambiguities.md),
except A4, whose readings the comparison computes. Examples are reproducible: a
strategy draws every choice through Hypothesis, so a seed fixes the cases.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis.strategies import SearchStrategy

from conformance.hypothesis_profiles import DRAW_EXAMPLES
from conformance.strategies import bleu_corpus_compute, bleu_ngrams_count, chrf_plus_plus_compute
from conformance.strategies.base import CATEGORIES, Family, GeneratedCase

__all__ = ["GeneratedCase", "Family", "CATEGORIES", "families", "supported", "describe_families", "draw_examples"]

# (tool_id, version) -> the function listing its families.
_REGISTRY = {
    (bleu_ngrams_count.TOOL_ID, "1.0.0"): bleu_ngrams_count.families,
    (bleu_corpus_compute.TOOL_ID, "1.0.0"): bleu_corpus_compute.families,
    (chrf_plus_plus_compute.TOOL_ID, "1.0.0"): chrf_plus_plus_compute.families,
}


def supported() -> list[tuple[str, str]]:
    """Every (tool_id, version) that has generated families."""
    return sorted(_REGISTRY)


def families(tool_id: str, version: str) -> list[Family]:
    """The tool's families, valid first, then boundary, then invalid; [] for a tool without strategies."""
    build = _REGISTRY.get((tool_id, version))
    if build is None:
        return []
    found = build(tool_id, version)
    return sorted(found, key=lambda family: CATEGORIES.index(family.category))


def describe_families() -> str:
    """A Markdown summary of every tool's families, for the docs."""
    lines = []
    for tool_id, version in supported():
        lines += [f"### {tool_id}@{version}", "", "| family | category | aims at |", "|---|---|---|"]
        lines += [f"| `{f.name}` | {f.category} | {f.summary} |" for f in families(tool_id, version)]
        lines.append("")
    return "\n".join(lines)


def draw_examples(strategy: SearchStrategy[Any], count: int, seed: int = 0) -> list[Any]:
    """Up to ``count`` examples of ``strategy``, the same ones for the same seed.

    Fewer come back when the strategy has fewer distinct examples than ``count``.
    """
    drawn: list[Any] = []

    @settings(settings.get_profile(DRAW_EXAMPLES), max_examples=count)
    @hypothesis_seed(seed)
    @given(strategy)
    def collect(example: Any) -> None:
        drawn.append(example)

    collect()
    return drawn
