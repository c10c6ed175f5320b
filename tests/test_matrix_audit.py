"""`conformance matrix audit`: each failure group's library call, run in a fresh process, gives what its cell
reports, and a call that does not is caught. Libraries not installed skip their tests."""

from __future__ import annotations

import copy
import json

import pytest

from conformance.cli import main
from conformance.implementations import library
from conformance.matrix.audit import audit

CORPUS = "bleu-corpus-compute@1.0.0"
EMPTY = {"hypotheses": [[]], "references": [[[]]]}


def installed(*names: str):
    missing = [name for name in names if library(name).missing()]
    return pytest.mark.skipif(bool(missing), reason=f"not installed: {', '.join(missing)}")


def document(name: str, tool: str, payload: dict, pointer: str | None, actual) -> dict:
    tool_id = tool.partition("@")[0]
    group = {
        "title": f"{tool} · {pointer} · wrong value",
        "clause": None,
        "divergence": None,
        "count": 1,
        "smallest": payload,
        "difference": None if pointer is None else {"pointer": pointer, "expected": None, "actual": actual},
        "call": library(name).call(tool_id, payload),
    }
    return {"cells": [{"implementation": name, "tool": tool, "failure_groups": [group]}]}


@installed("sacrebleu")
def test_sacrebleus_call_gives_the_reported_brevity_penalty_and_a_wrong_report_is_caught():
    # c = r = 0: sacreBLEU's bp is 1.0 (compute_bleu keeps its initial 1.0 unless c < r)
    good = document("sacrebleu", CORPUS, EMPTY, "/brevity_penalty", 1.0)
    assert "BLEU(tokenize='none'" in good["cells"][0]["failure_groups"][0]["call"]["code"]
    assert audit(good) == []
    wrong = copy.deepcopy(good)
    wrong["cells"][0]["failure_groups"][0]["difference"]["actual"] = 0.5
    (problem,) = audit(wrong)
    assert "answers 1.0 at /brevity_penalty, the cell reports 0.5" in problem
    uncalled = copy.deepcopy(good)
    uncalled["cells"][0]["failure_groups"][0]["call"] = None
    assert audit(uncalled) == [f"sacrebleu x {CORPUS}: {CORPUS} · /brevity_penalty · wrong value: no call"]


@installed("nltk")
def test_a_group_without_a_difference_holds_where_the_library_departs_from_the_contract():
    """A wrong step of a multi-request case reports no difference: the call must answer other than the contract.
    NLTK's totals of "a b" are [2, 1, 1, 1] (the contract's [2, 1, 0, 0]); of "a b c d" they are the contract's."""
    departs = document(
        "nltk", "bleu-sentence-components@1.0.0", {"hypothesis": ["a", "b"], "references": [["a", "b"]]}, None, None
    )
    assert audit(departs) == []
    agrees = document(
        "nltk",
        "bleu-sentence-components@1.0.0",
        {"hypothesis": ["a", "b", "c", "d"], "references": [["a", "b", "c", "d"]]},
        None,
        None,
    )
    assert "answers the contract's output" in audit(agrees)[0]


@installed("nltk")
def test_decimals_round_the_call_as_the_adapter_rounds():
    # NLTK's unsmoothed score of "a b c d" against "a b c e": (1 * 1 * 1 * m)^(1/4), m = 2.2250738585072014e-308: m^(1/4) = exp(-708.40 / 4), about 8.6e-78;
    # with decimals 6 the adapter reports 0
    payload = {
        "hypothesis": ["a", "b", "c", "d"],
        "references": [["a", "b", "c", "e"]],
        "smoothing": "none",
        "decimals": 6,
    }
    assert audit(document("nltk", "bleu-sentence-compute@1.0.0", payload, "/bleu", 0.0)) == []
    unrounded = {key: value for key, value in payload.items() if key != "decimals"}
    found = audit(document("nltk", "bleu-sentence-compute@1.0.0", unrounded, "/bleu", 0.0))
    assert found and "8.63616855509" in found[0] and "e-78" in found[0]


@installed("sacrebleu")
def test_the_command_exits_1_on_a_problem_and_0_without(tmp_path, capsys):
    path = tmp_path / "matrix.json"
    path.write_text(json.dumps(document("sacrebleu", CORPUS, EMPTY, "/brevity_penalty", 1.0)), encoding="utf-8")
    assert main(["matrix", "audit", str(path)]) == 0
    assert "every call agrees" in capsys.readouterr().out
    path.write_text(json.dumps(document("sacrebleu", CORPUS, EMPTY, "/brevity_penalty", 0.0)), encoding="utf-8")
    assert main(["matrix", "audit", str(path)]) == 1
    assert main(["matrix", "audit"]) == 2
    assert main(["matrix", "audit", str(tmp_path / "absent.json")]) == 2


@pytest.mark.slow  # one fresh process per library and tool (about 20)
def test_every_librarys_call_answers_as_its_adapter_on_a_contract_example():
    """Each installed library's call, on the first contract example of each tool it answers (sacrebleu-macrof
    raises on a max_order below 4), prints the values its adapter answers (the adapter's rounding applied): the
    call is the library's answer, written out."""
    from conformance.implementations import LibraryFloat, NotApplicable, Partial, implementations
    from conformance.matrix.audit import equal, rounded, run_call
    from oracle.contracts import contract

    def plain(value):
        if isinstance(value, LibraryFloat):
            return value.value
        if isinstance(value, dict):
            return {key: plain(item) for key, item in value.items()}
        return [plain(item) for item in value] if isinstance(value, list) else value

    checked = 0
    for found in implementations().values():
        if found.missing():
            continue
        for tool_id, version in found.tools():
            for example in contract(tool_id, version).document()["examples"]:
                try:
                    output = found.execute(tool_id, version, example["input"])
                except NotApplicable:
                    continue
                except Exception:  # noqa: BLE001 - the library crashes on it (a catalogued crash): the next example
                    continue
                output = plain(output.output if isinstance(output, Partial) else output)
                answer, problem = run_call(found.call(tool_id, example["input"]))
                assert answer is not None, (found.name, tool_id, problem)
                for key, value in answer.items():
                    if key in output:
                        assert equal(rounded(example["input"], f"/{key}", value), output[key]), (found.name, key)
                checked += 1
                break
    assert checked >= 15
