"""The cross-check against sacreBLEU and NLTK: a quick run, and each catalogue entry held to its reproducer.

The quick run (small N, fixed seed) makes an oracle change that breaks agreement
with either library fail CI; the full run is `conformance crosscheck --examples 500`.
"""

import json
import re
from pathlib import Path

import pytest

import oracle
from conformance.cli import main
from conformance.crosscheck import parse_libraries
from conformance.crosscheck.catalogue import CATALOGUE, explaining
from conformance.crosscheck.checks import CHECKS, CHECKS_BY_ID, REQUIRED, evaluate, installed, libraries
from conformance.crosscheck.report import render
from conformance.crosscheck.runner import divergence_reproducer, run_crosscheck

QUICK_EXAMPLES = 40
SEED = 0
REPORT = Path(__file__).resolve().parent.parent / "reports" / "divergences.md"
AVAILABLE = [library for library in libraries() if installed(library)]  # the matrix's libraries are optional
# sacreBLEU's and NLTK's checks: the plain inputs below are where they agree (fast-bleu's and torchmetrics'
# float32 arithmetic departs on almost every input, and is held to its own entries)
REFERENCE_CHECKS = [check for check in CHECKS if check.library in REQUIRED]


def entries():
    """Every catalogue entry, skipped (with the reason) where its library is not installed."""
    return [
        pytest.param(
            d,
            id=d.id,
            marks=pytest.mark.skipif(
                not all(installed(lib) for lib in d.libraries), reason=f"{', '.join(d.libraries)} not installed"
            ),
        )
        for d in CATALOGUE
    ]


@pytest.fixture(scope="module")
def quick_run():
    return run_crosscheck(AVAILABLE, QUICK_EXAMPLES, SEED, find_reproducers=False)


def test_quick_crosscheck_has_no_unexplained_disagreement(quick_run):
    described = "\n\n".join(
        f"{r.check.id} on {r.input}: differs in {r.comparison.differences}, "
        f"contract {r.comparison.contract}, library {r.comparison.library}"
        for r in quick_run.unexplained
    )
    assert not quick_run.unexplained, described
    assert quick_run.exit_code == 0


def test_quick_crosscheck_compares_most_inputs(quick_run):
    # A check that silently compares nothing would pass vacuously: each check must compare and agree somewhere
    # (the strategies hit its agreement domain), and sacreBLEU must take at least 3 inputs in 4 (one in five
    # has tokens holding whitespace; sentence_score also needs a single segment).
    for check_id, stats in quick_run.statistics.items():
        assert stats.agreed > 0, check_id
    statistics = quick_run.statistics["sacrebleu/statistics"]
    assert statistics.compared >= 0.75 * (statistics.compared + statistics.not_comparable)


def committed_reproducers() -> dict[str, tuple[str, dict]]:
    """divergence id -> (check id, input) of each minimal reproducer in the committed reports/divergences.md."""
    text = REPORT.read_text(encoding="utf-8")
    found = {}
    for section in text.split("\n### ")[1:]:
        divergence_id = section.split("\n", 1)[0].strip()
        check = re.search(r"^Check `([^`]+)`", section, re.MULTILINE)
        payload = re.search(r"^```json\n(.*?)\n```", section, re.MULTILINE | re.DOTALL)
        if check and payload:
            found[divergence_id] = (check.group(1), json.loads(payload.group(1)))
    return found


def test_committed_catalogue_has_a_reproducer_for_every_entry():
    # regenerate with `conformance crosscheck --examples 500` after changing the catalogue
    assert set(committed_reproducers()) == {d.id for d in CATALOGUE}


@pytest.mark.parametrize("divergence", entries())
def test_divergence_applies_on_its_minimal_reproducer_and_values_differ(divergence):
    check_id, payload = committed_reproducers()[divergence.id]
    assert check_id in divergence.checks
    assert divergence.applies(payload)
    comparison = evaluate(CHECKS_BY_ID[check_id], payload)
    assert comparison.differences, "the values agree on the reproducer"
    assert any(divergence.changes(name) for name in comparison.differences)
    assert divergence.id in explaining(check_id, payload, comparison.differences)


@pytest.mark.slow
@pytest.mark.parametrize("divergence", entries())
def test_shrinking_finds_a_reproducer_for_every_entry(divergence):
    reproducer = divergence_reproducer(divergence, SEED, AVAILABLE)
    assert reproducer is not None, f"no input found where {divergence.id} applies and the values differ"
    assert divergence.applies(reproducer.input) and reproducer.comparison.differences


# Plain inputs on which every library agrees with the contract: no catalogue entry may apply there,
# or an entry would be excusing a difference that cannot exist.
PLAIN_BLEU = {"hypotheses": [["a", "b", "c", "d", "a"]], "references": [[["a", "b", "c", "d"], ["c", "d", "a"]]]}
PLAIN_CHRF = {"hypotheses": ["the cat sat."], "references": ["the cat sat."]}
PLAIN_SENTENCE = {"hypothesis": PLAIN_BLEU["hypotheses"][0], "references": PLAIN_BLEU["references"][0]}
PLAIN_LENGTHS = {"candidate_lengths": [5, 3], "reference_lengths": [[4, 3], [3, 7]]}
PLAIN_INPUTS = {
    "bleu-ngrams-count": {**PLAIN_BLEU, "detail": "ngrams"},
    "bleu-corpus-compute": PLAIN_BLEU,
    "chrf-plus-plus-compute": PLAIN_CHRF,
    "bleu-sentence-components": PLAIN_SENTENCE,
    # every order matched and longer than max_order: no smoothing acts (add-k reports smoothed counts)
    "bleu-sentence-compute": {**PLAIN_SENTENCE, "smoothing": "chen-cherry-3", "effective_order": True},
    "bleu-brevity-penalty": PLAIN_LENGTHS,
}


@pytest.mark.parametrize("check", REFERENCE_CHECKS, ids=lambda c: c.id)
def test_plain_input_agrees_and_no_entry_applies(check):
    payload = PLAIN_INPUTS[check.tool_id]
    comparison = evaluate(check, payload)
    assert comparison.agrees, (comparison.differences, comparison.contract, comparison.library)
    assert explaining(check.id, payload) == []


@pytest.mark.parametrize("divergence", CATALOGUE, ids=lambda d: d.id)
def test_entry_quotes_its_contract_clause_verbatim(divergence):
    tool_id, _, quoted = divergence.contract_clause.partition(": ")
    semantics = " ".join(oracle.load_contract(tool_id, "1.0.0")["semantics"])
    fragments = [f for f in re.split(r"\s*\.\.\.\s*", quoted.strip('"')) if f]
    assert fragments
    for fragment in fragments:
        assert fragment in semantics, fragment
    assert all(CHECKS_BY_ID[c].library in divergence.libraries for c in divergence.checks)
    assert divergence.fields and divergence.mechanism and divergence.applies.__doc__


def test_sacrebleu_cannot_take_a_token_with_whitespace():
    payload = {"hypotheses": [["a b"]], "references": [[["a", "b"]]]}
    comparison = evaluate(CHECKS_BY_ID["sacrebleu/corpus_score:smooth=none"], payload)
    assert comparison.not_comparable.startswith("hypotheses[0][0]")
    # NLTK takes token lists and is compared on the same input
    assert evaluate(CHECKS_BY_ID["nltk/corpus_bleu"], payload).agrees


def test_report_lists_every_entry_and_check(quick_run):
    text = render(quick_run)
    assert text.startswith("# Divergences")
    for divergence in CATALOGUE:
        if set(divergence.libraries) & set(AVAILABLE):
            assert f"### {divergence.id}" in text
    for check in CHECKS:
        if check.library in AVAILABLE:
            assert f"`{check.id}`" in text


def test_against_takes_known_libraries_only():
    # in the order the libraries are discovered (the crosscheck extra's first, then by name), whatever the order given
    assert parse_libraries("sacrebleu,nltk") == ["nltk", "sacrebleu"]
    assert parse_libraries("torchmetrics,nltk") == ["nltk", "torchmetrics"]
    with pytest.raises(ValueError):
        parse_libraries("moses")


def test_command_usage_error_exits_2(tmp_path, capsys):
    assert main(["crosscheck", "--against", "moses", "--output", str(tmp_path / "d.md")]) == 2
    assert not (tmp_path / "d.md").exists()


@pytest.mark.slow  # a whole crosscheck with its shrinking (the planted effective-order and whitespace bugs stay quick)
def test_planted_oracle_bug_fails_the_crosscheck_with_a_shrunk_reproducer(monkeypatch):
    """A closest-length rule that breaks ties to the longer reference: both libraries must catch it."""
    real_execute = oracle.execute

    def tie_to_longer(tool_id, version, payload):
        output = real_execute(tool_id, version, payload)
        if tool_id == "bleu-corpus-compute":
            lengths = [{len(r) for r in refs} for refs in payload["references"]]
            tied = sum(1 for h, ls in zip(payload["hypotheses"], lengths) if {len(h) - 1, len(h) + 1} <= ls)
            output = {**output, "reference_length": output["reference_length"] + 2 * tied}
        return output

    monkeypatch.setattr(oracle, "execute", tie_to_longer)
    result = run_crosscheck(AVAILABLE, 30, SEED, find_reproducers=False)
    assert result.exit_code == 1
    caught = {reproducer.check.id: reproducer for reproducer in result.unexplained}
    assert {"nltk/closest_ref_length+brevity_penalty", "sacrebleu/corpus_score:smooth=none"} <= caught.keys()
    # shrunk to one segment whose one-token hypothesis sits between an empty and a two-token reference
    minimal = caught["nltk/closest_ref_length+brevity_penalty"]
    assert minimal.shrunk
    assert len(minimal.input["hypotheses"]) == 1 and len(minimal.input["hypotheses"][0]) == 1
    assert "reference_length" in minimal.comparison.differences
    assert "## Unexplained disagreements" in render(result)


def test_an_entry_excuses_only_the_values_it_can_change():
    from conformance.crosscheck.comparison import Comparison
    from conformance.crosscheck.runner import classify

    payload = {"hypotheses": [["a", "a", "a", "a"]], "references": [[["a"]]]}  # exp smoothing applies: m_2 = 0
    check = CHECKS_BY_ID["sacrebleu/corpus_score:smooth=exp"]
    score_differs = Comparison(differences=["bleu * 100"])
    count_differs = Comparison(differences=["bleu * 100", "matches"])
    assert classify(check, payload, score_differs) == ("explained", ["sacrebleu-exp-smoothing"])
    assert classify(check, payload, count_differs)[0] == "unexplained"


def test_a_library_that_raises_disagrees():
    from dataclasses import replace

    from conformance.crosscheck.runner import classify

    def broken(payload, expected):
        raise ZeroDivisionError("division by zero")

    check = replace(CHECKS_BY_ID["nltk/corpus_bleu"], compare=broken)
    comparison = evaluate(check, PLAIN_BLEU)
    assert comparison.library["raised"] == "ZeroDivisionError: division by zero"
    assert classify(check, PLAIN_BLEU, comparison)[0] == "unexplained"


def test_missing_library_is_a_usage_error(monkeypatch, tmp_path, capsys):
    import importlib.util

    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None if name == "nltk" else real_find_spec(name))
    assert main(["crosscheck", "--against", "nltk", "--output", str(tmp_path / "d.md")]) == 2
    assert "nltk not installed" in capsys.readouterr().err


def test_shrinking_finds_the_minimal_input_satisfying_a_condition():
    """hypothesis.find searches the tool's inputs and shrinks: one segment, three plain tokens, nothing else."""
    from conformance.crosscheck.runner import shrink

    found = shrink("bleu-corpus-compute", lambda payload: any(len(h) >= 3 for h in payload["hypotheses"]), SEED)
    assert found == {"hypotheses": [["a", "a", "a"]], "references": [[[]]]}
    assert shrink("bleu-corpus-compute", lambda payload: False, SEED, examples=20) is None


# --- sentence BLEU and brevity penalty: the mechanisms the catalogue names, run directly ---------------


def sentence_payload(hypothesis, references, smoothing, **options):
    return {
        "hypothesis": hypothesis.split(),
        "references": [r.split() for r in references],
        "smoothing": smoothing,
        **options,
    }


@pytest.mark.parametrize("smoothing", ["none", "chen-cherry-1", "chen-cherry-2", "chen-cherry-3"])
@pytest.mark.parametrize("effective_order", [False, True])
@pytest.mark.parametrize(
    "hypothesis",
    [
        "a z b z c z a z",  # m_2 = 0: the NIST counter k is 1, 2, 3 at n = 2, 3, 4
        "a b z c a z b c",  # m_3 = 0: k = 1, 2 at n = 3, 4
        "a b c z a b c z",  # m_4 = 0: k = 1 at n = 4
        "a b c a b c",  # every order matched
    ],
)
def test_every_library_agrees_on_zero_match_orders_of_a_long_hypothesis(hypothesis, smoothing, effective_order):
    """Every order has n-grams (c >= max_order): with smoothing, sacreBLEU's and NLTK's scores equal the contract's
    for every method and effective order, the k counter included; only add-k's reported counts and NLTK's
    unsmoothed method0 differ, each explained by its catalogue entry."""
    from conformance.crosscheck.runner import classify

    payload = sentence_payload(hypothesis, ["a b c a b c", "c a b"], smoothing, effective_order=effective_order)
    for check in REFERENCE_CHECKS:
        if check.tool_id != "bleu-sentence-compute":
            continue
        comparison = evaluate(check, payload)
        outcome, ids = classify(check, payload, comparison)
        assert outcome in ("agreed", "explained"), (check.id, comparison.differences)
        if smoothing != "none":
            assert not {"bleu", "bleu * 100"} & set(comparison.differences), (
                check.id,
                comparison.contract,
                comparison.library,
            )
        if outcome == "explained":
            # every order matched, bp 1 (c = r = 6): sacreBLEU's percent-scale 100.00000000000004 is above 1
            above_one = (
                ["sacrebleu-sentence-bleu-above-one"]
                if hypothesis == "a b c a b c" and check.library == "sacrebleu"
                else []
            )
            counts = (
                ["sacrebleu-add-k-smoothed-counts"]
                if smoothing == "chen-cherry-2" and check.library == "sacrebleu"
                else []
            )
            method0 = ["nltk-method0-zero-precision"] if check.library == "nltk" else []
            assert sorted(ids) == sorted(counts + above_one + method0), (check.id, comparison.differences)


def test_sacrebleu_add_k_reports_smoothed_counts_past_its_early_return():
    from sacrebleu.metrics import BLEU

    score = BLEU.compute_bleu([3, 1, 0, 0], [4, 3, 2, 1], 4, 5, smooth_method="add-k", smooth_value=1)
    assert (score.counts, score.totals) == ([3, 2, 1, 1], [4, 4, 3, 2])
    nothing_matched = BLEU.compute_bleu([0, 0, 0, 0], [4, 3, 2, 1], 4, 5, smooth_method="add-k", smooth_value=1)
    assert (nothing_matched.score, nothing_matched.counts, nothing_matched.totals) == (0.0, [0, 0, 0, 0], [4, 3, 2, 1])
    payload = sentence_payload("the the the cat", ["the cat the mat ."], "chen-cherry-2")
    expected = oracle.execute("bleu-sentence-compute", "1.0.0", payload)
    check = CHECKS_BY_ID["sacrebleu/compute_bleu:smoothed"]
    comparison = check.compare(payload, expected)
    assert comparison.differences == ["matches", "totals"]
    assert expected["matches"] == [3, 1, 0, 0]  # the check hands compute_bleu copies: the contract's side is intact
    assert explaining(check.id, payload, comparison.differences) == ["sacrebleu-add-k-smoothed-counts"]


@pytest.mark.parametrize(
    "smoothing, nltk_bleu",
    [
        ("chen-cherry-1", (1 * 1 * 0.1) ** (1 / 4)),  # p_4 = 0.1 / max(1, 0)
        ("chen-cherry-2", (1 * 1 * 1 / 2) ** (1 / 4)),  # p_4 = (0 + 1) / (max(1, 0) + 1)
        ("chen-cherry-3", (1 * 1 * 1 / 2) ** (1 / 4)),  # p_4 = 1 / (2^1 * max(1, 0))
    ],
)
def test_nltk_gives_an_order_without_ngrams_a_precision(smoothing, nltk_bleu):
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    method = {"chen-cherry-1": "method1", "chen-cherry-2": "method2", "chen-cherry-3": "method3"}[smoothing]
    hypothesis, references = ["a", "b", "c"], [["a", "b", "c"]]
    score = sentence_bleu(
        references, hypothesis, weights=(1 / 4,) * 4, smoothing_function=getattr(SmoothingFunction(), method)
    )
    assert score == pytest.approx(nltk_bleu, rel=1e-12)
    contract = oracle.execute(
        "bleu-sentence-compute", "1.0.0", {"hypothesis": hypothesis, "references": references, "smoothing": smoothing}
    )
    assert contract["bleu"] == (1.0 if smoothing == "chen-cherry-2" else 0.0)


def test_nltk_method0_puts_the_smallest_double_for_a_zero_precision():
    import sys
    import warnings

    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        score = sentence_bleu(
            [["a", "b", "c", "d"]],
            ["a", "b", "d", "c"],
            weights=(1 / 4,) * 4,
            smoothing_function=SmoothingFunction().method0,
        )
    # p = 4/4, 2/3, 0/2, 0/1: two orders replaced by sys.float_info.min
    assert score == pytest.approx((2 / 3 * sys.float_info.min**2) ** (1 / 4), rel=1e-9) and score > 0
    assert len(caught) == 2


@pytest.mark.parametrize(
    "check_id", ["sacrebleu/closest_ref_len+bp", "sacrebleu/compute_bleu:smoothed", "sacrebleu/sentence_score:smoothed"]
)
def test_sacrebleu_brevity_penalty_is_1_when_c_and_r_are_0(check_id):
    check = CHECKS_BY_ID[check_id]
    payload = {"hypothesis": [], "references": [["a"], []], "smoothing": "chen-cherry-1"}
    if check.tool_id == "bleu-brevity-penalty":
        payload = {"candidate_lengths": [0, 0], "reference_lengths": [[3, 0], [0]]}
    comparison = evaluate(check, payload)
    assert comparison.differences == ["brevity_penalty"]
    assert (comparison.contract["brevity_penalty"], comparison.library["brevity_penalty"]) == (0.0, 1.0)
    assert len(explaining(check.id, payload, comparison.differences)) == 1


def test_brevity_penalty_is_the_same_double_on_every_side():
    """sacreBLEU, NLTK and the oracle all compute exp(1 - r/c) with one division: equal, not merely close."""
    payload = {"candidate_lengths": [12, 1000, 7], "reference_lengths": [[13, 2], [1048576, 999], [9, 5]]}
    for check_id in ("sacrebleu/closest_ref_len+bp", "nltk/closest_ref_length+brevity_penalty:lengths"):
        comparison = evaluate(CHECKS_BY_ID[check_id], payload)
        assert comparison.agrees
        assert comparison.contract["brevity_penalty"] == comparison.library["brevity_penalty"]


def test_planted_effective_order_bug_fails_the_crosscheck(monkeypatch):
    """An oracle that ignores effective_order: sacreBLEU's compute_bleu and sentence_score must catch it."""
    real_execute = oracle.execute

    def no_effective_order(tool_id, version, payload):
        if tool_id == "bleu-sentence-compute":
            payload = {**payload, "effective_order": False}
        return real_execute(tool_id, version, payload)

    monkeypatch.setattr(oracle, "execute", no_effective_order)
    result = run_crosscheck(["sacrebleu"], 30, SEED, find_reproducers=False)
    assert {"sacrebleu/compute_bleu:smoothed", "sacrebleu/sentence_score:smoothed"} <= {
        reproducer.check.id for reproducer in result.unexplained
    }


# --- chrF and chrF with its components: the sibling adapters -------------------------------------------

from conformance.crosscheck.adapters import chrf_components as chrf_components_adapter  # noqa: E402
from oracle.chrf_components import TOOL as chrf_components_tool  # noqa: E402
from oracle.chrf_compute import TOOL as chrf_compute_tool  # noqa: E402

CHRF_COMPUTE_ID, CHRF_COMPONENTS_ID = chrf_compute_tool.id, chrf_components_tool.id
PLAIN_INPUTS.update({CHRF_COMPUTE_ID: PLAIN_CHRF, CHRF_COMPONENTS_ID: PLAIN_CHRF})

# Every reference has every order its hypothesis has, up to 10 characters and 4 words with whitespace kept or
# removed: no sacreBLEU entry can apply, so its values must equal the contract's at every (char_order, word_order).
EVERY_ORDER = {
    "hypotheses": ["the cat sat on the mat.", "a\u3000cat\tsat", "\u00c9T\u00c9 \u03a3\u03a3"],
    "references": [
        "the cat sat on a mat .",
        "a cat  sat down\u2028",
        "\u00c9T\u00c9 \u03a3 \u03a3 \u03a3 \u03a3 \u03a3",
    ],
}


def classified(check_id: str, payload: dict) -> tuple[str, list[str]]:
    from conformance.crosscheck.runner import classify

    check = CHECKS_BY_ID[check_id]
    return classify(check, payload, evaluate(check, payload))


def chrf_checks(tool_id: str) -> list:
    return [check for check in CHECKS if check.tool_id == tool_id and check.library in AVAILABLE]


@pytest.mark.parametrize("whitespace", [False, True])
@pytest.mark.parametrize("orders", chrf_components_adapter.ORDER_PAIRS, ids=lambda pair: f"{pair[0]}-{pair[1]}")
def test_every_order_pair_agrees_with_sacrebleu_where_no_entry_applies(orders, whitespace):
    """Generated runs cover most of the 54 pairs; this covers each, with whitespace kept and removed."""
    for lowercase in (False, True):
        payload = {
            **EVERY_ORDER,
            "char_order": orders[0],
            "word_order": orders[1],
            "whitespace": whitespace,
            "lowercase": lowercase,
            "beta": 3,
        }
        for check in chrf_checks(CHRF_COMPONENTS_ID):
            outcome, _ = classified(check.id, payload)
            assert outcome != "unexplained", (check.id, payload, evaluate(check, payload).differences)
            if check.library == "sacrebleu":
                comparison = evaluate(check, payload)
                assert comparison.agrees, (check.id, comparison.differences)
                assert explaining(check.id, payload) == []


@pytest.mark.parametrize("whitespace", [False, True])
@pytest.mark.parametrize("orders", chrf_components_adapter.ORDER_PAIRS, ids=lambda pair: f"{pair[0]}-{pair[1]}")
def test_every_order_pair_is_explained_where_references_lack_orders(orders, whitespace):
    payload = {
        "hypotheses": ["ab cd", "abcabcabcab ab ab ab ab", "x y"],
        "references": ["ab", "abcabcabcab ab ab ab ab", ""],
        "char_order": orders[0],
        "word_order": orders[1],
        "whitespace": whitespace,
    }
    for check in chrf_checks(CHRF_COMPONENTS_ID):
        assert classified(check.id, payload)[0] != "unexplained", check.id
    # the empty reference lacks every order "x y" has: sacreBLEU's hypothesis counts are 0 there
    outcome, ids = classified("sacrebleu/chrf_statistics:orders", payload)
    assert (outcome, ids) == ("explained", ["sacrebleu-chrf-orders-zeroes-hypothesis-ngrams"])


def test_sacrebleu_whitespace_true_keeps_every_code_point():
    from sacrebleu.metrics import CHRF

    text = "\u3000x\u2028y\t \u0085"
    payload = {"hypotheses": [text], "references": [text], "char_order": 2, "whitespace": True}
    assert evaluate(CHECKS_BY_ID["sacrebleu/chrf_statistics:orders"], payload).agrees
    # leading, trailing and repeated whitespace all counted: n-grams over the unchanged line
    statistics = CHRF(char_order=2, whitespace=True)._extract_corpus_statistics([text], [[text]])[0]
    assert statistics[:3] == [len(text)] * 3 and statistics[3:] == [len(text) - 1] * 3
    output = oracle.execute(CHRF_COMPONENTS_ID, "1.0.0", payload)
    assert [row["hypothesis_ngrams"] for row in output["statistics"]] == [len(text), len(text) - 1]


def test_sacrebleu_zeroes_the_hypothesis_count_of_an_order_the_reference_lacks():
    payload = {"hypotheses": ["ab"], "references": ["a"], "char_order": 2}
    comparison = evaluate(CHECKS_BY_ID["sacrebleu/chrf_statistics:orders"], payload)
    assert comparison.differences == ["segments[0].char2.hypothesis_ngrams", "statistics.char2.hypothesis_ngrams"]
    assert comparison.library["segments[0].char2.hypothesis_ngrams"] == 0
    # one segment: the order is not effective either way, so the scores agree
    assert evaluate(CHECKS_BY_ID["sacrebleu/chrf:orders"], payload).agrees


def test_corpus_order_condition_follows_the_whitespace_option():
    """With whitespace kept "a b" has a character 3-gram its reference "ab" lacks; removed, it has none."""
    kept = {"hypotheses": ["a b", "abc"], "references": ["ab", "abc"], "char_order": 3, "whitespace": True}
    removed = {**kept, "whitespace": False}
    assert classified("sacrebleu/chrf:orders", kept) == ("explained", ["sacrebleu-chrf-orders-drops-unmatched-orders"])
    assert not chrf_components_adapter.orders_missing_from_a_reference(removed)
    assert evaluate(CHECKS_BY_ID["sacrebleu/chrf:orders"], removed).agrees


def test_nltk_whitespace_set_needs_whitespace_removed():
    payload = {"hypotheses": ["a"], "references": ["a\u001c"], "char_order": 1}
    assert classified("nltk/chrf_statistics:orders", payload) == ("explained", ["nltk-chrf-orders-whitespace-set"])
    kept = {"hypotheses": ["a\u001c"], "references": ["a\u001c b"], "char_order": 2, "whitespace": True}
    assert evaluate(CHECKS_BY_ID["nltk/chrf_statistics:orders"], kept).agrees
    assert explaining("nltk/chrf_statistics:orders", kept) == []


def test_nltk_chrf_agrees_on_character_unigrams_of_one_segment():
    """NLTK's one F of one order is the contract's F: the definition entry must not excuse a difference there."""
    unigrams = {"hypotheses": ["abc a"], "references": ["abb"], "char_order": 1, "beta": 1}
    assert evaluate(CHECKS_BY_ID["nltk/corpus_chrf:orders"], unigrams).agrees
    assert explaining("nltk/corpus_chrf:orders", unigrams) == []
    bigrams = {**unigrams, "char_order": 2}
    assert classified("nltk/corpus_chrf:orders", bigrams) == ("explained", ["nltk-chrf-orders-definition"])
    words = {**unigrams, "word_order": 1}
    assert evaluate(CHECKS_BY_ID["nltk/corpus_chrf:orders"], words).not_comparable


def test_nltk_statistics_give_the_chrf_segment_score_where_every_order_matched():
    payload = {"hypotheses": ["abcdefg xy"], "references": ["abcdefgh"], "beta": 3}
    comparison = evaluate(CHECKS_BY_ID["nltk/chrf_statistics:chrf6"], payload)
    assert comparison.agrees
    assert "segment[0].score / 100 (F of NLTK's P and R)" in comparison.contract


def test_planted_whitespace_bug_fails_the_chrf_crosscheck(monkeypatch):
    """An oracle that strips the texts before keeping their whitespace: sacreBLEU and NLTK must both catch it."""
    real_execute = oracle.execute

    def stripped(tool_id, version, payload):
        if tool_id == CHRF_COMPONENTS_ID and payload.get("whitespace"):
            payload = {
                **payload,
                "hypotheses": [h.strip() for h in payload["hypotheses"]],
                "references": [r.strip() for r in payload["references"]],
            }
        return real_execute(tool_id, version, payload)

    monkeypatch.setattr(oracle, "execute", stripped)
    payload = {"hypotheses": ["a "], "references": ["a "], "char_order": 1, "whitespace": True}
    for check_id in ("sacrebleu/chrf_statistics:orders", "nltk/chrf_statistics:orders"):
        assert classified(check_id, payload)[0] == "unexplained", check_id


def test_sacrebleu_command_line_strips_the_trailing_whitespace_the_api_keeps(tmp_path):
    """Why the checks call the API: the command line rstrip()s each line before CHRF(whitespace=True) sees it."""
    import subprocess
    import sys

    (tmp_path / "hyp.txt").write_text("a \u3000\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("a\n", encoding="utf-8")
    command = [
        sys.executable,
        "-m",
        "sacrebleu",
        str(tmp_path / "ref.txt"),
        "-i",
        str(tmp_path / "hyp.txt"),
        "-m",
        "chrf",
        "--chrf-whitespace",
        "--chrf-char-order",
        "1",
        "-b",
        "-w",
        "6",
    ]
    assert subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip() == "100.000000"
    payload = {"hypotheses": ["a \u3000"], "references": ["a"], "char_order": 1, "whitespace": True}
    assert oracle.execute(CHRF_COMPONENTS_ID, "1.0.0", payload)["score"] == "71.428571"
    assert evaluate(CHECKS_BY_ID["sacrebleu/chrf:orders"], payload).agrees
