"""Oracle vs sacreBLEU wall time on maximum-size inputs, side by side in one run.

    python benchmarks/bench_oracle.py [--repeats N]

The oracle's time is a call of ``oracle.execute`` (input validation included:
users call execute, not an inner function). sacreBLEU's is ``corpus_score`` of
``BLEU(tokenize='none')`` (which also extracts the n-gram statistics) and of
``CHRF(word_order=2)``; for sentence BLEU ``sentence_score`` of
``BLEU(tokenize='none', smooth_method=..., effective_order=True)`` (counting and
scoring); for the brevity penalty from lengths ``BLEU._get_closest_ref_len`` per
segment and the bp of ``BLEU.compute_bleu`` on the sums. Each figure is the
median of several repeats; the ratio oracle/sacreBLEU is printed beside them.
Goal: <= 1.0 on BLEU and the brevity penalty, <= 1.5 on chrF++. Run on demand;
nothing here is asserted in the test suite.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from sacrebleu.metrics import BLEU, CHRF

import oracle

SEED = 20240601
BLEU_SEGMENTS = 1000
BLEU_REFERENCES = 4
BLEU_TOKENS_PER_TEXT = 10  # 1000 x (1 + 4) x 10 = 50,000 tokens: max_total_tokens
CHRF_SEGMENTS = 256
CHRF_TEXT_BYTES = 127  # 2 x 256 x 127 = 65,024 bytes, just under max_text_bytes 65,536
SENTENCE_REFERENCES = 8  # max_references_per_segment
SENTENCE_TOKENS_PER_TEXT = 5555  # (1 + 8) x 5,555 = 49,995 tokens, just under max_total_tokens 50,000
# the sentence contract's smoothing names and sacreBLEU's (smooth_method, smooth_value) for each
SMOOTHINGS = {
    "none": ("none", None),
    "chen-cherry-1": ("floor", 0.1),
    "chen-cherry-2": ("add-k", 1),
    "chen-cherry-3": ("exp", None),
}
LENGTH_SEGMENTS = 1000  # max_segments
LENGTH_REFERENCES = 8  # max_references_per_segment
LENGTH_CALLS = 20  # a call takes milliseconds: each timing runs this many, so that scheduler noise averages out


def zipf_vocabulary(rng: random.Random, size: int) -> tuple[list[str], list[float]]:
    """Words with Zipf-like frequencies, so hypotheses and references share many n-grams."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = ["".join(rng.choice(letters) for _ in range(rng.randint(2, 8))) for _ in range(size)]
    weights = [1 / rank for rank in range(1, size + 1)]
    return words, weights


def bleu_corpus(
    rng: random.Random, n_references: int = BLEU_REFERENCES, tokens_per_text: int = BLEU_TOKENS_PER_TEXT
) -> tuple[list[list[str]], list[list[list[str]]]]:
    words, weights = zipf_vocabulary(rng, 2000)

    def sentence() -> list[str]:
        return rng.choices(words, weights, k=tokens_per_text)

    references = [[sentence() for _ in range(n_references)] for _ in range(BLEU_SEGMENTS)]
    # a hypothesis is a perturbed copy of its first reference: realistic overlap at every order
    hypotheses = [[t if rng.random() < 0.7 else rng.choices(words, weights)[0] for t in refs[0]] for refs in references]
    return hypotheses, references


def sentence_input(rng: random.Random) -> tuple[list[str], list[list[str]]]:
    """One segment of maximum size: a hypothesis and 8 references of 5,555 tokens each."""
    words, weights = zipf_vocabulary(rng, 2000)
    references = [rng.choices(words, weights, k=SENTENCE_TOKENS_PER_TEXT) for _ in range(SENTENCE_REFERENCES)]
    hypothesis = [t if rng.random() < 0.7 else rng.choices(words, weights)[0] for t in references[0]]
    return hypothesis, references


def length_input(rng: random.Random) -> tuple[list[int], list[list[int]]]:
    """1,000 segments of 8 reference lengths each, candidates a little shorter or longer than their references."""
    references = [[rng.randint(5, 60) for _ in range(LENGTH_REFERENCES)] for _ in range(LENGTH_SEGMENTS)]
    candidates = [max(0, lengths[0] + rng.randint(-5, 3)) for lengths in references]
    return candidates, references


def sacrebleu_brevity_penalty(metric: BLEU, candidates: list[int], references: list[list[int]]) -> float:
    """sacreBLEU's own path from lengths: the closest length per segment, then compute_bleu's bp on the sums."""
    closest = [metric._get_closest_ref_len(c, lengths) for c, lengths in zip(candidates, references)]
    zeros = [0] * metric.max_ngram_order
    return BLEU.compute_bleu(list(zeros), list(zeros), sum(candidates), sum(closest)).bp


def chrf_corpus(rng: random.Random) -> tuple[list[str], list[str]]:
    words, weights = zipf_vocabulary(rng, 2000)
    punctuation = [",", ".", "(", ")", "!"]

    def text() -> str:
        out = ""
        while True:
            word = rng.choices(words, weights)[0] + (rng.choice(punctuation) if rng.random() < 0.1 else "")
            candidate = f"{out} {word}" if out else word
            if len(candidate.encode("utf-8")) > CHRF_TEXT_BYTES:
                return out.ljust(CHRF_TEXT_BYTES, "x")
            out = candidate

    references = [text() for _ in range(CHRF_SEGMENTS)]
    hypotheses = [text() for _ in range(CHRF_SEGMENTS)]
    return hypotheses, references


def chrf_components_rows(hypotheses: list[str], references: list[str]) -> list[tuple]:
    """chrf-components at its largest orders (char_order 10, word_order 4) on the maximum-size chrF corpus, against
    sacreBLEU's CHRF(char_order=10, word_order=4).corpus_score; and both with whitespace kept. Goal 1.5."""
    from oracle.chrf_components import TOOL

    text_bytes = sum(len(t.encode("utf-8")) for t in hypotheses + references)
    rows = []
    for whitespace in (False, True):
        payload = {
            "hypotheses": hypotheses,
            "references": references,
            "char_order": 10,
            "word_order": 4,
            "whitespace": whitespace,
        }
        sacre = CHRF(char_order=10, word_order=4, whitespace=whitespace)
        rows.append(
            (
                f"{TOOL.id} char_order 10, word_order 4, whitespace {str(whitespace).lower()} "
                f"({len(hypotheses)} seg, {text_bytes} bytes)",
                lambda payload=payload: oracle.execute(TOOL.id, TOOL.version, payload),
                lambda sacre=sacre: sacre.corpus_score(hypotheses, [references]),
                1.5,
            )
        )
    return rows


def seconds(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def median_seconds_side_by_side(first, second, repeats: int) -> tuple[float, float]:
    """Alternate the two runs, so load from other processes hits both alike."""
    first_times, second_times = [], []
    for _ in range(repeats):
        first_times.append(seconds(first))
        second_times.append(seconds(second))
    return statistics.median(first_times), statistics.median(second_times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(SEED)

    hypotheses, references = bleu_corpus(rng)
    total_tokens = sum(map(len, hypotheses)) + sum(len(r) for refs in references for r in refs)
    # sacreBLEU wants one stream per reference position, tokens joined by spaces (tokens have none here)
    hyp_lines = [" ".join(h) for h in hypotheses]
    ref_streams = [[" ".join(refs[k]) for refs in references] for k in range(BLEU_REFERENCES)]
    sacre_bleu = BLEU(tokenize="none")
    bleu_payload = {"hypotheses": hypotheses, "references": references}

    # the same 50,000 tokens spread otherwise: one long reference, or eight short ones
    other_shapes = []
    for n_references, tokens_per_text in ((1, 25), (8, 5)):
        hyps, refs = bleu_corpus(rng, n_references, tokens_per_text)
        streams = [[" ".join(r[k]) for r in refs] for k in range(n_references)]
        other_shapes.append(
            (
                n_references,
                tokens_per_text,
                {"hypotheses": hyps, "references": refs},
                [" ".join(h) for h in hyps],
                streams,
            )
        )

    chrf_hyps, chrf_refs = chrf_corpus(rng)
    chrf_bytes = sum(len(t.encode("utf-8")) for t in chrf_hyps + chrf_refs)
    sacre_chrf = CHRF(word_order=2)
    chrf_payload = {"hypotheses": chrf_hyps, "references": chrf_refs}

    sentence_hypothesis, sentence_references = sentence_input(rng)
    sentence_tokens = len(sentence_hypothesis) + sum(map(len, sentence_references))
    sentence_line, sentence_lines = " ".join(sentence_hypothesis), [" ".join(r) for r in sentence_references]
    sentence_rows = []
    for smoothing, (method, value) in SMOOTHINGS.items():
        payload = {
            "hypothesis": sentence_hypothesis,
            "references": sentence_references,
            "smoothing": smoothing,
            "effective_order": True,
        }
        metric = BLEU(tokenize="none", smooth_method=method, smooth_value=value, effective_order=True)
        sentence_rows.append(
            (
                f"bleu-sentence-compute {smoothing} (1 seg x {SENTENCE_REFERENCES} refs, {sentence_tokens} tokens)",
                lambda payload=payload: oracle.execute("bleu-sentence-compute", "1.0.0", payload),
                lambda metric=metric: metric.sentence_score(sentence_line, sentence_lines),
                1.0,
            )
        )

    candidate_lengths, reference_lengths = length_input(rng)
    length_payload = {"candidate_lengths": candidate_lengths, "reference_lengths": reference_lengths}
    length_tool = oracle.tool("bleu-brevity-penalty", "1.0.0")

    rows = [
        (
            f"bleu-corpus-compute ({BLEU_SEGMENTS} seg x {BLEU_REFERENCES} refs, {total_tokens} tokens)",
            lambda: oracle.execute("bleu-corpus-compute", "1.0.0", bleu_payload),
            lambda: sacre_bleu.corpus_score(hyp_lines, ref_streams),
            1.0,
        ),
        (
            "bleu-ngrams-count detail=totals (same input)",
            lambda: oracle.execute("bleu-ngrams-count", "1.0.0", bleu_payload),
            lambda: sacre_bleu.corpus_score(hyp_lines, ref_streams),
            1.0,
        ),
        (
            "bleu-ngrams-count detail=segments (same input)",
            lambda: oracle.execute("bleu-ngrams-count", "1.0.0", {**bleu_payload, "detail": "segments"}),
            lambda: sacre_bleu.corpus_score(hyp_lines, ref_streams),
            1.0,
        ),
        *[
            (
                f"bleu-corpus-compute ({BLEU_SEGMENTS} seg x {n_refs} refs of {n_tokens} tokens)",
                lambda payload=payload: oracle.execute("bleu-corpus-compute", "1.0.0", payload),
                lambda lines=lines, streams=streams: sacre_bleu.corpus_score(lines, streams),
                1.0,
            )
            for n_refs, n_tokens, payload, lines, streams in other_shapes
        ],
        *sentence_rows,
        (
            f"bleu-brevity-penalty ({LENGTH_SEGMENTS} seg x {LENGTH_REFERENCES} ref lengths, {LENGTH_CALLS} calls)",
            lambda: [oracle.execute("bleu-brevity-penalty", "1.0.0", length_payload) for _ in range(LENGTH_CALLS)],
            lambda: [
                sacrebleu_brevity_penalty(sacre_bleu, candidate_lengths, reference_lengths) for _ in range(LENGTH_CALLS)
            ],
            1.0,
        ),
        (  # where the time of the row above goes: the tool's compute step alone, without input validation
            "  its compute step alone (no validation; shown, no goal)",
            lambda: [length_tool.compute(length_payload, **length_tool.steps) for _ in range(LENGTH_CALLS)],
            lambda: [
                sacrebleu_brevity_penalty(sacre_bleu, candidate_lengths, reference_lengths) for _ in range(LENGTH_CALLS)
            ],
            None,
        ),
        (
            f"chrf-plus-plus-compute ({CHRF_SEGMENTS} seg, {chrf_bytes} bytes)",
            lambda: oracle.execute("chrf-plus-plus-compute", "1.0.0", chrf_payload),
            lambda: sacre_chrf.corpus_score(chrf_hyps, [chrf_refs]),
            1.5,
        ),
    ]
    rows += chrf_components_rows(chrf_hyps, chrf_refs)
    print(f"wall time, median of {args.repeats} alternating repeats")
    print(f"{'case':<84} {'oracle ms':>10} {'sacreBLEU ms':>13} {'ratio':>7} {'goal':>6}")
    for name, run_oracle, run_sacre, goal in rows:
        run_oracle(), run_sacre()  # warm caches (contract files, compiled schemas)
        oracle_s, sacre_s = median_seconds_side_by_side(run_oracle, run_sacre, args.repeats)
        ratio = oracle_s / sacre_s
        verdict = "-" if goal is None else ("ok" if ratio <= goal else f">{goal}")
        print(f"{name:<84} {oracle_s * 1000:>10.1f} {sacre_s * 1000:>13.1f} {ratio:>7.2f} {verdict:>6}")


if __name__ == "__main__":
    main()
