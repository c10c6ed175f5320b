"""sacrebleu-macrof (Python, PyPI ``sacrebleu-macrof`` 2.0.1): a fork of sacreBLEU 2.0.0 adding MacroF/MicroF,
installed as a package named ``sacrebleu``; its ``BLEU`` and ``CHRF`` are sacreBLEU 2.0.0's, called as
sacrebleu.py calls sacreBLEU (the same adapters, given this library's module: ``api``).

Because it installs ``sacrebleu`` over the real one, it runs in a virtual environment of its own
(``_bridge.Venv``: ``$XDG_CACHE_HOME`` or ``~/.cache``, then ``mt-metric-conformance/venvs/sacrebleu-macrof``;
the row says how to create it where it is missing), asked one JSON line per call.

It departs where sacreBLEU does (``sacrebleu.SHOWS``), and in one way of its own: ``BLEU(max_ngram_order=N)``
counts the n-grams of orders 1..N, but ``_compute_score_from_stats`` calls ``compute_bleu`` without N, which
then scores with its default 4 (sacreBLEU 2.6 passes N). Below 4 it reads ``total[n - 1]`` past the N counts:
IndexError, for every input; above 4 the score is the geometric mean of orders 1..4 alone (the counts and totals
of every order reported), and bleu-sentence-compute's ``orders_used`` is not expressed there (sacrebleu.py's is
max_order, the orders sacreBLEU's mean runs over). And like sacreBLEU 1.x it drops a reference that is the empty
string from its segment's references (``_cache_references``: the closest length is taken among the others), and
raises RuntimeError "Empty or `None` reference sentence found." for a segment whose references are all empty (so
its brevity penalty for c = r = 0 is never reached), its chrF too for a reference that is the empty string.
"""

from __future__ import annotations

from conformance.crosscheck.adapters.bleu import max_order
from conformance.implementations import Implementation, Partial
from conformance.implementations import sacrebleu as sacrebleu_module
from conformance.implementations._bridge import Venv
from oracle.bleu_statistics import DEFAULT_MAX_ORDER

VENV = Venv("sacrebleu-macrof", "sacrebleu-macrof==2.0.1", "sacrebleu")

IMPLEMENTATION = Implementation(
    name="sacrebleu-macrof",
    language="Python",
    distribution="sacrebleu-macrof",
    counterpart="sacrebleu.metrics.BLEU(tokenize='none', smooth_method=..., max_ngram_order=N)"
    ".corpus_score / .sentence_score, and CHRF, of sacrebleu-macrof (sacreBLEU 2.0.0)",
    extra="",
    install=VENV.install_hint(),
)

# the mechanisms of conformance/divergences.py it shows (what names its failures)
# sacreBLEU's but its brevity penalty for c = r = 0, which an empty reference, dropped, never reaches
SHOWS = (
    *(mechanism for mechanism in sacrebleu_module.SHOWS if mechanism != "brevity-penalty-one-when-both-empty"),
    "score-averaged-over-four-orders",
    "empty-reference-dropped",
    "empty-reference-string-raises",
)

NOT_EXPRESSIBLE = sacrebleu_module.NOT_EXPRESSIBLE


def library_missing() -> str:
    return VENV.missing()


def library_version() -> str:
    return VENV.version()


def bleu_corpus_compute(payload: dict) -> dict:
    return sacrebleu_module.bleu_corpus_compute(payload, api=VENV.remote())


def bleu_ngrams_count(payload: dict) -> dict:
    return sacrebleu_module.bleu_ngrams_count(payload, api=VENV.remote())


def bleu_sentence_components(payload: dict) -> dict:
    return sacrebleu_module.bleu_sentence_components(payload, api=VENV.remote())


def bleu_sentence_compute(payload: dict) -> dict | Partial:
    output = sacrebleu_module.bleu_sentence_compute(payload, api=VENV.remote())
    if max_order(payload) <= DEFAULT_MAX_ORDER:
        return output
    # sacrebleu.py's orders_used is max_order, over which sacreBLEU's mean runs; this one's runs over 4 orders and
    # reports none: not expressed
    del output["orders_used"]
    return Partial(output)


def chrf_compute(payload: dict) -> Partial:
    return sacrebleu_module.chrf_compute(payload, api=VENV.remote())


def chrf_plus_plus_compute(payload: dict) -> Partial:
    return sacrebleu_module.chrf_plus_plus_compute(payload, api=VENV.remote())


def chrf_components(payload: dict) -> Partial:
    return sacrebleu_module.chrf_components(payload, api=VENV.remote())


# --- the call a user would write (Library.call; `conformance matrix audit` runs it): sacreBLEU's, run by the
# environment's Python ------------------------------------------------------------------------------------------

CALL_LANGUAGE = "shell"
CALLS = {name: VENV.shell_call(writer) for name, writer in sacrebleu_module.CALLS.items()}
