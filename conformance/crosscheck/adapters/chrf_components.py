"""Cross-checks of chrf-components: sacreBLEU's CHRF(char_order, word_order, whitespace), NLTK's chrF.

Every valid (char_order, word_order) is generated, 0 and the extremes 10 and 4 included, with
whitespace kept and removed, on texts of at most 20 code points (so many inputs have orders longer
than some text, and a segment's reference lacking an order its hypothesis has).
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from conformance.crosscheck.adapters import chrf as chrf_adapters
from conformance.crosscheck.adapters.bleu import library_answer
from conformance.crosscheck.adapters.chrf import (
    FASTCHRF_WHITESPACE_MECHANISM,
    cased,
    corpus_order_missing_from_a_reference,
    fastchrf_corpus_of_one,
    fastchrf_scores,
    fastchrf_sentence_scores,
    nltk_chrf_scores,
    nltk_whitespace_statistics,
    outside_nltk_agreement,
    reference_lacks_an_order_hypothesis_has,
    related_chrf_inputs,
    row_dicts,
    rule_score,
    sacrebleu_corpus_chrf,
    text_with_information_separator,
    torchmetrics_chrf_comparison,
    torchmetrics_chrf_divergences,
)
from conformance.crosscheck.comparison import Comparison, not_comparable
from conformance.crosscheck.model import NOT_MODELLED, Agreement, Check, Divergence
from conformance.strategies.base import composite
from oracle import chrf
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


def metric_of(expected: dict):
    return chrf_adapters.sacrebleu_chrf(
        expected["char_order"], expected["word_order"], expected["beta"], expected["lowercase"], expected["whitespace"]
    )


def row_name(row: dict) -> str:
    return f"{row['unit']}{row['order']}"


def sacrebleu_chrf_statistics(payload: dict, expected: dict) -> Comparison:
    """CHRF(...)._extract_corpus_statistics: per segment [hyp, ref, match] per order (what corpus_score sums),
    against segments[i].statistics, and their sum (sacrebleu.utils.sum_of_lists) against statistics."""
    from sacrebleu.utils import sum_of_lists

    metric = metric_of(expected)
    per_segment = metric._extract_corpus_statistics(payload["hypotheses"], [payload["references"]])
    comparison = Comparison()
    keys = ("hypothesis_ngrams", "reference_ngrams", "matches")

    def compare_rows(prefix: str, rows: list[dict], flat: list[int]) -> None:
        comparison.exact(f"{prefix}.rows", len(rows), len(flat) // 3)
        for k, row in enumerate(rows):
            for j, key in enumerate(keys):
                library = flat[3 * k + j] if 3 * k + j < len(flat) else None
                comparison.exact(f"{prefix}.{row_name(row)}.{key}", row[key], library)

    for segment, flat in zip(expected["segments"], per_segment):
        compare_rows(f"segments[{segment['segment']}]", segment["statistics"], flat)
    compare_rows("statistics", expected["statistics"], sum_of_lists(per_segment))
    return comparison


def sacrebleu_chrf_scores(payload: dict, expected: dict) -> Comparison:
    """CHRF(...).corpus_score and sentence_score of each segment, on the percent scale."""
    metric = metric_of(expected)
    hypotheses, references = payload["hypotheses"], payload["references"]
    comparison = Comparison()
    comparison.close("score", Fraction(expected["score_fraction"]), metric.corpus_score(hypotheses, [references]).score)
    for i, (hypothesis, reference) in enumerate(zip(hypotheses, references)):
        comparison.close(
            f"segments[{i}].score",
            exact_segment_score(hypothesis, reference, payload),
            metric.sentence_score(hypothesis, [reference]).score,
        )
    return comparison


def nltk_texts(payload: dict, whitespace: bool) -> list[tuple[str, str]]:
    """(hypothesis, reference) as NLTK's _preprocess gives them: ignore_whitespace=not whitespace, after the
    contract's lowercasing (NLTK has no lowercase option; the contract lowercases first, so this is faithful)."""
    from nltk.translate.chrf_score import _preprocess

    return [
        (_preprocess(cased(payload, h), not whitespace), _preprocess(cased(payload, r), not whitespace))
        for h, r in zip(payload["hypotheses"], payload["references"])
    ]


def nltk_chrf_statistics(payload: dict, expected: dict) -> Comparison:
    """chrf_precision_recall_fscore_support per character order against the tool's character rows.

    True positives against matches; P = matches / hypothesis_ngrams and R = matches / reference_ngrams where
    NLTK defines them (it returns epsilon for all three when an order has no match). NLTK has no word n-grams.
    """
    from nltk.translate.chrf_score import chrf_precision_recall_fscore_support

    char_order, _, whitespace = options(payload)
    if char_order == 0:
        return not_comparable("char_order 0: no character n-grams, and NLTK's chrF has no word n-grams")
    comparison = Comparison()
    for segment, (hypothesis, reference) in zip(expected["segments"], nltk_texts(payload, whitespace)):
        i = segment["segment"]
        for row in segment["statistics"][:char_order]:
            n = row["order"]
            precision, recall, _, true_positives = chrf_precision_recall_fscore_support(reference, hypothesis, n)
            comparison.exact(f"segments[{i}].char{n}.matches", row["matches"], true_positives)
            if true_positives and row["matches"]:
                comparison.close(
                    f"segments[{i}].char{n}.precision", Fraction(row["matches"], row["hypothesis_ngrams"]), precision
                )
                comparison.close(
                    f"segments[{i}].char{n}.recall", Fraction(row["matches"], row["reference_ngrams"]), recall
                )
    return comparison


def nltk_chrf_score(payload: dict, expected: dict) -> Comparison:
    """corpus_chrf(references, hypotheses, max_len=char_order, beta=beta, ignore_whitespace=not whitespace) and
    sentence_chrf of each segment, on 0..1; word_order 0 only (NLTK's chrF has no word n-grams)."""
    from nltk.translate.chrf_score import corpus_chrf, sentence_chrf

    char_order, word_order, whitespace = options(payload)
    if word_order or not char_order:
        return not_comparable(
            f"char_order {char_order}, word_order {word_order}: NLTK's chrF has character "
            "n-grams of orders 1..max_len >= 1 only"
        )
    hypotheses = [cased(payload, h) for h in payload["hypotheses"]]
    references = [cased(payload, r) for r in payload["references"]]
    arguments = {"min_len": 1, "max_len": char_order, "beta": expected["beta"], "ignore_whitespace": not whitespace}
    comparison = Comparison()
    comparison.close(
        "score / 100", Fraction(expected["score_fraction"]) / 100, corpus_chrf(references, hypotheses, **arguments)
    )
    for i, (hypothesis, reference) in enumerate(zip(payload["hypotheses"], payload["references"])):
        comparison.close(
            f"segments[{i}].score / 100",
            exact_segment_score(hypothesis, reference, payload) / 100,
            sentence_chrf(references[i], hypotheses[i], **arguments),
        )
    return comparison


def fastchrf_chrf_scores(payload: dict, expected: dict) -> Comparison:
    """fastchrf.pairwise_chrf's diagonal (char_order, beta, remove_whitespace=not whitespace) against each
    segment's exact score, and the corpus score of a one-segment corpus; word_order 0 only."""
    char_order, word_order, whitespace = options(payload)
    if word_order or not char_order:
        return not_comparable(
            f"char_order {char_order}, word_order {word_order}: fastchrf has character "
            "n-grams of orders 1..char_order >= 1 only"
        )
    return fastchrf_scores(TOOL, payload, expected, char_order, whitespace, "segments[{}].score")


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


def outside_the_common_domain(payload: dict) -> bool:
    """Word orders are asked for (NLTK's chrF has none), or some segment's hypothesis differs from its reference
    (after lowercasing, whitespace as the input says) or has fewer code points than char_order; unless one
    segment is scored on character unigrams alone and has a match (there NLTK's one F is the contract's F)."""
    char_order, word_order, whitespace = options(payload)
    return bool(word_order) or outside_nltk_agreement(payload, char_order, whitespace)


@library_answer
def sacrebleu_rows_output(payload: dict) -> dict:
    """CHRF._extract_corpus_statistics' rows per segment and summed (what corpus_score sums)."""
    from sacrebleu.utils import sum_of_lists

    char_order, word_order, whitespace = options(payload)
    metric = chrf_adapters.sacrebleu_chrf(
        char_order, word_order, int(payload.get("beta", 2)), payload.get("lowercase", False), whitespace
    )
    flat = metric._extract_corpus_statistics(payload["hypotheses"], [payload["references"]])

    def rows(values: list[int]) -> list[dict]:
        return [
            {"hypothesis_ngrams": values[k], "reference_ngrams": values[k + 1], "matches": values[k + 2]}
            for k in range(0, len(values), 3)
        ]

    return {"statistics": rows(sum_of_lists(flat)), "segments": [{"statistics": rows(values)} for values in flat]}


@library_answer
def sacrebleu_score_output(payload: dict) -> dict:
    """sacreBLEU's corpus score (its corpus sums)."""
    return {"score": sacrebleu_corpus_chrf(payload, *options(payload))}


@library_answer
def nltk_whitespace_output(payload: dict) -> dict:
    """The contract's rows and scores with character n-grams over what NLTK's whitespace removal leaves."""
    per_segment = nltk_whitespace_statistics(payload, *options(payload))
    corpus = chrf.corpus_statistics(per_segment)
    return {
        "statistics": row_dicts(corpus),
        "score": rule_score(corpus, payload),
        "segments": [{"statistics": row_dicts(rows), "score": rule_score(rows, payload)} for rows in per_segment],
    }


@library_answer
def nltk_output(payload: dict) -> dict | None:
    """NLTK's corpus_chrf and sentence_chrf over character orders 1..char_order (it has no word n-grams, and
    no answer at all for char_order 0)."""
    char_order, _, whitespace = options(payload)
    if not char_order:
        return NOT_MODELLED
    score, segments = nltk_chrf_scores(payload, char_order, whitespace)
    return {"score": score, "segments": [{"score": segment} for segment in segments]}


@library_answer
def fastchrf_output(payload: dict) -> dict | None:
    """fastchrf's sentence scores (and the corpus score of one segment), as its adapter answers; word_order 0
    and char_order >= 1 only."""
    char_order, word_order, whitespace = options(payload)
    if word_order or not char_order:
        return NOT_MODELLED
    segments = fastchrf_sentence_scores(payload, char_order, whitespace)
    return {**fastchrf_corpus_of_one(segments), "segments": [{"score": score} for score in segments]}


CHECKS = [
    Check(
        "sacrebleu/chrf_statistics:orders",
        "sacrebleu",
        "CHRF(char_order, word_order, whitespace=whitespace, beta, lowercase)._extract_corpus_statistics(...) "
        "and sum_of_lists",
        sacrebleu_chrf_statistics,
    ),
    Check(
        "sacrebleu/chrf:orders",
        "sacrebleu",
        "CHRF(char_order, word_order, whitespace=whitespace, beta, lowercase).corpus_score / sentence_score",
        sacrebleu_chrf_scores,
    ),
    Check(
        "nltk/chrf_statistics:orders",
        "nltk",
        "nltk.translate.chrf_score.chrf_precision_recall_fscore_support(reference, hypothesis, n), "
        "n = 1..char_order, after _preprocess(text, ignore_whitespace=not whitespace); char_order >= 1 only",
        nltk_chrf_statistics,
    ),
    Check(
        "nltk/corpus_chrf:orders",
        "nltk",
        "nltk.translate.chrf_score.corpus_chrf(references, hypotheses, max_len=char_order, beta=beta, "
        "ignore_whitespace=not whitespace) / sentence_chrf; word_order 0 and char_order >= 1 only",
        nltk_chrf_score,
    ),
    Check(
        "fastchrf/pairwise_chrf:orders",
        "fastchrf",
        "fastchrf.pairwise_chrf([hypotheses], [references], char_order, beta, remove_whitespace=not whitespace, "
        "eps_smoothing=False), each segment against its own reference; word_order 0 only",
        fastchrf_chrf_scores,
    ),
    Check(
        "torchmetrics/chrf_score:orders",
        "torchmetrics",
        "torchmetrics.functional.text.chrf_score(hypotheses, [[r] for r in references], "
        "n_char_order=char_order, n_word_order=word_order, whitespace=whitespace, beta, "
        "lowercase, return_sentence_level_score=True)",
        torchmetrics_chrf_comparison(TOOL, options, "segments[{}].score / 100"),
    ),
]

DIVERGENCES = [
    Divergence(
        id="fastchrf-chrf-orders-whitespace-set",
        libraries=("fastchrf",),
        checks=("fastchrf/pairwise_chrf:orders",),
        fields=("score", "segments[[]*[]].score"),
        what_differs="character n-grams of a text holding U+001C-U+001F with whitespace false: fastchrf keeps "
        "them as characters",
        mechanism=FASTCHRF_WHITESPACE_MECHANISM,
        clause="every whitespace code point removed: U+0009-U+000D, U+001C-U+001F, U+0020, ...",
        applies=separator_with_whitespace_removed,
        library_output=fastchrf_output,
    ),
    Divergence(
        id="sacrebleu-chrf-orders-zeroes-hypothesis-ngrams",
        libraries=("sacrebleu",),
        checks=("sacrebleu/chrf_statistics:orders",),
        fields=("segments[[]*[]].*.hypothesis_ngrams", "statistics.*.hypothesis_ngrams"),
        what_differs="hypothesis_ngrams of an order the segment's reference lacks: 0 instead of the hypothesis's "
        "count, in that segment's row and in the corpus sums (references and matches agree)",
        mechanism="CHRF._get_match_statistics returns [hyp_count if ref_ngrams else 0, ref_count, matches]: an "
        "order whose reference Counter is empty reports no hypothesis n-grams (as Popovic's chrF++.py)",
        clause="hypothesis_ngrams counts every hypothesis n-gram, also of an order the segment's reference lacks",
        applies=segment_reference_lacks_an_order,
        library_output=sacrebleu_rows_output,
    ),
    Divergence(
        id="sacrebleu-chrf-orders-drops-unmatched-orders",
        libraries=("sacrebleu",),
        checks=("sacrebleu/chrf:orders",),
        fields=("score",),
        what_differs="corpus score of a corpus where one segment's reference lacks an order its hypothesis has "
        "while another segment's reference has it (open point A4; segment scores agree)",
        mechanism="the zeroed hypothesis counts of CHRF._get_match_statistics (sacrebleu-chrf-orders-zeroes-"
        "hypothesis-ngrams) are what corpus_score sums, so that order's corpus precision is higher; in a "
        "segment alone the order is not effective either way",
        clause="score applies the rule above to the summed rows",
        applies=orders_missing_from_a_reference,
        library_output=sacrebleu_score_output,
    ),
    Divergence(
        id="nltk-chrf-orders-whitespace-set",
        libraries=("nltk",),
        checks=("nltk/chrf_statistics:orders", "nltk/corpus_chrf:orders"),
        fields=("segments[[]*[]].*", "statistics.*", "score / 100"),
        what_differs="character n-grams of a text holding U+001C-U+001F with whitespace false: NLTK keeps them "
        "as characters",
        mechanism="chrf_score._preprocess(text, ignore_whitespace=True) removes nltk.redos.sub(r'\\s+', ...) "
        "matches, the regex module's Unicode White_Space, which lacks U+001C-U+001F; with "
        "ignore_whitespace=False it keeps the text whole, as the contract's whitespace true",
        clause="every whitespace code point removed: U+0009-U+000D, U+001C-U+001F, U+0020, ...",
        applies=separator_with_whitespace_removed,
        library_output=nltk_whitespace_output,
    ),
    Divergence(
        id="nltk-chrf-orders-definition",
        libraries=("nltk",),
        checks=("nltk/corpus_chrf:orders",),
        fields=("score / 100", "segments[[]*[]].score / 100"),
        what_differs="the score itself: NLTK's chrF is another formula over the same character n-grams; they agree "
        "where every segment's hypothesis equals its reference and has all char_order orders, or one "
        "segment is scored on matched character unigrams alone",
        mechanism="corpus_chrf/sentence_chrf: F computed per order and averaged over the orders 1..max_len (not P "
        "and R averaged, then F), epsilon 1e-16 for P, R and F of an order without n-grams or matches "
        "(no effective order), the corpus score a macro average of segment scores (not summed rows)",
        clause="P and R are the precisions (matches / hypothesis_ngrams) and recalls (matches / reference_ngrams) "
        "of character orders 1..char_order and word orders 1..word_order arithmetically averaged together "
        "... score applies the rule above to the summed rows",
        applies=outside_the_common_domain,
        library_output=nltk_output,
    ),
    *torchmetrics_chrf_divergences(TOOL, "torchmetrics/chrf_score:orders", options, "segments"),
]

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
