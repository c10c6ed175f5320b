"""What each library is compared on: one ``Check`` per library function and tool.

A check converts the tool's input into the library's form (saying when no
conversion is faithful), calls the library, and lines its values up with the
contract's (computed by the oracle) in a ``Comparison``.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Callable

import oracle
from conformance.crosscheck.comparison import Comparison, not_comparable
from oracle import chrf as chrf_engine
from oracle.chrf_plus_plus_compute import CHAR_ORDER, WORD_ORDER
from oracle.validation import format_path

BLEU_NGRAMS = "bleu-ngrams-count"
BLEU_CORPUS = "bleu-corpus-compute"
CHRF = "chrf-plus-plus-compute"
VERSION = "1.0.0"
DEFAULT_MAX_ORDER = 4


@dataclass(frozen=True)
class Check:
    id: str
    library: str  # "sacrebleu" | "nltk"
    tool_id: str
    counterpart: str  # the library call, as a reader would write it
    compare: Callable[[dict, dict], Comparison]  # (input, oracle output) -> Comparison


def oracle_output(tool_id: str, payload: dict) -> dict:
    return oracle.execute(tool_id, VERSION, payload)


def compare_safely(check: Check, payload: dict, expected: dict) -> Comparison:
    """The check's comparison; a library that raises on a valid input disagrees (with nothing to excuse it)."""
    try:
        return check.compare(payload, expected)
    except Exception as exc:  # any library failure is reported, never crashes the run
        comparison = Comparison()
        comparison.exact("raised", None, f"{type(exc).__name__}: {exc}")
        return comparison


def evaluate(check: Check, payload: dict) -> Comparison:
    return compare_safely(check, payload, oracle_output(check.tool_id, payload))


def max_order(payload: dict) -> int:
    return int(payload.get("max_order", DEFAULT_MAX_ORDER))


def exact_segment_score(hypothesis: str, reference: str, payload: dict) -> Fraction:
    """A segment's exact chrF++ score: the contract's score of a one-segment corpus (segment_scores are rounded)."""
    single = {**payload, "hypotheses": [hypothesis], "references": [reference]}
    return Fraction(oracle_output(CHRF, single)["score_fraction"])


# --- sacreBLEU ----------------------------------------------------------------


def whitespace_token(payload: dict) -> str:
    """The path of the first token sacreBLEU cannot take unchanged, or "".

    sacreBLEU takes each segment as one string and splits it with str.split(): a token
    holding a code point for which str.isspace() is true would be split in two. (Tokens
    are never empty: the schema's minLength is 1.)
    """
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


def sacrebleu_streams(payload: dict) -> tuple[list[str], list[list[str | None]]]:
    """Hypotheses as strings; references as sacreBLEU's reference streams, None where a segment has fewer."""
    hypotheses = [" ".join(tokens) for tokens in payload["hypotheses"]]
    width = max(len(refs) for refs in payload["references"])
    streams = [[" ".join(refs[j]) if j < len(refs) else None for refs in payload["references"]]
               for j in range(width)]
    return hypotheses, streams


def _unsplittable(payload: dict) -> Comparison | None:
    path = whitespace_token(payload)
    if path:
        return not_comparable(f"{path} contains whitespace: sacreBLEU splits segments with str.split()")
    return None


@lru_cache(maxsize=None)
def sacrebleu_bleu(order: int, smooth_method: str, effective_order: bool):
    from sacrebleu.metrics import BLEU

    return BLEU(tokenize="none", smooth_method=smooth_method, max_ngram_order=order, effective_order=effective_order)


def sacrebleu_statistics(payload: dict, expected: dict) -> Comparison:
    """BLEU._extract_corpus_statistics: per segment [hyp_len, ref_len, correct..., total...]."""
    refused = _unsplittable(payload)
    if refused:
        return refused
    n = max_order(payload)
    stats = sacrebleu_bleu(n, "none", False)._extract_corpus_statistics(*sacrebleu_streams(payload))
    comparison = Comparison()
    for row, segment in zip(stats, expected["segments"]):
        i = segment["segment"]
        comparison.exact(f"segments[{i}].candidate_length", segment["candidate_length"], int(row[0]))
        comparison.exact(f"segments[{i}].matches", segment["matches"], [int(v) for v in row[2:2 + n]])
        comparison.exact(f"segments[{i}].totals", segment["totals"], [int(v) for v in row[2 + n:]])
    return comparison


def sacrebleu_ngram_rows(payload: dict, expected: dict) -> Comparison:
    """The clipping table of detail "ngrams" against sacreBLEU's own n-gram counters.

    extract_all_word_ngrams counts the hypothesis n-grams order by order (a Counter keeps first occurrences in
    order, the contract's row order) and BLEU._extract_reference_info keeps the largest count over references.
    """
    from sacrebleu.metrics.helpers import extract_all_word_ngrams

    refused = _unsplittable(payload)
    if refused:
        return refused
    n = max_order(payload)
    bleu = sacrebleu_bleu(n, "none", False)
    hypotheses, streams = sacrebleu_streams(payload)
    comparison = Comparison()
    for i, hypothesis in enumerate(hypotheses):
        hypothesis_counts, _ = extract_all_word_ngrams(hypothesis, 1, n)
        reference_counts = bleu._extract_reference_info([s[i] for s in streams if s[i] is not None])["ref_ngrams"]
        rows = [row for row in expected["ngrams"] if row["segment"] == i]
        comparison.exact(f"ngrams[segment {i}]",
                         [(tuple(r["ngram"]), r["count"], r["max_reference_count"]) for r in rows],
                         [(g, c, reference_counts.get(g, 0)) for g, c in hypothesis_counts.items()])
    return comparison


def sacrebleu_corpus(smooth_method: str, effective_order: bool = False):
    def compare(payload: dict, expected: dict) -> Comparison:
        refused = _unsplittable(payload)
        if refused:
            return refused
        bleu = sacrebleu_bleu(max_order(payload), smooth_method, effective_order)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            score = bleu.corpus_score(*sacrebleu_streams(payload))
        comparison = Comparison()
        comparison.exact("matches", expected["matches"], list(score.counts))
        comparison.exact("totals", expected["totals"], list(score.totals))
        comparison.exact("candidate_length", expected["candidate_length"], score.sys_len)
        comparison.exact("reference_length", expected["reference_length"], score.ref_len)
        comparison.close("brevity_penalty", expected["brevity_penalty"], score.bp)
        # sacreBLEU reports on the 0-100 scale ("multiply by 100 for the sacreBLEU percentage scale")
        comparison.close("bleu * 100", 100 * expected["bleu"], score.score)
        return comparison

    return compare


def sacrebleu_sentence(payload: dict, expected: dict) -> Comparison:
    """BLEU(tokenize='none', effective_order=True).sentence_score: sacreBLEU's recommended sentence BLEU."""
    if len(payload["hypotheses"]) != 1:
        return not_comparable("sentence_score takes a single segment")
    refused = _unsplittable(payload)
    if refused:
        return refused
    hypotheses, streams = sacrebleu_streams(payload)
    score = sacrebleu_bleu(max_order(payload), "exp", True).sentence_score(hypotheses[0], [s[0] for s in streams])
    comparison = Comparison()
    comparison.close("brevity_penalty", expected["brevity_penalty"], score.bp)
    comparison.close("bleu * 100", 100 * expected["bleu"], score.score)
    return comparison


@lru_cache(maxsize=None)
def sacrebleu_chrf(beta: int, lowercase: bool):
    from sacrebleu.metrics import CHRF as SacreCHRF

    return SacreCHRF(char_order=CHAR_ORDER, word_order=2, beta=beta, lowercase=lowercase)


def sacrebleu_chrf_scores(payload: dict, expected: dict) -> Comparison:
    """CHRF(word_order=2).corpus_score / sentence_score and its punctuation splitter, on the percent scale."""
    chrf = sacrebleu_chrf(expected["beta"], expected["lowercase"])
    hypotheses, references = payload["hypotheses"], payload["references"]
    comparison = Comparison()
    comparison.close("score", Fraction(expected["score_fraction"]), chrf.corpus_score(hypotheses, [references]).score)
    for i, (hypothesis, reference) in enumerate(zip(hypotheses, references)):
        comparison.close(f"segment_scores[{i}]", exact_segment_score(hypothesis, reference, payload),
                         chrf.sentence_score(hypothesis, [reference]).score)
        tokens = expected["word_tokens"][i]
        comparison.exact(f"word_tokens[{i}].hypothesis", tokens["hypothesis"],
                         chrf._remove_punctuation(chrf._preprocess_segment(hypothesis)))
        comparison.exact(f"word_tokens[{i}].reference", tokens["reference"],
                         chrf._remove_punctuation(chrf._preprocess_segment(reference)))
    return comparison


# --- NLTK ---------------------------------------------------------------------


def nltk_corpus_bleu(payload: dict, expected: dict) -> Comparison:
    """nltk.translate.bleu_score.corpus_bleu with uniform weights 1/N and its default (method0) smoothing."""
    from nltk.translate.bleu_score import corpus_bleu

    n = max_order(payload)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        score = corpus_bleu(payload["references"], payload["hypotheses"], weights=(1 / n,) * n)
    comparison = Comparison()
    comparison.close("bleu", expected["bleu"], score)
    # method0 warns for each zero precision it replaces: shown, not compared
    comparison.library["warnings"] = len(caught)
    return comparison


def nltk_modified_precision(payload: dict, expected: dict) -> Comparison:
    """modified_precision(references, hypothesis, n): numerator and denominator per segment and order."""
    from nltk.translate.bleu_score import modified_precision

    comparison = Comparison()
    n_max = max_order(payload)
    for segment, hypothesis, references in zip(expected["segments"], payload["hypotheses"], payload["references"]):
        fractions = [modified_precision(references, hypothesis, n) for n in range(1, n_max + 1)]
        i = segment["segment"]
        comparison.exact(f"segments[{i}].matches", segment["matches"], [f.numerator for f in fractions])
        comparison.exact(f"segments[{i}].totals", segment["totals"], [f.denominator for f in fractions])
    return comparison


def nltk_lengths(payload: dict, expected: dict) -> Comparison:
    """closest_ref_length per segment, summed, and brevity_penalty(r, c) on the corpus lengths."""
    from nltk.translate.bleu_score import brevity_penalty, closest_ref_length

    c = sum(len(h) for h in payload["hypotheses"])
    r = sum(closest_ref_length(refs, len(h)) for h, refs in zip(payload["hypotheses"], payload["references"]))
    comparison = Comparison()
    comparison.exact("candidate_length", expected["candidate_length"], c)
    comparison.exact("reference_length", expected["reference_length"], r)
    comparison.close("brevity_penalty", expected["brevity_penalty"], brevity_penalty(r, c))
    return comparison


def _cased(payload: dict, text: str) -> str:
    # NLTK has no lowercase option; the contract lowercases before tokenizing, so lowering first is faithful.
    return chrf_engine.lowercase(text) if payload.get("lowercase", False) else text


def nltk_chrf_statistics(payload: dict, expected: dict) -> Comparison:
    """chrf_precision_recall_fscore_support per character order: true positives, and P and R where NLTK defines them.

    NLTK returns epsilon for P and R when an order has no match (a ZeroDivisionError in its F); those are not
    compared. The contract's per-order counts come from the oracle's statistics of the same segment.
    """
    from nltk.translate.chrf_score import _preprocess, chrf_precision_recall_fscore_support

    comparison = Comparison()
    for i, (hypothesis, reference) in enumerate(zip(payload["hypotheses"], payload["references"])):
        hypothesis, reference = _cased(payload, hypothesis), _cased(payload, reference)
        stats = chrf_engine.segment_statistics(hypothesis, reference, CHAR_ORDER, WORD_ORDER)[:CHAR_ORDER]
        nltk_hyp, nltk_ref = _preprocess(hypothesis, True), _preprocess(reference, True)
        for n, order in enumerate(stats, start=1):
            precision, recall, _, true_positives = chrf_precision_recall_fscore_support(nltk_ref, nltk_hyp, n)
            comparison.exact(f"segment[{i}].char{n}.matches", order.matches, true_positives)
            if true_positives and order.matches:
                comparison.close(f"segment[{i}].char{n}.precision", Fraction(order.matches, order.hypothesis), precision)
                comparison.close(f"segment[{i}].char{n}.recall", Fraction(order.matches, order.reference), recall)
    return comparison


def nltk_chrf_score(payload: dict, expected: dict) -> Comparison:
    """corpus_chrf(references, hypotheses, beta=beta) against the contract's chrF++ score, both on 0-1."""
    from nltk.translate.chrf_score import corpus_chrf

    hypotheses = [_cased(payload, h) for h in payload["hypotheses"]]
    references = [_cased(payload, r) for r in payload["references"]]
    comparison = Comparison()
    comparison.close("score / 100", Fraction(expected["score_fraction"]) / 100,
                     corpus_chrf(references, hypotheses, beta=expected["beta"]))
    return comparison


CHECKS = [
    Check("sacrebleu/statistics", "sacrebleu", BLEU_NGRAMS,
          "BLEU(tokenize='none')._extract_corpus_statistics(...)", sacrebleu_statistics),
    Check("sacrebleu/ngram_rows", "sacrebleu", BLEU_NGRAMS,
          "extract_all_word_ngrams(hypothesis, 1, N) and BLEU._extract_reference_info(references)",
          sacrebleu_ngram_rows),
    Check("sacrebleu/corpus_score:smooth=none", "sacrebleu", BLEU_CORPUS,
          "BLEU(tokenize='none', smooth_method='none').corpus_score(...)", sacrebleu_corpus("none")),
    Check("sacrebleu/corpus_score:smooth=exp", "sacrebleu", BLEU_CORPUS,
          "BLEU(tokenize='none').corpus_score(...) (default smooth_method='exp')", sacrebleu_corpus("exp")),
    Check("sacrebleu/corpus_score:effective_order", "sacrebleu", BLEU_CORPUS,
          "BLEU(tokenize='none', smooth_method='none', effective_order=True).corpus_score(...)",
          sacrebleu_corpus("none", effective_order=True)),
    Check("sacrebleu/sentence_score", "sacrebleu", BLEU_CORPUS,
          "BLEU(tokenize='none', effective_order=True).sentence_score(hypothesis, references)", sacrebleu_sentence),
    Check("sacrebleu/chrf++", "sacrebleu", CHRF,
          "CHRF(word_order=2, beta=beta, lowercase=lowercase).corpus_score / sentence_score / _remove_punctuation",
          sacrebleu_chrf_scores),
    Check("nltk/corpus_bleu", "nltk", BLEU_CORPUS,
          "nltk.translate.bleu_score.corpus_bleu(references, hypotheses, weights=(1/N,)*N)", nltk_corpus_bleu),
    Check("nltk/modified_precision", "nltk", BLEU_NGRAMS,
          "nltk.translate.bleu_score.modified_precision(references, hypothesis, n)", nltk_modified_precision),
    Check("nltk/closest_ref_length+brevity_penalty", "nltk", BLEU_CORPUS,
          "nltk.translate.bleu_score.closest_ref_length / brevity_penalty", nltk_lengths),
    Check("nltk/chrf_statistics", "nltk", CHRF,
          "nltk.translate.chrf_score.chrf_precision_recall_fscore_support(reference, hypothesis, n)",
          nltk_chrf_statistics),
    Check("nltk/corpus_chrf", "nltk", CHRF,
          "nltk.translate.chrf_score.corpus_chrf(references, hypotheses, beta=beta)", nltk_chrf_score),
]
CHECKS_BY_ID = {check.id: check for check in CHECKS}
LIBRARIES = ("sacrebleu", "nltk")
