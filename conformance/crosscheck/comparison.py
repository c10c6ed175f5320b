"""One comparison of the contract's values (the oracle's) with a library's on one input.

Tolerances, per metric:

* Counts, lengths and word tokens are integers or strings: compared exactly.
* BLEU and brevity penalty are IEEE doubles from exp/log on both sides with the
  same formula up to operation order (sacreBLEU adds ln(100 m/l), NLTK adds
  w*ln(m/l) with fsum, the oracle adds ln(m/l) then multiplies by 1/N): a few
  ulps of the exponent, i.e. around 1e-15 relative. ``REL_TOL`` = 1e-9 is six
  orders of magnitude above that and six below any difference a different
  formula makes (the smallest such effect seen, a changed count among <=100
  n-grams, moves the score by more than 1e-3 relative).
* chrF: the contract's exact fraction converted to a double vs sacreBLEU's
  float computation of the same formula (at most ~20 roundings): same 1e-9
  relative bound, on the percent scale.
* The library's values that are output fields are also held to their output_schema bounds (a
  library's 1 + 2^-51 is within 1e-9 of the contract's 1, but no conforming output may hold it).
* Zero is compared exactly (no absolute tolerance): the contract's score is
  exactly 0 when any m_n is 0, and a library that returns 1e-77 instead
  departs from it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

REL_TOL = 1e-9
SIX_DECIMALS = re.compile(r"[0-9]{1,3}\.[0-9]{6}")  # a chrF score as the contracts write it
HALF_STEP = 5e-7  # half of 1e-6: how far a six-decimal rounding lies from the value rounded


@dataclass
class Comparison:
    """The contract's and the library's values side by side, with the names of the fields that differ.

    ``not_comparable`` says why the library cannot be given this input faithfully (then nothing is compared).
    """

    contract: dict = field(default_factory=dict)
    library: dict = field(default_factory=dict)
    differences: list[str] = field(default_factory=list)
    not_comparable: str = ""

    def exact(self, name: str, contract_value: Any, library_value: Any) -> None:
        self._record(name, contract_value, library_value, contract_value == library_value)

    def close(self, name: str, contract_value: float | Fraction, library_value: float) -> None:
        agree = math.isclose(float(contract_value), float(library_value), rel_tol=REL_TOL, abs_tol=0.0)
        self._record(name, contract_value, library_value, agree)

    def within(self, name: str, library_value: float, schema: dict) -> None:
        """A library value against the bounds of its field's output_schema (``minimum``, ``maximum``): the
        contract's side of the comparison is those bounds."""
        low, high = schema.get("minimum"), schema.get("maximum")
        inside = (low is None or library_value >= low) and (high is None or library_value <= high)
        self._record(name, {"minimum": low, "maximum": high}, library_value, inside)

    def _record(self, name: str, contract_value: Any, library_value: Any, agree: bool) -> None:
        self.contract[name] = contract_value
        self.library[name] = library_value
        if not agree:
            self.differences.append(name)

    @property
    def agrees(self) -> bool:
        return not self.not_comparable and not self.differences


def not_comparable(reason: str) -> Comparison:
    return Comparison(not_comparable=reason)


def agrees(library: Any, target: Any) -> bool:
    """Is the target's value the library's wherever the library's (partial) value says something?
    Numbers within REL_TOL (0 only equals 0), a boolean never a number, a chrF score (a float on the
    0..100 scale) any six-decimal text within half a step of it, the rest exactly."""
    if isinstance(library, dict):
        return isinstance(target, dict) and all(k in target and agrees(v, target[k]) for k, v in library.items())
    if isinstance(library, list):
        return isinstance(target, list) and len(library) == len(target) and all(map(agrees, library, target))
    if isinstance(library, bool) or isinstance(target, bool):
        return type(library) is type(target) and library == target
    if isinstance(library, (int, float)) and isinstance(target, (int, float)):
        return math.isclose(library, target, rel_tol=REL_TOL, abs_tol=0.0)
    if isinstance(library, float) and isinstance(target, str) and SIX_DECIMALS.fullmatch(target):
        return abs(float(target) - library) <= HALF_STEP * (1 + REL_TOL) + REL_TOL * abs(library)
    return library == target
