"""Every tool as NLTK 3.10 computes it, through nltk.translate's public functions, as a user would wrap it.

bleu-corpus-compute, two causes:

1. totals from ``modified_precision``'s denominators, max(1, count) per segment: a hypothesis shorter
   than n adds 1 to l_n (the contract: 0);
2. bleu from ``corpus_bleu`` with its default method0 smoothing: a zero precision becomes the smallest
   positive double, so the score is tiny and positive where the contract says exactly 0.

Everything else of that tool (validation, counts, lengths, brevity penalty, decimals) is the oracle's.
The other tools: matches and totals from ``modified_precision``, lengths from ``closest_ref_length``
and ``brevity_penalty``, sentence BLEU from ``sentence_bleu`` with the contract's named smoothing
counterpart (method0-3), chrF scores from ``corpus_chrf`` / ``sentence_chrf`` (character n-grams only:
NLTK has no word n-grams), the texts lowercased first where the input asks (NLTK has no option).
Fields NLTK has no counterpart for (n-gram rows, chrF statistics rows, score_fraction, word tokens,
orders_used, the echoed options) and the validation are the oracle's.
"""

import warnings
from fractions import Fraction

import oracle
from oracle.jsnumber import round_to_fixed

SMOOTHING = {"none": "method0", "chen-cherry-1": "method1", "chen-cherry-2": "method2", "chen-cherry-3": "method3"}


def rounded(payload, value):
    return round_to_fixed(value, int(payload["decimals"])) if "decimals" in payload else value


def precisions(references, hypothesis, order):
    from nltk.translate.bleu_score import modified_precision

    return [modified_precision(references, hypothesis, k) for k in range(1, order + 1)]


def quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # method0 warns for each zero precision it replaces
        return function(*args, **kwargs)


def bleu_corpus_compute(payload, output):
    from nltk.translate.bleu_score import corpus_bleu

    n = output["max_order"]
    pairs = list(zip(payload["hypotheses"], payload["references"]))
    output["totals"] = [
        sum(f.denominator for f in column) for column in zip(*(precisions(refs, hyp, n) for hyp, refs in pairs))
    ]
    output["bleu"] = rounded(
        payload, quiet(corpus_bleu, payload["references"], payload["hypotheses"], weights=(1 / n,) * n)
    )
    return output


def bleu_ngrams_count(payload, output):
    n = output["max_order"]
    rows = [precisions(refs, hyp, n) for hyp, refs in zip(payload["hypotheses"], payload["references"])]
    answer = {
        **output,
        "matches": [sum(f.numerator for f in column) for column in zip(*rows)],
        "totals": [sum(f.denominator for f in column) for column in zip(*rows)],
    }
    if "segments" in output:
        answer["segments"] = [
            {**segment, "matches": [f.numerator for f in row], "totals": [f.denominator for f in row]}
            for segment, row in zip(output["segments"], rows)
        ]
    return answer


def sentence_counts(payload, output):
    from nltk.translate.bleu_score import closest_ref_length

    hypothesis, references = payload["hypothesis"], payload["references"]
    row = precisions(references, hypothesis, output["max_order"])
    return {
        "matches": [f.numerator for f in row],
        "totals": [f.denominator for f in row],
        "candidate_length": len(hypothesis),
        "reference_length": closest_ref_length(references, len(hypothesis)),
    }


def bleu_sentence_components(payload, output):
    return {**output, **sentence_counts(payload, output)}


def bleu_sentence_compute(payload, output):
    from nltk.translate.bleu_score import SmoothingFunction, brevity_penalty, sentence_bleu

    n = output["max_order"]
    counts = sentence_counts(payload, output)
    bleu = quiet(
        sentence_bleu,
        payload["references"],
        payload["hypothesis"],
        weights=(1 / n,) * n,
        smoothing_function=getattr(SmoothingFunction(), SMOOTHING[output["smoothing"]]),
    )
    bp = brevity_penalty(counts["reference_length"], counts["candidate_length"])
    return {**output, **counts, "bleu": rounded(payload, bleu), "brevity_penalty": rounded(payload, bp)}


def bleu_brevity_penalty(payload, output):
    """closest_ref_length reads only len() of each reference: a reference of length n is given as range(n)."""
    from nltk.translate.bleu_score import brevity_penalty, closest_ref_length

    closest = [
        closest_ref_length([range(int(n)) for n in lengths], c)
        for c, lengths in zip(payload["candidate_lengths"], payload["reference_lengths"])
    ]
    c, r = sum(payload["candidate_lengths"]), sum(closest)
    return {
        **output,
        "closest_reference_lengths": closest,
        "candidate_length": c,
        "reference_length": r,
        "brevity_penalty": rounded(payload, brevity_penalty(r, c)),
    }


def chrf_texts(payload, output):
    lower = (lambda text: text.lower()) if output["lowercase"] else (lambda text: text)
    return [lower(h) for h in payload["hypotheses"]], [lower(r) for r in payload["references"]]


def score_text(value):
    """An NLTK score (0..1) on the contract's 0..100 scale: six decimals, and its exact value as n/d."""
    fraction = Fraction(100 * value)
    return f"{100 * value:.6f}", f"{fraction.numerator}/{fraction.denominator}"


def chrf_scores(payload, output, char_order=6):
    from nltk.translate.chrf_score import corpus_chrf, sentence_chrf

    options = {"max_len": char_order, "beta": output["beta"], "ignore_whitespace": not output.get("whitespace", False)}
    hypotheses, references = chrf_texts(payload, output)
    score, fraction = score_text(corpus_chrf(references, hypotheses, **options))
    segments = [score_text(sentence_chrf(r, h, **options))[0] for h, r in zip(hypotheses, references)]
    return score, fraction, segments


def chrf_compute(payload, output):
    score, fraction, segments = chrf_scores(payload, output)
    return {**output, "score": score, "score_fraction": fraction, "segment_scores": segments}


def chrf_components(payload, output):
    if output["char_order"] == 0:  # NLTK's chrF has no word n-grams: nothing to score with
        return output
    score, fraction, segments = chrf_scores(payload, output, output["char_order"])
    return {
        **output,
        "score": score,
        "score_fraction": fraction,
        "segments": [{**segment, "score": text} for segment, text in zip(output["segments"], segments)],
    }


ANSWERS = {
    "bleu-corpus-compute": bleu_corpus_compute,
    "bleu-ngrams-count": bleu_ngrams_count,
    "bleu-sentence-components": bleu_sentence_components,
    "bleu-sentence-compute": bleu_sentence_compute,
    "bleu-brevity-penalty": bleu_brevity_penalty,
    "chrf-compute": chrf_compute,
    "chrf-plus-plus-compute": chrf_compute,
    "chrf-components": chrf_components,
}


def execute(tool_id, version, payload):
    output = oracle.execute(tool_id, version, payload)  # validation, and the fields NLTK has no counterpart for
    return ANSWERS[tool_id](payload, output)
