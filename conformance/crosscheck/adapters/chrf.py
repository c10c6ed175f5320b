"""What the chrF tools' adapters share: the cross-check inputs, casing, and conditions on the
per-order statistics (computed with the oracle's chrF engine)."""

from __future__ import annotations

from hypothesis import strategies as st

from oracle import chrf

# chrF texts: letters that repeat (shared character n-grams), every kind of
# separator the contract's whitespace list names (tab, space, U+001C, U+0085,
# U+00A0, U+2028, U+3000) and near-misses that are not on it (U+180E, U+200B,
# U+FEFF), ASCII punctuation that splits off word edges, a non-ASCII mark that
# does not (U+00BF), and letters whose lowercase differs by position (final
# sigma) or by case.
CHRF_ALPHABET_STABLE_CASE = ["a", "b", "A", "B", "\u03a3", "\u03c3", "\u00e9", "\u00c9"]
CHRF_SPACES_AND_NEAR_MISSES = [" ", "\t", "\u001c", "\u0085", "\u00a0", "\u2028", "\u3000", "\u180e", "\u200b", "\ufeff"]
CHRF_PUNCTUATION = [".", "(", ")", ",", "\u00bf"]
CHRF_CHARACTERS = CHRF_ALPHABET_STABLE_CASE + CHRF_SPACES_AND_NEAR_MISSES + CHRF_PUNCTUATION


def _chrf_text():
    letters = st.sampled_from(CHRF_ALPHABET_STABLE_CASE[:2])
    characters = st.sampled_from(CHRF_CHARACTERS)
    return st.lists(st.one_of(letters, letters, characters), max_size=12).map("".join)


@st.composite
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
    per_segment = [chrf.segment_statistics(cased(payload, h), cased(payload, r), char_order, word_order)
                   for h, r in zip(payload["hypotheses"], payload["references"])]
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
