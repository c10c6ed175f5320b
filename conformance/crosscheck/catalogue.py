"""The divergence catalogue: every known way sacreBLEU or NLTK departs from the contracts.

Each entry names the library function responsible, the contract clause it departs
from, and ``applies(input)``: the condition on a tool input under which the
mechanism can change a compared value. A disagreement is explained only by an
entry that lists its check and applies to its input; anything else is an oracle
bug or a new divergence, and fails the cross-check.

Each mechanism was verified by running the library (tests/test_crosscheck.py
holds every entry to a reproducer where it applies and the values differ).
"""

from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Callable

import oracle
from oracle import chrf
from oracle.chrf_plus_plus_compute import CHAR_ORDER, WORD_ORDER


@dataclass(frozen=True)
class Divergence:
    id: str
    libraries: tuple[str, ...]
    checks: tuple[str, ...]  # the Check ids whose values it can change
    fields: tuple[str, ...]  # the compared values it can change (fnmatch patterns of Comparison names)
    what_differs: str
    mechanism: str
    contract_clause: str
    applies: Callable[[dict], bool]

    def changes(self, field_name: str) -> bool:
        return any(fnmatchcase(field_name, pattern) for pattern in self.fields)


# --- conditions on BLEU inputs --------------------------------------------------


def _max_order(payload: dict) -> int:
    return int(payload.get("max_order", 4))


def _bleu_corpus_counts(payload: dict) -> tuple[list[int], list[int]]:
    """The corpus m_n and l_n of a BLEU input (the contract's bleu-ngrams-count)."""
    counts = oracle.execute("bleu-ngrams-count", "1.0.0", {key: payload[key] for key in
                                                            ("hypotheses", "references", "max_order") if key in payload})
    return counts["matches"], counts["totals"]


def empty_candidate_and_reference(payload: dict) -> bool:
    """c = 0 and r = 0: every hypothesis is empty and every segment has an empty reference (the closest to 0)."""
    return all(not h for h in payload["hypotheses"]) and all(
        any(not ref for ref in refs) for refs in payload["references"])


def some_order_unmatched_with_ngrams(payload: dict) -> bool:
    """Some order has m_n = 0 although l_n > 0, while another order matched (the score is exactly 0 by contract)."""
    matches, totals = _bleu_corpus_counts(payload)
    return any(matches) and any(m == 0 and l > 0 for m, l in zip(matches, totals))


def some_order_without_ngrams_yet_unigram_match(payload: dict) -> bool:
    """Some order has l_n = 0 (every hypothesis shorter than n) while unigrams matched."""
    matches, totals = _bleu_corpus_counts(payload)
    return matches[0] > 0 and any(l == 0 for l in totals)


def some_zero_match_order_yet_unigram_match(payload: dict) -> bool:
    """Some order has m_n = 0 (with or without n-grams) while unigrams matched."""
    matches, _ = _bleu_corpus_counts(payload)
    return matches[0] > 0 and any(m == 0 for m in matches)


def some_segment_shorter_than_max_order(payload: dict) -> bool:
    """A hypothesis (possibly empty) has fewer than max_order tokens: it has no n-grams of the highest orders."""
    return any(len(h) < _max_order(payload) for h in payload["hypotheses"])


# --- conditions on chrF++ inputs -----------------------------------------------


def _cased(payload: dict, text: str) -> str:
    return chrf.lowercase(text) if payload.get("lowercase", False) else text


def segment_order_missing_from_reference(payload: dict) -> bool:
    """A4: a segment's hypothesis has n-grams of an order its reference lacks, and the corpus's references have that order."""
    per_segment = [chrf.segment_statistics(_cased(payload, h), _cased(payload, r), CHAR_ORDER, WORD_ORDER)
                   for h, r in zip(payload["hypotheses"], payload["references"])]
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


def not_identical_long_segments(payload: dict) -> bool:
    """Some segment's hypothesis differs from its reference (after lowercasing) or has fewer than 6 non-whitespace
    code points: outside the one domain where both metrics are certain to agree (every segment scoring 100)."""
    return any(_cased(payload, h) != _cased(payload, r) or len(chrf.remove_whitespace(_cased(payload, h))) < CHAR_ORDER
               for h, r in zip(payload["hypotheses"], payload["references"]))


CATALOGUE = [
    Divergence(
        id="sacrebleu-bp-empty-candidate",
        libraries=("sacrebleu",),
        checks=("sacrebleu/corpus_score:smooth=none", "sacrebleu/corpus_score:smooth=exp",
                "sacrebleu/corpus_score:effective_order", "sacrebleu/sentence_score"),
        fields=("brevity_penalty",),
        what_differs="brevity penalty of an empty candidate against an empty reference: 1 instead of 0",
        mechanism="BLEU.compute_bleu sets bp = 1.0 and only computes exp(1 - r/c) (or 0) when sys_len < ref_len, "
                  "so c = r = 0 keeps bp = 1.0 (the score is 0 either way: no n-gram matched)",
        contract_clause="bleu-corpus-compute: \"brevity_penalty is 1 when c > r, 0 when c = 0 (even if r = 0)\"",
        applies=empty_candidate_and_reference,
    ),
    Divergence(
        id="sacrebleu-exp-smoothing",
        libraries=("sacrebleu",),
        checks=("sacrebleu/corpus_score:smooth=exp", "sacrebleu/sentence_score"),
        fields=("bleu * 100",),
        what_differs="BLEU when some order has no match: positive instead of exactly 0",
        mechanism="BLEU(smooth_method='exp'), sacreBLEU's default: compute_bleu replaces a zero precision by "
                  "100 / (2^k * total) (NIST 'exp' smoothing, Chen and Cherry method 3)",
        contract_clause="bleu-corpus-compute: \"it is exactly 0 when brevity_penalty is 0 or any order has m_n = 0 "
                        "... No smoothing is applied.\"",
        applies=some_order_unmatched_with_ngrams,
    ),
    Divergence(
        id="sacrebleu-effective-order",
        libraries=("sacrebleu",),
        checks=("sacrebleu/corpus_score:effective_order", "sacrebleu/sentence_score"),
        fields=("bleu * 100",),
        what_differs="BLEU when every hypothesis is shorter than some order: positive instead of exactly 0",
        mechanism="BLEU(effective_order=True) (recommended for sentence_score): compute_bleu stops at the first "
                  "order with total 0 and averages the logs over the orders before it only",
        contract_clause="bleu-corpus-compute: \"bleu = brevity_penalty * exp((1/N) * sum of ln(m_n / l_n)) with "
                        "N = max_order ... exactly 0 when ... any order has m_n = 0 (including l_n = 0)\"",
        applies=some_order_without_ngrams_yet_unigram_match,
    ),
    Divergence(
        id="sacrebleu-chrf-drops-unmatched-orders",
        libraries=("sacrebleu",),
        checks=("sacrebleu/chrf++",),
        fields=("score",),
        what_differs="corpus chrF++ score of a corpus where one segment's reference lacks an n-gram order its "
                     "hypothesis has (open point A4; segment scores agree)",
        mechanism="CHRF._get_match_statistics returns a hypothesis count of 0 for an order whose reference "
                  "n-grams are empty ('hyp_count if ref_ngrams else 0'), so those hypothesis n-grams never reach "
                  "the corpus precision (as in Popovic's chrF++.py)",
        contract_clause="chrf-plus-plus-compute: \"Corpus score sums per-order counts over all segments\"",
        applies=segment_order_missing_from_reference,
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
        contract_clause="bleu-corpus-compute: \"it is exactly 0 when brevity_penalty is 0 or any order has m_n = 0 "
                        "(including l_n = 0)\"",
        applies=some_zero_match_order_yet_unigram_match,
    ),
    Divergence(
        id="nltk-bleu-short-segment-denominator",
        libraries=("nltk",),
        checks=("nltk/corpus_bleu", "nltk/modified_precision"),
        fields=("bleu", "segments[[]*[]].totals"),
        what_differs="the precision denominator of an order a segment is too short for: 1 instead of 0 "
                     "(so corpus BLEU is lower when other segments have that order)",
        mechanism="modified_precision returns Fraction(numerator, max(1, count), _normalize=False) and "
                  "corpus_bleu sums those denominators, so every hypothesis shorter than n adds 1 to l_n",
        contract_clause="bleu-ngrams-count: \"totals[n-1] sums max(0, len - n + 1) over all segments ... a "
                        "hypothesis shorter than n contributes 0 to both\"",
        applies=some_segment_shorter_than_max_order,
    ),
    Divergence(
        id="nltk-chrf-whitespace-set",
        libraries=("nltk",),
        checks=("nltk/chrf_statistics", "nltk/corpus_chrf"),
        fields=("segment[[]*[]].char*", "score / 100"),
        what_differs="character n-grams of a text holding U+001C-U+001F: NLTK keeps them as characters",
        mechanism="chrf_score._preprocess removes whitespace with nltk.redos.sub(r'\\s+', ...), backed by the "
                  "third-party regex module whose \\s is Unicode White_Space, which excludes the information "
                  "separators U+001C-U+001F (Python's str.isspace and the contract include them)",
        contract_clause="chrf-plus-plus-compute: \"every whitespace code point removed: U+0009-U+000D, "
                        "U+001C-U+001F, U+0020, ...\"",
        applies=text_with_information_separator,
    ),
    Divergence(
        id="nltk-chrf-definition",
        libraries=("nltk",),
        checks=("nltk/corpus_chrf",),
        fields=("score / 100",),
        what_differs="the score itself: NLTK's chrF is a different metric from the contract's chrF++; they agree "
                     "only where every segment's hypothesis equals its reference and has all six character orders",
        mechanism="corpus_chrf/sentence_chrf: character n-grams only (no word n-grams), F computed per order and "
                  "averaged (not P and R averaged), epsilon 1e-16 for an order without n-grams or matches, the "
                  "corpus score a macro average of segment scores, beta 3 by default (the crosscheck passes the "
                  "contract's beta)",
        contract_clause="chrf-plus-plus-compute: \"character n-grams n = 1..6 and word n-grams n = 1..2 "
                         "arithmetically averaged together ... Corpus score sums per-order counts over all segments\"",
        applies=not_identical_long_segments,
    ),
]
CATALOGUE_BY_ID = {divergence.id: divergence for divergence in CATALOGUE}


def explaining(check_id: str, payload: dict, differences: list[str] | None = None) -> list[str]:
    """The ids of the catalogue entries that apply to ``payload`` for ``check_id`` (and can change a differing value).

    The differences are explained when every differing value is one an applicable entry can change
    (``explains``).
    """
    return [d.id for d in CATALOGUE if check_id in d.checks and d.applies(payload)
            and (differences is None or any(d.changes(name) for name in differences))]


def explains(divergence_ids: list[str], differences: list[str]) -> bool:
    entries = [CATALOGUE_BY_ID[i] for i in divergence_ids]
    return all(any(d.changes(name) for d in entries) for name in differences)


@dataclass(frozen=True)
class Agreement:
    """An area where a library could have departed from the contract and, checked by running it, does not."""

    area: str
    finding: str
    checks: tuple[str, ...]


AGREEMENTS = [
    Agreement("closest reference length",
              "sacreBLEU BLEU._get_closest_ref_len and NLTK closest_ref_length both break a tie to the shorter "
              "reference, as the contract does", ("sacrebleu/corpus_score:smooth=none",
                                                  "nltk/closest_ref_length+brevity_penalty")),
    Agreement("reference counting",
              "both clip by the largest count of the n-gram in any single reference (sacreBLEU "
              "BLEU._extract_reference_info, NLTK modified_precision), not the sum over references",
              ("sacrebleu/statistics", "sacrebleu/ngram_rows", "nltk/modified_precision")),
    Agreement("clipping table rows",
              "detail \"ngrams\" rows (n-gram, count, max_reference_count) equal sacreBLEU's own counters row for "
              "row, in the same order (by order, then first occurrence)", ("sacrebleu/ngram_rows",)),
    Agreement("zero matches, logarithm guard",
              "with smooth_method='none' sacreBLEU's my_log(0) = -9999999999 makes exp(...) exactly 0.0, the "
              "contract's 0; a hypothesis shorter than n stops compute_bleu's loop with that precision 0, also 0",
              ("sacrebleu/corpus_score:smooth=none",)),
    Agreement("empty hypotheses",
              "NLTK corpus_bleu returns 0 when no unigram matched (every hypothesis empty included) and "
              "brevity_penalty returns 0 for hyp_len 0; sacreBLEU's statistics and score (0) agree too, only its "
              "brevity penalty departs (sacrebleu-bp-empty-candidate)",
              ("nltk/corpus_bleu", "nltk/closest_ref_length+brevity_penalty", "sacrebleu/statistics")),
    Agreement("percent scale",
              "sacreBLEU's BLEU is 100 x the contract's within 1e-9 relative (it adds ln(100 m/l)); chrF++ scores "
              "are on 0..100 on both sides", ("sacrebleu/corpus_score:smooth=none", "sacrebleu/chrf++")),
    Agreement("chrF++ whitespace set",
              "sacreBLEU removes and splits on str.split()'s whitespace, which in Python 3 is exactly the "
              "contract's list (U+0009-U+000D, U+001C-U+001F, U+0020, U+0085, U+00A0, U+1680, U+2000-U+200A, "
              "U+2028, U+2029, U+202F, U+205F, U+3000; tests/test_sacrebleu_agreement.py proves it over every code "
              "point); U+200B and U+FEFF are kept by both", ("sacrebleu/chrf++",)),
    Agreement("chrF++ punctuation splitting",
              "CHRF._remove_punctuation is the contract's rule: one ASCII mark at most per word, a one-code-point "
              "word kept, U+00BF never split", ("sacrebleu/chrf++",)),
    Agreement("chrF++ case mapping",
              "sacreBLEU's lowercase is Python's str.lower, the oracle's mapping (final sigma included); it can "
              "differ from the contract's toLowerCase only where Unicode versions differ (open point A5), which "
              "the generated inputs avoid", ("sacrebleu/chrf++",)),
    Agreement("chrF++ orders absent from one side",
              "sacreBLEU averages P and R only over orders both sides have (effective order), as the contract "
              "does: segment scores agree on every input; only the corpus sum differs "
              "(sacrebleu-chrf-drops-unmatched-orders)", ("sacrebleu/chrf++",)),
    Agreement("multiple references (chrF++)",
              "sacreBLEU's CHRF scores each segment against its best-F reference; the contract takes exactly one "
              "reference per segment, so no contract input exercises it (out of scope, not a divergence)", ()),
    Agreement("tokens holding whitespace (BLEU)",
              "sacreBLEU takes one string per segment and splits it with str.split(), so such a token has no "
              "faithful conversion: those inputs are 'not comparable' for sacreBLEU; NLTK takes token lists and "
              "is compared on them", ("nltk/corpus_bleu",)),
]
