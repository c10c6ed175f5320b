"""What the BLEU tools' cross-check modules share: the cross-check inputs, whitespace in tokens,
and conditions on the corpus and sentence statistics (computed with the oracle's own BLEU statistics).

Corpus tools take ``hypotheses`` and ``references`` (one list per segment); sentence tools take one
``hypothesis`` and its ``references``; the length tool takes lengths only.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from conformance.crosscheck.model import NOT_MODELLED
from conformance.strategies.base import composite
from oracle.bleu_statistics import DEFAULT_MAX_ORDER, SegmentStatistics, corpus_sums, segment_statistics
from oracle.jsnumber import round_to_fixed
from oracle.validation import format_path


def max_order(payload: dict) -> int:
    return int(payload.get("max_order", DEFAULT_MAX_ORDER))


# --- inputs -------------------------------------------------------------------------

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


@composite
def _sized_token_list(draw, with_probes: bool, max_size: int) -> list[str]:
    """A token list whose length is drawn first, evenly over 0..max_size (plain lists are mostly short)."""
    token = st.sampled_from(PLAIN_TOKENS + PROBE_TOKENS if with_probes else PLAIN_TOKENS)
    return [draw(token) for _ in range(draw(st.integers(0, max_size)))]


@composite
def bleu_inputs(draw, **fixed) -> dict:
    """A valid BLEU input: 1-4 segments of 0-7 tokens, 1-3 references, any max_order; ``fixed`` options added."""
    # One input in five has probe tokens: the rest stay comparable with sacreBLEU.
    with_probes = draw(st.integers(0, 4)) == 4
    segments = draw(st.integers(1, 4))
    hypotheses = [draw(_token_list(with_probes)) for _ in range(segments)]
    references = [draw(st.lists(_token_list(with_probes), min_size=1, max_size=3)) for _ in range(segments)]
    payload: dict = {"hypotheses": hypotheses, "references": references}
    order = draw(st.none() | st.integers(1, 8))
    if order is not None:
        payload["max_order"] = order
    payload.update(fixed)
    return payload


# How a sentence input's hypothesis is drawn from its references: freely; as a copy of one (c = r,
# every order matched); as a copy with one token replaced; or as a copy with a token found in no
# reference after every j tokens, so that orders 1..j match and every order from j + 1 on has
# n-grams but no match (the NIST counter k runs 1, 2, 3, ... from there). Free comes first, so
# shrinking prefers it.
HYPOTHESIS_SHAPES = ("free", "copy", "one token replaced", "foreign token every j tokens")
FOREIGN_TOKEN = "z"  # in no reference: PLAIN_TOKENS and PROBE_TOKENS do not hold it


@composite
def sentence_inputs(draw, max_references: int = 8, **options) -> dict:
    """A valid one-segment BLEU input: a hypothesis of 0-14 tokens, 1-``max_references`` references of 0-7, any
    max_order.

    ``options`` maps an input field to the strategy of its value, drawn first (so that every value is
    met evenly); a strategy drawing None leaves the field out (its default applies).
    """
    payload: dict = {}
    for name, strategy in options.items():
        value = draw(strategy)
        if value is not None:
            payload[name] = value
    order = draw(st.none() | st.integers(1, 8))
    with_probes = draw(st.integers(0, 4)) == 4
    references = draw(st.lists(_sized_token_list(with_probes, 7), min_size=1, max_size=max_references))
    shape = draw(st.sampled_from(HYPOTHESIS_SHAPES))
    sources = [reference for reference in references if reference]
    if shape == "free" or not sources:
        hypothesis = draw(_sized_token_list(with_probes, 9))
    else:
        source = draw(st.sampled_from(sources))
        if shape == "copy":
            hypothesis = list(source)
        elif shape == "one token replaced":
            position = draw(st.integers(0, len(source) - 1))
            token = draw(st.sampled_from(PLAIN_TOKENS + PROBE_TOKENS if with_probes else PLAIN_TOKENS))
            hypothesis = source[:position] + [token] + source[position + 1 :]
        else:
            # j < max_order, so that the first order without a match, j + 1, is one the score uses
            j = draw(st.integers(1, max(1, (order or DEFAULT_MAX_ORDER) - 1)))
            hypothesis = []
            for start in range(0, len(source), j):
                hypothesis += source[start : start + j] + [FOREIGN_TOKEN]
    payload = {"hypothesis": hypothesis, "references": references, **payload}
    if order is not None:
        payload["max_order"] = order
    return payload


# --- sacreBLEU's form of an input -----------------------------------------------------


def whitespace_token(payload: dict) -> str:
    """The path of the first token sacreBLEU cannot take unchanged, or "".

    sacreBLEU takes each segment as one string and splits it with str.split(): a token
    holding a code point for which str.isspace() is true would be split in two. (Tokens
    are never empty: the schema's minLength is 1.)
    """
    if "hypothesis" in payload:  # one segment
        for k, token in enumerate(payload["hypothesis"]):
            if token.split() != [token]:
                return format_path(["hypothesis", k])
        for j, reference in enumerate(payload["references"]):
            for k, token in enumerate(reference):
                if token.split() != [token]:
                    return format_path(["references", j, k])
        return ""
    for i, hypothesis in enumerate(payload["hypotheses"]):
        for k, token in enumerate(hypothesis):
            if token.split() != [token]:
                return format_path(["hypotheses", i, k])
    for i, references in enumerate(payload["references"]):
        for j, reference in enumerate(references):
            for k, token in enumerate(reference):
                if token.split() != [token]:
                    return format_path(["references", i, j, k])
    return ""


def library_answer(model):
    """A Divergence.library_output: the library's answer in the tool's output form (bleu and brevity_penalty
    rounded as the input's ``decimals`` asks, as a target wrapping the library rounds them); NOT_MODELLED
    when the library is not installed. A token holding whitespace is given as the library is given it:
    joined with spaces (sacreBLEU then splits it), so that cause is modelled like any other input."""

    def answer(payload: dict) -> dict | None:
        try:
            found = model(payload)
        except ImportError:
            return NOT_MODELLED
        if found is not None and "decimals" in payload:
            digits = int(payload["decimals"])
            found = {key: round_to_fixed(value, digits) if key in ROUNDED else value for key, value in found.items()}
        return found

    answer.__doc__ = model.__doc__
    return answer


ROUNDED = ("bleu", "brevity_penalty")  # the fields ``decimals`` rounds


# --- conditions on BLEU inputs --------------------------------------------------------


_last_counts: tuple = (None, None)  # (the payload object, its counts): several conditions ask about one input


def corpus_counts(payload: dict) -> tuple[list[int], list[int]]:
    """The corpus m_n and l_n of a BLEU input (the last input's kept: the conditions of several catalogue
    entries are asked in turn about one input, which nothing mutates)."""
    global _last_counts
    last_payload, counts = _last_counts
    if last_payload is payload:
        return counts
    n = max_order(payload)
    per_segment = [segment_statistics(h, refs, n) for h, refs in zip(payload["hypotheses"], payload["references"])]
    counts = corpus_sums(per_segment, n)
    _last_counts = (payload, counts)
    return counts


def empty_candidate_and_reference(payload: dict) -> bool:
    """c = 0 and r = 0: every hypothesis is empty and every segment has an empty reference (the closest to 0)."""
    return all(not h for h in payload["hypotheses"]) and all(
        any(not ref for ref in refs) for refs in payload["references"]
    )


def some_order_unmatched_with_ngrams(payload: dict) -> bool:
    """Some order has m_n = 0 although l_n > 0, while another order matched (the score is exactly 0 by contract)."""
    matches, totals = corpus_counts(payload)
    return any(matches) and any(m == 0 and total > 0 for m, total in zip(matches, totals))


def some_order_without_ngrams_yet_unigram_match(payload: dict) -> bool:
    """Some order has l_n = 0 (every hypothesis shorter than n) while unigrams matched."""
    matches, totals = corpus_counts(payload)
    return matches[0] > 0 and any(total == 0 for total in totals)


def some_zero_match_order_yet_unigram_match(payload: dict) -> bool:
    """Some order has m_n = 0 (with or without n-grams) while unigrams matched."""
    matches, _ = corpus_counts(payload)
    return matches[0] > 0 and any(m == 0 for m in matches)


def some_segment_shorter_than_max_order(payload: dict) -> bool:
    """A hypothesis (possibly empty) has fewer than max_order tokens: it has no n-grams of the highest orders."""
    return any(len(h) < max_order(payload) for h in payload["hypotheses"])


# --- conditions on one-segment BLEU inputs ----------------------------------------------


def sentence_statistics(payload: dict) -> SegmentStatistics:
    """m_n, l_n and c of a one-segment input."""
    return segment_statistics(payload["hypothesis"], payload["references"], max_order(payload))


def empty_hypothesis_and_reference(payload: dict) -> bool:
    """c = 0 and r = 0: the hypothesis is empty and one of its references is too (the closest to 0)."""
    return not payload["hypothesis"] and any(not reference for reference in payload["references"])


def hypothesis_shorter_than_max_order(payload: dict) -> bool:
    """The hypothesis (possibly empty) has fewer than max_order tokens: it has no n-grams of the highest orders."""
    return len(payload["hypothesis"]) < max_order(payload)


# --- sacreBLEU's percent scale and the output_schema -------------------------------------------------------


def bleu_schema(tool) -> dict:
    """The output_schema property of bleu (its bounds: 0..1)."""
    return tool.contract.output_schema["properties"]["bleu"]


def every_ngram_matched(payload: dict) -> bool:
    """Some order has n-grams and every order that has them is wholly matched (m_n = l_n > 0), or a token
    holds whitespace (sacreBLEU's own statistics are then another input's): every precision sacreBLEU uses may
    be 1, where its percent-scale arithmetic can land above 1."""
    if whitespace_token(payload):
        return True
    if "hypothesis" in payload:
        statistics = sentence_statistics(payload)
        matches, totals = statistics.matches, statistics.totals
    else:
        matches, totals = corpus_counts(payload)
    return any(totals) and all(m == total for m, total in zip(matches, totals) if total)


BLEU_ABOVE_ONE: dict[str, Any] = dict(
    libraries=("sacrebleu",),
    out_of_bounds=True,
    fields=("bleu within output_schema",),
    what_differs="BLEU where every precision is 1 and the brevity penalty 1: 1.0000000000000004 (1 + 2^-51), above "
    "the output_schema's maximum 1",
    mechanism="BLEU.compute_bleu scores on the percent scale: exp(sum of my_log(100 * m_n / l_n) / N) is "
    "exp(ln 100) = 100.00000000000004 when every term is ln 100 (its double rounds up), and the "
    "score / 100 a wrapper reports is then 1 + 2^-51 (the precisions and the brevity penalty are exact)",
    clause="Scores are on the 0-1 scale",  # and the output_schema's bleu maximum 1
)


# --- torchmetrics: functional.text.bleu_score, in its default dtype (float32) ---------------------------------
