"""The cross-check's side of this tool: its generated inputs (``INPUTS``), the conditions on an input that
the libraries' divergence entries share, and the agreements several libraries were checked on. Each library's
calls, checks and divergences live in its own module, conformance/implementations/.

Every valid (char_order, word_order) is generated, 0 and the extremes 10 and 4 included, with
whitespace kept and removed, on texts of at most 20 code points (so many inputs have orders longer
than some text, and a segment's reference lacking an order its hypothesis has).
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from conformance.crosscheck.adapters import chrf as chrf_adapters
from conformance.crosscheck.adapters.chrf import (
    cased,
    corpus_order_missing_from_a_reference,
    reference_lacks_an_order_hypothesis_has,
    related_chrf_inputs,
    text_with_information_separator,
)
from conformance.crosscheck.model import Agreement
from conformance.strategies.base import composite
from oracle.chrf_components import DEFAULT_CHAR_ORDER, DEFAULT_WORD_ORDER, TOOL, orders

# every valid (char_order, word_order), 0 and the maxima 10 and 4 included: the defaults (6, 0) first (what
# shrinking goes to), then character unigrams alone (1, 0), where NLTK's chrF can agree on unequal texts
# (Hypothesis draws the first few of a sampled list the most often). One draw from the 54 pairs covers more
# of them in a run than two draws of the orders.
FIRST_PAIRS = [(DEFAULT_CHAR_ORDER, DEFAULT_WORD_ORDER), (1, 0)]
ORDER_PAIRS = FIRST_PAIRS + [
    (c, w) for c in range(0, 11) for w in range(0, 5) if c + w >= 1 and (c, w) not in FIRST_PAIRS
]


@composite
def components_inputs(draw) -> dict:
    """A related chrF input with one of the 54 valid (char_order, word_order) -- 0..10 and 0..4, not both 0 --
    each key omitted when it is its default (sometimes), and whitespace omitted, true or false."""
    payload = draw(related_chrf_inputs())
    char_order, word_order = draw(st.sampled_from(ORDER_PAIRS))
    omit = draw(st.booleans())
    if not (omit and char_order == DEFAULT_CHAR_ORDER):
        payload["char_order"] = char_order
    if not (omit and word_order == DEFAULT_WORD_ORDER):
        payload["word_order"] = word_order
    whitespace = draw(st.sampled_from((None, True, False)))
    if whitespace is not None:
        payload["whitespace"] = whitespace
    return payload


INPUTS = components_inputs()


def options(payload: dict) -> tuple[int, int, bool]:
    char_order, word_order = orders(payload)
    return char_order, word_order, payload.get("whitespace", False)


def exact_segment_score(hypothesis: str, reference: str, payload: dict) -> Fraction:
    return chrf_adapters.exact_segment_score(TOOL, hypothesis, reference, payload)


def nltk_texts(payload: dict, whitespace: bool) -> list[tuple[str, str]]:
    """(hypothesis, reference) as NLTK's _preprocess gives them: ignore_whitespace=not whitespace, after the
    contract's lowercasing (NLTK has no lowercase option; the contract lowercases first, so this is faithful)."""
    from nltk.translate.chrf_score import _preprocess

    return [
        (_preprocess(cased(payload, h), not whitespace), _preprocess(cased(payload, r), not whitespace))
        for h, r in zip(payload["hypotheses"], payload["references"])
    ]


def segment_reference_lacks_an_order(payload: dict) -> bool:
    """A segment's hypothesis has n-grams of an order (character or word, whitespace as the input says) its
    reference has none of."""
    return reference_lacks_an_order_hypothesis_has(payload, *options(payload))


def orders_missing_from_a_reference(payload: dict) -> bool:
    """Open point A4: a segment's reference lacks an order its hypothesis has, another segment's reference has
    it (orders and whitespace as the input says)."""
    return corpus_order_missing_from_a_reference(payload, *options(payload))


def separator_with_whitespace_removed(payload: dict) -> bool:
    """whitespace is false (or omitted) and a text holds U+001C-U+001F, on the contract's whitespace list but
    not removed by NLTK's \\s+ (with whitespace true both keep every code point)."""
    return not options(payload)[2] and text_with_information_separator(payload)


AGREEMENTS = [
    Agreement(
        "whitespace true (sacreBLEU)",
        "CHRF(whitespace=True) takes character n-grams over the line unchanged "
        "(extract_all_char_ngrams(line, n, include_whitespace=True) skips ''.join(line.split())): every code "
        "point kept, leading, trailing and repeated whitespace included, as the contract; word tokens still "
        "come from str.split() (whitespace never changes them). The API only: sacreBLEU's command line "
        "rstrip()s every line it reads, so trailing whitespace never reaches --chrf-whitespace (hypothesis "
        "'a \\u3000', reference 'a', char order 1: 100.0 there, 71.428571 by the API and the contract)",
        ("sacrebleu/chrf_statistics:orders", "sacrebleu/chrf:orders"),
    ),
    Agreement(
        "whitespace true (NLTK)",
        "_preprocess(text, ignore_whitespace=False) returns the text whole, so with whitespace true NLTK's "
        "character n-grams are the contract's (the U+001C-U+001F difference needs whitespace false)",
        ("nltk/chrf_statistics:orders",),
    ),
    Agreement(
        "every (char_order, word_order)",
        "CHRF(char_order=0) extracts no character n-grams and averages over word orders only, "
        "CHRF(word_order=0) no word n-grams, up to char_order 10 and word_order 4 (order = char_order + "
        "word_order rows, character rows first, as the contract's); orders longer than a text have no n-grams "
        "and are not effective on either side",
        ("sacrebleu/chrf_statistics:orders", "sacrebleu/chrf:orders"),
    ),
    Agreement(
        "word n-grams",
        "sacreBLEU's word n-grams are ' '.join of n adjacent _remove_punctuation tokens; tokens never hold "
        "whitespace, so the joined strings count exactly as the contract's token tuples, for n up to 4",
        ("sacrebleu/chrf_statistics:orders",),
    ),
    Agreement(
        "reference counts and matches per order",
        "reference_ngrams and matches of every row, per segment and summed, equal "
        "CHRF._get_match_statistics' (its matches loop over hypothesis n-grams, the contract's over "
        "reference n-grams: min is symmetric); only hypothesis_ngrams of an order the reference lacks differs",
        ("sacrebleu/chrf_statistics:orders",),
    ),
]
