"""The comparison policy: does a target's response satisfy a case?

    check(case, response) -> Verdict        expected_for(case) -> the expected output or rejection

Rejections. An input the contract rejects must be rejected: a result fails ("answered an
input the contract rejects"), an HTTP 5xx fails ("never a 5xx"), another transport error is
"errored". The code is checked only when the case names one and the response carries one;
every code a reasonable reading could give passes (readings.acceptable_error_codes: A6, A7).

Outputs. A result is validated against the contract's output_schema (JSON Schema 2020-12),
then compared with the output of every reasonable reading of the open points
(readings.expected_outputs): it passes if it matches any of them, and otherwise fails with the
first difference from the oracle's own reading. Integers, strings, booleans, arrays and
objects compare exactly (a JSON number 1 equals 1.0; a boolean is never a number); extra or
missing keys are differences. Two kinds of values are numbers computed with libm:

Full-precision floats (bleu-corpus-compute ``bleu`` and ``brevity_penalty`` when
``decimals`` is omitted) are held to a tolerance from a forward error analysis of the
contract's formula. With u = 2^-53 (unit roundoff), E_EXP = E_LOG = 4 (ulps a libm exp/log
may err by: glibc, fdlibm/V8 and musl stay under 1), and counts c, r, m_n, l_n exact:

  brevity_penalty = exp(1 - r/c), 0 < c <= r:
    q = fl(r/c) errs by <= u*r/c; fl(1 - q) adds <= u*|1 - r/c|; so the argument errs by
    e_t <= u*(r/c + |1 - r/c|), which exp turns into relative error e_t, plus E_EXP ulps
    (2u each, relative) for exp itself:
      B_bp = u*(r/c + |1 - r/c|) + 2u*E_EXP

  bleu = bp * exp((1/N) * sum_{n=1..N} ln(m_n/l_n)), all m_n > 0:
    each term: fl(m_n/l_n) errs by u relatively, i.e. <= u absolutely after ln; ln itself
    E_LOG ulps of its value; to also cover ln(m_n) - ln(l_n) we bound by the larger
      e_n = u + 2u*E_LOG*(|ln m_n| + |ln l_n|)
    the N-1 additions in any order add <= (N-1)*u*S with S = sum |ln(m_n/l_n)|;
    (1/N)*s, s/N or sum of (1/N)*ln terms adds <= 2u*S/N; so the exponent errs by
      e_a = (sum_n e_n + (N-1)*u*S)/N + 2u*S/N
    exp turns it into relative error e_a, plus 2u*E_EXP; the product with bp adds u:
      B_bleu = B_bp + e_a + 2u*E_EXP + u        (B_bp = 0 when bp = 1 by the contract)

  The oracle and the target each err by at most B (relative), so they differ by at most 2B;
  the tolerance is SAFETY = 4 times that: |actual - expected| <= 8*B*|expected|. Where the
  value falls below the smallest normal double (a huge r/c drives exp towards underflow),
  precision is absolute: SUBNORMAL_ULPS = 4 steps of 2^-1074 are added to the bound.
  Values the contract makes exact are compared exactly: brevity_penalty 1 when c > r and
  0 when c = 0; bleu 0 when c = 0 or any m_n = 0.

  A correct implementation with any libm passes (the tolerance is 4 times the sum of both
  bounds); a wrong formula does not: the tolerance stays below about 2e-12 relative for
  every input the limits allow (r/c < 746 while bp is a normal double; |ln m_n|, |ln l_n|
  <= ln 50,000), while exp(1 - c/r), a missing 1/N, an off-by-one N, log base 10 or any
  smoothing move the value by 1e-6 or more on all but degenerate inputs.

``decimals``-rounded values (toFixed) compare exactly, except when the full-precision value
lies within that tolerance of a rounding boundary: then either neighbour passes, as a
correct implementation could land on either side (oracle.jsnumber.to_fixed).

chrF++ ``score`` (six decimals, ties to even on the exact rational), ``score_fraction``
and ``segment_scores`` are exact strings: no libm is involved.
"""

from __future__ import annotations

import functools
import math
import threading
from decimal import Decimal
from typing import Any

import fastjsonschema
import jsonschema

import oracle
from conformance import readings
from conformance.model import Case, Mismatch, TargetResponse, Verdict
from oracle.bleu_corpus_compute import bleu_score, brevity_penalty
from oracle.errors import ContractError
from oracle.jsnumber import to_fixed
from oracle.validation import load_contract_cached

UNIT_ROUNDOFF = 2.0**-53
E_EXP = 4  # ulps a libm exp may err by
E_LOG = 4  # ulps a libm log may err by
SAFETY = 4  # on top of the factor 2 for the oracle's own error
SUBNORMAL_ULPS = 4
SMALLEST_NORMAL = 2.0**-1022
SMALLEST_SUBNORMAL = 2.0**-1074

BLEU_CORPUS = "bleu-corpus-compute"
FLOAT_FIELDS = {BLEU_CORPUS: ("bleu", "brevity_penalty")}
CODED_ERRORS = ("invalid_input", "limit_exceeded")
RAW_EXCERPT = 300


# --- expected -------------------------------------------------------------------


def expected_for(case: Case) -> Any:
    """What the case expects: the oracle's output, or ``{"error": code}`` for a rejection."""
    if case.expect.kind == "error":
        return {"error": case.expect.error_code or "any"}
    try:
        return _oracle_output(case)
    except ContractError as error:  # a case whose input the oracle rejects: say so, do not crash
        return {"error": error.code, "message": error.message}


class _Expectations:
    """The oracle's behaviour on one case, and (computed only when needed) every reading's."""

    def __init__(self, case: Case):
        self.case = case
        try:
            self.oracle = readings.Behaviour("oracle", output=oracle.execute(case.tool_id, case.version, case.input))
        except ContractError as error:
            self.oracle = readings.Behaviour("oracle", error_code=error.code, error_message=error.message)
        self._all: list[readings.Behaviour] | None = None

    def all_readings(self) -> list[readings.Behaviour]:
        if self._all is None:
            self._all = readings.behaviours(self.case.tool_id, self.case.version, self.case.input)
        return self._all

    def other_outputs(self) -> list[dict]:
        return [b.output for b in self.all_readings()[1:] if b.output is not None]


_last = threading.local()


def _expectations(case: Case) -> _Expectations:
    """Computed once per case: the runner calls expected_for(case) and then check(case, ...)."""
    cached = getattr(_last, "entry", None)
    if cached is None or cached.case is not case:
        cached = _last.entry = _Expectations(case)
    return cached


def _oracle_output(case: Case) -> dict:
    behaviour = _expectations(case).oracle
    if behaviour.output is None:
        raise ContractError(behaviour.error_code, behaviour.error_message)
    return behaviour.output


# --- the verdict ----------------------------------------------------------------


def check(case: Case, response: TargetResponse) -> Verdict:
    if case.expect.kind == "error":
        return _check_rejection(case, response)
    return _check_output(case, response)


def _check_rejection(case: Case, response: TargetResponse) -> Verdict:
    if response.kind == "rejection":
        wanted = case.expect.error_code
        got = _response_code(response)
        if wanted not in CODED_ERRORS or got is None or got == wanted:
            return Verdict("passed", f"rejected ({got or 'no code given'})")
        acceptable = readings.acceptable_error_codes(case.tool_id, case.version, case.input)
        if got in acceptable:
            return Verdict("passed", f"rejected with {got}, which a reasonable reading gives ({_joined(acceptable)})")
        return Verdict(
            "failed",
            f"rejected with code {got!r}, but the contract calls for {wanted!r}: {_excerpt(response)}",
            Mismatch("/error/code", wanted, got, f"error code {got!r} where the contract names {wanted!r}"),
        )
    if response.kind == "result":
        other = _other_reading_accepting(case, response.result)
        if other:
            return Verdict("passed", f"answered; the contract's open point allows it ({other})")
        return Verdict(
            "failed",
            "answered an input the contract rejects",
            Mismatch("", {"error": case.expect.error_code or "any"}, response.result,
                     "answered an input the contract rejects"),
        )
    if response.status is not None and 500 <= response.status <= 599:
        return Verdict("failed", f"HTTP {response.status} for an invalid input: the contract calls for a rejection, "
                                 f"never a 5xx. {_excerpt(response)}")
    return Verdict("errored", response.detail or "transport error")


def _check_output(case: Case, response: TargetResponse) -> Verdict:
    if response.kind == "transport_error":
        return Verdict("errored", response.detail or "transport error")
    expectations = _expectations(case)
    if expectations.oracle.output is not None:
        expected = expectations.oracle.output
    elif expectations.other_outputs():  # the oracle's reading of an open point rejects, another answers
        expected = expectations.other_outputs()[0]
    else:
        return Verdict("errored", f"the case expects an output but every reading rejects its input: "
                                  f"{expectations.oracle.error_message}")
    if response.kind == "rejection":
        rejecting = [b.reading for b in expectations.all_readings() if b.output is None]
        if rejecting:
            return Verdict("passed", f"rejected, as a reading of an open point does ({rejecting[0]})")
        code = _response_code(response) or "no code"
        return Verdict(
            "failed",
            f"rejected a valid input ({code}): {_excerpt(response)}",
            Mismatch("", expected, {"error": code, "message": response.detail or response.raw[:RAW_EXCERPT]},
                     f"over-rejection: the contract requires an output, the target answered with error {code!r}"),
        )
    schema_error = output_schema_error(case.tool_id, case.version, response.result)
    if schema_error is not None:
        return Verdict("failed", schema_error.message, schema_error)
    first = compare_output(case.tool_id, case.input, expected, response.result)
    if first is None:
        return Verdict("passed")
    for behaviour in expectations.all_readings()[1:]:
        if behaviour.output is not None and compare_output(case.tool_id, case.input, behaviour.output,
                                                           response.result) is None:
            return Verdict("passed", f"matches the output under another reading of an open point ({behaviour.reading})")
    return Verdict("failed", f"{first.pointer or 'output'}: {first.message}", first)


def _other_reading_accepting(case: Case, result: Any) -> str:
    """The reading of an open point under which the input is answered with this result, if any."""
    for behaviour in _expectations(case).all_readings():
        if behaviour.output is not None and output_schema_error(case.tool_id, case.version, result) is None \
                and compare_output(case.tool_id, case.input, behaviour.output, result) is None:
            return behaviour.reading
    return ""


def _response_code(response: TargetResponse) -> str | None:
    """The code the response's error body carries, if any. A bare status says nothing: the hosted
    service's statuses are unpublished (A12), and a service answering 400 to every rejection is correct."""
    return response.error_code or None


def _excerpt(response: TargetResponse) -> str:
    text = response.detail or response.raw
    return text if len(text) <= RAW_EXCERPT else text[:RAW_EXCERPT] + "..."


def _joined(codes: set[str]) -> str:
    return ", ".join(sorted(codes))


# --- output schema ----------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _output_validator(tool_id: str, version: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(load_contract_cached(tool_id, version)["output_schema"])


@functools.lru_cache(maxsize=None)
def _output_accepts(tool_id: str, version: str):
    return fastjsonschema.compile(load_contract_cached(tool_id, version)["output_schema"])


def _schema_accepts(tool_id: str, version: str, result: Any) -> bool:
    """The compiled check accepts a large valid output many times faster; jsonschema stays the
    authority for every output it does not accept, and writes the error."""
    try:
        _output_accepts(tool_id, version)(result)
    except (fastjsonschema.JsonSchemaException, RecursionError):
        return False
    return not _has_non_finite(result)


def _has_non_finite(value: Any) -> bool:
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, dict):
        return any(_has_non_finite(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_non_finite(v) for v in value)
    return False


def output_schema_error(tool_id: str, version: str, result: Any) -> Mismatch | None:
    """The first violation of the output_schema (shallowest first), as a Mismatch."""
    if _schema_accepts(tool_id, version, result):
        return None
    try:
        errors = list(_output_validator(tool_id, version).iter_errors(result))
    except RecursionError:
        return Mismatch("", None, "<nested too deep>", "the output is nested too deeply to be an output of this tool")
    if not errors:
        return None
    error = min(errors, key=lambda e: (len(e.absolute_path), list(map(str, e.absolute_path))))
    pointer = json_pointer(error.absolute_path)
    message = error.message if len(error.message) <= 200 else f"violates {error.validator} {error.validator_value!r}"
    return Mismatch(pointer, f"{error.validator}: {error.validator_value!r}"[:200], _short(error.instance),
                    f"the output violates the contract's output_schema at {pointer or '/'}: {message}")


def json_pointer(parts) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def _short(value: Any) -> Any:
    text = repr(value)
    return value if len(text) <= 200 else text[:197] + "..."


# --- field-by-field comparison -----------------------------------------------------


def compare_output(tool_id: str, payload: Any, expected: dict, actual: Any) -> Mismatch | None:
    """The first difference between an expected output and the target's (schema-valid) output:
    exact fields first (a wrong count explains a wrong score), then the libm-computed floats."""
    float_fields = [f for f in FLOAT_FIELDS.get(tool_id, ()) if isinstance(expected, dict) and f in expected]
    found = first_difference(expected, actual, "", skip_top_level=set(float_fields))
    if found:
        return found
    for field in float_fields:
        found = _compare_float_field(field, payload, expected, actual[field])
        if found:
            return found
    return None


def first_difference(expected: Any, actual: Any, pointer: str = "", skip_top_level: set = frozenset()) -> Mismatch | None:
    """Exact structural comparison: numbers by value (1 == 1.0), never a boolean for a number."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return Mismatch(pointer, _short(expected), _short(actual), f"expected an object, got {_kind(actual)}")
        for key in expected:
            if key not in actual:
                return Mismatch(f"{pointer}/{_escape(key)}", _short(expected[key]), None, f"missing key {key!r}")
        for key in actual:
            if key not in expected:
                return Mismatch(f"{pointer}/{_escape(key)}", None, _short(actual[key]), f"unexpected key {key!r}")
        for key in expected:
            if pointer == "" and key in skip_top_level:
                continue
            found = first_difference(expected[key], actual[key], f"{pointer}/{_escape(key)}")
            if found:
                return found
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return Mismatch(pointer, _short(expected), _short(actual), f"expected an array, got {_kind(actual)}")
        for index, (e, a) in enumerate(zip(expected, actual)):
            found = first_difference(e, a, f"{pointer}/{index}")
            if found:
                return found
        if len(expected) != len(actual):
            index = min(len(expected), len(actual))
            return Mismatch(f"{pointer}/{index}", _short(expected[index]) if index < len(expected) else None,
                            _short(actual[index]) if index < len(actual) else None,
                            f"expected {len(expected)} items, got {len(actual)}")
        return None
    if _same_scalar(expected, actual):
        return None
    delta = _delta(expected, actual) if _is_number(expected) and _is_number(actual) else None
    return Mismatch(pointer, expected, _short(actual), f"expected {expected!r}, got {_short(actual)!r}", delta=delta,
                    tolerance=0.0 if delta is not None else None)


def _delta(expected: float, actual: float) -> float:
    """|expected - actual| as a float; inf for NaN, infinities and integers beyond a double."""
    try:
        delta = float(abs(expected - actual))
    except OverflowError:
        return math.inf
    return delta if math.isfinite(delta) else math.inf


def _same_scalar(expected: Any, actual: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if _is_number(expected) and _is_number(actual):
        return expected == actual
    return type(expected) is type(actual) and expected == actual


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _kind(value: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number" if _is_number(value) else type(value).__name__)


def _escape(key: str) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


# --- floats: the error analysis in the module docstring ------------------------------


def brevity_penalty_bound(c: int, r: int) -> float:
    """B_bp: relative error bound of any correct computation of exp(1 - r/c), 0 < c <= r."""
    u = UNIT_ROUNDOFF
    ratio = r / c
    return u * (ratio + abs(1 - ratio)) + 2 * u * E_EXP


def bleu_bound(c: int, r: int, matches: list[int], totals: list[int]) -> float:
    """B_bleu: relative error bound of bp * exp((1/N) * sum ln(m_n/l_n)), all m_n > 0."""
    u = UNIT_ROUNDOFF
    n_orders = len(matches)
    log_terms = [abs(math.log(m / l)) for m, l in zip(matches, totals)]
    total = sum(log_terms)
    per_term = sum(u + 2 * u * E_LOG * (abs(math.log(m)) + abs(math.log(l))) for m, l in zip(matches, totals))
    exponent = (per_term + (n_orders - 1) * u * total) / n_orders + 2 * u * total / n_orders
    bp_part = 0.0 if c > r else brevity_penalty_bound(c, r)
    return bp_part + exponent + 2 * u * E_EXP + u


def float_tolerance(value: float, relative_bound: float) -> float:
    """|actual - expected| allowed: 2B for the two computations, times SAFETY, plus subnormal steps."""
    return 2 * SAFETY * relative_bound * abs(value) + SUBNORMAL_ULPS * SMALLEST_SUBNORMAL


def exact_full_precision(field: str, expected: dict) -> tuple[float | None, float]:
    """(the exact contract value if the contract fixes it, else None; the relative bound)."""
    c, r = expected["candidate_length"], expected["reference_length"]
    matches, totals = expected["matches"], expected["totals"]
    if c == 0:
        return 0.0, 0.0
    if field == "brevity_penalty":
        return (1.0, 0.0) if c > r else (None, brevity_penalty_bound(c, r))
    if any(m == 0 for m in matches):
        return 0.0, 0.0
    return None, bleu_bound(c, r, matches, totals)


def full_precision_value(field: str, expected: dict) -> float:
    """The oracle's unrounded value, recomputed from the exact counts of the expected output."""
    bp = brevity_penalty(expected["candidate_length"], expected["reference_length"])
    return bp if field == "brevity_penalty" else bleu_score(bp, expected["matches"], expected["totals"])


def _compare_float_field(field: str, payload: Any, expected: dict, actual: Any) -> Mismatch | None:
    pointer = f"/{field}"
    if not _is_number(actual) or not math.isfinite(_delta(0, actual)):
        return Mismatch(pointer, expected[field], _short(actual), f"expected a finite number, got {_short(actual)!r}")
    exact, bound = exact_full_precision(field, expected)
    decimals = payload.get("decimals") if isinstance(payload, dict) else None
    if exact is not None:
        wanted = exact  # 0 or 1 by the contract: toFixed keeps them exact too
        if actual == wanted:
            return None
        return Mismatch(pointer, wanted, actual,
                        f"expected exactly {wanted!r} (the contract fixes this value), got {actual!r}",
                        delta=abs(actual - wanted), tolerance=0.0)
    value = full_precision_value(field, expected)
    tolerance = float_tolerance(value, bound)
    if decimals is None:
        delta = abs(actual - value)
        if delta <= tolerance:
            return None
        return Mismatch(pointer, value, actual,
                        f"expected {value!r} within {tolerance:.3g} (forward error bound of the contract's formula), "
                        f"got {actual!r}: off by {delta:.3g}", delta=delta, tolerance=tolerance)
    return _compare_rounded(pointer, value, tolerance, int(decimals), actual)


def acceptable_rounded(value: float, tolerance: float, digits: int) -> tuple[Decimal, Decimal]:
    """The lowest and highest toFixed results of any value within the tolerance of ``value``."""
    low = to_fixed(max(0.0, value - tolerance), digits)
    high = to_fixed(value + tolerance, digits)
    return Decimal(low), Decimal(high)


def _compare_rounded(pointer: str, value: float, tolerance: float, digits: int, actual: float) -> Mismatch | None:
    low, high = acceptable_rounded(value, tolerance, digits)
    step = Decimal(1).scaleb(-digits)
    as_decimal = Decimal(repr(float(actual)))
    on_grid = as_decimal == as_decimal.quantize(step) or float(as_decimal.quantize(step)) == float(actual)
    if on_grid and low <= as_decimal.quantize(step) <= high:
        return None
    wanted = float(to_fixed(value, digits))
    either = f"{low} or {high}" if low != high else f"{low}"
    return Mismatch(pointer, wanted, actual,
                    f"expected {either} (Number(x.toFixed({digits})) of the full-precision value {value!r}), "
                    f"got {actual!r}", delta=abs(actual - wanted), tolerance=float(high - low))
