"""Contract drift at preflight: the contract a target publishes against the suite's.

The classes expected here follow the gate's documented rules (docs/gate.md):
wording is editorial, a raised limit widens what the input accepts (additive), a lowered one
or a changed semantics line narrows or changes it (breaking). Each published contract is the
suite's own, changed by hand in one place. The runs are in process (Session) against a server
of tests/faulty_servers.py that answers correctly and publishes what a test gives it; two runs
go through the command line for the exit code, the console and every report.
"""

from __future__ import annotations

import copy
import html
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from faulty_servers import faulty_server, shared_oracle_server

import oracle
from conformance.engine import RunOptions, Session
from conformance.engine.drift import check_drift, compare_published
from conformance.reports import console, document
from conformance.reports.markdown import render_markdown
from conformance.targets.http import MAX_CONTRACT_BYTES, HttpTarget
from conformance.targets.published import PublishedContract, read_published

TOOL, VERSION = "bleu-corpus-compute", "1.0.0"
LABEL = f"{TOOL}@{VERSION}"
OTHER = ("bleu-ngrams-count", "1.0.0")  # published by no test's server: its contract URL answers 404
RUN_TIMEOUT = 240


def suite_contract() -> dict:
    return oracle.load_contract(TOOL, VERSION)


def changed(edit) -> dict:
    contract = copy.deepcopy(suite_contract())
    edit(contract)
    return contract


def reworded(contract: dict) -> None:
    contract["description"] += " Now with more words."


def raised_limit(contract: dict) -> None:
    contract["limits"]["max_segments"] = 2000  # accepts more corpora: additive


def lowered_limit(contract: dict) -> None:
    contract["limits"]["max_segments"] = 500  # rejects corpora it accepted: breaking


def published(document: dict) -> PublishedContract:
    return PublishedContract(document=document)


# --- the classification, one tool (pure) -------------------------------------------------------


@pytest.mark.parametrize(
    "edit, status, pointer",
    [
        (reworded, "editorial", "/description"),
        (raised_limit, "additive", "/limits/max_segments"),
        (lowered_limit, "breaking", "/limits/max_segments"),
        (lambda c: c["semantics"].__setitem__(0, "Anything else."), "breaking", "/semantics/0"),
    ],
)
def test_a_difference_is_classified_by_the_gate(edit, status, pointer):
    finding = compare_published(suite_contract(), LABEL, published(changed(edit)))
    assert (finding.status, finding.blocking) == (status, status in ("additive", "breaking"))
    assert [change["pointer"] for change in finding.changes] == [pointer]
    assert finding.changes[0]["change_class"] == status


def with_metadata(contract: dict) -> None:
    contract.update(updated_at="2026-01-01T00:00:00Z", links={"self": "/v1/tools"}, etag='W/"1"')


def test_metadata_beside_the_contract_is_editorial_and_named():
    """What a hosted GET may add beside the contract is read by no rule of the suite: noted, never a stop."""
    finding = compare_published(suite_contract(), LABEL, published(changed(with_metadata)))
    assert (finding.status, finding.blocking) == ("editorial", False)
    assert [change["message"] for change in finding.changes] == [
        "extra top-level field `etag` (not a contract key)",
        "extra top-level field `links` (not a contract key)",
        "extra top-level field `updated_at` (not a contract key)",
    ]


def test_the_same_contract_is_identical():
    finding = compare_published(suite_contract(), LABEL, published(suite_contract()))
    assert (finding.status, finding.changes, finding.blocking) == ("identical", [], False)


def test_an_execute_url_on_the_deployments_own_host_is_the_same_address():
    suite = suite_contract()
    own_host = changed(lambda c: c.update(execute_url="https://metrics.example" + c["execute_url"]))
    finding = compare_published(suite, LABEL, published(own_host))
    assert finding.status == "identical" and "https://metrics.example/v1/" in finding.detail
    elsewhere = changed(lambda c: c.update(execute_url="https://metrics.example/v2/bleu"))
    assert compare_published(suite, LABEL, published(elsewhere)).status == "breaking"  # the gate: same version


def test_a_draft_published_as_it_is_drafted_is_identical():
    draft = oracle.load_contract("chrf-compute", "1.0.0")
    assert draft["status"] == "draft"
    as_published = {key: value for key, value in draft.items() if key != "status"}
    assert compare_published(draft, "chrf-compute@1.0.0", published(as_published)).status == "identical"


def test_404_is_not_published_and_a_problem_is_unreadable():
    assert compare_published(suite_contract(), LABEL, PublishedContract(not_published=True)).status == "not_published"
    finding = compare_published(suite_contract(), LABEL, PublishedContract(problem="HTTP 500"))
    assert (finding.status, finding.detail, finding.blocking) == ("unreadable", "HTTP 500", False)


@pytest.mark.parametrize(
    "document, named",
    [
        ({"status": "ok"}, "'id' is missing"),
        ({**suite_contract(), "semantics": "one line"}, "'semantics' is not a list"),
        ({**suite_contract(), "limits": [1000]}, "'limits' is not a dict"),
    ],
)
def test_an_object_that_is_not_a_contract_is_unreadable(document, named):
    finding = compare_published(suite_contract(), LABEL, published(document))
    assert finding.status == "unreadable" and named in finding.detail


def test_a_contract_the_gate_cannot_walk_is_unreadable_never_a_crash():
    strange = changed(lambda c: c["input_schema"].update(properties=[1, 2], required="all"))
    finding = compare_published(suite_contract(), LABEL, published(strange))
    assert finding.status in ("unreadable", "breaking")  # whatever the gate makes of it, it did not raise


@pytest.mark.parametrize(
    "status, body, kind",
    [
        (404, b"", "not_published"),
        (200, b"<html>the contract</html>", "not JSON"),
        (200, b'{"id": 1, "id": 2}', "not JSON"),  # strict JSON: duplicate keys refused
        (200, b"[1, 2]", "JSON list, not a contract object"),
        (500, b"boom", "HTTP 500"),
        (200, b'{"id": "x"}', "document"),
    ],
)
def test_read_published(status, body, kind):
    answer = read_published(status, body, "application/json")
    if kind == "not_published":
        assert answer.not_published and answer.document is None
    elif kind == "document":
        assert answer.document == {"id": "x"} and not answer.problem
    else:
        assert answer.document is None and kind in answer.problem


# --- the HTTP target's capability --------------------------------------------------------------


def test_serve_publishes_the_suites_contract():
    answer = HttpTarget(shared_oracle_server()[0]).published_contract(TOOL, VERSION)
    assert compare_published(suite_contract(), LABEL, answer).status == "identical"


def test_an_oversized_contract_is_cut_at_the_cap():
    huge = json.dumps({"id": TOOL, "padding": "x" * MAX_CONTRACT_BYTES}).encode()
    with faulty_server("correct", published={LABEL: huge}) as server:
        answer = HttpTarget(server.url).published_contract(TOOL, VERSION)
    assert answer.document is None and "cap" in answer.problem


# --- in a run -----------------------------------------------------------------------------------


def preflight(tmp_path: Path, contract_body: bytes | int, allow: bool = False) -> tuple[Session, dict]:
    """A session against a correct server publishing ``contract_body`` for TOOL: started, one fixture
    case of TOOL judged, finished; the session and its validated report.json document."""
    with faulty_server("correct", published={LABEL: contract_body}) as server:
        session = Session(
            RunOptions(
                target=server.url,
                tools=[(TOOL, VERSION), OTHER],
                report_dir=tmp_path,
                seed=1,
                generated=False,
                allow_contract_drift=allow,
            )
        )
        case = next(case for case in session.fixture_cases() if case.tool_id == TOOL)
        session.start([case])
        session.run_fixture_case(case)
        return session, document.report_document(session.finish("conformance run"))


def encoded(contract: dict) -> bytes:
    return json.dumps(contract).encode()


def findings(report: dict) -> dict[str, dict]:
    return {finding["tool"]: finding for finding in report["header"]["contract_drift"]}


@pytest.mark.parametrize(
    "body, status",
    [
        (encoded(suite_contract()), "identical"),
        (encoded(changed(reworded)), "editorial"),
        (encoded(changed(with_metadata)), "editorial"),
        (404, "not_published"),
        (b"\x00\xff not a contract", "unreadable"),
    ],
)
def test_a_run_notes_what_does_not_stop_it(tmp_path, body, status):
    session, report = preflight(tmp_path, body)
    assert report["exit_code"] == 0 and report["unhealthy_reason"] == ""
    assert report["totals"]["passed"] == 1  # the run went on and judged its case
    assert findings(report)[LABEL]["status"] == status
    assert findings(report)[f"{OTHER[0]}@{OTHER[1]}"]["status"] == "not_published"
    assert f"{LABEL}: {status.replace('_', ' ')}" in console.summary(report)


def test_a_run_names_the_metadata_it_noted_in_every_report(tmp_path):
    from conformance.reports.html import render_html

    _session, report = preflight(tmp_path, encoded(changed(with_metadata)))
    assert report["exit_code"] == 0
    note = "editorial /updated_at: extra top-level field `updated_at` (not a contract key)"
    assert note in console.summary(report) and note in render_markdown(report)
    assert html.escape(note, quote=False) in render_html(report)


@pytest.mark.parametrize("edit, status", [(raised_limit, "additive"), (lowered_limit, "breaking")])
def test_additive_or_breaking_drift_stops_the_run(tmp_path, edit, status):
    session, report = preflight(tmp_path, encoded(changed(edit)))
    assert report["exit_code"] == 3
    assert report["totals"]["passed"] == 0 and report["totals"]["failed"] == 0  # no verdict on what drifted
    difference = f"{status} /limits/max_segments: limit max_segments"
    assert difference in report["unhealthy_reason"]
    assert findings(report)[LABEL]["status"] == status
    assert difference in console.summary(report) and difference in render_markdown(report)


def test_allowed_drift_goes_on_and_the_header_says_so(tmp_path):
    session, report = preflight(tmp_path, encoded(changed(lowered_limit)), allow=True)
    assert report["exit_code"] == 0 and report["totals"]["passed"] == 1
    assert report["header"]["contract_drift_allowed"] is True
    assert "--allow-contract-drift: the run went on" in console.summary(report)


def test_an_unhealthy_target_is_not_asked_for_its_contracts(tmp_path):
    with faulty_server("always_500", published={LABEL: encoded(suite_contract())}) as server:
        session = Session(RunOptions(target=server.url, tools=[(TOOL, VERSION)], report_dir=tmp_path, seed=1))
        session.start([])
    assert session.health.unhealthy and session.drift is None


def test_a_target_without_the_capability_has_no_drift_in_its_header(tmp_path):
    session = Session(RunOptions(target="oracle", tools=[(TOOL, VERSION)], report_dir=tmp_path, seed=1))
    session.start([])
    assert "contract_drift" not in session.finish("conformance run").header


# --- through the command line: exit code, console, every report --------------------------------


def cli_run(url: str, report_dir: Path, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "conformance",
            "run",
            "--target",
            url,
            "--seed",
            "1",
            "--report-dir",
            str(report_dir),
            "--fixtures-only",
            "--tools",
            TOOL,
            "-k",
            "brevity",
            *options,
        ],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        stdin=subprocess.DEVNULL,
    )


def test_the_command_line_stops_on_breaking_drift_unless_allowed(tmp_path):
    difference = "breaking /limits/max_segments: limit max_segments lowered 1000 -> 500"
    with faulty_server("correct", published={LABEL: encoded(changed(lowered_limit))}) as server:
        with ThreadPoolExecutor(2) as pool:
            stopped = pool.submit(cli_run, server.url, tmp_path / "stopped")
            allowed = pool.submit(cli_run, server.url, tmp_path / "allowed", "--allow-contract-drift")
            stopped, allowed = stopped.result(), allowed.result()
    assert stopped.returncode == 3, (stopped.stdout[-2000:], stopped.stderr[-2000:])
    assert difference in stopped.stdout and "Traceback" not in stopped.stderr
    for name in ("report.json", "report.md", "report.html"):
        assert difference in html.unescape((tmp_path / "stopped" / name).read_text(encoding="utf-8")), name
    assert allowed.returncode == 0, (allowed.stdout[-2000:], allowed.stderr[-2000:])
    report = json.loads((tmp_path / "allowed" / "report.json").read_text())
    assert report["header"]["contract_drift_allowed"] is True and report["totals"]["passed"] > 0
    assert "--allow-contract-drift: the run went on" in (tmp_path / "allowed" / "report.md").read_text()


def test_a_contract_endpoint_that_does_not_answer_is_asked_once():
    class SilentContracts:  # answers every case, but its contract endpoint times out
        spec = "silent"
        asked = 0

        def published_contract(self, tool_id, version):
            SilentContracts.asked += 1
            return PublishedContract(problem="no answer within 10 s", unanswered=True)

    found = check_drift(SilentContracts(), [(TOOL, VERSION), OTHER])
    assert SilentContracts.asked == 1
    assert [finding.status for finding in found] == ["unreadable", "unreadable"]
    assert "not asked" in found[1].detail and not any(finding.blocking for finding in found)
