"""The comparison policy (conformance/compare.py): rejections, output schema, exact fields,
libm floats within the forward error bound, toFixed boundaries, readings of open points.

Expected values come from the contracts' examples, from exact arithmetic (Decimal's correctly
rounded ln and exp at 60 digits) or from JavaScript itself (Node.js Math.exp / Math.log).
"""

from __future__ import annotations

import json
import math
import random
import shutil
import subprocess
from decimal import Decimal, localcontext

import pytest
import readings_by_id as readings
from hypothesis import given
from hypothesis import strategies as st

import oracle
from conformance import compare
from conformance.model import Case, Expectation, TargetResponse
from oracle.bleu_score import bleu_score, brevity_penalty, corpus_terms

V = "1.0.0"
CORPUS = "bleu-corpus-compute"
NGRAMS = "bleu-ngrams-count"
CHRF = "chrf-plus-plus-compute"


def case_of(tool_id, payload, kind="output", code=None) -> Case:
    return Case(tool_id, V, "test", "generated", "valid", payload, Expectation(kind, code))


def result(output) -> TargetResponse:
    return TargetResponse("result", result=output)


def rejection(code=None, status=None) -> TargetResponse:
    return TargetResponse("rejection", error_code=code, status=status, raw="{}", detail="rejected")


def example(tool_id, index):
    found = oracle.load_contract(tool_id, V)["examples"][index]
    return found["input"], found["output"]


# --- rejections ---------------------------------------------------------------------------

TOO_MANY_SEGMENTS = {"hypotheses": [["a"]] * 1001, "references": [[["a"]]] * 1001}
# 43 three-byte code points: 129 UTF-8 bytes but only 43 code points, so only max_token_bytes is broken
TOKEN_OF_129_BYTES = {"hypotheses": [["\u20ac" * 43]], "references": [[["a"]]]}
MAX_ORDER_9 = {"hypotheses": [["a"]], "references": [[["a"]]], "max_order": 9}


@pytest.mark.parametrize(
    "response, outcome",
    [
        (rejection("invalid_input", 400), "passed"),
        (rejection(None, 400), "passed"),
        (rejection(None, None), "passed"),  # a module target's exception without a code
        (rejection("limit_exceeded", 413), "failed"),  # the contract names invalid_input here
        # a 5xx that came back when sent again, the target answering others (engine/health.py): never a 5xx
        (TargetResponse("server_error", status=500, detail="HTTP 500", fault="HTTP 500"), "failed"),
        # one that did not: the transport's, so not judged
        (TargetResponse("transport_error", status=500, detail="HTTP 500", fault="HTTP 500"), "errored"),
        (TargetResponse("transport_error", status=502, detail="HTTP 502"), "errored"),
        (TargetResponse("transport_error", detail="timed out"), "errored"),
    ],
)
def test_invalid_input_rejections(response, outcome):
    assert compare.check(case_of(CORPUS, MAX_ORDER_9, "error", "invalid_input"), response).outcome == outcome


def test_answering_an_invalid_input_fails():
    verdict = compare.check(case_of(CORPUS, MAX_ORDER_9, "error", "invalid_input"), result({"bleu": 1}))
    assert verdict.outcome == "failed" and "answered an input the contract rejects" in verdict.message


def test_a_bare_status_carries_no_code_but_a_body_code_is_checked():
    """A12: the hosted service's statuses are unpublished, so a 400 without a body code may be any rejection."""
    case = case_of(CORPUS, TOKEN_OF_129_BYTES, "error", "limit_exceeded")
    assert compare.check(case, rejection(None, 413)).outcome == "passed"
    assert compare.check(case, rejection(None, 400)).outcome == "passed"
    assert compare.check(case, rejection(None, 422)).outcome == "passed"
    failed = compare.check(case, rejection("invalid_input", 400))
    assert failed.outcome == "failed" and failed.mismatch.pointer == "/error/code"


def test_a6_either_code_for_a_schema_rule_that_is_also_a_limit():
    case = case_of(CORPUS, TOO_MANY_SEGMENTS, "error", "limit_exceeded")
    assert compare.check(case, rejection("invalid_input", 400)).outcome == "passed"
    assert compare.check(case, rejection("limit_exceeded", 413)).outcome == "passed"


@pytest.mark.parametrize(
    "payload",
    [
        # a 132-byte token (33 astral code points) beside a malformed piece: the BLEU contracts state no
        # validation order (A7), so checking the byte limit first is as correct as checking the schema first
        {"hypotheses": [["\U0001f600" * 33]], "references": 5},
        {"hypotheses": [["\U0001f600" * 33], 17], "references": [[["a"]], [["a"]]]},
        {"hypotheses": [["\U0001f600" * 33, 5]], "references": [[["a"]]]},
    ],
)
@pytest.mark.parametrize("tool_id", [CORPUS, NGRAMS])
def test_a7_a_limit_checked_before_a_malformed_neighbour_passes(tool_id, payload):
    case = case_of(tool_id, payload, "error", "invalid_input")
    assert compare.check(case, rejection("limit_exceeded", 413)).outcome == "passed"
    assert compare.check(case, rejection("invalid_input", 400)).outcome == "passed"


def test_any_code_passes_when_the_case_says_any():
    case = case_of(CORPUS, TOO_MANY_SEGMENTS, "error", "any")
    assert compare.check(case, rejection("something_else", 422)).outcome == "passed"


def test_over_rejection_fails_and_shows_the_code():
    payload, _ = example(CORPUS, 0)
    verdict = compare.check(case_of(CORPUS, payload), rejection("invalid_input", 400))
    assert verdict.outcome == "failed"
    assert "invalid_input" in verdict.message and verdict.mismatch.actual["error"]["code"] == "invalid_input"


@pytest.mark.parametrize("status", [500, 503, None])
def test_transport_error_on_a_valid_input_is_errored(status):
    payload, _ = example(CORPUS, 0)
    response = TargetResponse("transport_error", status=status, detail="boom")
    assert compare.check(case_of(CORPUS, payload), response).outcome == "errored"


def test_expected_for():
    payload, output = example(CORPUS, 1)
    assert compare.expected_for(case_of(CORPUS, payload)) == output
    assert compare.expected_for(case_of(CORPUS, MAX_ORDER_9, "error", "invalid_input")) == {"error": "invalid_input"}


# --- output schema and exact fields ----------------------------------------------------------


@pytest.mark.parametrize(
    "tool_id, index",
    [(t, i) for t, _ in oracle.available() for i in range(len(oracle.load_contract(t, V)["examples"]))],
)
def test_contract_examples_pass(tool_id, index):
    payload, output = example(tool_id, index)
    assert compare.check(case_of(tool_id, payload), result(output)).outcome == "passed"


def test_integral_floats_equal_integers_but_booleans_are_not_numbers():
    payload, output = example(CORPUS, 0)
    floats = {**output, "candidate_length": 4.0, "matches": [4.0, 3, 2, 1], "bleu": 1}
    assert compare.check(case_of(CORPUS, payload), result(floats)).outcome == "passed"
    boolean = {**output, "bleu": True}
    verdict = compare.check(case_of(CORPUS, payload), result(boolean))
    assert verdict.outcome == "failed" and verdict.mismatch.pointer == "/bleu"


@pytest.mark.parametrize(
    "mutate, pointer",
    [
        (lambda o: {**o, "extra": 1}, ""),  # the schema (additionalProperties false) speaks first
        (lambda o: {k: v for k, v in o.items() if k != "segments"}, "/segments"),
        (lambda o: {**o, "segments": []}, "/segments/0"),
        (lambda o: {**o, "ngrams": o["ngrams"][::-1]}, "/ngrams/0/order"),
        (lambda o: {**o, "ngrams": [{**o["ngrams"][0], "ngram": ["The"]}, o["ngrams"][1]]}, "/ngrams/0/ngram/0"),
        (lambda o: {**o, "max_order": "2"}, "/max_order"),
        (lambda o: {**o, "totals": [7, -6]}, "/totals/1"),
    ],
)
def test_first_difference_is_named_by_json_pointer(mutate, pointer):
    payload, output = example(NGRAMS, 1)
    actual = mutate(json.loads(json.dumps(output)))
    verdict = compare.check(case_of(NGRAMS, payload), result(actual))
    assert verdict.outcome == "failed"
    assert verdict.mismatch.pointer == pointer, verdict.message


def test_wrong_count_is_reported_at_its_index():
    payload, output = example(NGRAMS, 1)
    verdict = compare.check(case_of(NGRAMS, payload), result({**output, "matches": [2, 1]}))
    assert verdict.mismatch.pointer == "/matches/1"
    assert (verdict.mismatch.expected, verdict.mismatch.actual) == (0, 1)


@pytest.mark.parametrize("garbage", [None, "text", [], 3.5, {"bleu": float("nan")}, [[[[[]]]]], {"a": {"b": []}}])
def test_garbage_results_fail_without_crashing(garbage):
    payload, _ = example(CORPUS, 0)
    assert compare.check(case_of(CORPUS, payload), result(garbage)).outcome == "failed"


def test_chrf_scores_are_exact_strings():
    payload, output = example(CHRF, 0)
    for field, value in (
        ("score", "82.872638"),
        ("score_fraction", "80520061622510/971612153512"),
        ("segment_scores", ["83.308483", "82.578863"]),
    ):
        verdict = compare.check(case_of(CHRF, payload), result({**output, field: value}))
        assert verdict.outcome == "failed", field


# --- readings of the open points ------------------------------------------------------------


def test_a4_either_corpus_sum_passes_and_nothing_else():
    payload = {"hypotheses": ["ab", "bc"], "references": ["ab", "b"]}
    contract_reading = oracle.execute(CHRF, V, payload)
    outputs = readings.expected_outputs(CHRF, V, payload)
    assert len(outputs) == 2
    for output in outputs:
        assert compare.check(case_of(CHRF, payload), result(output)).outcome == "passed"
    verdict = compare.check(case_of(CHRF, payload), result({**contract_reading, "score": "1.000000"}))
    assert verdict.outcome == "failed" and verdict.mismatch.expected == contract_reading["score"]


def test_a1_answer_of_the_other_reading_passes_a_rejection_case():
    payload = {"hypotheses": [["a"] * 10], "references": [[["a"] * 49_995]]}
    case = case_of(CORPUS, payload, "error", "limit_exceeded")
    other = readings.expected_outputs(CORPUS, V, payload)[0]
    assert compare.check(case, result(other)).outcome == "passed"
    assert compare.check(case, result({**other, "candidate_length": 11})).outcome == "failed"


# --- full-precision floats: the forward error bound ----------------------------------------

counts = st.integers(1, 50_000)


@st.composite
def corpus_counts(draw):
    """(c, r, matches, totals) as a valid corpus could give them: m_n <= l_n, l_n decreasing."""
    n_orders = draw(st.integers(1, 8))
    c = draw(st.integers(n_orders, 50_000))
    r = draw(st.one_of(st.integers(c, 50_000), st.integers(1, c)))
    totals = [max(0, c - n + 1) for n in range(1, n_orders + 1)]
    matches = [draw(st.integers(1, t)) for t in totals]
    return c, r, matches, totals


def exact_bleu(c: int, r: int, matches: list[int], totals: list[int]) -> tuple[Decimal, Decimal]:
    """The contract's formula in 60-digit decimal arithmetic (Decimal ln and exp are correctly rounded)."""
    with localcontext() as ctx:
        ctx.prec = 60
        bp = Decimal(1) if c > r else (Decimal(1) - Decimal(r) / Decimal(c)).exp()
        logs = sum((Decimal(m) / Decimal(total)).ln() for m, total in zip(matches, totals))
        return bp, bp * (logs / len(matches)).exp()


def output_of(c, r, matches, totals) -> dict:
    bp = brevity_penalty(c, r)
    return {
        "bleu": bleu_score(bp, matches, totals),
        "brevity_penalty": bp,
        "candidate_length": c,
        "reference_length": r,
        "max_order": len(matches),
        "matches": matches,
        "totals": totals,
    }


def float_verdict(expected: dict, bleu: float, bp: float | None = None, payload=None):
    actual = {**expected, "bleu": bleu, "brevity_penalty": expected["brevity_penalty"] if bp is None else bp}
    return compare.compare_output(oracle.tool(CORPUS, V), payload or {}, expected, actual)


@given(corpus_counts())
def test_the_bound_holds_for_the_oracle_against_exact_arithmetic(counts_):
    c, r, matches, totals = counts_
    expected = output_of(c, r, matches, totals)
    bp_exact, bleu_exact = exact_bleu(c, r, matches, totals)
    _, bleu_bound = compare.exact_full_precision("bleu", corpus_terms({}, expected))
    assert abs(Decimal(expected["bleu"]) - bleu_exact) <= Decimal(bleu_bound) * bleu_exact + Decimal(2.0**-1074)
    if c <= r:
        bp_bound = compare.brevity_penalty_bound(c, r)
        assert abs(Decimal(expected["brevity_penalty"]) - bp_exact) <= Decimal(bp_bound) * bp_exact + Decimal(
            2.0**-1074
        )


def nudge(x: float, ulps: int) -> float:
    """x moved by ``ulps`` units in the last place (a libm that errs by that much)."""
    step = math.inf if ulps > 0 else -math.inf
    for _ in range(abs(ulps)):
        x = math.nextafter(x, step)
    return x


@given(corpus_counts(), st.integers(-4, 4), st.integers(-4, 4), st.booleans())
def test_any_libm_within_four_ulps_passes(counts_, log_ulps, exp_ulps, divide_by_n):
    """exp and log each off by up to 4 ulps, s/N or (1/N)*s, ln(m) - ln(l): a correct implementation."""
    c, r, matches, totals = counts_
    expected = output_of(c, r, matches, totals)
    bp = 1.0 if c > r else nudge(math.exp(1 - r / c), exp_ulps)
    log_sum = 0.0
    for m, total in zip(matches, totals):
        log_sum += nudge(math.log(m), log_ulps) - nudge(math.log(total), -log_ulps)
    argument = log_sum / len(matches) if divide_by_n else (1 / len(matches)) * log_sum
    bleu = bp * nudge(math.exp(argument), exp_ulps)
    assert float_verdict(expected, bleu, bp) is None


WRONG_FORMULAS = {
    "bp exp(1 - c/r)": lambda c, r, matches, totals: (math.exp(1 - c / r) if c <= r else 1.0, None),
    "no 1/N": lambda c, r, matches, totals: (None, math.exp(sum(math.log(a / b) for a, b in zip(matches, totals)))),
    "1/(N+1)": lambda c, r, matches, totals: (
        None,
        math.exp(sum(math.log(a / b) for a, b in zip(matches, totals)) / (len(matches) + 1)),
    ),
    "log10": lambda c, r, matches, totals: (
        None,
        math.exp(sum(math.log10(a / b) for a, b in zip(matches, totals)) / len(matches)),
    ),
    "mean of precisions": lambda c, r, matches, totals: (
        None,
        sum(a / b for a, b in zip(matches, totals)) / len(matches),
    ),
    "add-one smoothing": lambda c, r, matches, totals: (
        None,
        math.exp(sum(math.log((a + 1) / (b + 1)) for a, b in zip(matches, totals)) / len(matches)),
    ),
}


@pytest.mark.parametrize("name", WRONG_FORMULAS)
def test_wrong_formulas_fail(name):
    """On 300 random corpora, each wrong formula fails wherever it changes the value by more than
    1e-9 (a wrong brevity penalty only shows when c < r: about half of them)."""
    rng = random.Random(name)
    failed = 0
    for _ in range(300):
        n_orders = rng.randint(1, 8)
        c = rng.randint(n_orders + 5, 5000)
        r = rng.randint(c // 2, 2 * c)
        totals = [c - n + 1 for n in range(1, n_orders + 1)]
        matches = [rng.randint(1, t) for t in totals]
        expected = output_of(c, r, matches, totals)
        bp_wrong, bleu_wrong = WRONG_FORMULAS[name](c, r, matches, totals)
        bp = expected["brevity_penalty"] if bp_wrong is None else bp_wrong
        bleu = (
            expected["bleu"] / expected["brevity_penalty"] * bp
            if bleu_wrong is None
            else (expected["brevity_penalty"] * bleu_wrong)
        )
        if abs(bleu - expected["bleu"]) <= 1e-9 * expected["bleu"] and abs(bp - expected["brevity_penalty"]) <= 1e-9:
            continue
        assert float_verdict(expected, bleu, bp) is not None, (c, r, matches)
        failed += 1
    assert failed > 100


def test_values_the_contract_fixes_are_exact():
    above = output_of(5, 4, [5, 4], [5, 4])  # c > r: bp exactly 1; all matched: bleu 1
    assert above["brevity_penalty"] == 1.0
    assert float_verdict(above, 1.0, nudge(1.0, -1)) is not None
    zero_match = output_of(4, 4, [4, 0], [4, 3])  # m_2 = 0: bleu exactly 0
    assert float_verdict(zero_match, 0.0) is None
    assert float_verdict(zero_match, 5e-324) is not None
    empty = output_of(0, 0, [0, 0], [0, 0])  # c = 0: bp 0 even though r = 0
    assert float_verdict(empty, 0.0, 0.0) is None
    assert float_verdict(empty, 0.0, 1.0) is not None


def test_underflow_allows_a_few_subnormal_steps():
    # c = 1, r = 800: bp = exp(-799) ~ 1e-347 underflows to 0 in doubles; a libm may give 0 or a tiny subnormal
    expected = output_of(1, 800, [1], [1])
    assert expected["brevity_penalty"] == 0.0
    assert float_verdict(expected, 0.0, 0.0) is None
    assert float_verdict(expected, 5e-324, 5e-324) is None
    assert float_verdict(expected, 1e-300, 1e-300) is not None


# --- decimals: toFixed, and values at a rounding boundary -----------------------------------


def test_acceptable_rounded_neighbours():
    assert compare.acceptable_rounded(0.125, 1e-17, 2) == (Decimal("0.12"), Decimal("0.13"))
    assert compare.acceptable_rounded(0.123456, 1e-15, 2) == (Decimal("0.12"), Decimal("0.12"))


def test_decimals_are_exact_away_from_a_boundary():
    payload, output = example(CORPUS, 1)  # bleu 0.485308 with decimals 6
    assert compare.check(case_of(CORPUS, payload), result(output)).outcome == "passed"
    for wrong in (0.485309, 0.4853082700992988, 0.4853):
        assert compare.check(case_of(CORPUS, payload), result({**output, "bleu": wrong})).outcome == "failed"


def test_decimals_at_an_exact_half_accept_either_neighbour():
    """max_order 1, one of two unigrams matched, c = r: bleu = exp(ln(1/2)) = 0.5 exactly in
    exact arithmetic, so a libm within its error may land on 0.49999999999999994 (toFixed(0)
    gives 0) or on 0.5 (toFixed(0) gives 1): both pass; 0.5 itself is not a toFixed(0) result."""
    payload = {"hypotheses": [["a", "b"]], "references": [[["a", "c"]]], "max_order": 1, "decimals": 0}
    case = case_of(CORPUS, payload)
    expected = oracle.execute(CORPUS, V, payload)
    for bleu in (0, 1):
        assert compare.check(case, result({**expected, "bleu": bleu})).outcome == "passed"
    assert compare.check(case, result({**expected, "bleu": 0.5})).outcome == "failed"


# --- JavaScript: Math.exp / Math.log must pass ----------------------------------------------

JS_BLEU = """
const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const out = cases.map(([c, r, m, l]) => {
  const bp = c > r ? 1 : (c === 0 ? 0 : Math.exp(1 - r / c));
  let s = 0;
  for (let i = 0; i < m.length; i++) s += Math.log(m[i] / l[i]);
  return [bp, bp * Math.exp((1 / m.length) * s), bp * Math.exp(s / m.length)];
});
process.stdout.write(JSON.stringify(out));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_javascript_math_passes():
    rng = random.Random(7)
    corpora = []
    for _ in range(2000):
        n_orders = rng.randint(1, 8)
        c = rng.randint(n_orders, 50_000)
        r = rng.randint(1, 50_000)
        totals = [c - n + 1 for n in range(1, n_orders + 1)]
        corpora.append([c, r, [rng.randint(1, t) for t in totals], totals])
    completed = subprocess.run(
        ["node", "-e", JS_BLEU], input=json.dumps(corpora), capture_output=True, text=True, timeout=60, check=True
    )
    for (c, r, matches, totals), (bp, bleu_times, bleu_divided) in zip(corpora, json.loads(completed.stdout)):
        expected = output_of(c, r, matches, totals)
        assert float_verdict(expected, bleu_times, bp) is None, (c, r, matches)
        assert float_verdict(expected, bleu_divided, bp) is None, (c, r, matches)


def test_a1_band_with_an_output_expectation_accepts_both_readings():
    """A case stating an output in the A1 band (the oracle rejects, the hypothesis-only reading
    answers): the answer of that reading and a rejection both pass; a wrong answer does not."""
    payload = {"hypotheses": [["a"] * 10], "references": [[["a"] * 49_995]]}
    case = case_of(CORPUS, payload)
    other = readings.expected_outputs(CORPUS, V, payload)[0]
    assert compare.check(case, result(other)).outcome == "passed"
    assert compare.check(case, rejection("limit_exceeded", 413)).outcome == "passed"
    assert compare.check(case, result({**other, "reference_length": 1})).outcome == "failed"


@pytest.mark.parametrize("huge", [10**400, -(10**400)])
def test_integers_beyond_a_double_fail_without_crashing(huge):
    payload, output = example(CORPUS, 0)
    for field in ("candidate_length", "bleu"):
        verdict = compare.check(case_of(CORPUS, payload), result({**output, field: huge}))
        assert verdict.outcome == "failed"
        assert len(str(verdict.mismatch.actual)) <= 200 if verdict.mismatch.actual is not None else True


def test_a_pass_under_another_reading_names_it():
    payload = {"hypotheses": ["ab", "bc"], "references": ["ab", "b"]}
    other = readings.expected_outputs(CHRF, V, payload)[1]
    verdict = compare.check(case_of(CHRF, payload), result(other))
    assert verdict.outcome == "passed" and "A4" in verdict.message


# --- smoothed sentence BLEU: the bound covers every libm, a wrong formula fails ---------------

SENTENCE = "bleu-sentence-compute"
METHODS = ("none", "chen-cherry-1", "chen-cherry-2", "chen-cherry-3")

# The draft's smoothing written again in JavaScript from its semantics (not from the oracle):
# V8's Math.exp / Math.log, and the sum divided by N' instead of multiplied by 1/N'.
JS_SENTENCE = """
const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const out = cases.map(([c, r, m, l, method, effective]) => {
  const bp = c > r ? 1 : (c === 0 ? 0 : Math.exp(1 - r / c));
  let k = 1; const p = [];
  for (let n = 1; n <= m.length; n++) {
    const mi = m[n - 1], li = l[n - 1];
    if (method === 'chen-cherry-1' && mi === 0) p.push([0.1, li]);
    else if (method === 'chen-cherry-2' && n >= 2) p.push([mi + 1, li + 1]);
    else if (method === 'chen-cherry-3' && mi === 0) { p.push([1, 2 ** k * li]); k += 1; }
    else p.push([mi, li]);
  }
  let used = p.length;
  if (effective) { used = 0; while (used < p.length && p[used][1] > 0) used++; }
  let zero = c === 0 || m[0] === 0 || (!effective && p.some(([, d]) => d === 0))
             || (method === 'none' && m.slice(0, used).some((x) => x === 0));
  if (zero) return [bp, 0];
  let s = 0;
  for (let i = 0; i < used; i++) s += Math.log(p[i][0] / p[i][1]);
  return [bp, bp * Math.exp(s / used)];
});
process.stdout.write(JSON.stringify(out));
"""


def sentence_inputs(rng: random.Random, count: int) -> list[dict]:
    words = ["a", "b", "c", "d", "e"]
    found = []
    for _ in range(count):
        reference = [rng.choice(words) for _ in range(rng.randint(0, 30))]
        hypothesis = [rng.choice(words) for _ in range(rng.randint(0, 30))]
        found.append(
            {
                "hypothesis": hypothesis,
                "references": [reference],
                "max_order": rng.randint(1, 8),
                "smoothing": rng.choice(METHODS),
                "effective_order": rng.random() < 0.5,
            }
        )
    return found


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_javascript_math_passes_for_smoothed_sentence_bleu():
    payloads = sentence_inputs(random.Random(11), 1500)
    expected = [oracle.execute(SENTENCE, V, payload) for payload in payloads]
    rows = [
        [e["candidate_length"], e["reference_length"], e["matches"], e["totals"], p["smoothing"], p["effective_order"]]
        for p, e in zip(payloads, expected)
    ]
    completed = subprocess.run(
        ["node", "-e", JS_SENTENCE], input=json.dumps(rows), capture_output=True, text=True, timeout=60, check=True
    )
    for payload, output, (bp, bleu) in zip(payloads, expected, json.loads(completed.stdout)):
        verdict = compare.check(case_of(SENTENCE, payload), result({**output, "bleu": bleu, "brevity_penalty": bp}))
        assert verdict.outcome == "passed", (payload, verdict.message)


def exact_smoothed_bleu(output: dict, payload: dict) -> Decimal:
    """The draft's formula in 60-digit decimals, each p_n from the exact values the draft names."""
    from oracle.bleu_sentence_compute import float_terms

    terms = float_terms(payload, output)
    if terms.precisions is None:
        return Decimal(0)
    with localcontext() as ctx:
        ctx.prec = 60
        c, r = Decimal(terms.candidate_length), Decimal(terms.reference_length)
        bp = Decimal(1) if c > r else (Decimal(1) - r / c).exp()
        logs = sum((Decimal(a) / Decimal(d)).ln() for a, d in terms.precisions)
        return bp * (logs / len(terms.precisions)).exp()


def test_the_smoothed_bound_holds_for_the_oracle_against_exact_arithmetic():
    for payload in sentence_inputs(random.Random(12), 1500):
        output = oracle.execute(SENTENCE, V, payload)
        exact = exact_smoothed_bleu(output, payload)
        if exact == 0:
            assert output["bleu"] == 0
            continue
        from oracle.bleu_sentence_compute import float_terms

        terms = float_terms(payload, output)
        bound = compare.bleu_bound(terms.candidate_length, terms.reference_length, terms.precisions)
        assert abs(Decimal(output["bleu"]) - exact) <= Decimal(bound) * exact, payload


@pytest.mark.parametrize(
    "method, wrong",
    [
        ("chen-cherry-1", "0.1 added to m_n"),
        ("chen-cherry-2", "add-one on unigrams too"),
        ("chen-cherry-3", "k not incremented"),
    ],
)
def test_a_near_miss_of_the_smoothing_fails(method, wrong):
    """The tolerance is far below what a wrong smoothing moves: each near miss is outside it."""
    payload = {
        "hypothesis": ["the", "the", "the", "cat"],
        "references": [["the", "cat", "the", "mat", "."]],
        "smoothing": method,
    }
    output = oracle.execute(SENTENCE, V, payload)
    matches, totals = output["matches"], output["totals"]
    if wrong == "0.1 added to m_n":
        precisions = [(mi + 0.1, li) for mi, li in zip(matches, totals)]
    elif wrong == "add-one on unigrams too":
        precisions = [(mi + 1, li + 1) for mi, li in zip(matches, totals)]
    else:
        precisions = [(mi, li) if mi else (1, 2 * li) for mi, li in zip(matches, totals)]
    bleu = output["brevity_penalty"] * math.exp(sum(math.log(a / d) for a, d in precisions) / len(precisions))
    assert compare.check(case_of(SENTENCE, payload), result({**output, "bleu": bleu})).outcome == "failed"
