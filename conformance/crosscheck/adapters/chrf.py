"""What the chrF tools' adapters share: the cross-check inputs, casing, and conditions on the
per-order statistics (computed with the oracle's chrF engine)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from hypothesis import strategies as st

from conformance.crosscheck.comparison import Comparison
from conformance.strategies.base import composite
from oracle import chrf

# chrF texts: letters that repeat (shared character n-grams), every kind of
# separator the contract's whitespace list names (tab, space, U+001C, U+0085,
# U+00A0, U+2028, U+3000) and near-misses that are not on it (U+180E, U+200B,
# U+FEFF), ASCII punctuation that splits off word edges, a non-ASCII mark that
# does not (U+00BF), and letters whose lowercase differs by position (final
# sigma) or by case.
CHRF_ALPHABET_STABLE_CASE = ["a", "b", "A", "B", "\u03a3", "\u03c3", "\u00e9", "\u00c9"]
CHRF_SPACES_AND_NEAR_MISSES = [
    " ",
    "\t",
    "\u001c",
    "\u0085",
    "\u00a0",
    "\u2028",
    "\u3000",
    "\u180e",
    "\u200b",
    "\ufeff",
]
CHRF_PUNCTUATION = [".", "(", ")", ",", "\u00bf"]
CHRF_CHARACTERS = CHRF_ALPHABET_STABLE_CASE + CHRF_SPACES_AND_NEAR_MISSES + CHRF_PUNCTUATION


def _chrf_text():
    letters = st.sampled_from(CHRF_ALPHABET_STABLE_CASE[:2])
    characters = st.sampled_from(CHRF_CHARACTERS)
    return st.lists(st.one_of(letters, letters, characters), max_size=12).map("".join)


@composite
def chrf_inputs(draw) -> dict:
    """A valid chrF input: 1-3 segments of 0-12 code points, any beta and lowercase."""
    segments = draw(st.integers(1, 3))
    payload: dict = {
        "hypotheses": [draw(_chrf_text()) for _ in range(segments)],
        "references": [draw(_chrf_text()) for _ in range(segments)],
    }
    beta = draw(st.none() | st.integers(1, 16))
    if beta is not None:
        payload["beta"] = beta
    # Every code point of the alphabet has the same lowercase mapping and casing
    # properties in Unicode 14 to 17, so lowercase=true never touches open point A5.
    lowercase = draw(st.none() | st.booleans())
    if lowercase is not None:
        payload["lowercase"] = lowercase
    return payload


def cased(payload: dict, text: str) -> str:
    """The text as the contract tokenizes it (lowercased first when asked)."""
    return chrf.lowercase(text) if payload.get("lowercase", False) else text


def segment_order_missing_from_reference(payload: dict, char_order: int, word_order: int) -> bool:
    """A segment's hypothesis has n-grams of an order its reference lacks, and the corpus's references have that order."""
    per_segment = [
        chrf.segment_statistics(cased(payload, h), cased(payload, r), char_order, word_order)
        for h, r in zip(payload["hypotheses"], payload["references"])
    ]
    for order in range(len(per_segment[0])):
        stats = [segment[order] for segment in per_segment]
        if any(s.reference for s in stats) and any(s.hypothesis and not s.reference for s in stats):
            return True
    return False


NLTK_MISSING_WHITESPACE = "\u001c\u001d\u001e\u001f"


def text_with_information_separator(payload: dict) -> bool:
    """A text holds U+001C-U+001F, on the contract's whitespace list but not removed by NLTK's \\s+."""
    texts = [*payload["hypotheses"], *payload["references"]]
    return any(ch in text for text in texts for ch in NLTK_MISSING_WHITESPACE)


# --- Configurable orders and kept whitespace (the chrF and chrF-with-components adapters) ----------


def _edited(draw, reference: str) -> str:
    """A hypothesis made from its reference, so that the high orders (up to 10) have matches."""
    edit = draw(st.sampled_from(("copy", "drop-first", "drop-last", "insert", "replace")))
    if edit == "copy" or not reference:
        return reference
    if edit == "drop-first":
        return reference[1:]
    if edit == "drop-last":
        return reference[:-1]
    at = draw(st.integers(0, len(reference) - 1))
    character = draw(st.sampled_from(CHRF_CHARACTERS))
    return reference[:at] + character + reference[at + (edit == "replace") :]


@composite
def _related_text(draw) -> str:
    """Like _chrf_text, of 0-20 code points, the length drawn first (longer texts than a list's usual
    draw): room for ten-character and four-word n-grams."""
    letters = st.sampled_from(CHRF_ALPHABET_STABLE_CASE[:2])
    length = draw(st.integers(0, 3) | st.integers(0, 20))
    characters = st.one_of(letters, letters, st.sampled_from(CHRF_CHARACTERS))
    return "".join(draw(st.lists(characters, min_size=length, max_size=length)))


@composite
def _related_segment(draw) -> tuple[str, str]:
    """(hypothesis, reference): drawn independently (what shrinking goes to), or the hypothesis a copy or a
    one-edit variant of the reference."""
    reference = draw(_related_text())
    relation = draw(st.sampled_from(("independent", "independent", "copy", "edit")))
    if relation == "independent":
        return draw(_related_text()), reference
    return (reference if relation == "copy" else _edited(draw, reference)), reference


@composite
def related_chrf_inputs(draw) -> dict:
    """A valid chrF input like chrf_inputs (1-3 segments, texts of up to 20 code points), drawn segment by
    segment (so shrinking drops whole segments), whose hypotheses may be copies or one-edit variants of their
    references; and in one input of three every hypothesis a copy (NLTK's chrF agrees with the contract's
    almost only there)."""
    segments = draw(st.lists(_related_segment(), min_size=1, max_size=3))
    if draw(st.integers(0, 2)) == 2:
        segments = [(reference, reference) for _, reference in segments]
    payload: dict = {"hypotheses": [h for h, _ in segments], "references": [r for _, r in segments]}
    beta = draw(st.none() | st.integers(1, 16))
    if beta is not None:
        payload["beta"] = beta
    # the alphabet's lowercase mappings are stable in Unicode 14 to 17 (open point A5 never touched)
    lowercase = draw(st.none() | st.booleans())
    if lowercase is not None:
        payload["lowercase"] = lowercase
    return payload


def statistics_per_segment(
    payload: dict, char_order: int, word_order: int, whitespace: bool = False
) -> list[list[chrf.OrderStatistics]]:
    """The contract's per-order rows of every segment (oracle engine), casing applied."""
    return [
        chrf.segment_statistics(cased(payload, h), cased(payload, r), char_order, word_order, whitespace)
        for h, r in zip(payload["hypotheses"], payload["references"])
    ]


def reference_lacks_an_order_hypothesis_has(
    payload: dict, char_order: int, word_order: int, whitespace: bool = False
) -> bool:
    """A segment's hypothesis has n-grams of an order its reference has none of."""
    return any(
        s.hypothesis and not s.reference
        for segment in statistics_per_segment(payload, char_order, word_order, whitespace)
        for s in segment
    )


def corpus_order_missing_from_a_reference(
    payload: dict, char_order: int, word_order: int, whitespace: bool = False
) -> bool:
    """segment_order_missing_from_reference for any orders and either whitespace setting."""
    per_segment = statistics_per_segment(payload, char_order, word_order, whitespace)
    return any(
        any(segment[k].reference for segment in per_segment)
        and any(segment[k].hypothesis and not segment[k].reference for segment in per_segment)
        for k in range(char_order + word_order)
    )


def character_text(payload: dict, text: str, whitespace: bool = False) -> str:
    """The code points the contract takes character n-grams over."""
    return cased(payload, text) if whitespace else chrf.remove_whitespace(cased(payload, text))


def outside_nltk_agreement(payload: dict, char_order: int, whitespace: bool = False) -> bool:
    """NLTK's chrF and the contract's differ in definition except where both are certain to agree: every
    segment's hypothesis equals its reference with all char_order orders present (both score 1), or a single
    segment scored on character unigrams alone with a match (NLTK's one F is then the contract's F)."""
    pairs = [
        (character_text(payload, h, whitespace), character_text(payload, r, whitespace))
        for h, r in zip(payload["hypotheses"], payload["references"])
    ]
    if all(h == r and len(h) >= char_order for h, r in pairs):
        return False
    if char_order == 1 and len(pairs) == 1:
        hypothesis, reference = pairs[0]
        return not set(hypothesis) & set(reference)
    return True


# --- the contract's exact segment scores and sacreBLEU's CHRF, shared by the chrF adapters ---------------


def exact_segment_score(tool, hypothesis: str, reference: str, payload: dict) -> Fraction:
    """A segment's exact score: the tool's score of a one-segment corpus (segment scores are rounded)."""
    single = {**payload, "hypotheses": [hypothesis], "references": [reference]}
    return Fraction(tool.execute(single)["score_fraction"])


@cache
def sacrebleu_chrf(char_order: int, word_order: int, beta: int, lowercase: bool, whitespace: bool = False):
    from sacrebleu.metrics import CHRF as SacreCHRF

    return SacreCHRF(
        char_order=char_order, word_order=word_order, whitespace=whitespace, beta=beta, lowercase=lowercase
    )


def sacrebleu_scores(tool, metric, payload: dict, expected: dict, per_segment=None) -> Comparison:
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


# --- the libraries' answers, as the chrF tools write them (Divergence.library_output) ---------------------
# Scores are floats on the 0..100 scale: a six-decimal score of a target agrees with one within half a step
# (catalogue.agrees). Rows are partial: hypothesis_ngrams, reference_ngrams and matches per order.


def row_dicts(statistics: list[chrf.OrderStatistics]) -> list[dict]:
    return [
        {"hypothesis_ngrams": s.hypothesis, "reference_ngrams": s.reference, "matches": s.matches} for s in statistics
    ]


def rule_score(statistics: list[chrf.OrderStatistics], payload: dict) -> float:
    """The contract's rule (F over the averaged P and R of the effective orders) on some rows, 0..100."""
    return float(100 * chrf.f_score(statistics, int(payload.get("beta", 2))))


def sacrebleu_corpus_chrf(payload: dict, char_order: int, word_order: int, whitespace: bool = False) -> float:
    """CHRF(...).corpus_score of the input (sacreBLEU's corpus sums), 0..100."""
    metric = sacrebleu_chrf(
        char_order, word_order, int(payload.get("beta", 2)), payload.get("lowercase", False), whitespace
    )
    return metric.corpus_score(payload["hypotheses"], [payload["references"]]).score


def nltk_chrf_scores(payload: dict, char_order: int, whitespace: bool = False) -> tuple[float, list[float]]:
    """corpus_chrf and each segment's sentence_chrf (orders 1..char_order, the input's beta, whitespace
    ignored unless kept, texts lowercased first where asked: NLTK has no option), 0..100."""
    from nltk.translate.chrf_score import corpus_chrf, sentence_chrf

    options = {
        "min_len": 1,
        "max_len": char_order,
        "beta": int(payload.get("beta", 2)),
        "ignore_whitespace": not whitespace,
    }
    hypotheses = [cased(payload, h) for h in payload["hypotheses"]]
    references = [cased(payload, r) for r in payload["references"]]
    return (
        100 * corpus_chrf(references, hypotheses, **options),
        [100 * sentence_chrf(r, h, **options) for h, r in zip(hypotheses, references)],
    )


def nltk_whitespace_statistics(
    payload: dict, char_order: int, word_order: int, whitespace: bool = False
) -> list[list[chrf.OrderStatistics]]:
    """The contract's rows of every segment with character n-grams taken as NLTK's _preprocess leaves the
    text (U+001C-U+001F kept): the whitespace-set mechanism alone, written out; word rows as the contract's."""
    from nltk.translate.chrf_score import _preprocess

    rows = []
    for h, r in zip(payload["hypotheses"], payload["references"]):
        h, r = cased(payload, h), cased(payload, r)
        characters = chrf.segment_statistics(
            _preprocess(h, not whitespace), _preprocess(r, not whitespace), char_order, 0, whitespace=True
        )
        rows.append(characters + (chrf.segment_statistics(h, r, 0, word_order) if word_order else []))
    return rows


FASTCHRF_WHITESPACE_MECHANISM = (
    "pairwise_chrf(remove_whitespace=True) drops the characters Rust's char::is_whitespace accepts, Unicode "
    "White_Space, which lacks the information separators U+001C-U+001F (checked over every code point: the only "
    "difference from the contract's list)"
)


def fastchrf_sentence_scores(payload: dict, char_order: int, whitespace: bool = False) -> list[float]:
    """fastchrf's pairwise_chrf of each segment against its own reference (the diagonal), 0..100: its
    char_order, the input's beta, remove_whitespace = not whitespace, no epsilon smoothing; texts lowercased
    first where asked (it has no option)."""
    from fastchrf import pairwise_chrf

    hypotheses = [cased(payload, h) for h in payload["hypotheses"]]
    references = [cased(payload, r) for r in payload["references"]]
    pairs = pairwise_chrf(
        [hypotheses],
        [references],
        char_order=char_order,
        beta=float(payload.get("beta", 2)),
        remove_whitespace=not whitespace,
        eps_smoothing=False,
    )[0]
    return [pairs[i][i] for i in range(len(hypotheses))]


def fastchrf_corpus_of_one(segments: list) -> dict:
    """{"score": the segment's} for one segment (the contract's corpus score of one segment is its score),
    else {}: fastchrf has no corpus score of several segments."""
    return {"score": segments[0]} if len(segments) == 1 else {}


def fastchrf_scores(
    tool, payload: dict, expected: dict, char_order: int, whitespace: bool, segment_name: str
) -> Comparison:
    """Each segment's pairwise_chrf against the tool's exact segment score (and, for one segment, the corpus
    score), on the percent scale; ``segment_name`` formats a segment's value name from its index."""
    comparison = Comparison()
    scores = fastchrf_sentence_scores(payload, char_order, whitespace)
    if len(scores) == 1:
        comparison.close("score", Fraction(expected["score_fraction"]), scores[0])
    for i, (hypothesis, reference) in enumerate(zip(payload["hypotheses"], payload["references"])):
        comparison.close(segment_name.format(i), exact_segment_score(tool, hypothesis, reference, payload), scores[i])
    return comparison


def torchmetrics_chrf(
    payload: dict, char_order: int, word_order: int, whitespace: bool = False
) -> tuple[float, list[float]]:
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


# --- torchmetrics' chrf_score: checks and divergences shared by the chrF tools -------------------------------


def torchmetrics_chrf_comparison(tool, orders, segment_name: str):
    """A Check's compare: chrf_score's corpus and sentence scores (0..1) against the tool's exact ones;
    ``orders(payload)`` -> (char_order, word_order, whitespace), ``segment_name`` formats a segment's name."""

    def compare(payload: dict, expected: dict) -> Comparison:
        char_order, word_order, whitespace = orders(payload)
        if char_order < 1:
            return Comparison(not_comparable="char_order 0: chrf_score takes n_char_order >= 1")
        score, segments = torchmetrics_chrf(payload, char_order, word_order, whitespace)
        comparison = Comparison()
        comparison.close("score / 100", Fraction(expected["score_fraction"]) / 100, score)
        for i, (hypothesis, reference) in enumerate(zip(payload["hypotheses"], payload["references"])):
            comparison.close(
                segment_name.format(i), exact_segment_score(tool, hypothesis, reference, payload) / 100, segments[i]
            )
        return comparison

    return compare


def torchmetrics_chrf_output(orders, segments_key: str):
    """A Divergence.library_output: chrf_score's scores on the 0..100 scale, as the tool writes them."""

    def answer(payload: dict) -> dict | None:
        char_order, word_order, whitespace = orders(payload)
        try:
            score, segments = torchmetrics_chrf(payload, char_order, word_order, whitespace)
        except ImportError:
            return None
        scaled = [100 * s for s in segments]
        return {
            "score": 100 * score,
            segments_key: scaled if segments_key == "segment_scores" else [{"score": s} for s in scaled],
        }

    return answer


WHITESPACE_KEPT_BY_STRIP = frozenset(chrf.WHITESPACE) - {" "}


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


def torchmetrics_expresses(orders):
    """chrf_score takes the input (n_char_order >= 1): its definition and its float32 arithmetic can change any
    score but an exact 0 or 100 (one F over one order, char_order 1, is the contract's, in float32)."""

    def applies(payload: dict) -> bool:
        """chrf_score takes the input (n_char_order >= 1)."""
        return orders(payload)[0] >= 1

    return applies


def torchmetrics_chrf_divergences(tool, check_id: str, orders, segments_key: str) -> list:
    """torchmetrics' departures in a chrF tool, the more specific first."""
    from conformance.crosscheck.model import Divergence

    fields = ("score / 100", f"{segments_key}[[]*[]]*")
    output = torchmetrics_chrf_output(orders, segments_key)
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
            applies=torchmetrics_expresses(orders),
            library_output=output,
        ),
    ]
