"""Hypothesis strategies for the cross-check inputs.

Aimed rather than random: tiny token and character alphabets so that n-grams are
shared between hypothesis and references (matches, clipping, zero matches and
short hypotheses all occur often), plus the characters where the libraries'
conversions or definitions are known to part ways (tokens with spaces,
whitespace code points inside and outside the contract's list, ASCII
punctuation at word edges, letters whose lowercase depends on context).

Every generated input is valid for its contract and stays off the open points
of the contracts (reports/ambiguities.md): no lone surrogates (A3), small
totals far below every limit (A1, A2, A6), exactly one input per example with
no violation at all (A7), and ``lowercase`` only with a Unicode-stable
alphabet (A5).
"""

from __future__ import annotations

from hypothesis import strategies as st

# Tokens come from a three-word vocabulary so that hypotheses and references
# share n-grams. One input in five also draws probes: tokens holding a space,
# U+00A0 or U+001C (sacreBLEU's input is a string split with str.split(), so
# these have no faithful conversion), and non-ASCII, astral and punctuation
# tokens (which it takes unchanged).
PLAIN_TOKENS = ["a", "b", "c"]
PROBE_TOKENS = ["a b", "a\u00a0b", "x\u001c", "\u00e9", "\U0001f600", "."]


def _token_list(with_probes: bool, max_size: int = 7):
    token = st.sampled_from(PLAIN_TOKENS + PROBE_TOKENS if with_probes else PLAIN_TOKENS)
    return st.lists(token, max_size=max_size)


@st.composite
def bleu_inputs(draw, tool_id: str = "bleu-corpus-compute") -> dict:
    """A valid input of bleu-ngrams-count or bleu-corpus-compute: 1-4 segments of 0-7 tokens, 1-3 references."""
    # One input in five has probe tokens: the rest stay comparable with sacreBLEU.
    with_probes = draw(st.integers(0, 4)) == 4
    segments = draw(st.integers(1, 4))
    hypotheses = [draw(_token_list(with_probes)) for _ in range(segments)]
    references = [draw(st.lists(_token_list(with_probes), min_size=1, max_size=3)) for _ in range(segments)]
    payload: dict = {"hypotheses": hypotheses, "references": references}
    max_order = draw(st.none() | st.integers(1, 8))
    if max_order is not None:
        payload["max_order"] = max_order
    if tool_id == "bleu-ngrams-count":
        payload["detail"] = "ngrams"  # per-segment and per-n-gram rows, as the libraries' own functions return them
    return payload


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
    """A valid chrf-plus-plus-compute input: 1-3 segments of 0-12 code points."""
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


STRATEGIES = {
    "bleu-ngrams-count": bleu_inputs("bleu-ngrams-count"),
    "bleu-corpus-compute": bleu_inputs("bleu-corpus-compute"),
    "chrf-plus-plus-compute": chrf_inputs(),
}
