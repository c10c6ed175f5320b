"""Hypothesis strategies aimed at the contracts' hard parts, one module per tool.

``families(tool_id, version)`` lists a tool's families in three categories:

- valid: inputs the target must answer, built to hit the contract's hard parts
  (hypotheses made from the references, confusable tokens, Unicode, every option);
- boundary: each limit exactly at and just past (accepted, or rejected with its code);
- invalid: exactly one rule broken per case (open point A7), with the code the
  contract determines, or "any" where it does not (A6).

Across the categories, ``widths``, ``keys`` and ``magnitudes`` build the families aimed at how an
implementation represents values: counts past 2^15/2^16/2^20, n-grams a joined or packed key
would merge, names a JavaScript object treats specially, and rounding across magnitudes;
``limit_forms`` puts every size limit's cases in content whose size differs between the contract's
form and the ones an implementation might measure instead (escaped, lowercased, UTF-16 units...).

No generated case depends on an open point of the contracts (reports/ambiguities.md),
except A4, whose readings the comparison computes. Examples are reproducible: a
strategy draws every choice through Hypothesis, so a seed fixes the cases.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis.strategies import SearchStrategy

from conformance.hypothesis_profiles import DRAW_EXAMPLES
from conformance.strategies import aim_counts
from conformance.strategies.base import CATEGORIES, Family, GeneratedCase
from oracle.registry import module_name, tool_keys

__all__ = ["GeneratedCase", "Family", "CATEGORIES", "families", "supported", "describe_families", "draw_examples"]


@functools.cache
def _builder(tool_id: str) -> Callable[[str, str], list[Family]] | None:
    """``families`` of the tool's module ``conformance.strategies.<tool_id with _>``, if it has one."""
    name = f"{__name__}.{module_name(tool_id)}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            return None
        raise
    return module.families


def supported() -> list[tuple[str, str]]:
    """Every implemented (tool_id, version) that has generated families."""
    return [(tool_id, version) for tool_id, version in tool_keys() if _builder(tool_id) is not None]


def families(tool_id: str, version: str) -> list[Family]:
    """The tool's families, valid first, then boundary, then invalid; [] for a tool without strategies."""
    build = _builder(tool_id)
    if build is None:
        return []
    # the families every tool has, each module reading the tool's contract: several requests (relations),
    # integers far past their bounds, every class of code point, the largest bodies a valid input makes
    from conformance.strategies import code_points, integer_magnitudes, relations, wire_sizes

    found = build(tool_id, version)
    for module in (relations, integer_magnitudes, code_points, wire_sizes):
        found += module.families(tool_id, version)
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

    Fewer come back when the strategy has fewer distinct examples than ``count``. Inside
    ``aim_counts.counting()``, the aimed features of the examples are counted.
    """
    drawn: list[Any] = []

    @settings(settings.get_profile(DRAW_EXAMPLES), max_examples=count)
    @hypothesis_seed(seed)
    @given(strategy)
    def collect(example: Any) -> None:
        aim_counts.example_done()
        drawn.append(example)

    collect()
    return drawn
