"""The npm package bleu-score as an implementation (conformance/implementations/npm_bleu_score.py): a
JavaScript library called through Node.js, judged like the Python ones; its cross-check and catalogued
divergences (tokens named like the properties every JavaScript object inherits). The tests that call the
package skip without Node.js or the package (``npm install --prefix tools/npm_bleu_score``, which CI runs);
those of the catalogue's written-out model do not need it."""

from __future__ import annotations

import json
import math
import subprocess

import pytest

import oracle
from conformance import compare
from conformance.compare.signature import explain
from conformance.crosscheck.catalogue import CATALOGUE_BY_ID, agrees, explaining_failure
from conformance.crosscheck.checks import CHECKS, CHECKS_BY_ID, evaluate
from conformance.crosscheck.runner import classify, generate_inputs, input_groups
from conformance.implementations import NotApplicable, library
from conformance.implementations import npm_bleu_score as adapter
from conformance.model import Case, CaseResult, Expectation
from conformance.targets import make_target

TOOL, VERSION = "bleu-sentence-compute", "1.0.0"
LIBRARY = library("npm-bleu-score")
needs_package = pytest.mark.skipif(bool(LIBRARY.missing()), reason=f"npm-bleu-score: {LIBRARY.missing()}")
NAN_ENTRY, PROTO_ENTRY = "npm-bleu-score-inherited-method-nan", "npm-bleu-score-proto-never-counted"  # cross-check
NAN_MECHANISM, PROTO_MECHANISM = "inherited-property-name-nan", "proto-unigram-never-counted"  # conformance/divergences
CHECK = CHECKS_BY_ID[adapter.SENTENCE_CHECK]


def verdict_case(payload: dict) -> Case:
    return Case(TOOL, VERSION, "x", "fixture", "valid", payload, Expectation("output"))


def judged(payload: dict):
    case = verdict_case(payload)
    response = make_target("implementation:npm-bleu-score").call(TOOL, VERSION, payload)
    return response, compare.judge(case, compare.expect(case), response)


@needs_package
def test_it_answers_an_unsmoothed_sentence_bleu_as_the_contract_does():
    # "the cat sat on a mat" against "the cat sat on the mat": m = [5, 3, 2, 1], l = [6, 5, 4, 3],
    # c = r = 6 so BP = 1; bleu = (5/6 * 3/5 * 2/4 * 1/3) ** (1/4) = (1/12) ** (1/4) = 0.53728496591177...
    payload = {
        "hypothesis": "the cat sat on a mat".split(),
        "references": ["the cat sat on the mat".split()],
        "smoothing": "none",
    }
    response, verdict = judged(payload)
    assert response.result["bleu"] == pytest.approx(12**-0.25, rel=1e-15)
    assert verdict.outcome == "passed", verdict.message


@needs_package
def test_an_inherited_property_name_makes_its_score_nan_which_fails_the_schema():
    # the package tests `ngram in referenceNgrams` on a plain object: "constructor" is inherited, so
    # Math.min(1, Object) is NaN, the score is NaN and JSON.stringify writes null; the contract's bleu is 0
    # (no hypothesis token in the reference)
    response, verdict = judged(
        {"hypothesis": ["constructor"], "references": [["a"]], "smoothing": "none", "max_order": 1}
    )
    assert response.result == {"bleu": None}
    assert verdict.outcome == "failed" and "/bleu" in verdict.message


@needs_package
@pytest.mark.parametrize(
    "payload, cause",
    [
        ({"hypothesis": ["a"], "references": [["a"], ["b"]], "smoothing": "none"}, "more than one reference"),
        ({"hypothesis": ["a b"], "references": [["a"]], "smoothing": "none"}, "holding a space"),
        ({"hypothesis": [], "references": [["a"]], "smoothing": "none"}, "empty hypothesis"),
        ({"hypothesis": ["a"], "references": [["a"]], "smoothing": "chen-cherry-1"}, "does not smooth"),
    ],
)
def test_what_the_package_cannot_express_is_not_applicable(payload, cause):
    with pytest.raises(NotApplicable, match=cause):
        LIBRARY.execute(TOOL, VERSION, payload)


# ---------------------------------------------------------------- which names, checked by running the package


def object_prototype() -> dict[str, bool]:
    """Node.js's own answer: each own property name of Object.prototype, and whether its value is a function."""
    script = (
        "const p = Object.prototype; console.log(JSON.stringify(Object.fromEntries("
        "Object.getOwnPropertyNames(p).map((name) => [name, typeof p[name] === 'function']))))"
    )
    return json.loads(subprocess.run(["node", "-e", script], capture_output=True, check=True, text=True).stdout)


@needs_package
def test_the_catalogued_names_are_exactly_object_prototypes_own_properties_and_proto_is_no_method():
    names = object_prototype()
    assert set(adapter.OBJECT_PROTOTYPE_NAMES) == set(names)
    assert {name for name, is_function in names.items() if not is_function} == {"__proto__"}
    assert not set(adapter.NOT_INHERITED) & set(names)


@needs_package
@pytest.mark.parametrize("name", [*adapter.OBJECT_PROTOTYPE_NAMES, *adapter.NOT_INHERITED])
def test_which_names_break_the_package_and_how(name):
    # "a NAME" against "a NAME", max_order 1 (hand computation): m_1 = 2 = l_1, c = r = 2, bleu 1 by contract.
    # The package: NaN (null) where Object.prototype's NAME is a method (Node.js says which); 1/2 for __proto__,
    # whose count is never stored (only "a" matches); 1 for a name a plain object does not inherit.
    both = {"hypothesis": ["a", name], "references": [["a", name]], "smoothing": "none", "max_order": 1}
    assert oracle.execute(TOOL, VERSION, both)["bleu"] == 1.0
    is_method = object_prototype().get(name, False)
    expected = None if is_method else 0.5 if name == "__proto__" else 1.0
    assert LIBRARY.execute(TOOL, VERSION, both).output == {"bleu": expected}
    # "a b" against "NAME b", max_order 1: m_1 = 1 ("b"), l_1 = 2, c = r = 2: bleu 1/2 by contract and by the
    # package for every name (only the hypothesis's unigrams are looked up)
    reference_only = {"hypothesis": ["a", "b"], "references": [[name, "b"]], "smoothing": "none", "max_order": 1}
    assert oracle.execute(TOOL, VERSION, reference_only)["bleu"] == 0.5
    assert LIBRARY.execute(TOOL, VERSION, reference_only).output == {"bleu": 0.5}


@needs_package
def test_the_written_out_model_is_the_packages_answer_and_each_entry_applies_where_it_departs():
    """On the check's own inputs: the model agrees with the package wherever it expresses the input, a null
    answer is exactly where the NaN entry applies, and every other departure from the contract is where the
    __proto__ entry applies."""
    seen = {"nan": 0, "proto": 0, "agreed": 0}
    for payload in generate_inputs(CHECK.inputs, 80, 0):
        try:
            answer = LIBRARY.execute(TOOL, VERSION, payload).output
        except NotApplicable:
            assert CATALOGUE_BY_ID[NAN_ENTRY].answer(payload) is None
            continue
        assert agrees(CATALOGUE_BY_ID[NAN_ENTRY].answer(payload), answer), payload
        assert (answer["bleu"] is None) == adapter.inherited_method_in_hypothesis(payload), payload
        contract = oracle.execute(TOOL, VERSION, payload)["bleu"]
        if answer["bleu"] is None:
            seen["nan"] += 1
        elif math.isclose(answer["bleu"], contract, rel_tol=1e-9, abs_tol=0.0):
            seen["agreed"] += 1
        else:
            assert adapter.proto_in_hypothesis_and_reference(payload), payload
            seen["proto"] += 1
    assert all(seen.values()), seen  # the inputs reach every case


@needs_package
def test_the_crosscheck_explains_the_nan_by_its_entry():
    payload = {"hypothesis": ["a", "toString"], "references": [["a"]], "smoothing": "none", "max_order": 1}
    comparison = evaluate(CHECK, payload)
    assert comparison.differences == ["bleu", "bleu within output_schema"]
    assert classify(CHECK, payload, comparison) == ("explained", [NAN_ENTRY])


@needs_package
def test_the_matrix_groups_name_the_packages_entries():
    # the smallest input of the committed matrix's group: NaN, a schema violation at /bleu
    nan_input = {"hypothesis": ["é", "constructor"], "references": [["é"]], "smoothing": "none"}
    response, verdict = judged(nan_input)
    assert response.result == {"bleu": None} and verdict.outcome == "failed"
    result = CaseResult(verdict_case(nan_input), verdict.outcome, verdict.message, verdict.mismatch, response)
    cause = explain(result, implementation="npm-bleu-score")
    assert cause.kind == "violates the output_schema" and cause.divergence.id == NAN_MECHANISM
    # "__proto__" against "__proto__", max_order 1: the contract's 1 (m_1 = l_1 = 1), the package's 0
    proto_input = {"hypothesis": ["__proto__"], "references": [["__proto__"]], "smoothing": "none", "max_order": 1}
    response, verdict = judged(proto_input)
    assert response.result == {"bleu": 0}
    result = CaseResult(verdict_case(proto_input), verdict.outcome, verdict.message, verdict.mismatch, response)
    cause = explain(result, implementation="npm-bleu-score")
    assert cause.kind == "wrong value" and cause.divergence.id == PROTO_MECHANISM


# ---------------------------------------------------------------- the catalogue alone (no Node.js needed)


def named(payload: dict, answer: dict):
    """The entry naming a null (or out-of-bounds) bleu: a schema violation at /bleu."""
    return explaining_failure(TOOL, payload, "/bleu", answer, out_of_bounds=True, implementation="npm-bleu-score")


def test_a_null_bleu_is_named_only_where_a_hypothesis_token_names_an_inherited_method():
    toString = {"hypothesis": ["a", "toString"], "references": [["a"]], "smoothing": "none"}
    assert named(toString, {"bleu": None}).id == NAN_MECHANISM
    # a null for a reason of its own: __proto__ alone, the name in the reference alone, a name not inherited
    for payload in (
        {"hypothesis": ["a", "__proto__"], "references": [["a"]], "smoothing": "none"},
        {"hypothesis": ["a"], "references": [["a", "toString"]], "smoothing": "none"},
        {"hypothesis": ["a", "prototype"], "references": [["a"]], "smoothing": "none"},
    ):
        assert named(payload, {"bleu": None}) is None, payload
    # the mechanism, not the package: a target counting in plain objects answers null with two references or a
    # smoothing too (the model is the oracle's counting with the inherited name, whatever the target is)
    assert named({**toString, "references": [["a"], ["b"]]}, {"bleu": None}).id == NAN_MECHANISM
    assert named({**toString, "smoothing": "chen-cherry-1"}, {"bleu": None}).id == NAN_MECHANISM
    # a number is not its answer, even above the bound
    assert named(toString, {"bleu": 1.5}) is None


def test_a_lower_bleu_is_named_by_the_proto_entry_only_where_its_model_gives_it():
    # "a __proto__ b" against "a __proto__ c", max_order 1 (hand computation): the contract's m_1 = 2 of l_1 = 3,
    # c = r = 3: bleu 2/3; the package never counts __proto__: m_1 = 1, bleu 1/3
    payload = {"hypothesis": ["a", "__proto__", "b"], "references": [["a", "__proto__", "c"]], "smoothing": "none"}
    payload["max_order"] = 1
    assert oracle.execute(TOOL, VERSION, payload)["bleu"] == pytest.approx(2 / 3, rel=1e-15)
    found = explaining_failure(TOOL, payload, "/bleu", {"bleu": 1 / 3}, implementation="npm-bleu-score")
    assert found is not None and found.id == PROTO_MECHANISM
    assert explaining_failure(TOOL, payload, "/bleu", {"bleu": 0.5}) is None
    assert named(payload, {"bleu": 1 / 3}) is None  # a lower score is a wrong value, not a schema violation
    # with max_order 2, p_2 = 1/2 on both sides ("a __proto__" matches: its key holds a space): bleu sqrt(1/3 * 1/2)
    assert CATALOGUE_BY_ID[PROTO_ENTRY].answer({**payload, "max_order": 2})["bleu"] == pytest.approx(
        math.sqrt(1 / 6), rel=1e-15
    )


def test_the_check_is_compared_on_inputs_of_its_own_that_reach_every_name():
    groups = list(input_groups([check for check in CHECKS if check.tool_id == TOOL]))
    own = [checks for strategy, checks in groups if strategy is CHECK.inputs]
    assert own == [[CHECK]]
    assert all(CHECK not in checks for strategy, checks in groups if strategy is not CHECK.inputs)
    inputs = generate_inputs(CHECK.inputs, 60, 0)
    assert all(len(p["references"]) == 1 and p["smoothing"] == "none" for p in inputs)
    tokens = {token for p in inputs for token in p["hypothesis"]}
    assert "__proto__" in tokens and tokens & adapter.INHERITED_METHODS and tokens & set(adapter.NOT_INHERITED)
