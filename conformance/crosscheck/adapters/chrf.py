"""What the chrF tools' adapters share: the cross-check inputs, casing, and conditions on the
per-order statistics (computed with the oracle's chrF engine)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from conformance.strategies.base import composite
from oracle import chrf

# chrF texts: letters that repeat (shared character n-grams), every kind of
# separator the contract's whitespace list names (tab, space, U+001C, U+0085,
# U+00A0, U+2028, U+3000) and near-misses that are not on it (U+180E, U+200B,
# U+FEFF), ASCII punctuation that splits off word edges, a non-ASCII mark that
# does not (U+00BF), and letters whose lowercase differs by position (final
# sigma) or by case.
CHRF_ALPHABET_STABLE_CASE = ["a", "b", "A", "B", "\u03a3", "\u03c3", "\u00e9", "\u00c9"]
CHRF_SPACES_AND_NEAR_MISSES = [
    " ",
    "\t",
    "\u001c",
    "\u0085",
    "\u00a0",
    "\u2028",
    "\u3000",
    "\u180e",
    "\u200b",
    "\ufeff",
]
CHRF_PUNCTUATION = [".", "(", ")", ",", "\u00bf"]
CHRF_CHARACTERS = CHRF_ALPHABET_STABLE_CASE + CHRF_SPACES_AND_NEAR_MISSES + CHRF_PUNCTUATION


def _chrf_text():
    letters = st.sampled_from(CHRF_ALPHABET_STABLE_CASE[:2])
    characters = st.sampled_from(CHRF_CHARACTERS)
    return st.lists(st.one_of(letters, letters, characters), max_size=12).map("".join)


@composite
def chrf_inputs(draw) -> dict:
    """A valid chrF input: 1-3 segments of 0-12 code points, any beta and lowercase."""
    segments = draw(st.integers(1, 3))
    payload: dict = {
        "hypotheses": [draw(_chrf_text()) for _ in range(segments)],
        "references": [draw(_chrf_text()) for _ in range(segments)],
    }
    beta = draw(st.none() | st.integers(1, 16))
    if beta is not None:
        payload["beta"] = beta
    # Every code point of the alphabet has the same lowercase mapping and casing
    # properties in Unicode 14 to 17, so lowercase=true never touches open point A5.
    lowercase = draw(st.none() | st.booleans())
    if lowercase is not None:
        payload["lowercase"] = lowercase
    return payload


def cased(payload: dict, text: str) -> str:
    """The text as the contract tokenizes it (lowercased first when asked)."""
    return chrf.lowercase(text) if payload.get("lowercase", False) else text


def segment_order_missing_from_reference(payload: dict, char_order: int, word_order: int) -> bool:
    """A segment's hypothesis has n-grams of an order its reference lacks, and the corpus's references have that order."""
    per_segment = [
        chrf.segment_statistics(cased(payload, h), cased(payload, r), char_order, word_order)
        for h, r in zip(payload["hypotheses"], payload["references"])
    ]
    for order in range(len(per_segment[0])):
        stats = [segment[order] for segment in per_segment]
        if any(s.reference for s in stats) and any(s.hypothesis and not s.reference for s in stats):
            return True
    return False


NLTK_MISSING_WHITESPACE = "\u001c\u001d\u001e\u001f"


def text_with_information_separator(payload: dict) -> bool:
    """A text holds U+001C-U+001F, on the contract's whitespace list but not removed by NLTK's \\s+."""
    texts = [*payload["hypotheses"], *payload["references"]]
    return any(ch in text for text in texts for ch in NLTK_MISSING_WHITESPACE)


# --- Configurable orders and kept whitespace (the chrF and chrF-with-components adapters) ----------


def _edited(draw, reference: str) -> str:
    """A hypothesis made from its reference, so that the high orders (up to 10) have matches."""
    edit = draw(st.sampled_from(("copy", "drop-first", "drop-last", "insert", "replace")))
    if edit == "copy" or not reference:
        return reference
    if edit == "drop-first":
        return reference[1:]
    if edit == "drop-last":
        return reference[:-1]
    at = draw(st.integers(0, len(reference) - 1))
    character = draw(st.sampled_from(CHRF_CHARACTERS))
    return reference[:at] + character + reference[at + (edit == "replace") :]


@composite
def _related_text(draw) -> str:
    """Like _chrf_text, of 0-20 code points, the length drawn first (longer texts than a list's usual
    draw): room for ten-character and four-word n-grams."""
    letters = st.sampled_from(CHRF_ALPHABET_STABLE_CASE[:2])
    length = draw(st.integers(0, 3) | st.integers(0, 20))
    characters = st.one_of(letters, letters, st.sampled_from(CHRF_CHARACTERS))
    return "".join(draw(st.lists(characters, min_size=length, max_size=length)))


@composite
def _related_segment(draw) -> tuple[str, str]:
    """(hypothesis, reference): drawn independently (what shrinking goes to), or the hypothesis a copy or a
    one-edit variant of the reference."""
    reference = draw(_related_text())
    relation = draw(st.sampled_from(("independent", "independent", "copy", "edit")))
    if relation == "independent":
        return draw(_related_text()), reference
    return (reference if relation == "copy" else _edited(draw, reference)), reference


@composite
def related_chrf_inputs(draw) -> dict:
    """A valid chrF input like chrf_inputs (1-3 segments, texts of up to 20 code points), drawn segment by
    segment (so shrinking drops whole segments), whose hypotheses may be copies or one-edit variants of their
    references; and in one input of three every hypothesis a copy (NLTK's chrF agrees with the contract's
    almost only there)."""
    segments = draw(st.lists(_related_segment(), min_size=1, max_size=3))
    if draw(st.integers(0, 2)) == 2:
        segments = [(reference, reference) for _, reference in segments]
    payload: dict = {"hypotheses": [h for h, _ in segments], "references": [r for _, r in segments]}
    beta = draw(st.none() | st.integers(1, 16))
    if beta is not None:
        payload["beta"] = beta
    # the alphabet's lowercase mappings are stable in Unicode 14 to 17 (open point A5 never touched)
    lowercase = draw(st.none() | st.booleans())
    if lowercase is not None:
        payload["lowercase"] = lowercase
    return payload


def statistics_per_segment(
    payload: dict, char_order: int, word_order: int, whitespace: bool = False
) -> list[list[chrf.OrderStatistics]]:
    """The contract's per-order rows of every segment (oracle engine), casing applied."""
    return [
        chrf.segment_statistics(cased(payload, h), cased(payload, r), char_order, word_order, whitespace)
        for h, r in zip(payload["hypotheses"], payload["references"])
    ]


def reference_lacks_an_order_hypothesis_has(
    payload: dict, char_order: int, word_order: int, whitespace: bool = False
) -> bool:
    """A segment's hypothesis has n-grams of an order its reference has none of."""
    return any(
        s.hypothesis and not s.reference
        for segment in statistics_per_segment(payload, char_order, word_order, whitespace)
        for s in segment
    )


def corpus_order_missing_from_a_reference(
    payload: dict, char_order: int, word_order: int, whitespace: bool = False
) -> bool:
    """segment_order_missing_from_reference for any orders and either whitespace setting."""
    per_segment = statistics_per_segment(payload, char_order, word_order, whitespace)
    return any(
        any(segment[k].reference for segment in per_segment)
        and any(segment[k].hypothesis and not segment[k].reference for segment in per_segment)
        for k in range(char_order + word_order)
    )


# --- the contract's exact segment scores and sacreBLEU's CHRF, shared by the chrF adapters ---------------


def exact_segment_score(tool, hypothesis: str, reference: str, payload: dict) -> Fraction:
    """A segment's exact score: the tool's score of a one-segment corpus (segment scores are rounded)."""
    single = {**payload, "hypotheses": [hypothesis], "references": [reference]}
    return Fraction(tool.execute(single)["score_fraction"])


# --- the libraries' answers, as the chrF tools write them (Divergence.library_output) ---------------------
# Scores are floats on the 0..100 scale: a six-decimal score of a target agrees with one within half a step
# (catalogue.agrees). Rows are partial: hypothesis_ngrams, reference_ngrams and matches per order.


def row_dicts(statistics: list[chrf.OrderStatistics]) -> list[dict]:
    return [
        {"hypothesis_ngrams": s.hypothesis, "reference_ngrams": s.reference, "matches": s.matches} for s in statistics
    ]


def rule_score(statistics: list[chrf.OrderStatistics], payload: dict) -> float:
    """The contract's rule (F over the averaged P and R of the effective orders) on some rows, 0..100."""
    return float(100 * chrf.f_score(statistics, int(payload.get("beta", 2))))


# --- torchmetrics' chrf_score: checks and divergences shared by the chrF tools -------------------------------
