"""sacreBLEU 1.5.1 (Python, PyPI ``sacrebleu==1.5.1``), the old series still widely installed, through its
public functions: ``sacrebleu.corpus_bleu(sys_stream, ref_streams, smooth_method, smooth_value, force,
lowercase, tokenize, use_effective_order)``, whose ``BLEUScore`` carries the score (0-100), bp, counts,
totals, sys_len and ref_len, and ``sacrebleu.corpus_chrf`` / ``sentence_chrf(..., order, beta,
remove_whitespace)``, whose ``CHRFScore.score`` is on 0..1.

It installs the package ``sacrebleu`` of the series before the project's, so it runs in a virtual environment of
its own (``_bridge.Venv``: ``$XDG_CACHE_HOME`` or ``~/.cache``, then ``mt-metric-conformance/venvs/sacrebleu-1.5``;
the row says how to create it where it is missing), asked one JSON line per call.

BLEU is asked as sacrebleu.py asks sacreBLEU 2 (its adapters, given ``Bleu1Api``: sacreBLEU 2's ``BLEU(...)``
made of ``corpus_bleu`` with ``tokenize='none'``): the same tokenization domain (segments joined with single
spaces, split with ``str.split()``), the same smoothing names, and no effective order (not reported). A one-
segment tool is ``corpus_bleu([hypothesis], [[r] for r in references])``, which is what 1.x's
``sentence_score`` computes (``sentence_bleu`` takes no tokenizer: it always applies 13a). Its n-gram order is
``BLEU.NGRAM_ORDER`` = 4, which no public argument changes: another ``max_order`` is not applicable. Where it
departs: sacreBLEU 2's percent-scale score; add-one smoothing written into
the reported counts whenever the hypothesis has a unigram (1.x has no early return when nothing matched); the
floor and exp smoothings scoring a hypothesis that matched nothing (a positive score, not 0); and a reference
that is the empty string dropped from the segment's references (the closest length taken among the others;
a segment all of whose references are empty raises EOFError "No valid references for a sentence!", so its
brevity penalty 1 for c = r = 0, sacreBLEU 2's, is never reached).

Its chrF (character n-grams only: no word order, no lowercasing) averages precision and recall over the
orders both sides have, then F-beta, the corpus score from the summed statistics: the contract's
computation. ``remove_whitespace=True`` deletes ``re.sub(r'\\s+', '')``, Python's whitespace as
``str.split()``'s, the contracts' list.
"""

from __future__ import annotations

from types import SimpleNamespace

from conformance.implementations import Implementation, LibraryFloat, NotApplicable, Partial
from conformance.implementations import sacrebleu as sacrebleu_module
from conformance.implementations._bridge import Venv

VENV = Venv("sacrebleu-1.5", "sacrebleu==1.5.1", "sacrebleu")
NGRAM_ORDER = 4  # sacreBLEU 1.x's BLEU.NGRAM_ORDER

IMPLEMENTATION = Implementation(
    name="sacrebleu-1.5",
    language="Python",
    distribution="sacrebleu",
    counterpart="sacrebleu.corpus_bleu(sys_stream, ref_streams, smooth_method=..., tokenize='none', force=True), "
    "sacrebleu.corpus_chrf / sentence_chrf(..., order, beta, remove_whitespace) of sacreBLEU 1.5.1",
    extra="",
    install=VENV.install_hint(),
)

# the mechanisms of conformance/divergences.py it shows (what names its failures)
SHOWS = (
    "percent-scale-rounding",
    "add-k-reported-in-counts",
    "add-k-reported-in-counts-without-a-match",
    "smoothed-score-when-nothing-matched",
    "empty-reference-dropped",
)

NOT_EXPRESSIBLE = {
    "bleu_brevity_penalty": "no public function takes lengths: ref_stats takes reference strings and "
    "compute_bleu an r already chosen",
    "chrf_plus_plus_compute": "sacreBLEU 1.x chrF has character n-grams only (word n-grams came with 2.0)",
}
MAX_ORDER = "max_order other than 4: sacreBLEU 1.x counts n-grams up to BLEU.NGRAM_ORDER = 4, no argument changes it"
LOWERCASE = "lowercase true: sacreBLEU 1.x chrF does not lowercase"
WORD_ORDER = "word_order above 0: sacreBLEU 1.x chrF has character n-grams only"


def library_missing() -> str:
    return VENV.missing()


def library_version() -> str:
    return VENV.version()


# --- BLEU: sacrebleu.py's adapters, on sacreBLEU 2's BLEU(...) made of 1.x's corpus_bleu -------------------------


class Bleu1:
    """``BLEU(tokenize=..., smooth_method=..., smooth_value=..., max_ngram_order=N, effective_order=...)`` of
    sacreBLEU 2, as sacrebleu.py calls it, answered by 1.x's ``corpus_bleu``."""

    def __init__(self, tokenize: str, smooth_method: str, smooth_value, max_ngram_order: int, effective_order: bool):
        if max_ngram_order != NGRAM_ORDER:
            raise NotApplicable(MAX_ORDER)
        self.options = dict(
            smooth_method=smooth_method,
            smooth_value=smooth_value,
            force=True,
            tokenize=tokenize,
            use_effective_order=effective_order,
        )

    def corpus_score(self, hypotheses: list[str], reference_streams: list[list]):
        return VENV.remote().corpus_bleu(hypotheses, reference_streams, **self.options)

    def sentence_score(self, hypothesis: str, references: list[str]):
        # 1.x's BLEU.sentence_score: corpus_score(hypothesis, [[ref] for ref in references])
        return self.corpus_score([hypothesis], [[reference] for reference in references])


class Bleu1Api:
    """sacreBLEU 2's package as sacrebleu.py's BLEU adapters use it (``api.metrics.BLEU``), made of 1.x's
    corpus_bleu (the class itself is the api: hashable, as sacrebleu.bleu_metric's cache needs)."""

    metrics = SimpleNamespace(BLEU=Bleu1)


def bleu_corpus_compute(payload: dict) -> dict:
    return sacrebleu_module.bleu_corpus_compute(payload, api=Bleu1Api)


def bleu_ngrams_count(payload: dict) -> dict:
    return sacrebleu_module.bleu_ngrams_count(payload, api=Bleu1Api)


def bleu_sentence_components(payload: dict) -> dict:
    return sacrebleu_module.bleu_sentence_components(payload, api=Bleu1Api)


def bleu_sentence_compute(payload: dict) -> dict:
    return sacrebleu_module.bleu_sentence_compute(payload, api=Bleu1Api)


# --- chrF: corpus_chrf and sentence_chrf, floats on 0..1 --------------------------------------------------------


def chrf_scores(payload: dict, order: int, whitespace: bool) -> tuple[LibraryFloat, list[LibraryFloat]]:
    """(the corpus score, each segment's sentence score), LibraryFloats on 0..1."""
    if payload.get("lowercase", False):
        raise NotApplicable(LOWERCASE)
    sacrebleu = VENV.remote()
    options = dict(order=order, beta=int(payload.get("beta", 2)), remove_whitespace=not whitespace)
    hypotheses, references = payload["hypotheses"], payload["references"]
    corpus = sacrebleu.corpus_chrf(hypotheses, [references], **options).score
    return LibraryFloat(corpus, 1), [
        LibraryFloat(sacrebleu.sentence_chrf(h, [r], **options).score, 1) for h, r in zip(hypotheses, references)
    ]


def chrf_compute(payload: dict) -> Partial:
    score, segments = chrf_scores(payload, 6, False)
    return Partial({"score": score, "segment_scores": segments})


def chrf_components(payload: dict) -> Partial:
    from oracle.chrf_components import orders

    char_order, word_order = orders(payload)
    if word_order:
        raise NotApplicable(WORD_ORDER)
    score, segments = chrf_scores(payload, char_order, payload.get("whitespace", False))
    return Partial({"score": score, "segments": [{"segment": i, "score": s} for i, s in enumerate(segments)]})


# --- the call a user would write (Library.call; `conformance matrix audit` runs it), run by the environment's
# Python ----------------------------------------------------------------------------------------------------------


def bleu_call(payload: dict) -> str:
    from conformance.implementations._calls import literal, python
    from conformance.implementations.sacrebleu import SMOOTHING, reference_streams, segment

    method, value = SMOOTHING[payload.get("smoothing", "none")]
    streams: list[list[str | None]]
    if "hypothesis" in payload:  # 1.x's sentence_score: corpus_score(hypothesis, [[ref] for ref in references])
        hypothesis, references = segment(payload)
        hypotheses, streams = [hypothesis], [[reference] for reference in references]
    else:
        hypotheses, streams = reference_streams(payload)
    return python(
        ["import sacrebleu"],
        [
            f"hypotheses = {literal(hypotheses)}",
            f"reference_streams = {literal(streams)}",
            f"score = sacrebleu.corpus_bleu(hypotheses, reference_streams, smooth_method={literal(method)}, "
            f"smooth_value={literal(value)}, force=True, tokenize='none')",
        ],
        sacrebleu_module.BLEU_ANSWER,
    )


def chrf_call(segments_key: str):
    def write(payload: dict) -> str:
        from conformance.implementations._calls import literal, python
        from oracle.chrf_components import orders

        order = orders(payload)[0] if segments_key == "segments" else 6
        options = (
            f"order={order}, beta={int(payload.get('beta', 2))}, "
            f"remove_whitespace={literal(not payload.get('whitespace', False))}"
        )
        segment = "{'score': s}" if segments_key == "segments" else "s"
        return python(
            ["import sacrebleu"],
            [
                f"hypotheses = {literal(payload['hypotheses'])}",
                f"references = {literal(payload['references'])}",
                f"segment_scores = [sacrebleu.sentence_chrf(h, [r], {options}).score "
                "for h, r in zip(hypotheses, references)]",
            ],
            f'{{"score": sacrebleu.corpus_chrf(hypotheses, [references], {options}).score, '
            f'"{segments_key}": [{segment} for s in segment_scores]}}',
        )

    return write


CALL_LANGUAGE = "shell"
CALLS = {
    name: VENV.shell_call(writer)
    for name, writer in {
        "bleu_corpus_compute": bleu_call,
        "bleu_ngrams_count": bleu_call,
        "bleu_sentence_components": bleu_call,
        "bleu_sentence_compute": bleu_call,
        "chrf_compute": chrf_call("segment_scores"),
        "chrf_components": chrf_call("segments"),
    }.items()
}
