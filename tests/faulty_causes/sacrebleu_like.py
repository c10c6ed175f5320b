"""Every tool as sacreBLEU 2.6 computes it, through its public API, as a user would wrap it.

BLEU tools: each segment joined with spaces (sacreBLEU takes strings and splits them with
str.split()) and scored by ``BLEU(tokenize='none', max_ngram_order=N)``: ``smooth_method='none'``
for the unsmoothed tools, the contract's named counterpart for bleu-sentence-compute; lengths only
(bleu-brevity-penalty) by ``BLEU.compute_bleu``. chrF tools: ``CHRF(char_order, word_order,
whitespace, beta, lowercase)``, its floating-point scores formatted to six decimals and given
exactly as a fraction (sacreBLEU has no exact score).

Fields sacreBLEU has no counterpart for (the closest reference lengths of lengths alone, orders_used,
word_tokens, the echoed options) and the validation are the oracle's; ``decimals`` rounds with the
oracle's toFixed.
"""

from __future__ import annotations

from fractions import Fraction

import oracle
from oracle.jsnumber import round_to_fixed

# the contract's counterparts (bleu-sentence-compute semantics 5-7)
SMOOTHING = {
    "none": ("none", None),
    "chen-cherry-1": ("floor", 0.1),
    "chen-cherry-2": ("add-k", 1),
    "chen-cherry-3": ("exp", None),
}


def bleu_metric(order: int, smoothing: str = "none", effective_order: bool = False):
    from sacrebleu.metrics import BLEU

    method, value = SMOOTHING[smoothing]
    return BLEU(
        tokenize="none",
        smooth_method=method,
        smooth_value=value,
        max_ngram_order=order,
        effective_order=effective_order,
    )


def rounded(payload: dict, value: float) -> float:
    return round_to_fixed(value, int(payload["decimals"])) if "decimals" in payload else value


def joined(tokens: list[str]) -> str:
    return " ".join(tokens)


def streams(hypotheses: list[list[str]], references: list[list[list[str]]]) -> list[list[str | None]]:
    """sacreBLEU's reference streams: stream j holds every segment's j-th reference (None where it has fewer)."""
    width = max(len(refs) for refs in references)
    return [[joined(refs[j]) if j < len(refs) else None for refs in references] for j in range(width)]


def corpus_score(payload: dict, order: int):
    return bleu_metric(order).corpus_score(
        [joined(h) for h in payload["hypotheses"]], streams(payload["hypotheses"], payload["references"])
    )


def sentence_score(
    hypothesis: list[str],
    references: list[list[str]],
    order: int,
    smoothing: str = "none",
    effective_order: bool = False,
):
    return bleu_metric(order, smoothing, effective_order).sentence_score(
        joined(hypothesis), [joined(r) for r in references]
    )


def bleu_corpus_compute(payload: dict, output: dict) -> dict:
    score = corpus_score(payload, output["max_order"])
    return {
        **output,
        "bleu": rounded(payload, score.score / 100),
        "brevity_penalty": rounded(payload, score.bp),
        "candidate_length": score.sys_len,
        "reference_length": score.ref_len,
        "matches": list(score.counts),
        "totals": list(score.totals),
    }


def bleu_ngrams_count(payload: dict, output: dict) -> dict:
    from sacrebleu.metrics.helpers import extract_all_word_ngrams

    n = output["max_order"]
    score = corpus_score(payload, n)
    answer = {**output, "matches": list(score.counts), "totals": list(score.totals)}
    pairs = list(zip(payload["hypotheses"], payload["references"]))
    if "segments" in output:
        answer["segments"] = []
        for i, (hypothesis, references) in enumerate(pairs):
            segment = sentence_score(hypothesis, references, n)
            answer["segments"].append(
                {
                    "segment": i,
                    "candidate_length": segment.sys_len,
                    "matches": list(segment.counts),
                    "totals": list(segment.totals),
                }
            )
    if "ngrams" in output:
        answer["ngrams"] = []
        for i, (hypothesis, references) in enumerate(pairs):
            counts, _ = extract_all_word_ngrams(joined(hypothesis), 1, n)
            reference_counts = [extract_all_word_ngrams(joined(r), 1, n)[0] for r in references]
            for ngram, count in counts.items():
                most = max(c.get(ngram, 0) for c in reference_counts)
                answer["ngrams"].append(
                    {
                        "segment": i,
                        "order": len(ngram),
                        "ngram": list(ngram),
                        "count": count,
                        "max_reference_count": most,
                        "clipped_count": min(count, most),
                    }
                )
    return answer


def bleu_sentence_components(payload: dict, output: dict) -> dict:
    score = sentence_score(payload["hypothesis"], payload["references"], output["max_order"])
    return {
        **output,
        "matches": list(score.counts),
        "totals": list(score.totals),
        "candidate_length": score.sys_len,
        "reference_length": score.ref_len,
    }


def bleu_sentence_compute(payload: dict, output: dict) -> dict:
    score = sentence_score(
        payload["hypothesis"],
        payload["references"],
        output["max_order"],
        output["smoothing"],
        bool(payload.get("effective_order", False)),
    )
    return {
        **output,
        "bleu": rounded(payload, score.score / 100),
        "brevity_penalty": rounded(payload, score.bp),
        "candidate_length": score.sys_len,
        "reference_length": score.ref_len,
        "matches": list(score.counts),
        "totals": list(score.totals),
    }


def bleu_brevity_penalty(payload: dict, output: dict) -> dict:
    """compute_bleu's brevity penalty of the summed lengths (it formats them with :d, so they go in as int)."""
    from sacrebleu.metrics import BLEU

    c, r = int(output["candidate_length"]), int(output["reference_length"])
    return {**output, "brevity_penalty": rounded(payload, BLEU.compute_bleu([0] * 4, [0] * 4, c, r).bp)}


def score_text(value: float) -> tuple[str, str]:
    """A sacreBLEU float score as the contract writes it: six decimals, and its exact value as n/d."""
    fraction = Fraction(value)
    return f"{value:.6f}", f"{fraction.numerator}/{fraction.denominator}"


def chrf_metric(output: dict):
    from sacrebleu.metrics import CHRF

    return CHRF(
        char_order=output["char_order"],
        word_order=output["word_order"],
        whitespace=output.get("whitespace", False),
        beta=output["beta"],
        lowercase=output["lowercase"],
    )


def chrf_scores(payload: dict, output: dict) -> dict:
    """chrf-compute and chrf-plus-plus-compute: corpus_score and each segment's sentence_score."""
    metric = chrf_metric(output)
    hypotheses, references = payload["hypotheses"], payload["references"]
    score, fraction = score_text(metric.corpus_score(hypotheses, [references]).score)
    segments = [score_text(metric.sentence_score(h, [r]).score)[0] for h, r in zip(hypotheses, references)]
    return {**output, "score": score, "score_fraction": fraction, "segment_scores": segments}


def chrf_components(payload: dict, output: dict) -> dict:
    """CHRF's scores; the statistics rows from CHRF's own per-segment statistics (what corpus_score sums)."""
    from sacrebleu.utils import sum_of_lists

    metric = chrf_metric(output)
    hypotheses, references = payload["hypotheses"], payload["references"]
    per_segment = metric._extract_corpus_statistics(hypotheses, [references])

    def rows(template: list[dict], flat: list[int]) -> list[dict]:
        return [
            {**row, "hypothesis_ngrams": flat[3 * k], "reference_ngrams": flat[3 * k + 1], "matches": flat[3 * k + 2]}
            for k, row in enumerate(template)
        ]

    score, fraction = score_text(metric.corpus_score(hypotheses, [references]).score)
    segments = [
        {
            **segment,
            "statistics": rows(segment["statistics"], flat),
            "score": score_text(metric.sentence_score(h, [r]).score)[0],
        }
        for segment, flat, h, r in zip(output["segments"], per_segment, hypotheses, references)
    ]
    return {
        **output,
        "statistics": rows(output["statistics"], sum_of_lists(per_segment)),
        "score": score,
        "score_fraction": fraction,
        "segments": segments,
    }


ANSWERS = {
    "bleu-corpus-compute": bleu_corpus_compute,
    "bleu-ngrams-count": bleu_ngrams_count,
    "bleu-sentence-components": bleu_sentence_components,
    "bleu-sentence-compute": bleu_sentence_compute,
    "bleu-brevity-penalty": bleu_brevity_penalty,
    "chrf-compute": chrf_scores,
    "chrf-plus-plus-compute": chrf_scores,
    "chrf-components": chrf_components,
}


def execute(tool_id, version, payload):
    output = oracle.execute(tool_id, version, payload)  # validation, and the fields sacreBLEU has no counterpart for
    return ANSWERS[tool_id](payload, output)
