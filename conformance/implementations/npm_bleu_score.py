"""bleu-score (JavaScript, npm ``bleu-score``): ``bleu(reference, candidate, maxN)``.

The package scores one candidate string against one reference string: it splits both on ``' '``,
counts n-grams keyed by their space-joined text in plain objects, and returns
``BP * (p_1 * ... * p_N) ** (1/N)`` with p_n = clipped matches / (c - n + 1) and no smoothing. So it
expresses bleu-sentence-compute's ``bleu`` for one reference, ``smoothing`` "none", effective order
false, and tokens a split on ``' '`` gives back (no token holding a space; no empty hypothesis or
reference, which ``''.split(' ')`` makes one empty token). ``decimals`` rounds its float with toFixed
(``implementations.rounded``); the counts and lengths are not expressed, nor are the other tools.

It runs in Node.js: ``tools/npm_bleu_score/bridge.mjs`` (installed with ``npm install --prefix
tools/npm_bleu_score``) calls the package unchanged, one JSON line per call, in one process started on
the first call and ended when this interpreter exits (``_bridge.LineBridge``). A ``NaN`` or ``Infinity`` score comes back as
``null`` (what ``JSON.stringify`` writes), and is judged as the package's answer.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

from hypothesis import strategies as st

from conformance.crosscheck.adapters.bleu import (
    PLAIN_TOKENS,
    bleu_schema,
    max_order,
    sentence_inputs,
    sentence_statistics,
)
from conformance.crosscheck.comparison import Comparison, not_comparable
from conformance.crosscheck.model import NOT_MODELLED, Agreement, Check, Divergence
from conformance.implementations import Implementation, NotApplicable, Partial, rounded
from conformance.implementations._bridge import LineBridge
from conformance.implementations._shared import catalogued
from conformance.javascript import INHERITED_METHODS, NOT_INHERITED, OBJECT_PROTOTYPE_NAMES, PROTO
from conformance.strategies.base import composite

BRIDGE = Path(__file__).resolve().parents[2] / "tools" / "npm_bleu_score"
PACKAGE = BRIDGE / "node_modules" / "bleu-score" / "package.json"
ANSWER_SECONDS = 10.0  # one call of a pure function on at most 50,000 tokens
ANSWER_BYTES = 4096  # an answer is one number

IMPLEMENTATION = Implementation(
    name="npm-bleu-score",
    language="JavaScript",
    distribution="npm:bleu-score",
    counterpart="require('bleu-score').bleu(reference, candidate, maxN)",
    extra="",
    install="Node.js and npm install --prefix tools/npm_bleu_score",
)

# the mechanisms of conformance/divergences.py it shows (what names its failures)
SHOWS = ("inherited-property-name-nan", "proto-unigram-never-counted")

NOT_EXPRESSIBLE_OTHERWISE = (
    "bleu-score scores one candidate string against one reference string and returns "
    "the score only: no counts, totals or lengths, no corpus, no chrF"
)


def library_missing() -> str:
    """What is not installed ("" when Node.js and the package are there)."""
    if shutil.which("node") is None:
        return "not installed: node"
    return "" if PACKAGE.is_file() else "not installed: npm install --prefix tools/npm_bleu_score"


def library_version() -> str:
    try:
        return json.loads(PACKAGE.read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError):
        return ""


def inexpressible(payload: dict) -> str:
    """Why the package cannot be given this bleu-sentence-compute input ("" when it can)."""
    if len(payload["references"]) != 1:
        return "more than one reference: bleu-score takes one reference string"
    if payload["smoothing"] != "none":
        return "smoothing other than none: bleu-score does not smooth"
    if payload.get("effective_order", False):
        return "effective_order true: bleu-score has no effective order"
    reference, candidate = payload["references"][0], payload["hypothesis"]
    if not reference or not candidate:
        return "an empty hypothesis or reference: bleu-score splits the string, and ''.split(' ') is one empty token"
    if any(" " in token for token in (*reference, *candidate)):
        return "a token holding a space: bleu-score splits strings on ' '"
    return ""


def score(payload: dict) -> float | None:
    """The package's score of an input it expresses, in full precision (None: a NaN or an infinity)."""
    reference, candidate = payload["references"][0], payload["hypothesis"]
    answer = _BRIDGE.ask(
        {"reference": " ".join(reference), "candidate": " ".join(candidate), "maxN": max_order(payload)}
    )
    if "error" in answer:
        raise RuntimeError(f"bleu-score threw: {answer['error']}")
    return answer["score"]


def bleu_sentence_compute(payload: dict) -> Partial:
    reason = inexpressible(payload)
    if reason:
        raise NotApplicable(reason)
    found = score(payload)
    return Partial({"bleu": found if found is None else rounded(payload, found)})


_BRIDGE = LineBridge(
    ["node", str(BRIDGE / "bridge.mjs")], "bleu-score's bridge", cwd=BRIDGE, seconds=ANSWER_SECONDS, size=ANSWER_BYTES
)


# --- the cross-check: bleu(reference, candidate, maxN) on inputs of its own, with tokens named like the properties
# every JavaScript object inherits ------------------------------------------------------------------------------


@composite
def object_property_inputs(draw) -> dict:
    """Inputs bleu-score expresses (one reference, smoothing none) where each of the tokens a, b, c stays, or is
    renamed to __proto__, to a method of Object.prototype, or to a name a plain object does not inherit (one time
    in four each): the same name in the hypothesis and the reference, so that the names are matched, unmatched and
    repeated as the plain tokens are."""
    payload = draw(
        sentence_inputs(smoothing=st.just("none"), effective_order=st.none() | st.just(False), max_references=1)
    )
    methods = [name for name in OBJECT_PROTOTYPE_NAMES if name != PROTO]
    names = {
        token: draw(st.just(token) | st.just(PROTO) | st.sampled_from(methods) | st.sampled_from(NOT_INHERITED))
        for token in PLAIN_TOKENS
    }
    return {
        **payload,
        "hypothesis": [names.get(token, token) for token in payload["hypothesis"]],
        "references": [[names.get(token, token) for token in reference] for reference in payload["references"]],
    }


def sentence_comparison(payload: dict, expected: dict) -> Comparison:
    """bleu-score's bleu against the contract's, where it expresses the input; its NaN (JSON.stringify writes null)
    as NaN: equal to no number, inside no bound."""
    from oracle.bleu_sentence_compute import TOOL

    reason = inexpressible(payload)
    if reason:
        return not_comparable(reason)
    found = score(payload)
    value = math.nan if found is None else found
    comparison = Comparison()
    comparison.close("bleu", expected["bleu"], value)
    comparison.within("bleu within output_schema", value, bleu_schema(TOOL))
    return comparison


def output(payload: dict) -> dict | None:
    """bleu-score's answer written out (bleu.js read line by line; tests/test_npm_bleu_score.py holds it to the
    package): null (a NaN) when a hypothesis token names a method of Object.prototype, else the unsmoothed
    BP * (p_1 * ... * p_N) ** (1/N) on the contract's counts with every `__proto__` unigram unmatched; not modelled
    where the package cannot be given the input."""
    if inexpressible(payload):
        return NOT_MODELLED
    hypothesis, reference = payload["hypothesis"], payload["references"][0]
    if INHERITED_METHODS.intersection(hypothesis):
        return {"bleu": None}
    statistics = sentence_statistics(payload)
    matches = list(statistics.matches)
    matches[0] -= min(hypothesis.count(PROTO), reference.count(PROTO))
    product = 1.0
    for m, total in zip(matches, statistics.totals):
        product *= m / total if total > 0 else 0
    c, r = len(hypothesis), len(reference)
    brevity_penalty = 1 if c > r else math.exp(1 - r / c)
    return {"bleu": rounded(payload, brevity_penalty * product ** (1 / max_order(payload)))}


def inherited_method_in_hypothesis(payload: dict) -> bool:
    """bleu-score expresses the input and a hypothesis token is the name of a method of Object.prototype (every
    own property name of Object.prototype but __proto__: constructor, toString, valueOf, hasOwnProperty, ...)."""
    return not inexpressible(payload) and bool(INHERITED_METHODS.intersection(payload["hypothesis"]))


def proto_in_hypothesis_and_reference(payload: dict) -> bool:
    """bleu-score expresses the input, the hypothesis and the reference both hold the token __proto__, and no
    hypothesis token names a method of Object.prototype (whose NaN hides every count)."""
    return (
        not inexpressible(payload)
        and not inherited_method_in_hypothesis(payload)
        and PROTO in payload["hypothesis"]
        and PROTO in payload["references"][0]
    )


SENTENCE_CHECK = "npm-bleu-score/bleu:object-property-tokens"

CHECKS = {
    "bleu_sentence_compute": [
        Check(
            SENTENCE_CHECK,
            "require('bleu-score').bleu(reference.join(' '), hypothesis.join(' '), N) in Node.js; one reference, "
            "smoothing none, effective_order false; inputs of its own, with tokens named like Object.prototype's "
            "properties",
            sentence_comparison,
            inputs=object_property_inputs(),
        ),
    ],
}

DIVERGENCES = {
    "bleu_sentence_compute": [
        Divergence(
            id="npm-bleu-score-inherited-method-nan",
            **catalogued("inherited-property-name-nan"),
            checks=(SENTENCE_CHECK,),
            fields=("bleu", "bleu within output_schema"),
            what_differs="BLEU of a hypothesis holding a token named like a method every JavaScript object "
            "inherits (constructor, toString, valueOf, hasOwnProperty, ...): NaN, written null, instead of a number",
            mechanism="bleu.js counts n-grams in plain objects: `candidateNgrams[ngram] = (candidateNgrams[ngram] "
            "|| 0) + 1` reads the inherited function, which `+ 1` turns into a string; `ngram in referenceNgrams` is "
            "true for an inherited name, and `Math.min(count, referenceNgrams[ngram])` is NaN, so is the unigram "
            "precision, the product and the score (JSON.stringify writes null). Checked by running the package: "
            "every own property name of Object.prototype but `__proto__`; the name in the reference alone changes "
            "nothing. In tools/npm_bleu_score, `node -p \"require('bleu-score').bleu('a', 'toString', 1)\"` prints "
            "NaN",
            applies=inherited_method_in_hypothesis,
            library_output=output,
            out_of_bounds=True,
        ),
        Divergence(
            id="npm-bleu-score-proto-never-counted",
            **catalogued("proto-unigram-never-counted"),
            checks=(SENTENCE_CHECK,),
            fields=("bleu",),
            what_differs="BLEU of a hypothesis and a reference both holding the token __proto__: that unigram "
            "never matches, so the score is lower (0 where it was the only match)",
            mechanism="`candidateNgrams['__proto__'] = ...` calls Object.prototype's __proto__ setter, which "
            "ignores a value that is not an object, so __proto__ never becomes a key: `for (const ngram in "
            "candidateNgrams)` never visits it and its matches are lost (only the unigram's: a longer n-gram's key "
            "holds a space). In tools/npm_bleu_score, `node -p \"require('bleu-score').bleu('__proto__', "
            "'__proto__', 1)\"` prints 0",
            applies=proto_in_hypothesis_and_reference,
            library_output=output,
        ),
    ],
}

AGREEMENTS = [
    Agreement(
        "names a plain object does not inherit, and inherited names in the reference alone (bleu-score)",
        "bleu-score counts prototype and length as any other token, and a reference token named like a property of "
        "Object.prototype changes nothing (only the hypothesis's n-grams are looked up in the reference's counts): "
        "the contract's score within 1e-9 relative",
        (SENTENCE_CHECK,),
    ),
]


# --- the call a user would write (Library.call; `conformance matrix audit` runs it) -------------------------


CALL_LANGUAGE = "shell"


def sentence_call(payload: dict) -> str:
    """A shell line run from the project's root: Node.js on the package installed in tools/npm_bleu_score."""
    import shlex

    from conformance.implementations._calls import js_string

    reference, candidate = " ".join(payload["references"][0]), " ".join(payload["hypothesis"])
    script = (
        f"const {{bleu}} = require('bleu-score'); "
        f"console.log(JSON.stringify({{bleu: bleu({js_string(reference)}, {js_string(candidate)}, "
        f"{max_order(payload)})}}))"
    )
    return f"cd tools/npm_bleu_score && node -e {shlex.quote(script)}"


CALLS = {"bleu_sentence_compute": sentence_call}
