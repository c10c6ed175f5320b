"""junit.xml: the run for CI, rendered from the report.json document.

One <testsuite> per tool, one <testcase> per check (document.checks): each fixture case,
and each generated property, whose body says how many examples it ran and explains its
recorded failing examples (failures.failure_text). So the testcase counts are the totals
of every other report: tests = all checks, failures = failed (and fixed under --strict),
errors = errored, skipped = skipped and xfailed. Text is made XML-safe: ElementTree
escapes markup, ``xml_text`` the code points XML 1.0 cannot carry. A run stopped early or
interrupted says so in every suite's properties (``stopped``, ``interrupted``), and in a suite
of its own when no check was recorded.
"""

from __future__ import annotations

import re
from xml.etree import ElementTree

import conformance.reports.document as doc
from conformance.reports.failures import FailureView, failure_text, failure_views
from conformance.reports.text import code_point, one_line, prose

_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_SUITE_PROPERTIES = ("suite_version", "target", "seed", "profile", "strict", "retries", "command", "python", "platform")


def xml_text(text: str) -> str:
    """Text XML 1.0 can carry (ElementTree escapes markup but not forbidden characters)."""
    return _XML_INVALID.sub(lambda match: code_point(match.group()), text)


def _seconds(milliseconds: float) -> str:
    return f"{max(milliseconds, 0.0) / 1000:.3f}"


def junit_counter(outcome: str, strict: bool) -> str:
    """The JUnit counter a check's outcome goes to ("" for a pass)."""
    if outcome == "failed" or (outcome == "fixed" and strict):
        return "failures"
    return {"errored": "errors", "skipped": "skipped", "xfailed": "skipped"}.get(outcome, "")


def _junit_outcome(element: ElementTree.Element, outcome: str, message: str, body: str, strict: bool) -> str:
    """Add the child element for ``outcome``; return the counter it belongs to ("" for a pass)."""
    counter = junit_counter(outcome, strict)
    if counter == "failures":
        child = ElementTree.SubElement(element, "failure", type=outcome)
    elif counter == "errors":
        child = ElementTree.SubElement(element, "error", type="errored")
    elif counter == "skipped":
        child = ElementTree.SubElement(element, "skipped")
    else:
        if outcome == "fixed":  # not strict: passes, with a note for whoever reads the log
            ElementTree.SubElement(element, "system-out").text = xml_text(message)
        return ""
    child.set("message", xml_text(one_line(message)))
    if body:
        child.text = xml_text(body)
    return counter


def check_message(check: doc.Check) -> str:
    """The one-line JUnit message: the reason for a known failure, else what went wrong."""
    outcome, reason = check.outcome, check.known_failure_reason()
    if outcome == "xfailed":
        return f"known failure: {reason or check.message()}"
    if outcome == "fixed":
        return f"known failure now passing: listed as a known failure ({reason}) but now passes"
    return prose(check.message() or outcome)


def _check_body(check: doc.Check, views_by_result: dict[int, FailureView]) -> str:
    texts = [failure_text(views_by_result[id(r)]) for r in check.results if id(r) in views_by_result]
    if check.kind == "fixture":
        return "\n\n".join(texts)
    examples = check.examples if check.examples is not None else "?"
    return "\n\n".join([f"{examples} examples run", *texts])


def _milliseconds(check: doc.Check) -> float:
    recorded = check.summary.get("duration_ms")
    if isinstance(recorded, (int, float)) and not isinstance(recorded, bool):
        return float(recorded)
    return sum(float(r["response"]["duration_ms"]) for r in check.results if r["response"])


def run_properties(document: dict) -> dict[str, str]:
    """The run's properties every suite carries: the header's, and why the run stopped or was interrupted."""
    header = document["header"]
    properties = {key: str(header[key]) for key in _SUITE_PROPERTIES if key in header}
    if document["unhealthy_reason"]:
        properties["stopped"] = doc.stop_text(document)
    if header.get("interrupted"):
        properties["interrupted"] = str(header["interrupted"])
    return properties


def render_junit(document: dict, views: list[FailureView] | None = None) -> str:
    header = document["header"]
    strict = doc.is_strict(document)
    # the views stop at MAX_DETAILED_FAILURES: later failures get a message but no body
    views = failure_views(document) if views is None else views
    views_by_result = dict(zip(map(id, doc.problem_results(document)), views, strict=False))
    suites: dict[str, ElementTree.Element] = {}
    counters: dict[str, dict[str, float]] = {}
    root = ElementTree.Element("testsuites", name="conformance")
    run = run_properties(document)

    def suite_for(tool: str) -> ElementTree.Element:
        if tool not in suites:
            suite = ElementTree.SubElement(
                root, "testsuite", name=xml_text(tool), timestamp=str(header.get("started", ""))
            )
            properties = ElementTree.SubElement(suite, "properties")
            for key, value in run.items():
                ElementTree.SubElement(properties, "property", name=key, value=xml_text(value))
            suites[tool] = suite
            counters[tool] = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0, "time": 0.0}
        return suites[tool]

    for check in doc.checks(document):
        milliseconds = _milliseconds(check)
        case = ElementTree.SubElement(
            suite_for(check.tool),
            "testcase",
            classname=xml_text(check.tool),
            name=xml_text(check.id),
            time=_seconds(milliseconds),
        )
        body = _check_body(check, views_by_result).strip()
        counter = _junit_outcome(case, check.outcome, check_message(check), body, strict)
        counters[check.tool]["tests"] += 1
        counters[check.tool]["time"] += max(milliseconds, 0.0) / 1000
        if counter:
            counters[check.tool][counter] += 1
    if not suites and ("stopped" in run or "interrupted" in run):
        suite_for("conformance")  # nothing was checked: the suite says why

    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for tool, suite in suites.items():
        for key, value in counters[tool].items():
            suite.set(key, f"{value:.3f}" if key == "time" else str(int(value)))
            if key in totals:
                totals[key] += int(value)
    for key, value in totals.items():
        root.set(key, str(value))
    root.set("time", f"{doc.run_duration(header):.3f}")
    root.set("timestamp", str(header.get("started", "")))
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"
