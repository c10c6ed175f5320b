"""Cross-checks of bleu-corpus-compute: sacreBLEU's corpus and sentence BLEU, NLTK's corpus_bleu and lengths."""

from __future__ import annotations

import warnings

from conformance.crosscheck.adapters.bleu import (
    BLEU_ABOVE_ONE,
    bleu_inputs,
    bleu_schema,
    empty_candidate_and_reference,
    every_ngram_matched,
    library_answer,
    max_order,
    nltk_corpus_bleu_score,
    sacrebleu_bleu,
    sacrebleu_streams,
    some_order_unmatched_with_ngrams,
    some_order_without_ngrams_yet_unigram_match,
    some_zero_match_order_yet_unigram_match,
    torchmetrics_bleu_comparison,
    torchmetrics_bleu_divergences,
    unsplittable,
)
from conformance.crosscheck.comparison import Comparison, not_comparable
from conformance.crosscheck.model import Agreement, Check, Divergence
from oracle.bleu_corpus_compute import TOOL

INPUTS = bleu_inputs()


def sacrebleu_corpus_score(payload: dict, smooth_method: str, effective_order: bool = False):
    bleu = sacrebleu_bleu(max_order(payload), smooth_method, effective_order)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return bleu.corpus_score(*sacrebleu_streams(payload))


def sacrebleu_corpus_output(smooth_method: str, effective_order: bool = False):
    """sacreBLEU's brevity penalty and score (on the contract's 0-1 scale), as a partial output."""

    def output(payload: dict) -> dict:
        score = sacrebleu_corpus_score(payload, smooth_method, effective_order)
        return {"brevity_penalty": score.bp, "bleu": score.score / 100}

    return library_answer(output)


def sacrebleu_corpus(smooth_method: str, effective_order: bool = False):
    def compare(payload: dict, expected: dict) -> Comparison:
        refused = unsplittable(payload)
        if refused:
            return refused
        score = sacrebleu_corpus_score(payload, smooth_method, effective_order)
        comparison = Comparison()
        comparison.exact("matches", expected["matches"], list(score.counts))
        comparison.exact("totals", expected["totals"], list(score.totals))
        comparison.exact("candidate_length", expected["candidate_length"], score.sys_len)
        comparison.exact("reference_length", expected["reference_length"], score.ref_len)
        comparison.close("brevity_penalty", expected["brevity_penalty"], score.bp)
        # sacreBLEU reports on the 0-100 scale ("multiply by 100 for the sacreBLEU percentage scale")
        comparison.close("bleu * 100", 100 * expected["bleu"], score.score)
        comparison.within("bleu within output_schema", score.score / 100, bleu_schema(TOOL))
        return comparison

    return compare


def sacrebleu_sentence(payload: dict, expected: dict) -> Comparison:
    """BLEU(tokenize='none', effective_order=True).sentence_score: sacreBLEU's recommended sentence BLEU."""
    if len(payload["hypotheses"]) != 1:
        return not_comparable("sentence_score takes a single segment")
    refused = unsplittable(payload)
    if refused:
        return refused
    hypotheses, streams = sacrebleu_streams(payload)
    score = sacrebleu_bleu(max_order(payload), "exp", True).sentence_score(hypotheses[0], [s[0] for s in streams])
    comparison = Comparison()
    comparison.close("brevity_penalty", expected["brevity_penalty"], score.bp)
    comparison.close("bleu * 100", 100 * expected["bleu"], score.score)
    comparison.within("bleu within output_schema", score.score / 100, bleu_schema(TOOL))
    return comparison


@library_answer
def nltk_corpus_bleu_output(payload: dict) -> dict:
    """NLTK's corpus BLEU, as a partial output."""
    return {"bleu": nltk_corpus_bleu_score(payload)[0]}


def nltk_corpus_bleu(payload: dict, expected: dict) -> Comparison:
    """nltk.translate.bleu_score.corpus_bleu with uniform weights 1/N and its default (method0) smoothing."""
    score, warned = nltk_corpus_bleu_score(payload)
    comparison = Comparison()
    comparison.close("bleu", expected["bleu"], score)
    # method0 warns for each zero precision it replaces: shown, not compared
    comparison.library["warnings"] = warned
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


CHECKS = [
    Check(
        "sacrebleu/corpus_score:smooth=none",
        "sacrebleu",
        "BLEU(tokenize='none', smooth_method='none').corpus_score(...)",
        sacrebleu_corpus("none"),
    ),
    Check(
        "sacrebleu/corpus_score:smooth=exp",
        "sacrebleu",
        "BLEU(tokenize='none').corpus_score(...) (default smooth_method='exp')",
        sacrebleu_corpus("exp"),
    ),
    Check(
        "sacrebleu/corpus_score:effective_order",
        "sacrebleu",
        "BLEU(tokenize='none', smooth_method='none', effective_order=True).corpus_score(...)",
        sacrebleu_corpus("none", effective_order=True),
    ),
    Check(
        "sacrebleu/sentence_score",
        "sacrebleu",
        "BLEU(tokenize='none', effective_order=True).sentence_score(hypothesis, references)",
        sacrebleu_sentence,
    ),
    Check(
        "nltk/corpus_bleu",
        "nltk",
        "nltk.translate.bleu_score.corpus_bleu(references, hypotheses, weights=(1/N,)*N)",
        nltk_corpus_bleu,
    ),
    Check(
        "nltk/closest_ref_length+brevity_penalty",
        "nltk",
        "nltk.translate.bleu_score.closest_ref_length / brevity_penalty",
        nltk_lengths,
    ),
    Check(
        "torchmetrics/bleu_score:corpus",
        "torchmetrics",
        "torchmetrics.functional.text.bleu_score(preds, target, n_gram=N, smooth=False|True).item(), the tokens "
        "joined with spaces",
        torchmetrics_bleu_comparison,
    ),
]

DIVERGENCES = [
    Divergence(
        id="sacrebleu-bp-empty-candidate",
        libraries=("sacrebleu",),
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
        clause="brevity_penalty is 1 when c > r, 0 when c = 0 (even if r = 0)",
        applies=empty_candidate_and_reference,
        library_output=sacrebleu_corpus_output("none"),
    ),
    Divergence(
        id="sacrebleu-exp-smoothing",
        libraries=("sacrebleu",),
        checks=("sacrebleu/corpus_score:smooth=exp", "sacrebleu/sentence_score"),
        fields=("bleu * 100",),
        what_differs="BLEU when some order has no match: positive instead of exactly 0",
        mechanism="BLEU(smooth_method='exp'), sacreBLEU's default: compute_bleu replaces a zero precision by "
        "100 / (2^k * total) (NIST 'exp' smoothing, Chen and Cherry method 3)",
        clause="it is exactly 0 when brevity_penalty is 0 or any order has m_n = 0 ... No smoothing is applied.",
        applies=some_order_unmatched_with_ngrams,
        library_output=sacrebleu_corpus_output("exp"),
    ),
    Divergence(
        id="sacrebleu-effective-order",
        libraries=("sacrebleu",),
        checks=("sacrebleu/corpus_score:effective_order", "sacrebleu/sentence_score"),
        fields=("bleu * 100",),
        what_differs="BLEU when every hypothesis is shorter than some order: positive instead of exactly 0",
        mechanism="BLEU(effective_order=True) (recommended for sentence_score): compute_bleu stops at the first "
        "order with total 0 and averages the logs over the orders before it only",
        clause="bleu = brevity_penalty * exp((1/N) * sum of ln(m_n / l_n)) with N = max_order ... exactly 0 when "
        "... any order has m_n = 0 (including l_n = 0)",
        applies=some_order_without_ngrams_yet_unigram_match,
        library_output=sacrebleu_corpus_output("none", effective_order=True),
    ),
    Divergence(
        id="nltk-bleu-zero-precision-floor",
        libraries=("nltk",),
        checks=("nltk/corpus_bleu",),
        fields=("bleu",),
        what_differs="BLEU when some order has no match but unigrams matched: a tiny positive number (and a "
        "warning) instead of exactly 0",
        mechanism="corpus_bleu's default SmoothingFunction().method0 replaces a zero precision by "
        "sys.float_info.min (2.2e-308) and warns; with k such orders of N the score carries a factor "
        "(2.2e-308)^(k/N), e.g. 1.2e-77 for one order of four, not 0 (corpus_bleu returns 0 only when "
        "no unigram matched)",
        clause="it is exactly 0 when brevity_penalty is 0 or any order has m_n = 0 (including l_n = 0)",
        applies=some_zero_match_order_yet_unigram_match,
        library_output=nltk_corpus_bleu_output,
    ),
    Divergence(
        id="sacrebleu-bleu-above-one",
        checks=(
            "sacrebleu/corpus_score:smooth=none",
            "sacrebleu/corpus_score:smooth=exp",
            "sacrebleu/corpus_score:effective_order",
            "sacrebleu/sentence_score",
        ),
        applies=every_ngram_matched,
        library_output=sacrebleu_corpus_output("none"),
        **BLEU_ABOVE_ONE,
    ),
    *torchmetrics_bleu_divergences(
        TOOL,
        "torchmetrics/bleu_score:corpus",
        "bleu = brevity_penalty * exp((1/N) * sum of ln(m_n / l_n)) ... omitted means full IEEE-754 double precision",
        smoothed=False,
    ),
]

AGREEMENTS = [
    Agreement(
        "closest reference length",
        "sacreBLEU BLEU._get_closest_ref_len and NLTK closest_ref_length both break a tie to the shorter "
        "reference, as the contract does",
        ("sacrebleu/corpus_score:smooth=none", "nltk/closest_ref_length+brevity_penalty"),
    ),
    Agreement(
        "zero matches, logarithm guard",
        "with smooth_method='none' sacreBLEU's my_log(0) = -9999999999 makes exp(...) exactly 0.0, the "
        "contract's 0; a hypothesis shorter than n stops compute_bleu's loop with that precision 0, also 0",
        ("sacrebleu/corpus_score:smooth=none",),
    ),
    Agreement(
        "empty hypotheses",
        "NLTK corpus_bleu returns 0 when no unigram matched (every hypothesis empty included) and "
        "brevity_penalty returns 0 for hyp_len 0; sacreBLEU's statistics and score (0) agree too, only its "
        "brevity penalty departs (sacrebleu-bp-empty-candidate)",
        ("nltk/corpus_bleu", "nltk/closest_ref_length+brevity_penalty", "sacrebleu/statistics"),
    ),
    Agreement(
        "percent scale",
        "sacreBLEU's BLEU is 100 x the contract's within 1e-9 relative (it adds ln(100 m/l)); chrF++ scores "
        "are on 0..100 on both sides",
        ("sacrebleu/corpus_score:smooth=none", "sacrebleu/chrf++"),
    ),
    Agreement(
        "tokens holding whitespace (BLEU)",
        "sacreBLEU takes one string per segment and splits it with str.split(), so such a token has no "
        "faithful conversion: those inputs are 'not comparable' for sacreBLEU; NLTK takes token lists and "
        "is compared on them",
        ("nltk/corpus_bleu",),
    ),
]
