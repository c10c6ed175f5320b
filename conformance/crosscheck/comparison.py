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
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

REL_TOL = 1e-9


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
