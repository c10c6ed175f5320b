"""fastchrf (Rust, PyPI ``fastchrf``): ``pairwise_chrf(hypotheses, references, char_order, beta,
remove_whitespace, eps_smoothing)`` (batches of hypotheses x references) and ``aggregate_chrf``.

``pairwise_chrf([hypotheses], [references])[0][i][i]`` is segment i's sentence chrF, a float on
0..100: a partial answer of chrf-compute holding ``segment_scores`` (and ``score`` for a one-segment
input, whose corpus score is its segment's by the contract's rule; it has no corpus score of several
segments), and of chrf-components with word_order 0 (char_order and whitespace are its options:
remove_whitespace = not whitespace), each segment's ``score``. It has no lowercase option: texts are
lowercased with the contracts' toLowerCase (str.lower, as the oracle reads it) first. No word
n-grams (chrF++), no statistics, no exact fraction, no BLEU.
"""

from __future__ import annotations

from fractions import Fraction

from conformance.crosscheck.adapters.bleu import library_answer
from conformance.crosscheck.adapters.chrf import cased, exact_segment_score, text_with_information_separator
from conformance.crosscheck.comparison import Comparison, not_comparable
from conformance.crosscheck.model import NOT_MODELLED, Agreement, Check, Divergence
from conformance.implementations import Implementation, LibraryFloat, NotApplicable, Partial
from conformance.implementations._shared import catalogued

IMPLEMENTATION = Implementation(
    name="fastchrf",
    language="Rust",
    distribution="fastchrf",
    requires=("fastchrf",),
    counterpart="fastchrf.pairwise_chrf([hypotheses], [references], char_order, beta, remove_whitespace)",
)

# the mechanisms of conformance/divergences.py it shows (what names its failures)
SHOWS = ("whitespace-set-without-information-separators",)

NOT_EXPRESSIBLE_OTHERWISE = "fastchrf has no BLEU"
NOT_EXPRESSIBLE = {"chrf_plus_plus_compute": "fastchrf has no word n-grams"}
CHAR_ORDER = 6  # chrF's


def sentence_floats(payload: dict, char_order: int, whitespace: bool = False) -> list[float]:
    """fastchrf's pairwise_chrf of each segment against its own reference (the diagonal), 0..100: its
    char_order, the input's beta, remove_whitespace = not whitespace, no epsilon smoothing; texts lowercased
    first where asked (it has no option)."""
    from fastchrf import pairwise_chrf

    hypotheses = [cased(payload, h) for h in payload["hypotheses"]]
    references = [cased(payload, r) for r in payload["references"]]
    pairs = pairwise_chrf(
        [hypotheses],
        [references],
        char_order=char_order,
        beta=float(payload.get("beta", 2)),
        remove_whitespace=not whitespace,
        eps_smoothing=False,
    )[0]
    return [pairs[i][i] for i in range(len(hypotheses))]


def corpus_of_one(segments: list) -> dict:
    """{"score": the segment's} for one segment (the contract's corpus score of one segment is its score),
    else {}: fastchrf has no corpus score of several segments."""
    return {"score": segments[0]} if len(segments) == 1 else {}


def char_orders(payload: dict) -> tuple[int, bool]:
    """(char_order, whitespace) of a chrf-components input; NotApplicable for word n-grams."""
    from oracle.chrf_components import orders

    char_order, word_order = orders(payload)
    if word_order:
        raise NotApplicable("word_order above 0: fastchrf has no word n-grams")
    return char_order, payload.get("whitespace", False)


# --- the matrix: the target implementation:fastchrf -----------------------------------------------------------


def sentence_scores(payload: dict, char_order: int, whitespace: bool = False) -> list[LibraryFloat]:
    """Each segment's pairwise_chrf against its own reference (the diagonal), on 0..100."""
    return [LibraryFloat(score) for score in sentence_floats(payload, char_order, whitespace)]


def chrf_compute(payload: dict) -> Partial:
    segments = sentence_scores(payload, CHAR_ORDER)
    return Partial({**corpus_of_one(segments), "segment_scores": segments})


def chrf_components(payload: dict) -> Partial:
    segments = sentence_scores(payload, *char_orders(payload))
    return Partial(
        {**corpus_of_one(segments), "segments": [{"segment": i, "score": score} for i, score in enumerate(segments)]}
    )


# --- the cross-check ------------------------------------------------------------------------------------------


def scores_comparison(
    tool, payload: dict, expected: dict, char_order: int, whitespace: bool, segment_name: str
) -> Comparison:
    """Each segment's pairwise_chrf against the tool's exact segment score (and, for one segment, the corpus
    score), on the percent scale; ``segment_name`` formats a segment's value name from its index."""
    comparison = Comparison()
    scores = sentence_floats(payload, char_order, whitespace)
    if len(scores) == 1:
        comparison.close("score", Fraction(expected["score_fraction"]), scores[0])
    for i, (hypothesis, reference) in enumerate(zip(payload["hypotheses"], payload["references"])):
        comparison.close(segment_name.format(i), exact_segment_score(tool, hypothesis, reference, payload), scores[i])
    return comparison


def chrf6_comparison(payload: dict, expected: dict) -> Comparison:
    """pairwise_chrf's diagonal (char_order 6, beta, remove_whitespace=True) against each segment's exact score,
    and the corpus score of a one-segment corpus."""
    from oracle.chrf_compute import TOOL

    return scores_comparison(TOOL, payload, expected, CHAR_ORDER, False, "segment_scores[{}]")


def orders_comparison(payload: dict, expected: dict) -> Comparison:
    """pairwise_chrf's diagonal (char_order, beta, remove_whitespace=not whitespace) against each segment's exact
    score, and the corpus score of a one-segment corpus; word_order 0 only."""
    from oracle.chrf_components import TOOL

    try:
        char_order, whitespace = char_orders(payload)
    except NotApplicable as exc:
        return not_comparable(exc.cause)
    if not char_order:
        return not_comparable("char_order 0: fastchrf has character n-grams of orders 1..char_order >= 1 only")
    return scores_comparison(TOOL, payload, expected, char_order, whitespace, "segments[{}].score")


@library_answer
def chrf6_output(payload: dict) -> dict:
    """fastchrf's sentence scores (and the corpus score of one segment), as its adapter answers."""
    segments = sentence_floats(payload, CHAR_ORDER)
    return {**corpus_of_one(segments), "segment_scores": segments}


@library_answer
def orders_output(payload: dict) -> dict | None:
    """fastchrf's sentence scores (and the corpus score of one segment), as its adapter answers; word_order 0
    and char_order >= 1 only."""
    try:
        char_order, whitespace = char_orders(payload)
    except NotApplicable:
        return NOT_MODELLED
    if not char_order:
        return NOT_MODELLED
    segments = sentence_floats(payload, char_order, whitespace)
    return {**corpus_of_one(segments), "segments": [{"score": score} for score in segments]}


def separator_with_whitespace_removed(payload: dict) -> bool:
    """whitespace is false (or omitted) and a text holds U+001C-U+001F (Rust's char::is_whitespace lacks them)."""
    return not payload.get("whitespace", False) and text_with_information_separator(payload)


WHITESPACE_MECHANISM = (
    "pairwise_chrf(remove_whitespace=True) drops the characters Rust's char::is_whitespace accepts, Unicode "
    "White_Space, which lacks the information separators U+001C-U+001F (checked over every code point: the only "
    "difference from the contract's list)"
)
CHRF6_CHECK, ORDERS_CHECK = "fastchrf/pairwise_chrf:chrf6", "fastchrf/pairwise_chrf:orders"

CHECKS = {
    "chrf_compute": [
        Check(
            CHRF6_CHECK,
            "fastchrf.pairwise_chrf([hypotheses], [references], char_order=6, beta=beta, remove_whitespace=True, "
            "eps_smoothing=False), each segment against its own reference",
            chrf6_comparison,
        ),
    ],
    "chrf_components": [
        Check(
            ORDERS_CHECK,
            "fastchrf.pairwise_chrf([hypotheses], [references], char_order, beta, remove_whitespace=not "
            "whitespace, eps_smoothing=False), each segment against its own reference; word_order 0 only",
            orders_comparison,
        ),
    ],
}

DIVERGENCES = {
    "chrf_compute": [
        Divergence(
            id="fastchrf-chrf6-whitespace-set",
            **catalogued("whitespace-set-without-information-separators"),
            checks=(CHRF6_CHECK,),
            fields=("score", "segment_scores[[]*[]]"),
            what_differs="character n-grams of a text holding U+001C-U+001F: fastchrf keeps them as characters",
            mechanism=WHITESPACE_MECHANISM,
            applies=text_with_information_separator,
            library_output=chrf6_output,
        ),
    ],
    "chrf_components": [
        Divergence(
            id="fastchrf-chrf-orders-whitespace-set",
            **catalogued("whitespace-set-without-information-separators"),
            checks=(ORDERS_CHECK,),
            fields=("score", "segments[[]*[]].score"),
            what_differs="character n-grams of a text holding U+001C-U+001F with whitespace false: fastchrf keeps "
            "them as characters",
            mechanism=WHITESPACE_MECHANISM,
            applies=separator_with_whitespace_removed,
            library_output=orders_output,
        ),
    ],
}

AGREEMENTS = [
    Agreement(
        "chrF sentence scores (fastchrf)",
        "pairwise_chrf without epsilon smoothing averages P and R over the effective orders, then takes "
        "F-beta: each segment's score is the contract's within 1e-9 wherever no text holds U+001C-U+001F",
        (CHRF6_CHECK,),
    ),
]


# --- the call a user would write (Library.call; `conformance matrix audit` runs it) -------------------------


def chrf_call(segments_key: str):
    def write(payload: dict) -> str:
        from conformance.implementations._calls import literal, python
        from oracle.chrf_components import orders

        char_order = orders(payload)[0] if segments_key == "segments" else CHAR_ORDER
        cased = ".lower()" if payload.get("lowercase") else ""
        segment = "{'score': s}" if segments_key == "segments" else "s"
        one = len(payload["hypotheses"]) == 1  # a one-segment corpus's score is its segment's
        return python(
            ["from fastchrf import pairwise_chrf"],
            [
                f"hypotheses = [h{cased} for h in {literal(payload['hypotheses'])}]",
                f"references = [r{cased} for r in {literal(payload['references'])}]",
                f"pairs = pairwise_chrf([hypotheses], [references], char_order={char_order}, "
                f"beta={float(payload.get('beta', 2))}, remove_whitespace={literal(not payload.get('whitespace', False))}, "
                "eps_smoothing=False)[0]",
                "segment_scores = [pairs[i][i] for i in range(len(hypotheses))]",
            ],
            ('{"score": segment_scores[0], ' if one else "{")
            + f'"{segments_key}": [{segment} for s in segment_scores]}}',
        )

    return write


CALLS = {"chrf_compute": chrf_call("segment_scores"), "chrf_components": chrf_call("segments")}
