"""The npm package bleu-score as an implementation (conformance/implementations/npm_bleu_score.py): a
JavaScript library called through Node.js, judged like the Python ones. Skips without Node.js or the
package (``npm install --prefix tools/npm_bleu_score``, which CI runs)."""

from __future__ import annotations

import pytest

from conformance import compare
from conformance.implementations import NotApplicable, library
from conformance.model import Case, Expectation
from conformance.targets import make_target

TOOL, VERSION = "bleu-sentence-compute", "1.0.0"
LIBRARY = library("npm-bleu-score")
pytestmark = pytest.mark.skipif(bool(LIBRARY.missing()), reason=f"npm-bleu-score: {LIBRARY.missing()}")


def judged(payload: dict):
    case = Case(TOOL, VERSION, "x", "fixture", "valid", payload, Expectation("output"))
    response = make_target("implementation:npm-bleu-score").call(TOOL, VERSION, payload)
    return response, compare.judge(case, compare.expect(case), response)


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


def test_an_inherited_property_name_makes_its_score_nan_which_fails_the_schema():
    # the package tests `ngram in referenceNgrams` on a plain object: "constructor" is inherited, so
    # Math.min(1, Object) is NaN, the score is NaN and JSON.stringify writes null; the contract's bleu is 0
    # (no hypothesis token in the reference)
    response, verdict = judged(
        {"hypothesis": ["constructor"], "references": [["a"]], "smoothing": "none", "max_order": 1}
    )
    assert response.result == {"bleu": None}
    assert verdict.outcome == "failed" and "/bleu" in verdict.message


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
