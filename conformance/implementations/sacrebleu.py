"""sacreBLEU (Python) through its public API: ``BLEU(tokenize="none", ...)`` ``corpus_score`` and
``sentence_score``, whose ``BLEUScore`` carries the score (0-100), bp, counts, totals, sys_len and ref_len.

sacreBLEU takes each segment as one string and splits it with ``str.split()``, so the tokens are
joined with single spaces: a token holding whitespace has no faithful conversion. It does not
report the effective order it used, so that input is not applicable. With ``decimals`` its float is
rounded with the contract's toFixed (``implementations.rounded``).

Its ``CHRF(char_order, word_order, beta, lowercase, whitespace)`` gives the chrF tools' scores as
floats on 0..100 (``corpus_score``, and ``sentence_score`` per segment): partial answers holding
``score`` and ``segment_scores`` (chrf-components: each segment's ``score``); the exact ``score_fraction``, the word tokens and the statistics rows
have no public accessor and are not expressed. Its whitespace removal (``str.split()``) is exactly the
contracts' list and its lowercasing (``str.lower``) the oracle's, so no input needs converting.
"""

from __future__ import annotations

import logging
import warnings
from contextlib import contextmanager
from fractions import Fraction
from functools import cache

from conformance.crosscheck.adapters.bleu import (
    BLEU_ABOVE_ONE,
    bleu_schema,
    empty_candidate_and_reference,
    empty_hypothesis_and_reference,
    every_ngram_matched,
    library_answer,
    max_order,
    some_order_unmatched_with_ngrams,
    some_order_without_ngrams_yet_unigram_match,
    whitespace_token,
)
from conformance.crosscheck.adapters.bleu_brevity_penalty import (
    zero_candidate_and_reference_length,
)
from conformance.crosscheck.adapters.bleu_sentence_compute import (
    add_k_past_the_early_return,
    effective_order,
)
from conformance.crosscheck.adapters.chrf import (
    exact_segment_score,
)
from conformance.crosscheck.adapters.chrf_components import exact_segment_score as orders_exact_segment_score
from conformance.crosscheck.adapters.chrf_components import (
    options,
    segment_reference_lacks_an_order,
)
from conformance.crosscheck.adapters.chrf_components import (
    orders_missing_from_a_reference as orders_orders_missing_from_a_reference,
)
from conformance.crosscheck.adapters.chrf_compute import (
    orders_missing_from_a_reference as chrf6_orders_missing_from_a_reference,
)
from conformance.crosscheck.adapters.chrf_plus_plus_compute import (
    orders_missing_from_a_reference as chrf_plus_plus_orders_missing_from_a_reference,
)
from conformance.crosscheck.comparison import Comparison, not_comparable
from conformance.crosscheck.model import Check, Divergence
from conformance.implementations import Implementation, LibraryFloat, NotApplicable, Partial, rounded
from conformance.implementations._shared import catalogued
from oracle.bleu_corpus_compute import TOOL as CORPUS_TOOL
from oracle.bleu_sentence_compute import TOOL as SENTENCE_TOOL
from oracle.bleu_statistics import DEFAULT_MAX_ORDER
from oracle.chrf_compute import CHAR_ORDER as CHRF6_CHAR_ORDER
from oracle.chrf_compute import TOOL as CHRF6_TOOL
from oracle.chrf_compute import WORD_ORDER as CHRF6_WORD_ORDER
from oracle.chrf_plus_plus_compute import CHAR_ORDER as CHRF_PLUS_PLUS_CHAR_ORDER
from oracle.chrf_plus_plus_compute import TOOL as CHRF_PLUS_PLUS_TOOL
from oracle.chrf_plus_plus_compute import WORD_ORDER as CHRF_PLUS_PLUS_WORD_ORDER

IMPLEMENTATION = Implementation(
    name="sacrebleu",
    language="Python",
    distribution="sacrebleu",
    requires=("sacrebleu",),
    counterpart="sacrebleu.metrics.BLEU(tokenize='none', smooth_method=..., max_ngram_order=N)"
    ".corpus_score / .sentence_score",
    extra="crosscheck",
)

# the mechanisms of conformance/divergences.py it shows (what names its failures)
SHOWS = (
    "brevity-penalty-one-when-both-empty",
    "add-k-reported-in-counts",
    "percent-scale-rounding",
    "hypothesis-count-dropped-without-reference-order",
)

NOT_EXPRESSIBLE = {
    "bleu_brevity_penalty": "no public function takes lengths: BLEU.compute_bleu takes r already chosen, "
    "and the closest reference lengths are not reported",
}


def splittable(payload: dict) -> None:
    """NotApplicable when a token would not survive sacreBLEU's str.split()."""
    path = whitespace_token(payload)
    if path:
        raise NotApplicable("a token holds whitespace: sacreBLEU splits each segment with str.split()", path)


def corpus(payload: dict, smooth_method: str = "none", api=None):
    splittable(payload)
    with quiet():
        return bleu_metric(max_order(payload), smooth_method, False, api=api).corpus_score(*reference_streams(payload))


def counts(score, n: int) -> dict:
    return {"max_order": n, "matches": list(score.counts), "totals": list(score.totals)}


def bleu_corpus_compute(payload: dict, api=None) -> dict:
    score = corpus(payload, api=api)
    return {
        "bleu": rounded(payload, score.score / 100),
        "brevity_penalty": rounded(payload, score.bp),
        "candidate_length": score.sys_len,
        "reference_length": score.ref_len,
        **counts(score, max_order(payload)),
    }


def bleu_ngrams_count(payload: dict, api=None) -> dict:
    detail = payload.get("detail", "totals")
    if detail == "ngrams":
        raise NotApplicable("detail ngrams: sacreBLEU has no public per-n-gram clipping table")
    n = max_order(payload)
    output = counts(corpus(payload, api=api), n)
    if detail == "segments":
        output["segments"] = [
            {
                "segment": i,
                "candidate_length": score.sys_len,
                "matches": list(score.counts),
                "totals": list(score.totals),
            }
            for i, score in enumerate(
                sentence({"hypothesis": h, "references": refs, "max_order": n}, "none", api=api)
                for h, refs in zip(payload["hypotheses"], payload["references"])
            )
        ]
    return output


def sentence(payload: dict, smooth_method: str, smooth_value: float | None = None, api=None):
    splittable(payload)
    with quiet():
        metric = bleu_metric(max_order(payload), smooth_method, False, smooth_value, api)
        return metric.sentence_score(*segment(payload))


def bleu_sentence_components(payload: dict, api=None) -> dict:
    score = sentence(payload, "none", api=api)
    return {**counts(score, max_order(payload)), "candidate_length": score.sys_len, "reference_length": score.ref_len}


def bleu_sentence_compute(payload: dict, api=None) -> dict:
    if payload.get("effective_order", False):
        raise NotApplicable("effective_order true: sacreBLEU does not report the effective order it used (orders_used)")
    n = max_order(payload)
    score = sentence(payload, *SMOOTHING[payload["smoothing"]], api=api)
    # effective_order false: sacreBLEU's mean runs over all max_ngram_order orders, the orders_used it was given
    return {
        "bleu": rounded(payload, score.score / 100),
        "brevity_penalty": rounded(payload, score.bp),
        "candidate_length": score.sys_len,
        "reference_length": score.ref_len,
        **counts(score, n),
        "orders_used": n,
        "smoothing": payload["smoothing"],
    }


# --- chrF: CHRF(...).corpus_score and sentence_score, floats on 0..100 ------------------------------------


def chrf_scores(
    payload: dict, char_order: int, word_order: int, whitespace: bool = False, api=None
) -> tuple[dict, list]:
    """({"score": the corpus score}, each segment's sentence score), LibraryFloats on 0..100."""
    metric = chrf_metric(
        char_order, word_order, int(payload.get("beta", 2)), payload.get("lowercase", False), whitespace, api
    )
    hypotheses, references = payload["hypotheses"], payload["references"]
    corpus_score = metric.corpus_score(hypotheses, [references])
    return {"score": LibraryFloat(corpus_score.score)}, [
        LibraryFloat(metric.sentence_score(h, [r]).score) for h, r in zip(hypotheses, references)
    ]


def chrf_compute(payload: dict, api=None) -> Partial:
    fields, segments = chrf_scores(payload, 6, 0, api=api)
    return Partial({**fields, "segment_scores": segments})


def chrf_plus_plus_compute(payload: dict, api=None) -> Partial:
    fields, segments = chrf_scores(payload, 6, 2, api=api)
    return Partial({**fields, "segment_scores": segments})


def chrf_components(payload: dict, api=None) -> Partial:
    from oracle.chrf_components import orders

    char_order, word_order = orders(payload)
    whitespace = payload.get("whitespace", False)
    fields, segments = chrf_scores(payload, char_order, word_order, whitespace, api)
    return Partial({**fields, "segments": [{"segment": i, "score": score} for i, score in enumerate(segments)]})


# --- the cross-check: bleu ------------------------------------------------------------------------------------------------


def reference_streams(payload: dict) -> tuple[list[str], list[list[str | None]]]:
    """Hypotheses as strings; references as sacreBLEU's reference streams, None where a segment has fewer."""
    hypotheses = [" ".join(tokens) for tokens in payload["hypotheses"]]
    width = max(len(refs) for refs in payload["references"])
    streams = [[" ".join(refs[j]) if j < len(refs) else None for refs in payload["references"]] for j in range(width)]
    return hypotheses, streams


def segment(payload: dict) -> tuple[str, list[str]]:
    """A one-segment input as sentence_score takes it: the hypothesis string and the reference strings."""
    return " ".join(payload["hypothesis"]), [" ".join(reference) for reference in payload["references"]]


def unsplittable(payload: dict) -> Comparison | None:
    path = whitespace_token(payload)
    if path:
        return not_comparable(f"{path} contains whitespace: sacreBLEU splits segments with str.split()")
    return None


def local_api():
    """sacreBLEU of this environment: the module the functions here call when they are given no other (``api``:
    the same package of another version, such as a ``_bridge.Remote`` of a virtual environment of its own)."""
    import sacrebleu.metrics

    return sacrebleu


@cache
def bleu_metric(order: int, smooth_method: str, effective_order: bool, smooth_value: float | None = None, api=None):
    return (local_api() if api is None else api).metrics.BLEU(
        tokenize="none",
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        max_ngram_order=order,
        effective_order=effective_order,
    )


@contextmanager
def quiet():
    """sacreBLEU's logger silenced below errors (sentence_score without effective_order logs a recommendation)."""
    logger = logging.getLogger("sacrebleu")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


# --- the cross-check: chrf ------------------------------------------------------------------------------------------------


@cache
def chrf_metric(char_order: int, word_order: int, beta: int, lowercase: bool, whitespace: bool = False, api=None):
    return (local_api() if api is None else api).metrics.CHRF(
        char_order=char_order, word_order=word_order, whitespace=whitespace, beta=beta, lowercase=lowercase
    )


def chrf_scores_comparison(tool, metric, payload: dict, expected: dict, per_segment=None) -> Comparison:
    """sacreBLEU's corpus_score and each segment's sentence_score against the tool's exact scores
    (percent scale); ``per_segment(comparison, i, hypothesis, reference)`` adds a segment's other values."""
    hypotheses, references = payload["hypotheses"], payload["references"]
    comparison = Comparison()
    comparison.close("score", Fraction(expected["score_fraction"]), metric.corpus_score(hypotheses, [references]).score)
    for i, (hypothesis, reference) in enumerate(zip(hypotheses, references)):
        comparison.close(
            f"segment_scores[{i}]",
            exact_segment_score(tool, hypothesis, reference, payload),
            metric.sentence_score(hypothesis, [reference]).score,
        )
        if per_segment is not None:
            per_segment(comparison, i, hypothesis, reference)
    return comparison


def corpus_chrf(payload: dict, char_order: int, word_order: int, whitespace: bool = False) -> float:
    """CHRF(...).corpus_score of the input (sacreBLEU's corpus sums), 0..100."""
    metric = chrf_metric(
        char_order, word_order, int(payload.get("beta", 2)), payload.get("lowercase", False), whitespace
    )
    return metric.corpus_score(payload["hypotheses"], [payload["references"]]).score


# --- the cross-check: bleu_brevity_penalty --------------------------------------------------------------------------------


def lengths_and_bp(payload: dict) -> tuple[list[int], int, int, float]:
    """BLEU._get_closest_ref_len(c_i, lengths) per segment, c, r, and BLEU.compute_bleu(...).bp of the sums.

    compute_bleu computes the brevity penalty from sys_len and ref_len before anything else; it is given
    zero counts (its early return keeps that bp). Lengths go in as Python ints: a length written 4.0 is
    the integer 4 (it formats them with :d, which a float fails).
    """
    from sacrebleu.metrics import BLEU

    metric = bleu_metric(DEFAULT_MAX_ORDER, "none", False)
    candidates = [int(c) for c in payload["candidate_lengths"]]
    closest = [
        metric._get_closest_ref_len(c, [int(n) for n in lengths])
        for c, lengths in zip(candidates, payload["reference_lengths"])
    ]
    c, r = sum(candidates), sum(closest)
    zeros = [0] * DEFAULT_MAX_ORDER
    return closest, c, r, BLEU.compute_bleu(list(zeros), list(zeros), c, r).bp


@library_answer
def bp_output(payload: dict) -> dict:
    """sacreBLEU's brevity penalty of the summed lengths, as a partial output."""
    return {"brevity_penalty": lengths_and_bp(payload)[3]}


def brevity_penalty_comparison(payload: dict, expected: dict) -> Comparison:
    """BLEU._get_closest_ref_len(c_i, lengths) per segment, summed, and BLEU.compute_bleu(...).bp of the sums."""
    closest, c, r, bp = lengths_and_bp(payload)
    comparison = Comparison()
    comparison.exact("closest_reference_lengths", expected["closest_reference_lengths"], closest)
    comparison.exact("candidate_length", expected["candidate_length"], c)
    comparison.exact("reference_length", expected["reference_length"], r)
    comparison.close("brevity_penalty", expected["brevity_penalty"], bp)
    return comparison


# --- the cross-check: bleu_corpus_compute ---------------------------------------------------------------------------------


def corpus_score(payload: dict, smooth_method: str, effective_order: bool = False):
    bleu = bleu_metric(max_order(payload), smooth_method, effective_order)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return bleu.corpus_score(*reference_streams(payload))


def corpus_output(smooth_method: str, effective_order: bool = False):
    """sacreBLEU's brevity penalty and score (on the contract's 0-1 scale), as a partial output."""

    def output(payload: dict) -> dict:
        score = corpus_score(payload, smooth_method, effective_order)
        return {"brevity_penalty": score.bp, "bleu": score.score / 100}

    return library_answer(output)


def corpus_comparison(smooth_method: str, effective_order: bool = False):
    def compare(payload: dict, expected: dict) -> Comparison:
        refused = unsplittable(payload)
        if refused:
            return refused
        score = corpus_score(payload, smooth_method, effective_order)
        comparison = Comparison()
        comparison.exact("matches", expected["matches"], list(score.counts))
        comparison.exact("totals", expected["totals"], list(score.totals))
        comparison.exact("candidate_length", expected["candidate_length"], score.sys_len)
        comparison.exact("reference_length", expected["reference_length"], score.ref_len)
        comparison.close("brevity_penalty", expected["brevity_penalty"], score.bp)
        # sacreBLEU reports on the 0-100 scale ("multiply by 100 for the sacreBLEU percentage scale")
        comparison.close("bleu * 100", 100 * expected["bleu"], score.score)
        comparison.within("bleu within output_schema", score.score / 100, bleu_schema(CORPUS_TOOL))
        return comparison

    return compare


def recommended_sentence_comparison(payload: dict, expected: dict) -> Comparison:
    """BLEU(tokenize='none', effective_order=True).sentence_score: sacreBLEU's recommended sentence BLEU."""
    if len(payload["hypotheses"]) != 1:
        return not_comparable("sentence_score takes a single segment")
    refused = unsplittable(payload)
    if refused:
        return refused
    hypotheses, streams = reference_streams(payload)
    score = bleu_metric(max_order(payload), "exp", True).sentence_score(hypotheses[0], [s[0] for s in streams])
    comparison = Comparison()
    comparison.close("brevity_penalty", expected["brevity_penalty"], score.bp)
    comparison.close("bleu * 100", 100 * expected["bleu"], score.score)
    comparison.within("bleu within output_schema", score.score / 100, bleu_schema(CORPUS_TOOL))
    return comparison


# --- the cross-check: bleu_ngrams_count -----------------------------------------------------------------------------------


def corpus_statistics_comparison(payload: dict, expected: dict) -> Comparison:
    """BLEU._extract_corpus_statistics: per segment [hyp_len, ref_len, correct..., total...]."""
    refused = unsplittable(payload)
    if refused:
        return refused
    n = max_order(payload)
    stats = bleu_metric(n, "none", False)._extract_corpus_statistics(*reference_streams(payload))
    comparison = Comparison()
    for row, segment in zip(stats, expected["segments"]):
        i = segment["segment"]
        comparison.exact(f"segments[{i}].candidate_length", segment["candidate_length"], int(row[0]))
        comparison.exact(f"segments[{i}].matches", segment["matches"], [int(v) for v in row[2 : 2 + n]])
        comparison.exact(f"segments[{i}].totals", segment["totals"], [int(v) for v in row[2 + n :]])
    return comparison


def ngram_rows_comparison(payload: dict, expected: dict) -> Comparison:
    """The clipping table of detail "ngrams" against sacreBLEU's own n-gram counters.

    extract_all_word_ngrams counts the hypothesis n-grams order by order (a Counter keeps first occurrences in
    order, the contract's row order) and BLEU._extract_reference_info keeps the largest count over references.
    """
    from sacrebleu.metrics.helpers import extract_all_word_ngrams

    refused = unsplittable(payload)
    if refused:
        return refused
    n = max_order(payload)
    bleu = bleu_metric(n, "none", False)
    hypotheses, streams = reference_streams(payload)
    comparison = Comparison()
    for i, hypothesis in enumerate(hypotheses):
        hypothesis_counts, _ = extract_all_word_ngrams(hypothesis, 1, n)
        reference_counts = bleu._extract_reference_info([s[i] for s in streams if s[i] is not None])["ref_ngrams"]
        rows = [row for row in expected["ngrams"] if row["segment"] == i]
        comparison.exact(
            f"ngrams[segment {i}]",
            [(tuple(r["ngram"]), r["count"], r["max_reference_count"]) for r in rows],
            [(g, c, reference_counts.get(g, 0)) for g, c in hypothesis_counts.items()],
        )
    return comparison


# --- the cross-check: bleu_sentence_components ----------------------------------------------------------------------------


def sentence_statistics_comparison(payload: dict, expected: dict) -> Comparison:
    """BLEU._extract_corpus_statistics of a one-segment corpus: [hyp_len, ref_len, correct..., total...]."""
    refused = unsplittable(payload)
    if refused:
        return refused
    n = max_order(payload)
    hypothesis, references = segment(payload)
    # one reference stream per reference, each holding this segment's reference
    (row,) = bleu_metric(n, "none", False)._extract_corpus_statistics([hypothesis], [[r] for r in references])
    comparison = Comparison()
    comparison.exact("matches", expected["matches"], [int(v) for v in row[2 : 2 + n]])
    comparison.exact("totals", expected["totals"], [int(v) for v in row[2 + n :]])
    comparison.exact("candidate_length", expected["candidate_length"], int(row[0]))
    comparison.exact("reference_length", expected["reference_length"], int(row[1]))
    return comparison


# --- the cross-check: bleu_sentence_compute -------------------------------------------------------------------------------

# the contract names its methods' counterparts: "sacreBLEU "floor"" with epsilon 0.1, ""add-k" with k = 1",
# ""exp""; "NLTK method1", "method2", "method3"; "none" is sacreBLEU's 'none' and NLTK's method0
SMOOTHING = {
    "none": ("none", None),
    "chen-cherry-1": ("floor", 0.1),
    "chen-cherry-2": ("add-k", 1),
    "chen-cherry-3": ("exp", None),
}


def score_comparison(expected: dict, score) -> Comparison:
    """A sacreBLEU BLEUScore against the contract: counts, lengths, brevity penalty and the score (percent)."""
    comparison = Comparison()
    comparison.exact("matches", expected["matches"], list(score.counts))
    comparison.exact("totals", expected["totals"], list(score.totals))
    comparison.exact("candidate_length", expected["candidate_length"], score.sys_len)
    comparison.exact("reference_length", expected["reference_length"], score.ref_len)
    comparison.close("brevity_penalty", expected["brevity_penalty"], score.bp)
    # "multiply by 100 for the sacreBLEU percentage scale"
    comparison.close("bleu * 100", 100 * expected["bleu"], score.score)
    comparison.within("bleu within output_schema", score.score / 100, bleu_schema(SENTENCE_TOOL))
    return comparison


def compute_bleu_comparison(payload: dict, expected: dict) -> Comparison:
    """BLEU.compute_bleu on the contract's own m_n, l_n, c and r: the scoring alone, no counting.

    compute_bleu changes the lists it is given (add-k adds k to them): it gets copies.
    """
    from sacrebleu.metrics import BLEU

    method, value = SMOOTHING[payload["smoothing"]]
    score = BLEU.compute_bleu(
        list(expected["matches"]),
        list(expected["totals"]),
        expected["candidate_length"],
        expected["reference_length"],
        smooth_method=method,
        smooth_value=value,
        effective_order=effective_order(payload),
        max_ngram_order=max_order(payload),
    )
    comparison = score_comparison(expected, score)
    comparison.library["smooth_method"] = method
    return comparison


def smoothed_sentence_score(payload: dict):
    """BLEU(tokenize='none', smooth_method=..., effective_order=...).sentence_score of the input."""
    method, value = SMOOTHING[payload["smoothing"]]
    metric = bleu_metric(max_order(payload), method, effective_order(payload), value)
    with quiet():
        return metric.sentence_score(*segment(payload))


@library_answer
def sentence_output(payload: dict) -> dict:
    """sacreBLEU's sentence_score as a partial output: counts, totals, brevity penalty, score on 0-1."""
    score = smoothed_sentence_score(payload)
    return {
        "matches": list(score.counts),
        "totals": list(score.totals),
        "brevity_penalty": score.bp,
        "bleu": score.score / 100,
    }


def smoothed_sentence_comparison(payload: dict, expected: dict) -> Comparison:
    """BLEU(tokenize='none', smooth_method=..., effective_order=...).sentence_score: counting and scoring."""
    refused = unsplittable(payload)
    if refused:
        return refused
    method, _ = SMOOTHING[payload["smoothing"]]
    score = smoothed_sentence_score(payload)
    comparison = score_comparison(expected, score)
    comparison.library["smooth_method"] = method
    return comparison


SENTENCE_CHECKS = ("sacrebleu/compute_bleu:smoothed", "sacrebleu/sentence_score:smoothed")


# --- the cross-check: chrf_compute ----------------------------------------------------------------------------------------


def chrf6_metric(beta: int, lowercase: bool):
    return chrf_metric(CHRF6_CHAR_ORDER, CHRF6_WORD_ORDER, beta, lowercase)


def chrf6_comparison(payload: dict, expected: dict) -> Comparison:
    """CHRF(beta=beta, lowercase=lowercase).corpus_score and sentence_score of each segment, on the percent scale."""
    return chrf_scores_comparison(CHRF6_TOOL, chrf6_metric(expected["beta"], expected["lowercase"]), payload, expected)


@library_answer
def chrf6_output(payload: dict) -> dict:
    """sacreBLEU's corpus score (its corpus sums)."""
    return {"score": corpus_chrf(payload, CHRF6_CHAR_ORDER, CHRF6_WORD_ORDER)}


# --- the cross-check: chrf_plus_plus_compute ------------------------------------------------------------------------------


def chrf_plus_plus_metric(beta: int, lowercase: bool):
    return chrf_metric(CHRF_PLUS_PLUS_CHAR_ORDER, CHRF_PLUS_PLUS_WORD_ORDER, beta, lowercase)


def chrf_plus_plus_comparison(payload: dict, expected: dict) -> Comparison:
    """CHRF(word_order=2).corpus_score / sentence_score and its punctuation splitter, on the percent scale."""
    metric = chrf_plus_plus_metric(expected["beta"], expected["lowercase"])

    def word_tokens(comparison: Comparison, i: int, hypothesis: str, reference: str) -> None:
        tokens = expected["word_tokens"][i]
        comparison.exact(
            f"word_tokens[{i}].hypothesis",
            tokens["hypothesis"],
            metric._remove_punctuation(metric._preprocess_segment(hypothesis)),
        )
        comparison.exact(
            f"word_tokens[{i}].reference",
            tokens["reference"],
            metric._remove_punctuation(metric._preprocess_segment(reference)),
        )

    return chrf_scores_comparison(CHRF_PLUS_PLUS_TOOL, metric, payload, expected, word_tokens)


@library_answer
def chrf_plus_plus_output(payload: dict) -> dict:
    """sacreBLEU's corpus chrF++ score (its corpus sums)."""
    return {"score": corpus_chrf(payload, CHRF_PLUS_PLUS_CHAR_ORDER, CHRF_PLUS_PLUS_WORD_ORDER)}


# --- the cross-check: chrf_components -------------------------------------------------------------------------------------


def orders_metric(expected: dict):
    return chrf_metric(
        expected["char_order"], expected["word_order"], expected["beta"], expected["lowercase"], expected["whitespace"]
    )


def row_name(row: dict) -> str:
    return f"{row['unit']}{row['order']}"


def orders_statistics_comparison(payload: dict, expected: dict) -> Comparison:
    """CHRF(...)._extract_corpus_statistics: per segment [hyp, ref, match] per order (what corpus_score sums),
    against segments[i].statistics, and their sum (sacrebleu.utils.sum_of_lists) against statistics."""
    from sacrebleu.utils import sum_of_lists

    metric = orders_metric(expected)
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


def orders_scores_comparison(payload: dict, expected: dict) -> Comparison:
    """CHRF(...).corpus_score and sentence_score of each segment, on the percent scale."""
    metric = orders_metric(expected)
    hypotheses, references = payload["hypotheses"], payload["references"]
    comparison = Comparison()
    comparison.close("score", Fraction(expected["score_fraction"]), metric.corpus_score(hypotheses, [references]).score)
    for i, (hypothesis, reference) in enumerate(zip(hypotheses, references)):
        comparison.close(
            f"segments[{i}].score",
            orders_exact_segment_score(hypothesis, reference, payload),
            metric.sentence_score(hypothesis, [reference]).score,
        )
    return comparison


@library_answer
def orders_rows_output(payload: dict) -> dict:
    """CHRF._extract_corpus_statistics' rows per segment and summed (what corpus_score sums)."""
    from sacrebleu.utils import sum_of_lists

    char_order, word_order, whitespace = options(payload)
    metric = chrf_metric(
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
def orders_score_output(payload: dict) -> dict:
    """sacreBLEU's corpus score (its corpus sums)."""
    return {"score": corpus_chrf(payload, *options(payload))}


CHECKS = {
    "bleu_brevity_penalty": [
        Check(
            "sacrebleu/closest_ref_len+bp",
            "BLEU._get_closest_ref_len(c_i, lengths) per segment; BLEU.compute_bleu(zeros, zeros, c, r).bp",
            brevity_penalty_comparison,
        ),
    ],
    "bleu_corpus_compute": [
        Check(
            "sacrebleu/corpus_score:smooth=none",
            "BLEU(tokenize='none', smooth_method='none').corpus_score(...)",
            corpus_comparison("none"),
        ),
        Check(
            "sacrebleu/corpus_score:smooth=exp",
            "BLEU(tokenize='none').corpus_score(...) (default smooth_method='exp')",
            corpus_comparison("exp"),
        ),
        Check(
            "sacrebleu/corpus_score:effective_order",
            "BLEU(tokenize='none', smooth_method='none', effective_order=True).corpus_score(...)",
            corpus_comparison("none", effective_order=True),
        ),
        Check(
            "sacrebleu/sentence_score",
            "BLEU(tokenize='none', effective_order=True).sentence_score(hypothesis, references)",
            recommended_sentence_comparison,
        ),
    ],
    "bleu_ngrams_count": [
        Check(
            "sacrebleu/statistics",
            "BLEU(tokenize='none')._extract_corpus_statistics(...)",
            corpus_statistics_comparison,
        ),
        Check(
            "sacrebleu/ngram_rows",
            "extract_all_word_ngrams(hypothesis, 1, N) and BLEU._extract_reference_info(references)",
            ngram_rows_comparison,
        ),
    ],
    "bleu_sentence_components": [
        Check(
            "sacrebleu/statistics:sentence",
            "BLEU(tokenize='none')._extract_corpus_statistics([hypothesis], [[r] for r in references])",
            sentence_statistics_comparison,
        ),
    ],
    "bleu_sentence_compute": [
        Check(
            SENTENCE_CHECKS[0],
            "BLEU.compute_bleu(matches, totals, c, r, smooth_method='none'|'floor'|'add-k'|'exp', smooth_value=None|0.1|1"
            "|None, effective_order=..., max_ngram_order=N), on the contract's statistics",
            compute_bleu_comparison,
        ),
        Check(
            SENTENCE_CHECKS[1],
            "BLEU(tokenize='none', smooth_method=..., smooth_value=..., effective_order=..., max_ngram_order=N)"
            ".sentence_score(hypothesis, references)",
            smoothed_sentence_comparison,
        ),
    ],
    "chrf_compute": [
        Check(
            "sacrebleu/chrf:chrf6",
            "CHRF(beta=beta, lowercase=lowercase).corpus_score / sentence_score",
            chrf6_comparison,
        ),
    ],
    "chrf_plus_plus_compute": [
        Check(
            "sacrebleu/chrf++",
            "CHRF(word_order=2, beta=beta, lowercase=lowercase).corpus_score / sentence_score / _remove_punctuation",
            chrf_plus_plus_comparison,
        ),
    ],
    "chrf_components": [
        Check(
            "sacrebleu/chrf_statistics:orders",
            "CHRF(char_order, word_order, whitespace=whitespace, beta, lowercase)._extract_corpus_statistics(...) "
            "and sum_of_lists",
            orders_statistics_comparison,
        ),
        Check(
            "sacrebleu/chrf:orders",
            "CHRF(char_order, word_order, whitespace=whitespace, beta, lowercase).corpus_score / sentence_score",
            orders_scores_comparison,
        ),
    ],
}

DIVERGENCES = {
    "bleu_brevity_penalty": [
        Divergence(
            id="sacrebleu-bp-zero-lengths",
            **catalogued("brevity-penalty-one-when-both-empty"),
            checks=("sacrebleu/closest_ref_len+bp",),
            fields=("brevity_penalty",),
            what_differs="brevity penalty when c = r = 0: 1 instead of 0",
            mechanism="BLEU.compute_bleu sets bp = 1.0 and replaces it (by exp(1 - r/c), or 0.0 when sys_len is 0) "
            "only when sys_len < ref_len, so sys_len = ref_len = 0 keeps 1.0",
            applies=zero_candidate_and_reference_length,
            library_output=bp_output,
        ),
    ],
    "bleu_corpus_compute": [
        Divergence(
            id="sacrebleu-bp-empty-candidate",
            **catalogued("brevity-penalty-one-when-both-empty"),
            checks=(
                "sacrebleu/corpus_score:smooth=none",
                "sacrebleu/corpus_score:smooth=exp",
                "sacrebleu/corpus_score:effective_order",
                "sacrebleu/sentence_score",
            ),
            fields=("brevity_penalty",),
            what_differs="brevity penalty of an empty candidate against an empty reference: 1 instead of 0",
            mechanism="BLEU.compute_bleu sets bp = 1.0 and only computes exp(1 - r/c) (or 0) when sys_len < ref_len, "
            "so c = r = 0 keeps bp = 1.0 (the score is 0 either way: no n-gram matched)",
            applies=empty_candidate_and_reference,
            library_output=corpus_output("none"),
        ),
        Divergence(
            id="sacrebleu-exp-smoothing",
            checks=("sacrebleu/corpus_score:smooth=exp", "sacrebleu/sentence_score"),
            fields=("bleu * 100",),
            what_differs="BLEU when some order has no match: positive instead of exactly 0",
            mechanism="BLEU(smooth_method='exp'), sacreBLEU's default: compute_bleu replaces a zero precision by "
            "100 / (2^k * total) (NIST 'exp' smoothing, Chen and Cherry method 3)",
            clause="it is exactly 0 when brevity_penalty is 0 or any order has m_n = 0 ... No smoothing is applied.",
            applies=some_order_unmatched_with_ngrams,
            library_output=corpus_output("exp"),
        ),
        Divergence(
            id="sacrebleu-effective-order",
            checks=("sacrebleu/corpus_score:effective_order", "sacrebleu/sentence_score"),
            fields=("bleu * 100",),
            what_differs="BLEU when every hypothesis is shorter than some order: positive instead of exactly 0",
            mechanism="BLEU(effective_order=True) (recommended for sentence_score): compute_bleu stops at the first "
            "order with total 0 and averages the logs over the orders before it only",
            clause="bleu = brevity_penalty * exp((1/N) * sum of ln(m_n / l_n)) with N = max_order ... exactly 0 when "
            "... any order has m_n = 0 (including l_n = 0)",
            applies=some_order_without_ngrams_yet_unigram_match,
            library_output=corpus_output("none", effective_order=True),
        ),
        Divergence(
            id="sacrebleu-bleu-above-one",
            shows="percent-scale-rounding",
            checks=(
                "sacrebleu/corpus_score:smooth=none",
                "sacrebleu/corpus_score:smooth=exp",
                "sacrebleu/corpus_score:effective_order",
                "sacrebleu/sentence_score",
            ),
            applies=every_ngram_matched,
            library_output=corpus_output("none"),
            **BLEU_ABOVE_ONE,
        ),
    ],
    "bleu_sentence_compute": [
        Divergence(
            id="sacrebleu-sentence-bp-empty",
            **catalogued("brevity-penalty-one-when-both-empty"),
            checks=SENTENCE_CHECKS,
            fields=("brevity_penalty",),
            what_differs="brevity penalty of an empty hypothesis against an empty reference: 1 instead of 0 (the "
            "score is 0 on both sides)",
            mechanism="BLEU.compute_bleu sets bp = 1.0 and replaces it only when sys_len < ref_len, so c = r = 0 "
            "keeps 1.0; it then returns early with score 0 (nothing matched)",
            applies=empty_hypothesis_and_reference,
            library_output=sentence_output,
        ),
        Divergence(
            id="sacrebleu-add-k-smoothed-counts",
            **catalogued("add-k-reported-in-counts"),
            checks=SENTENCE_CHECKS,
            fields=("matches", "totals"),
            what_differs="the counts and totals reported with add-k: m_n + 1 and l_n + 1 for n >= 2 instead of the "
            "raw m_n and l_n (the score agrees)",
            mechanism="compute_bleu with smooth_method='add-k' adds smooth_value (k = 1) to correct[n-1] and "
            "total[n-1] in place for n >= 2 before dividing, and returns those lists as BLEUScore.counts "
            "and .totals; when no unigram matched it returns early, before adding, with the raw counts",
            applies=add_k_past_the_early_return,
            library_output=sentence_output,
        ),
        Divergence(
            id="sacrebleu-sentence-bleu-above-one",
            shows="percent-scale-rounding",
            checks=SENTENCE_CHECKS,
            applies=every_ngram_matched,
            library_output=sentence_output,
            **BLEU_ABOVE_ONE,
        ),
    ],
    "chrf_compute": [
        Divergence(
            id="sacrebleu-chrf6-drops-unmatched-orders",
            shows="hypothesis-count-dropped-without-reference-order",
            checks=("sacrebleu/chrf:chrf6",),
            fields=("score",),
            what_differs="corpus chrF score of a corpus where one segment's reference lacks a character order its "
            "hypothesis has while another segment's reference has it (open point A4; segment scores agree)",
            mechanism="CHRF._get_match_statistics returns a hypothesis count of 0 for an order whose reference "
            "n-grams are empty ('hyp_count if ref_ngrams else 0'); the corpus sums (sum_of_lists) then lack "
            "those hypothesis n-grams, raising the corpus precision of that order",
            clause="the sums count every hypothesis n-gram, also of an order the segment's reference lacks",
            applies=chrf6_orders_missing_from_a_reference,
            library_output=chrf6_output,
        ),
    ],
    "chrf_plus_plus_compute": [
        Divergence(
            id="sacrebleu-chrf-drops-unmatched-orders",
            shows="hypothesis-count-dropped-without-reference-order",
            checks=("sacrebleu/chrf++",),
            fields=("score",),
            what_differs="corpus chrF++ score of a corpus where one segment's reference lacks an n-gram order its "
            "hypothesis has (open point A4; segment scores agree)",
            mechanism="CHRF._get_match_statistics returns a hypothesis count of 0 for an order whose reference "
            "n-grams are empty ('hyp_count if ref_ngrams else 0'), so those hypothesis n-grams never reach "
            "the corpus precision (as in Popovic's chrF++.py)",
            clause="Corpus score sums per-order counts over all segments",
            applies=chrf_plus_plus_orders_missing_from_a_reference,
            library_output=chrf_plus_plus_output,
        ),
    ],
    "chrf_components": [
        Divergence(
            id="sacrebleu-chrf-orders-zeroes-hypothesis-ngrams",
            **catalogued("hypothesis-count-dropped-without-reference-order"),
            checks=("sacrebleu/chrf_statistics:orders",),
            fields=("segments[[]*[]].*.hypothesis_ngrams", "statistics.*.hypothesis_ngrams"),
            what_differs="hypothesis_ngrams of an order the segment's reference lacks: 0 instead of the hypothesis's "
            "count, in that segment's row and in the corpus sums (references and matches agree)",
            mechanism="CHRF._get_match_statistics returns [hyp_count if ref_ngrams else 0, ref_count, matches]: an "
            "order whose reference Counter is empty reports no hypothesis n-grams (as Popovic's chrF++.py)",
            applies=segment_reference_lacks_an_order,
            library_output=orders_rows_output,
        ),
        Divergence(
            id="sacrebleu-chrf-orders-drops-unmatched-orders",
            shows="hypothesis-count-dropped-without-reference-order",
            checks=("sacrebleu/chrf:orders",),
            fields=("score",),
            what_differs="corpus score of a corpus where one segment's reference lacks an order its hypothesis has "
            "while another segment's reference has it (open point A4; segment scores agree)",
            mechanism="the zeroed hypothesis counts of CHRF._get_match_statistics (sacrebleu-chrf-orders-zeroes-"
            "hypothesis-ngrams) are what corpus_score sums, so that order's corpus precision is higher; in a "
            "segment alone the order is not effective either way",
            clause="score applies the rule above to the summed rows",
            applies=orders_orders_missing_from_a_reference,
            library_output=orders_score_output,
        ),
    ],
}


# --- the call a user would write (Library.call; `conformance matrix audit` runs it) -------------------------

BLEU_ANSWER = (
    '{"bleu": score.score / 100, "brevity_penalty": score.bp, "matches": score.counts, "totals": score.totals, '
    '"candidate_length": score.sys_len, "reference_length": score.ref_len}'
)


def bleu_call(payload: dict) -> str:
    from conformance.implementations._calls import literal, python

    method, value = SMOOTHING[payload.get("smoothing", "none")]
    metric = (
        f"BLEU(tokenize='none', smooth_method={literal(method)}, smooth_value={literal(value)}, "
        f"max_ngram_order={max_order(payload)}, effective_order={literal(bool(payload.get('effective_order')))})"
    )
    if "hypothesis" in payload:
        hypothesis, references = segment(payload)
        lines = [
            f"hypothesis = {literal(hypothesis)}",
            f"references = {literal(references)}",
            f"score = {metric}.sentence_score(hypothesis, references)",
        ]
    else:
        hypotheses, streams = reference_streams(payload)
        lines = [
            f"hypotheses = {literal(hypotheses)}",
            f"reference_streams = {literal(streams)}",
            f"score = {metric}.corpus_score(hypotheses, reference_streams)",
        ]
    return python(["from sacrebleu.metrics import BLEU"], lines, BLEU_ANSWER)


def chrf_call(char_order: int, word_order: int, segments_key: str):
    def write(payload: dict) -> str:
        from conformance.implementations._calls import literal, python
        from oracle.chrf_components import orders

        chars, words = orders(payload) if segments_key == "segments" else (char_order, word_order)
        segment = "{'score': s}" if segments_key == "segments" else "s"
        return python(
            ["from sacrebleu.metrics import CHRF"],
            [
                f"chrf = CHRF(char_order={chars}, word_order={words}, beta={int(payload.get('beta', 2))}, "
                f"lowercase={literal(bool(payload.get('lowercase')))}, "
                f"whitespace={literal(bool(payload.get('whitespace')))})",
                f"hypotheses = {literal(payload['hypotheses'])}",
                f"references = {literal(payload['references'])}",
                "segment_scores = [chrf.sentence_score(h, [r]).score for h, r in zip(hypotheses, references)]",
            ],
            f'{{"score": chrf.corpus_score(hypotheses, [references]).score, '
            f'"{segments_key}": [{segment} for s in segment_scores]}}',
        )

    return write


CALLS = {
    "bleu_corpus_compute": bleu_call,
    "bleu_ngrams_count": bleu_call,
    "bleu_sentence_components": bleu_call,
    "bleu_sentence_compute": bleu_call,
    "chrf_compute": chrf_call(6, 0, "segment_scores"),
    "chrf_plus_plus_compute": chrf_call(6, 2, "segment_scores"),
    "chrf_components": chrf_call(0, 0, "segments"),
}
