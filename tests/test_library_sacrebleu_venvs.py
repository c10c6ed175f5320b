"""Libraries that install a package named ``sacrebleu`` over the real one, each in a virtual environment of its own
(conformance/implementations/_bridge.py): sacrebleu-macrof 2.0.1 (sacreBLEU 2.0.0's BLEU and chrF) and sacreBLEU
1.5.1. The bridge itself is tested on the standard library's json module; the mechanisms these rows show are
tested on hand-computed inputs without the libraries; the libraries' own answers skip where their environment is
absent (the reason says the command creating it; `-m slow` creates them)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import oracle
from conformance import compare
from conformance.crosscheck.catalogue import explaining_failure
from conformance.divergences import BY_ID, name_crash, variant
from conformance.implementations import NotApplicable, library
from conformance.implementations._bridge import LibraryError, LineBridge, Remote, Venv
from conformance.model import Case, Expectation
from conformance.targets import make_target
from oracle.registry import tool

V = "1.0.0"
CORPUS, SENTENCE, CHRF = "bleu-corpus-compute", "bleu-sentence-compute", "chrf-compute"
MACROF, OLD = "sacrebleu-macrof", "sacrebleu-1.5"
BRIDGE_FILE = Path(__file__).resolve().parents[1] / "conformance" / "implementations" / "_bridge.py"


def installed(name: str):
    missing = library(name).missing()
    return pytest.mark.skipif(bool(missing), reason=f"{name}: {missing}")


def named(tool_id: str, payload: dict, answer: dict, pointer: str, out_of_bounds: bool = False) -> str | None:
    found = explaining_failure(tool_id, payload, pointer, answer, out_of_bounds)
    return found.id if found is not None else None


def judged(name: str, tool_id: str, payload: dict):
    case = Case(tool_id, V, "x", "fixture", "valid", payload, Expectation("output"))
    response = make_target(f"implementation:{name}").call(tool_id, V, payload)
    return response, compare.judge(case, compare.expect(case), response)


def example(tool_id: str, number: int) -> dict:
    return json.loads(Path(f"contracts/{tool_id}/{V}.json").read_text(encoding="utf-8"))["examples"][number]


# --- the bridge, on the standard library's json module ---------------------------------------------------------


@pytest.fixture
def remote_json():
    bridge = LineBridge(
        [sys.executable, "-I", str(BRIDGE_FILE), "json"], "the bridge to json", seconds=30, size=1 << 16
    )
    yield Remote(bridge, (), None, "json")
    bridge.close()


def test_a_call_answers_its_json_value_and_an_object_its_public_json_attributes(remote_json):
    assert remote_json.dumps([1, "a"]) == '[1, "a"]'
    assert remote_json.loads('{"a": [1, 2.5]}') == {"a": [1, 2.5]}
    decoder = remote_json.JSONDecoder(strict=False)
    assert decoder.strict is False  # an attribute it had when made, read here
    assert decoder.decode("[3]") == [3]  # a method called there


def test_the_librarys_exception_is_raised_here_with_its_traceback(remote_json):
    with pytest.raises(ValueError, match="Out of range float values") as raised:  # a built-in: the same type
        remote_json.dumps(float("inf"), allow_nan=False)
    assert type(raised.value) is ValueError and "encoder" in str(raised.value.__cause__)  # json's own frames
    with pytest.raises(LibraryError, match="JSONDecodeError: Expecting value"):  # not a built-in: named
        remote_json.loads("x")


def test_a_dead_bridge_is_a_runtime_error_and_the_next_call_starts_another():
    bridge = LineBridge([sys.executable, "-c", "import sys; sys.stdin.readline()"], "a bridge that exits", seconds=10)
    with pytest.raises(RuntimeError, match="exited"):
        bridge.ask({"path": []})
    with pytest.raises(RuntimeError, match="exited"):
        bridge.ask({"path": []})
    bridge.close()


def test_a_missing_environment_says_the_command_creating_it(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    venv = Venv("nothing-here", "sacrebleu==1.5.1", "sacrebleu")
    assert venv.path == tmp_path / "mt-metric-conformance" / "venvs" / "nothing-here"
    missing = venv.missing()
    assert missing.startswith("not installed: sacrebleu==1.5.1") and str(venv.path) in missing
    assert f"-m venv {venv.path} && {venv.python} -m pip install -q sacrebleu==1.5.1" in missing
    assert venv.version() == ""
    assert "$HOME" in venv.install_hint() and str(tmp_path) not in venv.install_hint()


def test_both_rows_declare_their_environment_and_no_machine_path():
    for name in (MACROF, OLD):
        declared = library(name).implementation
        assert declared.extra == "" and "python3 -m venv" in declared.install and "/root" not in declared.install


# --- the mechanisms these rows show, each model on a hand-computed input (no library needed) -------------------

FIVE = {"hypotheses": [["a", "b", "c", "d", "e"]], "references": [[["a", "b", "c", "d", "f"]]]}


def test_a_score_averaged_over_four_orders():
    """ "a b c d e" against "a b c d f", max_order 6: m = [4, 3, 2, 1, 0, 0], l = [5, 4, 3, 2, 1, 0], c = r = 5. The
    contract's bleu is 0 (m_5 = 0); scored over orders 1..4 it is (4/5 * 3/4 * 2/3 * 1/2)^(1/4) = (1/5)^(1/4)."""
    payload = {**FIVE, "max_order": 6}
    expected = oracle.execute(CORPUS, V, payload)
    assert expected["bleu"] == 0 and expected["matches"] == [4, 3, 2, 1, 0, 0]
    model = variant(tool(CORPUS, V), payload, frozenset({"score-averaged-over-four-orders"}))
    assert model["bleu"] == pytest.approx(0.2**0.25, rel=1e-15) and model["totals"] == [5, 4, 3, 2, 1, 0]
    assert named(CORPUS, payload, {**expected, "bleu": 0.2**0.25}, "/bleu") == "score-averaged-over-four-orders"


def test_below_four_orders_that_score_raises_index_error():
    payload = {**FIVE, "max_order": 2}
    found = name_crash(tool(CORPUS, V), payload, "raised IndexError", MACROF)
    assert found is not None and found.id == "score-averaged-over-four-orders"
    assert name_crash(tool(CORPUS, V), FIVE, "raised IndexError", MACROF) is None  # max_order 4: no crash


def test_above_the_bound_with_the_four_orders_is_both_mechanisms():
    """Seven tokens against themselves, max_order 8: l_8 = 0, so the contract's bleu is 0; on orders 1..4 every
    precision is 1 and the percent-scale exp(ln 100) / 100 is 1 + 2^-51, above the schema's maximum 1."""
    tokens = list("abcdefg")
    payload = {"hypotheses": [tokens], "references": [[tokens]], "max_order": 8}
    expected = oracle.execute(CORPUS, V, payload)
    assert expected["bleu"] == 0
    answer = {**expected, "bleu": 1 + 2**-51}
    assert named(CORPUS, payload, answer, "/bleu", out_of_bounds=True) == (
        "percent-scale-rounding + score-averaged-over-four-orders"
    )


def test_an_empty_reference_dropped_changes_r_and_all_empty_raises():
    """An empty hypothesis against [] and ["a"]: the contract's r is 0 (0 away from c = 0); without the empty
    reference it is 1. Only empty references: an EOFError (sacreBLEU 1.x) or RuntimeError (2.0.0)."""
    payload = {"hypotheses": [[]], "references": [[[], ["a"]]]}
    expected = oracle.execute(CORPUS, V, payload)
    assert expected["reference_length"] == 0 and expected["brevity_penalty"] == 0
    assert named(CORPUS, payload, {**expected, "reference_length": 1}, "/reference_length") == (
        "empty-reference-dropped"
    )
    for raised in ("EOFError", "RuntimeError"):
        found = name_crash(tool(CORPUS, V), {"hypotheses": [["a"]], "references": [[[]]]}, f"raised {raised}")
        assert found is not None and found.id == "empty-reference-dropped"


def test_an_empty_reference_string_raises_in_chrf():
    payload = {"hypotheses": ["a", "b"], "references": ["a", ""]}
    assert oracle.execute(CHRF, V, payload)["segment_scores"] == ["100.000000", "0.000000"]
    found = name_crash(tool(CHRF, V), payload, "raised RuntimeError", MACROF)
    assert found is not None and found.id == "empty-reference-string-raises"
    assert name_crash(tool(CHRF, V), {**payload, "references": ["a", " "]}, "raised RuntimeError") is None


NOTHING_MATCHED = {"hypothesis": ["a", "b", "c", "d"], "references": [["e", "f", "g", "h"]]}


@pytest.mark.parametrize(
    "smoothing, score",
    [
        # p_n = 0.1 / l_n for l = [4, 3, 2, 1]: 0.1 * (1/24)^(1/4)
        ("chen-cherry-1", 0.1 * (1 / 24) ** 0.25),
        # p_n = 1 / (2^n l_n): 1/8, 1/12, 1/16, 1/16, product 1/24576
        ("chen-cherry-3", (1 / 24576) ** 0.25),
    ],
)
def test_a_smoothed_score_when_nothing_matched(smoothing, score):
    payload = {**NOTHING_MATCHED, "smoothing": smoothing}
    expected = oracle.execute(SENTENCE, V, payload)
    assert expected["bleu"] == 0  # m_1 = 0
    model = variant(tool(SENTENCE, V), payload, frozenset({"smoothed-score-when-nothing-matched"}))
    assert model["bleu"] == pytest.approx(score, rel=1e-14)
    assert named(SENTENCE, payload, {**expected, "bleu": score}, "/bleu") == "smoothed-score-when-nothing-matched"


def test_add_one_reported_in_the_counts_also_when_nothing_matched():
    """chen-cherry-2, nothing matched: the contract's raw m = [0, 0, 0, 0], l = [4, 3, 2, 1]; 1.x reports the
    lists it smoothed in place, [0, 1, 1, 1] and [4, 4, 3, 2] (2.x returns early, before adding)."""
    payload = {**NOTHING_MATCHED, "smoothing": "chen-cherry-2"}
    expected = oracle.execute(SENTENCE, V, payload)
    answer = {**expected, "matches": [0, 1, 1, 1], "totals": [4, 4, 3, 2]}
    assert named(SENTENCE, payload, answer, "/matches/1") == "add-k-reported-in-counts-without-a-match"
    early = variant(tool(SENTENCE, V), payload, frozenset({"add-k-reported-in-counts"}))
    assert early["matches"] == [0, 0, 0, 0]  # the 2.x mechanism: nothing added when nothing matched


def test_the_new_mechanisms_are_shown_by_these_rows_only():
    assert BY_ID["score-averaged-over-four-orders"].libraries == (MACROF,)
    assert set(BY_ID["empty-reference-dropped"].libraries) == {MACROF, OLD}
    for mechanism in ("smoothed-score-when-nothing-matched", "add-k-reported-in-counts-without-a-match"):
        assert BY_ID[mechanism].libraries == (OLD,)


# --- sacrebleu-macrof 2.0.1 -------------------------------------------------------------------------------------


@installed(MACROF)
def test_macrof_answers_the_contract_example_as_the_contract_does():
    found = example(CORPUS, 1)  # the three-segment example, six decimals
    response, verdict = judged(MACROF, CORPUS, found["input"])
    assert verdict.outcome == "passed", verdict.message
    assert response.result == found["output"]


@installed(MACROF)
def test_macrof_scores_over_four_orders_and_crashes_below():
    answer = library(MACROF).execute(CORPUS, V, {**FIVE, "max_order": 6})
    assert answer["bleu"] == pytest.approx(0.2**0.25, rel=1e-12) and answer["matches"] == [4, 3, 2, 1, 0, 0]
    with pytest.raises(IndexError):
        library(MACROF).execute(CORPUS, V, {**FIVE, "max_order": 2})
    response = make_target(f"implementation:{MACROF}").call(CORPUS, V, {**FIVE, "max_order": 2})
    assert response.kind == "transport_error" and response.fault == "raised IndexError"
    assert "compute_bleu" in response.raw  # the library's own traceback, from its environment


@installed(MACROF)
def test_macrof_sentence_orders_used_is_not_expressed_above_four():
    payload = {"hypothesis": list("abcdef"), "references": [list("abcdef")], "smoothing": "none", "max_order": 6}
    answer = library(MACROF).execute(SENTENCE, V, payload)
    assert "orders_used" not in answer.output and answer.output["matches"] == [6, 5, 4, 3, 2, 1]


@installed(MACROF)
def test_macrof_drops_an_empty_reference_and_fails_on_only_empty_ones():
    answer = library(MACROF).execute(CORPUS, V, {"hypotheses": [[]], "references": [[[], ["a"]]]})
    assert answer["reference_length"] == 1
    with pytest.raises(RuntimeError, match="Empty or `None` reference"):
        library(MACROF).execute(CORPUS, V, {"hypotheses": [["a"]], "references": [[[]]]})


@installed(MACROF)
def test_macrof_chrf_answers_the_contract_example_and_fails_on_an_empty_reference():
    response, verdict = judged(MACROF, CHRF, example(CHRF, 0)["input"])
    assert verdict.outcome == "passed", verdict.message
    with pytest.raises(RuntimeError, match="Empty or `None` reference"):
        library(MACROF).execute(CHRF, V, {"hypotheses": ["a"], "references": [""]})


# --- sacreBLEU 1.5.1 --------------------------------------------------------------------------------------------


@installed(OLD)
def test_old_answers_the_contract_example_as_the_contract_does():
    found = example(CORPUS, 1)
    response, verdict = judged(OLD, CORPUS, found["input"])
    assert verdict.outcome == "passed", verdict.message


@installed(OLD)
@pytest.mark.parametrize(
    "tool_id, payload, cause",
    [
        (CORPUS, {**FIVE, "max_order": 2}, "NGRAM_ORDER = 4"),
        (CHRF, {"hypotheses": ["a"], "references": ["A"], "lowercase": True}, "does not lowercase"),
        ("chrf-components", {"hypotheses": ["a"], "references": ["a"], "word_order": 1}, "character n-grams only"),
        (SENTENCE, {"hypothesis": ["a b"], "references": [["a"]], "smoothing": "none"}, "whitespace"),
    ],
)
def test_old_what_its_api_cannot_express_is_not_applicable(tool_id, payload, cause):
    with pytest.raises(NotApplicable, match=cause):
        library(OLD).execute(tool_id, V, payload)


@installed(OLD)
def test_old_smooths_when_nothing_matched_and_reports_the_smoothed_counts():
    floor = library(OLD).execute(SENTENCE, V, {**NOTHING_MATCHED, "smoothing": "chen-cherry-1"})
    assert floor["bleu"] == pytest.approx(0.1 * (1 / 24) ** 0.25, rel=1e-12)
    add_one = library(OLD).execute(SENTENCE, V, {**NOTHING_MATCHED, "smoothing": "chen-cherry-2"})
    assert add_one["matches"] == [0, 1, 1, 1] and add_one["totals"] == [4, 4, 3, 2] and add_one["bleu"] == 0


@installed(OLD)
def test_old_drops_an_empty_reference_and_fails_on_only_empty_ones():
    answer = library(OLD).execute(CORPUS, V, {"hypotheses": [[]], "references": [[[], ["a"]]]})
    assert answer["reference_length"] == 1
    with pytest.raises(EOFError, match="No valid references"):
        library(OLD).execute(CORPUS, V, {"hypotheses": [["a"]], "references": [[[]]]})


@installed(OLD)
def test_old_chrf_is_on_the_unit_scale_and_answers_the_contract_example():
    # "ab c" against "ab d", whitespace removed: "abc" / "abd"; order 1: 2 of 3 both ways, order 2: 1 of 2, orders
    # 3-6: none of 1 or none: P = R = (2/3 + 1/2 + 0) / 3 = 7/18 over the three orders both sides have, F = 7/18
    answer = library(OLD).execute(CHRF, V, {"hypotheses": ["ab c"], "references": ["ab d"]}).output
    assert answer["score"].scale == 1 and answer["score"].value == pytest.approx(7 / 18, rel=1e-15)
    response, verdict = judged(OLD, CHRF, example(CHRF, 0)["input"])
    assert verdict.outcome == "passed", verdict.message


# --- creating the environments (slow: pip installs from the registry) ----------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("name", [MACROF, OLD])
def test_the_environment_is_created_by_its_command(name):
    venv: Venv = library(name).module.VENV
    if venv.missing():
        created = venv.create()
        assert created.returncode == 0, created.stderr[-2000:]
    assert venv.missing() == ""
    assert venv.version() == venv.requirement.partition("==")[2]
