"""fastchrf (Rust, PyPI ``fastchrf``): ``pairwise_chrf(hypotheses, references, char_order, beta,
remove_whitespace, eps_smoothing)`` (batches of hypotheses x references) and ``aggregate_chrf``.

``pairwise_chrf([hypotheses], [references])[0][i][i]`` is segment i's sentence chrF, a float on
0..100: a partial answer of chrf-compute holding ``segment_scores`` (and ``score`` for a one-segment
input, whose corpus score is its segment's by the contract's rule; it has no corpus score of several
segments), and of chrf-components with word_order 0 (char_order and whitespace are its options:
remove_whitespace = not whitespace), each segment's ``score``. It has no lowercase option: texts are
lowercased with the contracts' toLowerCase (str.lower, as the oracle reads it) first. No word
n-grams (chrF++), no statistics, no exact fraction, no BLEU.
"""

from __future__ import annotations

from conformance.crosscheck.adapters.chrf import fastchrf_corpus_of_one, fastchrf_sentence_scores
from conformance.implementations import Implementation, LibraryFloat, NotApplicable, Partial

IMPLEMENTATION = Implementation(
    name="fastchrf",
    language="Rust",
    distribution="fastchrf",
    requires=("fastchrf",),
    counterpart="fastchrf.pairwise_chrf([hypotheses], [references], char_order, beta, remove_whitespace)",
)

NOT_EXPRESSIBLE_OTHERWISE = "fastchrf has no BLEU"
NOT_EXPRESSIBLE = {"chrf_plus_plus_compute": "fastchrf has no word n-grams"}


def sentence_scores(payload: dict, char_order: int, whitespace: bool = False) -> list[LibraryFloat]:
    """Each segment's pairwise_chrf against its own reference (the diagonal), on 0..100."""
    return [LibraryFloat(score) for score in fastchrf_sentence_scores(payload, char_order, whitespace)]


def chrf_compute(payload: dict) -> Partial:
    segments = sentence_scores(payload, 6)
    return Partial({**fastchrf_corpus_of_one(segments), "segment_scores": segments})


def chrf_components(payload: dict) -> Partial:
    from oracle.chrf_components import orders

    char_order, word_order = orders(payload)
    if word_order:
        raise NotApplicable("word_order above 0: fastchrf has no word n-grams")
    segments = sentence_scores(payload, char_order, payload.get("whitespace", False))
    return Partial(
        {
            **fastchrf_corpus_of_one(segments),
            "segments": [{"segment": i, "score": score} for i, score in enumerate(segments)],
        }
    )
