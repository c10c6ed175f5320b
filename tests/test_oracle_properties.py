"""Properties that follow from the contracts, checked on Hypothesis-generated inputs.

Every output is validated against the contract's output_schema. Expected values
are derived from the contract's text: counts by scanning token positions
naively, the score from its fraction by integer arithmetic, the brevity penalty
from its stated cases.
"""

from __future__ import annotations

import math
from fractions import Fraction

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import oracle
from conformance.hypothesis_profiles import TESTS_ORACLE_PROPERTIES
from oracle.jsnumber import to_fixed

V = "1.0.0"
NGRAMS, CORPUS, CHRF = "bleu-ngrams-count", "bleu-corpus-compute", "chrf-plus-plus-compute"
OUTPUT_VALIDATORS = {
    tool: jsonschema.Draft202012Validator(oracle.load_contract(tool, V)["output_schema"])
    for tool in (NGRAMS, CORPUS, CHRF)
}


def run(tool: str, payload: dict) -> dict:
    output = oracle.execute(tool, V, payload)
    OUTPUT_VALIDATORS[tool].validate(output)
    return output


# --- strategies -----------------------------------------------------------------------

# few distinct tokens, so n-grams repeat and match; "a b" is one token with a space,
# not the two tokens "a", "b"; "ab" is a third, unrelated token
TOKENS = ["a", "b", "c", "a b", "ab", "\u00e9", "e\u0301", "\U0001f600"]
token_lists = st.lists(st.sampled_from(TOKENS), max_size=9)
segments = st.tuples(token_lists, st.lists(token_lists, min_size=1, max_size=3))


@st.composite
def bleu_payloads(draw, min_segments=1):
    pairs = draw(st.lists(segments, min_size=min_segments, max_size=4))
    payload = {"hypotheses": [h for h, _ in pairs], "references": [r for _, r in pairs]}
    if draw(st.booleans()):
        payload["max_order"] = draw(st.integers(1, 8))
    return payload


TEXT_ALPHABET = "ab c.,(\t\u00a0\u3000\u00e9A\u03a3\U0001f600!"
texts = st.text(st.sampled_from(TEXT_ALPHABET), max_size=14)


@st.composite
def chrf_payloads(draw, min_segments=1):
    n = draw(st.integers(min_segments, 4))
    payload = {
        "hypotheses": draw(st.lists(texts, min_size=n, max_size=n)),
        "references": draw(st.lists(texts, min_size=n, max_size=n)),
    }
    if draw(st.booleans()):
        payload["beta"] = draw(st.integers(1, 16))
    if draw(st.booleans()):
        payload["lowercase"] = draw(st.booleans())
    return payload


# --- independent counting: scan positions, compare tuples ----------------------------------


def occurrences(ngram: list[str], tokens: list[str]) -> int:
    n = len(ngram)
    return sum(1 for i in range(len(tokens) - n + 1) if tokens[i : i + n] == ngram)


def first_occurrence(ngram: list[str], tokens: list[str]) -> int:
    n = len(ngram)
    return next(i for i in range(len(tokens) - n + 1) if tokens[i : i + n] == ngram)


def naive_segment_matches(hypothesis: list[str], references: list[list[str]], n: int) -> int:
    distinct = {tuple(hypothesis[i : i + n]) for i in range(len(hypothesis) - n + 1)}
    return sum(
        min(occurrences(list(g), hypothesis), max(occurrences(list(g), r) for r in references)) for g in distinct
    )


def max_order_of(payload: dict) -> int:
    return payload.get("max_order", 4)


# --- BLEU counts ----------------------------------------------------------------------


@given(bleu_payloads())
def test_counts_follow_the_definitions(payload):
    n_max = max_order_of(payload)
    output = run(NGRAMS, payload)
    pairs = list(zip(payload["hypotheses"], payload["references"]))
    expected_totals = [sum(max(0, len(h) - n + 1) for h, _ in pairs) for n in range(1, n_max + 1)]
    expected_matches = [sum(naive_segment_matches(h, refs, n) for h, refs in pairs) for n in range(1, n_max + 1)]
    assert output["max_order"] == n_max
    assert output["totals"] == expected_totals
    assert output["matches"] == expected_matches
    assert all(m <= t for m, t in zip(output["matches"], output["totals"]))
    corpus = run(CORPUS, payload)
    assert (corpus["matches"], corpus["totals"]) == (expected_matches, expected_totals)


def test_ngram_identity_is_by_token_sequence():
    # joined with a space, ["a b"] and ["a", "b"] would look alike; as token sequences they share nothing
    output = run(NGRAMS, {"hypotheses": [["a b", "c"]], "references": [[["a", "b", "c"]]], "max_order": 2})
    assert output["matches"] == [1, 0]  # only "c"
    output = run(NGRAMS, {"hypotheses": [["a", "b c"]], "references": [[["a b", "c"]]], "max_order": 2})
    assert output["matches"] == [0, 0]


@given(bleu_payloads(), st.randoms(use_true_random=False))
def test_segment_order_does_not_change_corpus_sums(payload, rng):
    order = list(range(len(payload["hypotheses"])))
    rng.shuffle(order)
    shuffled = {
        **payload,
        "hypotheses": [payload["hypotheses"][i] for i in order],
        "references": [payload["references"][i] for i in order],
    }
    assert run(NGRAMS, shuffled) == run(NGRAMS, payload)
    assert run(CORPUS, shuffled) == run(CORPUS, payload)


@given(bleu_payloads(), token_lists, st.data())
def test_another_reference_never_lowers_matches(payload, extra_reference, data):
    segment = data.draw(st.integers(0, len(payload["hypotheses"]) - 1))
    if len(payload["references"][segment]) == 8:
        return
    more = {
        **payload,
        "references": [
            refs + [extra_reference] if i == segment else refs for i, refs in enumerate(payload["references"])
        ],
    }
    before, after = run(NGRAMS, {**payload, "detail": "segments"}), run(NGRAMS, {**more, "detail": "segments"})
    assert all(b <= a for b, a in zip(before["matches"], after["matches"]))
    for b_row, a_row in zip(before["segments"], after["segments"]):
        assert all(b <= a for b, a in zip(b_row["matches"], a_row["matches"]))
        assert b_row["totals"] == a_row["totals"]


@given(bleu_payloads())
def test_detail_levels_nest_and_rows_add_up(payload):
    n_max = max_order_of(payload)
    totals = run(NGRAMS, {**payload, "detail": "totals"})
    segments = run(NGRAMS, {**payload, "detail": "segments"})
    ngrams = run(NGRAMS, {**payload, "detail": "ngrams"})
    assert run(NGRAMS, payload) == totals  # "totals" is the default
    assert set(totals) == {"max_order", "matches", "totals"}
    assert {k: segments[k] for k in totals} == totals
    assert set(segments) == set(totals) | {"segments"}
    assert {k: ngrams[k] for k in segments} == segments
    assert set(ngrams) == set(segments) | {"ngrams"}

    assert [row["segment"] for row in segments["segments"]] == list(range(len(payload["hypotheses"])))
    for row, hypothesis in zip(segments["segments"], payload["hypotheses"]):
        assert row["candidate_length"] == len(hypothesis)
    for k in range(n_max):
        assert sum(row["matches"][k] for row in segments["segments"]) == totals["matches"][k]
        assert sum(row["totals"][k] for row in segments["segments"]) == totals["totals"][k]
        for i, row in enumerate(segments["segments"]):
            rows = [r for r in ngrams["ngrams"] if r["segment"] == i and r["order"] == k + 1]
            assert sum(r["clipped_count"] for r in rows) == row["matches"][k]
            assert sum(r["count"] for r in rows) == row["totals"][k]  # every occurrence of order k+1


@given(bleu_payloads())
def test_ngram_rows_follow_the_definitions(payload):
    output = run(NGRAMS, {**payload, "detail": "ngrams", "max_order": max_order_of(payload)})
    rows = output["ngrams"]
    for row in rows:
        hypothesis = payload["hypotheses"][row["segment"]]
        references = payload["references"][row["segment"]]
        assert row["order"] == len(row["ngram"])
        assert row["count"] == occurrences(row["ngram"], hypothesis)
        assert row["max_reference_count"] == max(occurrences(row["ngram"], r) for r in references)
        assert row["clipped_count"] == min(row["count"], row["max_reference_count"])
    # one row per distinct hypothesis n-gram, ordered by segment, then order, then first occurrence
    keys = [(r["segment"], r["order"], tuple(r["ngram"])) for r in rows]
    assert len(keys) == len(set(keys))
    expected = sorted(
        keys, key=lambda key: (key[0], key[1], first_occurrence(list(key[2]), payload["hypotheses"][key[0]]))
    )
    assert keys == expected
    for i, hypothesis in enumerate(payload["hypotheses"]):
        for n in range(1, max_order_of(payload) + 1):
            distinct = {tuple(hypothesis[j : j + n]) for j in range(len(hypothesis) - n + 1)}
            assert distinct == {key[2] for key in keys if key[:2] == (i, n)}


def test_exact_string_equality_and_no_ngram_across_segments():
    # no case folding ("A" vs "a"), no normalization ("\u00e9" vs "e\u0301"), no trimming (" a" vs "a")
    output = run(
        NGRAMS, {"hypotheses": [["A", "\u00e9", " a"]], "references": [[["a", "e\u0301", "a"]]], "max_order": 1}
    )
    assert output["matches"] == [0]
    # segments "a" and "b" would form the bigram "a b" if n-grams crossed the boundary
    output = run(NGRAMS, {"hypotheses": [["a"], ["b"]], "references": [[["a", "b"]], [["a", "b"]]], "max_order": 2})
    assert (output["matches"], output["totals"]) == ([2, 0], [2, 0])


def test_clipping_uses_the_largest_count_in_one_reference():
    # "the" 3 times in the hypothesis, twice in reference 1, once in reference 2: clipped at 2, not 3
    output = run(
        NGRAMS,
        {
            "hypotheses": [["the", "the", "the"]],
            "references": [[["the", "cat", "the"], ["the", "dog"]]],
            "max_order": 1,
            "detail": "ngrams",
        },
    )
    assert output["ngrams"][0] == {
        "segment": 0,
        "order": 1,
        "ngram": ["the"],
        "count": 3,
        "max_reference_count": 2,
        "clipped_count": 2,
    }


# --- BLEU score ------------------------------------------------------------------------


def closest_reference_length(c: int, references: list[list[str]]) -> int:
    lengths = sorted(len(r) for r in references)  # shorter first: wins a tie
    return min(lengths, key=lambda r: abs(r - c))


@given(bleu_payloads())
def test_bleu_follows_the_formula(payload):
    output = run(CORPUS, payload)
    c = sum(len(h) for h in payload["hypotheses"])
    r = sum(closest_reference_length(len(h), refs) for h, refs in zip(payload["hypotheses"], payload["references"]))
    assert (output["candidate_length"], output["reference_length"]) == (c, r)
    if c > r:
        assert output["brevity_penalty"] == 1
    elif c == 0:
        assert output["brevity_penalty"] == 0
    else:
        assert math.isclose(output["brevity_penalty"], math.exp(1 - r / c), rel_tol=1e-15)
    matches, totals = output["matches"], output["totals"]
    if output["brevity_penalty"] == 0 or 0 in matches:
        assert output["bleu"] == 0
    else:
        # bleu^N = bp^N * prod(m_n / l_n), in exact arithmetic up to the float inputs
        n_orders = len(matches)
        product = Fraction(output["brevity_penalty"]) ** n_orders * math.prod(
            Fraction(m, total) for m, total in zip(matches, totals)
        )
        assert math.isclose(output["bleu"] ** n_orders, float(product), rel_tol=1e-12)


@pytest.mark.parametrize(
    "hypothesis_length, reference_lengths, r, bp",
    [
        (3, [3], 3, 1.0),  # c = r: exp(0)
        (4, [3], 3, 1.0),  # c > r
        (0, [2], 2, 0.0),  # c = 0
        (0, [0], 0, 0.0),  # c = 0 even if r = 0
        (2, [3], 3, math.exp(1 - 3 / 2)),  # c < r
        (2, [1, 3], 1, 1.0),  # |2-1| = |2-3|: the tie goes to the shorter, so c > r
        (3, [1, 5], 1, 1.0),  # tie again, shorter
        (3, [5, 6, 7], 5, math.exp(1 - 5 / 3)),  # closest is 5
    ],
)
def test_brevity_penalty_cases(hypothesis_length, reference_lengths, r, bp):
    payload = {"hypotheses": [["w"] * hypothesis_length], "references": [[["w"] * n for n in reference_lengths]]}
    output = run(CORPUS, payload)
    assert (output["candidate_length"], output["reference_length"]) == (hypothesis_length, r)
    assert output["brevity_penalty"] == bp
    if hypothesis_length == 0:
        assert output["bleu"] == 0 and output["matches"] == [0, 0, 0, 0]


@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=12), st.integers(1, 8))
def test_hypothesis_equal_to_its_single_reference_scores_one(tokens, max_order):
    if len(tokens) < max_order:
        tokens = tokens * max_order  # at least max_order long, so every order has an n-gram
    output = run(CORPUS, {"hypotheses": [tokens], "references": [[tokens]], "max_order": max_order})
    assert output["bleu"] == 1 and output["brevity_penalty"] == 1
    assert output["matches"] == output["totals"]
    with_decimals = run(
        CORPUS, {"hypotheses": [tokens], "references": [[tokens]], "max_order": max_order, "decimals": 4}
    )
    assert with_decimals["bleu"] == 1


@given(bleu_payloads(), st.integers(0, 15))
def test_decimals_is_to_fixed_of_the_full_precision_value(payload, decimals):
    full = run(CORPUS, payload)
    rounded = run(CORPUS, {**payload, "decimals": decimals})
    assert rounded["bleu"] == float(to_fixed(full["bleu"], decimals))
    assert rounded["brevity_penalty"] == float(to_fixed(full["brevity_penalty"], decimals))
    assert {k: v for k, v in rounded.items() if k not in ("bleu", "brevity_penalty")} == {
        k: v for k, v in full.items() if k not in ("bleu", "brevity_penalty")
    }


# --- chrF++ ----------------------------------------------------------------------------


def six_decimals_from_fraction(fraction_text: str) -> str:
    """score_fraction n/d rounded to six decimals, ties to even, in integer arithmetic."""
    numerator, denominator = map(int, fraction_text.split("/"))
    micro, remainder = divmod(numerator * 10**6, denominator)
    if 2 * remainder > denominator or (2 * remainder == denominator and micro % 2 == 1):
        micro += 1
    return f"{micro // 10**6}.{micro % 10**6:06d}"


@pytest.mark.parametrize(
    "fraction, expected",
    [
        ("1/8", "0.125000"),
        ("1/3", "0.333333"),
        ("2/3", "0.666667"),
        ("100/1", "100.000000"),
        ("0/1", "0.000000"),
        ("1/16000000", "0.000000"),  # 0.0000000625: below half a millionth
        ("1/2000000", "0.000000"),  # exactly half a millionth: ties to the even 0
        ("3/2000000", "0.000002"),  # 1.5 millionths: ties to the even 2
    ],
)
def test_six_decimals_from_fraction_helper(fraction, expected):
    assert six_decimals_from_fraction(fraction) == expected


@given(chrf_payloads())
def test_score_is_the_fraction_rounded_half_even(payload):
    output = run(CHRF, payload)
    assert output["score"] == six_decimals_from_fraction(output["score_fraction"])
    numerator, denominator = map(int, output["score_fraction"].split("/"))
    assert math.gcd(numerator, denominator) == 1 and 0 <= numerator <= 100 * denominator
    assert output["segment_count"] == len(payload["hypotheses"]) == len(output["segment_scores"])
    if len(payload["hypotheses"]) == 1:
        assert output["segment_scores"] == [output["score"]]


@given(chrf_payloads(), st.randoms(use_true_random=False))
def test_chrf_segment_order_does_not_change_the_corpus_score(payload, rng):
    order = list(range(len(payload["hypotheses"])))
    rng.shuffle(order)
    shuffled = {
        **payload,
        "hypotheses": [payload["hypotheses"][i] for i in order],
        "references": [payload["references"][i] for i in order],
    }
    before, after = run(CHRF, payload), run(CHRF, shuffled)
    assert after["score_fraction"] == before["score_fraction"]
    assert after["segment_scores"] == [before["segment_scores"][i] for i in order]


@given(chrf_payloads())
def test_chrf_with_beta_1_is_symmetric(payload):
    # F_1 = 2PR / (P + R) and the clipped matches are symmetric: swapping sides swaps P and R
    payload = {**payload, "beta": 1}
    swapped = {**payload, "hypotheses": payload["references"], "references": payload["hypotheses"]}
    before, after = run(CHRF, payload), run(CHRF, swapped)
    assert (after["score_fraction"], after["segment_scores"]) == (before["score_fraction"], before["segment_scores"])


@given(st.lists(texts.filter(lambda t: not t.isspace() and t), min_size=1, max_size=4), st.booleans())
def test_chrf_hypothesis_equal_to_reference_scores_100(segment_texts, lowercase):
    output = run(CHRF, {"hypotheses": segment_texts, "references": segment_texts, "lowercase": lowercase})
    assert (output["score"], output["score_fraction"]) == ("100.000000", "100/1")
    assert output["segment_scores"] == ["100.000000"] * len(segment_texts)
    for tokens in output["word_tokens"]:
        assert tokens["hypothesis"] == tokens["reference"]


def test_chrf_exact_tie_at_the_seventh_decimal_rounds_to_even():
    """Hypothesis "aaaa", reference "aaa", beta 2, worked out by hand.

    Character orders: hypothesis 4, 3, 2, 1, 0, 0 n-grams; reference 3, 2, 1, 0, 0, 0; matches
    3, 2, 1. Orders 4-6 lack a side and are not effective. Words: "aaaa" vs "aaa", 1 and 1,
    no match; no bigrams. Effective: char 1-3 and word 1, four orders.
    P = (3/4 + 2/3 + 1/2 + 0) / 4 = 23/48; R = (3/3 + 2/2 + 1/1 + 0) / 4 = 3/4.
    F = 5PR / (4P + R) = (345/192) / (128/48) = 345/512; x 100 = 8625/128 = 67.3828125,
    a tie at the seventh decimal: ties to even give 67.382812 (half-up would give 67.382813).
    """
    output = run(CHRF, {"hypotheses": ["aaaa"], "references": ["aaa"], "beta": 2})
    assert (output["score_fraction"], output["score"], output["segment_scores"]) == (
        "8625/128",
        "67.382812",
        ["67.382812"],
    )


def test_chrf_punctuation_rule_examples_of_the_contract():
    # "At most one mark is split per word, so "(hi)" gives "(hi" and ")", and "..." gives ".." and "."";
    # "a word of one code point is kept"; the last mark is tried before the first.
    output = run(CHRF, {"hypotheses": ["(hi) ... . a. .a a.b (a"], "references": ["x"]})
    assert output["word_tokens"][0]["hypothesis"] == ["(hi", ")", "..", ".", ".", "a", ".", ".", "a", "a.b", "(", "a"]


def test_chrf_corpus_score_sums_counts_over_segments():
    """Segments ("ab" vs "ab") and ("c" vs "d"), beta 2, worked out by hand.

    Summed counts (hypothesis, reference, matches): char 1-grams 2+1, 2+1, 2+0 = (3, 3, 2);
    char 2-grams (1, 1, 1); char 3-6 none; word 1-grams "ab"/"ab" and "c"/"d": (2, 2, 1); word
    2-grams none. Effective: char 1, char 2, word 1. P = R = (2/3 + 1/1 + 1/2) / 3 = 13/18, so
    F = 13/18 for any beta; x 100 = 650/9 = 72.2222... Segment scores: 100 and 0 (no match at all),
    whose mean 50 is not the corpus score.
    """
    output = run(CHRF, {"hypotheses": ["ab", "c"], "references": ["ab", "d"]})
    assert (output["score_fraction"], output["score"]) == ("650/9", "72.222222")
    assert output["segment_scores"] == ["100.000000", "0.000000"]


def test_chrf_nothing_to_compare_scores_0():
    # no effective order at all: the score is 0, and 0/1 is the reduced fraction
    output = run(CHRF, {"hypotheses": [" \t"], "references": ["abc"]})
    assert (output["score"], output["score_fraction"], output["segment_scores"]) == ("0.000000", "0/1", ["0.000000"])


@given(chrf_payloads())
def test_chrf_word_tokens_are_the_contracts(payload):
    output = run(CHRF, payload)
    for tokens, hypothesis, reference in zip(output["word_tokens"], payload["hypotheses"], payload["references"]):
        for side, text in (("hypothesis", hypothesis), ("reference", reference)):
            if payload.get("lowercase", False):
                text = text.lower()
            # gluing the tokens back gives the text without its whitespace (str.split splits on
            # exactly the contract's whitespace list: tests/test_unicode.py)
            assert "".join(tokens[side]) == "".join(text.split())
            assert all(tokens[side])


# --- determinism --------------------------------------------------------------------------


@settings(settings.get_profile(TESTS_ORACLE_PROPERTIES))
@given(bleu_payloads(), chrf_payloads())
def test_same_input_same_output(bleu_payload, chrf_payload):
    for tool, payload in ((NGRAMS, {**bleu_payload, "detail": "ngrams"}), (CORPUS, bleu_payload), (CHRF, chrf_payload)):
        reordered_keys = dict(reversed(list(payload.items())))
        assert run(tool, payload) == run(tool, payload) == run(tool, reordered_keys)
