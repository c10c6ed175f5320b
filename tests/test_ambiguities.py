"""The ambiguity catalogue: verbatim quotes, a fresh report, detectors that fire exactly on
the open points, and no fixture that depends on one."""

from __future__ import annotations

import pytest
import readings_by_id as readings

import oracle
import oracle.bleu_ngrams_count
import oracle.validation
from conformance import compare, fixtures, open_points
from conformance.model import TargetResponse
from conformance.open_points import CATALOGUE
from conformance.open_points import catalogue as ambiguities
from conformance.open_points.model import contract_texts
from oracle.errors import HTTP_STATUS

BLEU_TOOLS = ("bleu-ngrams-count", "bleu-corpus-compute")
CHRF = "chrf-plus-plus-compute"
V = "1.0.0"


def test_report_is_generated_from_the_catalogue():
    committed = ambiguities.REPORT_PATH.read_text(encoding="utf-8")
    assert committed == ambiguities.render(), "reports/ambiguities.md is stale: run python -m conformance.open_points"


def test_check_mode_reports_a_stale_file(tmp_path):
    stale = tmp_path / "ambiguities.md"
    stale.write_text("# hand-edited\n", encoding="utf-8")
    assert ambiguities.main(["--check", "--output", str(stale)]) == 1
    assert ambiguities.main(["--output", str(stale)]) == 0
    assert ambiguities.main(["--check", "--output", str(stale)]) == 0


def test_ids_are_unique_and_numbered_in_order():
    ids = [entry.id for entry in CATALOGUE]
    assert ids == [f"A{i}" for i in range(1, len(ids) + 1)]


@pytest.mark.parametrize("entry", CATALOGUE, ids=lambda e: e.id)
def test_entry_is_complete(entry):
    assert entry.title and entry.open and entry.avoidance and entry.oracle_reading
    assert entry.readings, "each entry lists its readings"
    assert entry.quotes, "each entry quotes the contract text it is about"


@pytest.mark.parametrize(
    "entry, quote",
    [(e, q) for e in CATALOGUE for q in e.quotes],
    ids=lambda value: getattr(value, "id", None) or getattr(value, "text", "")[:30],
)
def test_quote_is_verbatim(entry, quote):
    """Every quote appears verbatim in some contract (so a reworded contract shows up here)."""
    contracts = [oracle.load_contract(t, v) for t, v in oracle.available()]
    assert any(quote.text in text for contract in contracts for text in contract_texts(contract, quote.where)), (
        f"{entry.id}: {quote.text!r} is in no contract's {quote.where}"
    )


@pytest.mark.parametrize("entry", CATALOGUE, ids=lambda e: e.id)
def test_a_reading_or_detector_names_parts_of_the_tools_it_applies_to(entry):
    """A record whose reading swaps a part of the oracle applies to some tool, and on every tool it
    applies to the swap works: renaming or removing the rule it names fails here, not silently."""
    tools = [tool for tool in oracle.tools() if entry.applies_to(tool)]
    assert tools, f"{entry.id} applies to no tool"
    for tool in tools:
        if entry.alternative is not None:
            variant, _ = entry.alternative(tool, {"hypotheses": [], "references": []})
            assert variant is not tool or entry.id == "A10"


def test_the_eight_known_open_points_are_catalogued():
    titles = {entry.id: entry.title.lower() for entry in CATALOGUE}
    assert "reference tokens" in titles["A1"]
    assert "serialisation" in titles["A2"]
    assert "lone surrogates" in titles["A3"]
    assert "corpus sums" in titles["A4"]
    assert "tolowercase" in titles["A5"]
    assert "schema rule" in titles["A6"]
    assert "validation order" in titles["A7"]
    assert "libm" in titles["A8"]


# --- detectors: each fires on an input its open point is about, and not on its safe twin ----


def bleu(hypotheses, references, **options):
    return {"hypotheses": hypotheses, "references": references, **options}


# Each row: open point, tool, an input touching it, a near twin on which every reading agrees.
# The numbers come from the contracts' limits: max_total_tokens 50,000, max_total_token_bytes
# 1,048,576, max_output_bytes 1,000,000, max_text_bytes 65,536.
DETECTOR_CASES = [
    # A1: 10 hypothesis tokens + 49,995 reference tokens = 50,005 > 50,000 >= 10; the twin has 49,990.
    ("A1", "bleu-corpus-compute", bleu([["a"] * 10], [[["a"] * 49_995]]), bleu([["a"] * 10], [[["a"] * 49_990]])),
    # A1 in bytes: 8 hypothesis tokens of 1 byte + 8,200 reference tokens of 128 bytes = 1,049,608 > 1,048,576.
    ("A1", "bleu-ngrams-count", bleu([["a"] * 8], [[["b" * 128] * 8_200]]), bleu([["a"] * 8], [[["b" * 128] * 8_000]])),
    ("A3", "bleu-ngrams-count", bleu([["\ud800"]], [[["a"]]]), bleu([["\U00010000"]], [[["a"]]])),
    # A4: segment 2's reference "b" lacks character bigrams that its hypothesis "bc" has, while
    # segment 1 has bigrams on both sides; its twin gives segment 2 a reference with a bigram.
    (
        "A4",
        CHRF,
        {"hypotheses": ["ab", "bc"], "references": ["ab", "b"]},
        {"hypotheses": ["ab", "bc"], "references": ["ab", "bd"]},
    ),
    # A5: U+0295 is in the lowercase difference table; unassigned U+0378 is not assigned in Unicode 14.
    (
        "A5",
        CHRF,
        {"hypotheses": ["\u0295"], "references": ["a"], "lowercase": True},
        {"hypotheses": ["\u0295"], "references": ["a"], "lowercase": False},
    ),
    (
        "A5",
        CHRF,
        {"hypotheses": ["\u0378"], "references": ["a"], "lowercase": True},
        {"hypotheses": ["\u00c9"], "references": ["a"], "lowercase": True},
    ),
    ("A9", "bleu-corpus-compute", bleu([["a"]], [[["a"]]], max_order=4.0), bleu([["a"]], [[["a"]]], max_order=4)),
    (
        "A9",
        CHRF,
        {"hypotheses": ["a"], "references": ["a"], "beta": 2.0},
        {"hypotheses": ["a"], "references": ["a"], "beta": 2},
    ),
    ("A10", "bleu-ngrams-count", bleu([["a"]], [[["a"]], [["b"]]]), bleu([["a"], ["b"]], [[["a"]]])),
    # A14: 65,535 bytes of ASCII plus one lone surrogate: 65,538 bytes counting it as 3, 65,535 without.
    (
        "A14",
        CHRF,
        {"hypotheses": ["a" * 65_535 + "\udc00"], "references": [""]},
        {"hypotheses": ["a" * 60_000 + "\udc00"], "references": [""]},
    ),
]


@pytest.mark.parametrize(
    "point, tool_id, touching, safe", DETECTOR_CASES, ids=[f"{c[0]}-{c[1]}-{i}" for i, c in enumerate(DETECTOR_CASES)]
)
def test_detector_fires_on_the_open_point_only(point, tool_id, touching, safe):
    assert point in readings.depends_on_open_point(tool_id, V, touching)
    assert point not in readings.depends_on_open_point(tool_id, V, safe)


def test_a2_fires_between_compact_and_verbose_serialisations():
    """The largest corpus of identical 12-token segments whose detail "ngrams" output is within
    1,000,000 bytes as compact JSON: its indented, enveloped form is larger, so A2 fires. At a
    fifth of that size even the 4-space indented form (about three times the compact one)
    fits: A2 does not fire."""

    def payload(segments: int) -> dict:
        hyp = [f"w{i}" for i in range(12)]
        return bleu([hyp] * segments, [[hyp]] * segments, detail="ngrams")

    limits = oracle.load_contract("bleu-ngrams-count", V)["limits"]

    def compact_size(segments: int) -> int:
        output = oracle.bleu_ngrams_count.compute(payload(segments))
        return oracle.validation.output_size(output)

    # from 100 to 999 segments every row's segment number has three digits
    per_segment = compact_size(101) - compact_size(100)
    largest = 100 + (limits["max_output_bytes"] - compact_size(100)) // per_segment
    assert compact_size(largest) <= limits["max_output_bytes"] < compact_size(largest + 1)
    assert readings.depends_on_open_point("bleu-ngrams-count", V, payload(largest)) == ["A2"]
    assert readings.depends_on_open_point("bleu-ngrams-count", V, payload(largest // 5)) == []
    # the oracle answers, the verbose reading rejects: both behaviours are there
    kinds = {b.error_code for b in readings.behaviours("bleu-ngrams-count", V, payload(largest))}
    assert kinds == {None, "limit_exceeded"}


MALFORMED = (
    None,
    [],
    "x",
    {"hypotheses": 3},
    {"hypotheses": [[1]], "references": [[[None]]]},
    {"hypotheses": ["a", 3], "references": [None]},
    {"hypotheses": 3, "references": "a"},
)


def test_malformed_inputs_touch_no_open_point_and_get_invalid_input():
    for payload in MALFORMED:
        for tool_id in (*BLEU_TOOLS, CHRF):
            assert readings.depends_on_open_point(tool_id, V, payload) == []
            assert readings.acceptable_error_codes(tool_id, V, payload) == {"invalid_input"}


# --- readings: the alternative behaviours -----------------------------------------------


def test_a1_other_reading_answers_where_the_oracle_rejects():
    payload = DETECTOR_CASES[0][2]
    found = readings.behaviours("bleu-corpus-compute", V, payload)
    assert found[0].reading == "oracle" and found[0].error_code == "limit_exceeded"
    assert [b.output["candidate_length"] for b in found[1:]] == [10]


def test_a4_other_reading_is_sacrebleus_corpus_score():
    sacrebleu = pytest.importorskip("sacrebleu")
    payload = DETECTOR_CASES[3][2]
    outputs = readings.expected_outputs(CHRF, V, payload)
    assert len(outputs) == 2 and outputs[0] == oracle.execute(CHRF, V, payload)
    score = sacrebleu.CHRF(word_order=2).corpus_score(payload["hypotheses"], [payload["references"]]).score
    numerator, denominator = map(int, outputs[1]["score_fraction"].split("/"))
    assert abs(numerator / denominator - score) < 1e-9
    assert outputs[0]["segment_scores"] == outputs[1]["segment_scores"]


def test_a6_both_codes_for_a_segment_count_over_the_limit():
    payload = bleu([["a"]] * 1001, [[["a"]]] * 1001)
    assert readings.acceptable_error_codes("bleu-corpus-compute", V, payload) == {"invalid_input", "limit_exceeded"}
    chrf = {"hypotheses": ["a"] * 257, "references": ["a"] * 257}
    assert readings.acceptable_error_codes(CHRF, V, chrf) == {"invalid_input", "limit_exceeded"}


def test_a7_every_broken_rule_gives_an_acceptable_code_for_bleu_only():
    # max_order 9 (schema: invalid_input) and a 129-byte token of 43 three-byte code points (limit_exceeded)
    payload = bleu([["\u20ac" * 43]], [[["a"]]], max_order=9)
    assert readings.acceptable_error_codes("bleu-ngrams-count", V, payload) == {"invalid_input", "limit_exceeded"}
    # one broken rule: one code
    assert readings.acceptable_error_codes("bleu-ngrams-count", V, bleu([["a"]], [[["a"]]], max_order=9)) == {
        "invalid_input"
    }


def test_chrf_follows_its_stated_order():
    # 65,537 bytes of text (limit_exceeded) and beta 0 (invalid_input): bytes come first in the stated order
    payload = {"hypotheses": ["a" * 65_537], "references": [""], "beta": 0}
    assert readings.acceptable_error_codes(CHRF, V, payload) == {"limit_exceeded"}


# --- no fixture depends on an open point --------------------------------------------------

FIXTURE_CASES = fixtures.load_cases()


def _response_of(behaviour: readings.Behaviour) -> TargetResponse:
    if behaviour.output is not None:
        return TargetResponse("result", result=behaviour.output)
    return TargetResponse("rejection", status=HTTP_STATUS[behaviour.error_code], error_code=behaviour.error_code)


@pytest.mark.parametrize("case", FIXTURE_CASES, ids=[c.case_id for c in FIXTURE_CASES])
def test_fixture_depends_on_no_open_point_the_comparison_cannot_absorb(case):
    """Issue 3 item 4. A fixture may touch an open point only where the comparison computes its
    readings (ambiguities: compared), and then an implementation of ANY reading must pass it."""
    points = readings.depends_on_open_point(case.tool_id, case.version, case.input)
    if not points:
        return
    uncompared = [p for p in points if not open_points.BY_ID[p].compared]
    assert not uncompared, f"{case.case_id} depends on open point(s) {uncompared} ({case.description})"
    for behaviour in readings.behaviours(case.tool_id, case.version, case.input):
        verdict = compare.check(case, _response_of(behaviour))
        assert verdict.outcome == "passed", (
            f"{case.case_id} touches {points}: an implementation of reading {behaviour.reading!r} fails it: "
            f"{verdict.message}"
        )
