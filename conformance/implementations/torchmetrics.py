"""torchmetrics (Python on PyTorch, PyPI ``torchmetrics``, extra ``.[torchmetrics]``; needs torch, which is
not installed by default: a CUDA build of several GB). ``torchmetrics.functional.text.bleu_score`` and
``chrf_score`` return tensors in torch's default dtype (float32): the adapter reads them with ``.item()`` and
adds no arithmetic of its own, so the matrix shows what a user gets.

``bleu_score(preds, target, n_gram, smooth)`` takes strings and splits them with ``str.split()``: the tokens
are joined with spaces (a token holding whitespace is not applicable). It gives the score only: a partial
answer of bleu-corpus-compute and bleu-sentence-compute (one segment) holding ``bleu``; ``smooth`` (add one
to orders n >= 2, Lin and Och) is the contract's chen-cherry-2, no smoothing "none"; it has no effective
order. ``chrf_score(preds, target, n_char_order, n_word_order, beta, lowercase, whitespace,
return_sentence_level_score=True)`` gives the corpus and sentence scores on 0..1: partial answers of
chrf-compute, chrf-plus-plus-compute and chrf-components (each segment's ``score``).
"""

from __future__ import annotations

from fractions import Fraction

from conformance.crosscheck.adapters.bleu import (
    corpus_counts,
    library_answer,
    max_order,
    sentence_statistics,
    whitespace_token,
)
from conformance.crosscheck.adapters.chrf import exact_segment_score
from conformance.crosscheck.comparison import Comparison, not_comparable
from conformance.crosscheck.model import Check, Divergence
from conformance.implementations import Implementation, LibraryFloat, NotApplicable, Partial, rounded
from conformance.implementations._shared import catalogued, no_effective_order, segments_of
from oracle import chrf as oracle_chrf

IMPLEMENTATION = Implementation(
    name="torchmetrics",
    language="Python (PyTorch)",
    distribution="torchmetrics",
    requires=("torchmetrics", "torch"),
    counterpart="torchmetrics.functional.text.bleu_score(preds, target, n_gram, smooth) / "
    "chrf_score(preds, target, n_char_order, n_word_order, beta, lowercase, "
    "whitespace, return_sentence_level_score=True)",
    extra="torchmetrics",
    install="pip install '.[torchmetrics]' and torch",
)

# the mechanisms of conformance/divergences.py it shows (what names its failures)
SHOWS = (
    "first-listed-closest-reference",
    "smoothed-score-zero-on-a-zero-match",
    "single-precision-arithmetic",
    "only-spaces-removed-inside",
    "single-precision-chrf-arithmetic",
)

# --- the library's calls ------------------------------------------------------------------------------------

SMOOTH = {"none": False, "chen-cherry-2": True}  # its smooth: add one to orders n >= 2 (Lin and Och)


def bleu_score_of(hypotheses: list[list[str]], references: list[list[list[str]]], n: int, smooth: bool) -> float:
    """bleu_score(preds, target, n_gram=n, smooth=smooth), the tokens joined with spaces (it splits strings with
    str.split()), read with .item(): the float32 a user gets, as a Python float."""
    from torchmetrics.functional.text import bleu_score

    preds = [" ".join(tokens) for tokens in hypotheses]
    target = [[" ".join(tokens) for tokens in segment] for segment in references]
    return bleu_score(preds, target, n_gram=n, smooth=smooth).item()


def bleu_of_statistics(matches: list[int], totals: list[int], c: int, r: int, smooth: bool) -> float:
    """torchmetrics' own scoring step (_bleu_score_compute, float32 tensors, weights 1/N) on the contract's
    counts and lengths: its arithmetic alone, without its counting."""
    import torch
    from torchmetrics.functional.text.bleu import _bleu_score_compute

    n = len(matches)
    return _bleu_score_compute(
        torch.tensor(float(c)),
        torch.tensor(float(r)),
        torch.tensor(matches, dtype=torch.float32),
        torch.tensor(totals, dtype=torch.float32),
        n,
        [1.0 / n] * n,
        smooth,
    ).item()


def smooth_of(payload: dict) -> bool | None:
    """bleu_score's smooth for the input's smoothing (a corpus has none); None: no counterpart."""
    return SMOOTH.get(payload.get("smoothing", "none"))


def inexpressible(payload: dict) -> str:
    """Why bleu_score cannot be given this input ("" when it can)."""
    if smooth_of(payload) is None:
        return "smoothing chen-cherry-1 or chen-cherry-3: torchmetrics' smooth is add-one (chen-cherry-2) or none"
    if payload.get("effective_order", False):
        return "effective_order true: torchmetrics has no effective order"
    path = whitespace_token(payload)
    return f"{path} contains whitespace: torchmetrics splits segments with str.split()" if path else ""


def bleu_comparison(payload: dict, expected: dict) -> Comparison:
    """bleu_score(...).item() against the contract's bleu, where it expresses the input."""
    reason = inexpressible(payload)
    if reason:
        return not_comparable(reason)
    comparison = Comparison()
    comparison.close(
        "bleu",
        expected["bleu"],
        bleu_score_of(*segments_of(payload), max_order(payload), bool(smooth_of(payload))),
    )
    return comparison


@library_answer
def bleu_output(payload: dict) -> dict:
    """torchmetrics' bleu_score of the input, as a partial output."""
    return {"bleu": bleu_score_of(*segments_of(payload), max_order(payload), bool(smooth_of(payload)))}


def scoring_output(tool):
    """torchmetrics' scoring step on the contract's own counts and lengths (the tool's output), as a partial
    output: its arithmetic (float32, the early return) without its counting; not modelled where it gives the
    contract's score (an exact 0 or 1): the mechanism changes nothing there, so it explains no failure."""

    @library_answer
    def answer(payload: dict) -> dict | None:
        from oracle import execute

        expected = execute(tool.id, tool.version, payload)
        bleu = bleu_of_statistics(
            expected["matches"],
            expected["totals"],
            expected["candidate_length"],
            expected["reference_length"],
            bool(smooth_of(payload)),
        )
        return None if bleu == expected["bleu"] else {"bleu": bleu}

    return answer


def closest_reference_tie_longer_first(payload: dict) -> bool:
    """torchmetrics expresses the input and some segment's references hold two lengths equally close to its
    hypothesis's, the longer listed before the shorter (the contract takes the shorter)."""
    if inexpressible(payload):
        return False
    for hypothesis, references in zip(*segments_of(payload)):
        distances = [abs(len(hypothesis) - len(reference)) for reference in references]
        first = references[distances.index(min(distances))]
        if any(d == min(distances) and len(r) < len(first) for d, r in zip(distances, references)):
            return True
    return False


def smoothed_zero_match(payload: dict) -> bool:
    """smoothing chen-cherry-2, expressible, some unigram matched and some order n >= 2 without a match."""
    if inexpressible(payload) or payload.get("smoothing") != "chen-cherry-2":
        return False
    matches = corpus_counts(payload)[0] if "hypotheses" in payload else sentence_statistics(payload).matches
    return matches[0] > 0 and 0 in matches[1:]


def expressible(payload: dict) -> bool:
    """bleu_score takes the input: its float32 arithmetic can change any score but an exact 0 or 1."""
    return not inexpressible(payload)


def bleu_divergences(tool, check_id: str, arithmetic_clause: str, smoothed: bool) -> list:
    """torchmetrics' departures in a BLEU score tool, its most specific mechanism first (``arithmetic_clause``:
    the tool's line its float32 arithmetic departs from; ``smoothed``: the tool has smoothing)."""

    scoring = scoring_output(tool)
    entries = [
        Divergence(
            id=f"torchmetrics-{tool.id}-closest-reference-first",
            shows="first-listed-closest-reference",
            libraries=("torchmetrics",),
            checks=(check_id,),
            fields=("bleu",),
            what_differs="BLEU of a segment with two references equally close to its hypothesis's length, the "
            "longer listed first: torchmetrics takes the longer",
            mechanism="_bleu_score_update takes target_len_list[target_len_diff.index(min(target_len_diff))]: "
            "the first closest reference in list order, not the shorter of a tie",
            clause=(
                "r is the length of the reference closest to c, ties going to the shorter"
                if smoothed
                else "reference_length r sums, per segment, the reference length closest to the hypothesis length, "
                "ties going to the shorter reference"
            ),
            applies=closest_reference_tie_longer_first,
            library_output=bleu_output,
        ),
        Divergence(
            id=f"torchmetrics-{tool.id}-smooth-zero-match",
            **catalogued("smoothed-score-zero-on-a-zero-match"),
            libraries=("torchmetrics",),
            checks=(check_id,),
            fields=("bleu",),
            what_differs="BLEU with chen-cherry-2 (smooth=True) where an order n >= 2 has no match: 0 instead of "
            "the add-one score",
            mechanism="_bleu_score_compute returns 0 when min(numerator) == 0, before adding one to the orders "
            "n >= 2 (a hypothesis shorter than max_order included)",
            applies=smoothed_zero_match,
            library_output=scoring,
        ),
        Divergence(
            id=f"torchmetrics-{tool.id}-single-precision",
            libraries=("torchmetrics",),
            checks=(check_id,),
            fields=("bleu",),
            what_differs="every BLEU other than 0 and 1: about 1e-7 relative off the contract's",
            mechanism="bleu_score counts into float32 tensors (torch's default dtype) and computes the weights "
            "tensor(1/N), log, exp and the brevity penalty in float32; the model is its own "
            "_bleu_score_compute on the contract's counts",
            clause=arithmetic_clause,
            applies=expressible,
            library_output=scoring,
        ),
    ]
    return [entry for entry in entries if smoothed or not entry.id.endswith("-smooth-zero-match")]


def chrf_scores(payload: dict, char_order: int, word_order: int, whitespace: bool = False) -> tuple[float, list[float]]:
    """torchmetrics' chrf_score (corpus, and each sentence), 0..1, in its default dtype read with .item():
    the input's beta and lowercase (its option: str.lower, the contracts' toLowerCase as the oracle reads it)."""
    from torchmetrics.functional.text import chrf_score

    score, sentences = chrf_score(
        list(payload["hypotheses"]),
        [[r] for r in payload["references"]],
        n_char_order=char_order,
        n_word_order=word_order,
        beta=float(payload.get("beta", 2)),
        lowercase=payload.get("lowercase", False),
        whitespace=whitespace,
        return_sentence_level_score=True,
    )
    return score.item(), [s.item() for s in sentences]


def chrf_comparison(tool, orders, segment_name: str):
    """A Check's compare: chrf_score's corpus and sentence scores (0..1) against the tool's exact ones;
    ``orders(payload)`` -> (char_order, word_order, whitespace), ``segment_name`` formats a segment's name."""

    def compare(payload: dict, expected: dict) -> Comparison:
        char_order, word_order, whitespace = orders(payload)
        if char_order < 1:
            return Comparison(not_comparable="char_order 0: chrf_score takes n_char_order >= 1")
        score, segments = chrf_scores(payload, char_order, word_order, whitespace)
        comparison = Comparison()
        comparison.close("score / 100", Fraction(expected["score_fraction"]) / 100, score)
        for i, (hypothesis, reference) in enumerate(zip(payload["hypotheses"], payload["references"])):
            comparison.close(
                segment_name.format(i), exact_segment_score(tool, hypothesis, reference, payload) / 100, segments[i]
            )
        return comparison

    return compare


def chrf_output(orders, segments_key: str):
    """A Divergence.library_output: chrf_score's scores on the 0..100 scale, as the tool writes them."""

    def answer(payload: dict) -> dict | None:
        char_order, word_order, whitespace = orders(payload)
        try:
            score, segments = chrf_scores(payload, char_order, word_order, whitespace)
        except ImportError:
            return None
        scaled = [100 * s for s in segments]
        return {
            "score": 100 * score,
            segments_key: scaled if segments_key == "segment_scores" else [{"score": s} for s in scaled],
        }

    return answer


WHITESPACE_KEPT_BY_STRIP = frozenset(oracle_chrf.WHITESPACE) - {" "}


def inner_whitespace_kept(orders):
    """whitespace false and a text holds, between non-whitespace, a whitespace code point other than U+0020:
    torchmetrics removes only spaces (and strips the ends)."""

    def applies(payload: dict) -> bool:
        """whitespace false and a text holds whitespace other than U+0020 between other characters."""
        if orders(payload)[2]:
            return False
        return any(
            ch in WHITESPACE_KEPT_BY_STRIP
            for text in (*payload["hypotheses"], *payload["references"])
            for ch in text.strip()
        )

    return applies


def expresses(orders):
    """chrf_score takes the input (n_char_order >= 1): its definition and its float32 arithmetic can change any
    score but an exact 0 or 100 (one F over one order, char_order 1, is the contract's, in float32)."""

    def applies(payload: dict) -> bool:
        """chrf_score takes the input (n_char_order >= 1)."""
        return orders(payload)[0] >= 1

    return applies


def chrf_divergences(tool, check_id: str, orders, segments_key: str) -> list:
    """torchmetrics' departures in a chrF tool, the more specific first."""

    fields = ("score / 100", f"{segments_key}[[]*[]]*")
    output = chrf_output(orders, segments_key)
    return [
        Divergence(
            id=f"torchmetrics-{tool.id}-whitespace-set",
            libraries=("torchmetrics",),
            checks=(check_id,),
            fields=fields,
            what_differs="character n-grams of a text holding whitespace other than U+0020 between other "
            "characters (a tab, a newline, U+00A0, ...): torchmetrics keeps it as a character",
            mechanism="_get_characters(sentence, whitespace=False) is list(sentence.strip().replace(' ', '')): "
            "only the ASCII space is removed inside the text",
            clause="Character n-grams are Unicode code point sequences of the text with every whitespace code "
            "point removed",
            applies=inner_whitespace_kept(orders),
            library_output=output,
        ),
        Divergence(
            id=f"torchmetrics-{tool.id}-definition",
            libraries=("torchmetrics",),
            checks=(check_id,),
            fields=fields,
            what_differs="the score itself: torchmetrics' chrF averages F over every order (an order without "
            "n-grams counts as F = 0), in float32; they agree only where every segment's hypothesis "
            "equals its reference and has every order, or (float32 apart) one order is scored",
            mechanism="_calculate_fscore computes F-beta per order (precision or recall 0 for an order without "
            "n-grams, the denominator at least 1e-16) and divides their sum by n_char_order + "
            "n_word_order (not P and R averaged over the effective orders, then F), with float32 "
            "tensors (torch's default dtype)",
            clause="An order enters the averages only when both sides have at least one n-gram of that order",
            applies=expresses(orders),
            library_output=output,
        ),
    ]


# --- the matrix: the target implementation:torchmetrics ----------------------------------------

NOT_EXPRESSIBLE_OTHERWISE = "torchmetrics' bleu_score returns the score only: no counts, totals or lengths"


def splittable(payload: dict) -> None:
    path = whitespace_token(payload)
    if path:
        raise NotApplicable("a token holds whitespace: torchmetrics splits each segment with str.split()", path)


def bleu_corpus_compute(payload: dict) -> Partial:
    splittable(payload)
    bleu = bleu_score_of(payload["hypotheses"], payload["references"], max_order(payload), False)
    return Partial({"bleu": rounded(payload, bleu)})


def bleu_sentence_compute(payload: dict) -> Partial:
    if payload["smoothing"] not in SMOOTH:
        raise NotApplicable(
            "smoothing chen-cherry-1 or chen-cherry-3: torchmetrics' smooth is add-one (chen-cherry-2) or none"
        )
    no_effective_order(payload, "torchmetrics")
    splittable(payload)
    bleu = bleu_score_of(
        [payload["hypothesis"]], [payload["references"]], max_order(payload), SMOOTH[payload["smoothing"]]
    )
    return Partial({"bleu": rounded(payload, bleu)})


def chrf_partial(payload: dict, char_order: int, word_order: int, whitespace: bool, segments_key: str) -> Partial:
    if char_order < 1:
        raise NotApplicable("char_order 0: torchmetrics' chrf_score takes n_char_order >= 1")
    score, segments = chrf_scores(payload, char_order, word_order, whitespace)
    floats = [LibraryFloat(s, scale=1) for s in segments]
    per_segment = (
        floats if segments_key == "segment_scores" else [{"segment": i, "score": s} for i, s in enumerate(floats)]
    )
    return Partial({"score": LibraryFloat(score, scale=1), segments_key: per_segment})


def chrf_compute(payload: dict) -> Partial:
    return chrf_partial(payload, 6, 0, False, "segment_scores")


def chrf_plus_plus_compute(payload: dict) -> Partial:
    return chrf_partial(payload, 6, 2, False, "segment_scores")


def chrf_components(payload: dict) -> Partial:
    from oracle.chrf_components import orders

    char_order, word_order = orders(payload)
    return chrf_partial(payload, char_order, word_order, payload.get("whitespace", False), "segments")


# --- the cross-check ------------------------------------------------------------------------------------------


def chrf6_orders(payload: dict) -> tuple[int, int, bool]:
    return 6, 0, False


def chrf_plus_plus_orders(payload: dict) -> tuple[int, int, bool]:
    return 6, 2, False


def components_orders(payload: dict) -> tuple[int, int, bool]:
    from oracle.chrf_components import orders

    char_order, word_order = orders(payload)
    return char_order, word_order, payload.get("whitespace", False)


BLEU_COUNTERPART = (
    "torchmetrics.functional.text.bleu_score(preds, target, n_gram=N, smooth=False|True).item(), the tokens "
    "joined with spaces"
)


def chrf_counterpart(orders: str) -> str:
    return (
        f"torchmetrics.functional.text.chrf_score(hypotheses, [[r] for r in references], {orders}, beta, "
        "lowercase, return_sentence_level_score=True)"
    )


def _checks_and_divergences() -> tuple[dict, dict]:
    from oracle import bleu_corpus_compute, bleu_sentence_compute, chrf_components, chrf_compute, chrf_plus_plus_compute

    checks = {
        "bleu_corpus_compute": [Check("torchmetrics/bleu_score:corpus", BLEU_COUNTERPART, bleu_comparison)],
        "bleu_sentence_compute": [Check("torchmetrics/bleu_score:sentence", BLEU_COUNTERPART, bleu_comparison)],
        "chrf_compute": [
            Check(
                "torchmetrics/chrf_score:chrf6",
                chrf_counterpart("n_char_order=6, n_word_order=0"),
                chrf_comparison(chrf_compute.TOOL, chrf6_orders, "segment_scores[{}] / 100"),
            )
        ],
        "chrf_plus_plus_compute": [
            Check(
                "torchmetrics/chrf_score:chrf++",
                chrf_counterpart("n_char_order=6, n_word_order=2"),
                chrf_comparison(chrf_plus_plus_compute.TOOL, chrf_plus_plus_orders, "segment_scores[{}] / 100"),
            )
        ],
        "chrf_components": [
            Check(
                "torchmetrics/chrf_score:orders",
                chrf_counterpart("n_char_order=char_order, n_word_order=word_order, whitespace=whitespace"),
                chrf_comparison(chrf_components.TOOL, components_orders, "segments[{}].score / 100"),
            )
        ],
    }
    divergences = {
        "bleu_corpus_compute": bleu_divergences(
            bleu_corpus_compute.TOOL,
            "torchmetrics/bleu_score:corpus",
            "bleu = brevity_penalty * exp((1/N) * sum of ln(m_n / l_n)) ... omitted means full IEEE-754 double "
            "precision",
            smoothed=False,
        ),
        "bleu_sentence_compute": bleu_divergences(
            bleu_sentence_compute.TOOL,
            "torchmetrics/bleu_score:sentence",
            "Arithmetic is IEEE-754 double: each p_n is one division of the exact values shown",
            smoothed=True,
        ),
        "chrf_compute": chrf_divergences(
            chrf_compute.TOOL, "torchmetrics/chrf_score:chrf6", chrf6_orders, "segment_scores"
        ),
        "chrf_plus_plus_compute": chrf_divergences(
            chrf_plus_plus_compute.TOOL, "torchmetrics/chrf_score:chrf++", chrf_plus_plus_orders, "segment_scores"
        ),
        "chrf_components": chrf_divergences(
            chrf_components.TOOL, "torchmetrics/chrf_score:orders", components_orders, "segments"
        ),
    }
    return checks, divergences


CHECKS, DIVERGENCES = _checks_and_divergences()


# --- the call a user would write (Library.call; `conformance matrix audit` runs it) -------------------------


def bleu_call(payload: dict) -> str:
    from conformance.implementations._calls import literal, python

    hypotheses, references = segments_of(payload)
    return python(
        ["from torchmetrics.functional.text import bleu_score"],
        [
            f"preds = {literal([' '.join(h) for h in hypotheses])}",
            f"target = {literal([[' '.join(r) for r in refs] for refs in references])}",
        ],
        f'{{"bleu": bleu_score(preds, target, n_gram={max_order(payload)}, '
        f"smooth={literal(bool(smooth_of(payload)))}).item()}}",
    )


def chrf_call(orders, segments_key: str):
    def write(payload: dict) -> str:
        from conformance.implementations._calls import literal, python

        char_order, word_order, whitespace = orders(payload)
        segment = "{'score': s.item()}" if segments_key == "segments" else "s.item()"
        return python(
            ["from torchmetrics.functional.text import chrf_score"],
            [
                f"hypotheses = {literal(payload['hypotheses'])}",
                f"references = [[r] for r in {literal(payload['references'])}]",
                f"score, sentences = chrf_score(hypotheses, references, n_char_order={char_order}, "
                f"n_word_order={word_order}, beta={float(payload.get('beta', 2))}, "
                f"lowercase={literal(bool(payload.get('lowercase')))}, whitespace={literal(whitespace)}, "
                "return_sentence_level_score=True)",
            ],
            f'{{"score": score.item(), "{segments_key}": [{segment} for s in sentences]}}',
        )

    return write


CALLS = {
    "bleu_corpus_compute": bleu_call,
    "bleu_sentence_compute": bleu_call,
    "chrf_compute": chrf_call(chrf6_orders, "segment_scores"),
    "chrf_plus_plus_compute": chrf_call(chrf_plus_plus_orders, "segment_scores"),
    "chrf_components": chrf_call(components_orders, "segments"),
}
