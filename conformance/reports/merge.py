"""Several report.json documents of one run joined into the one report of that run.

    merge_documents(documents, order, command) -> document       # not yet validated: its caller validates it
    check_shards(documents)                                      # --shard K/N: each share exactly once

A run split into shares (``conformance run --shard K/N`` on several machines, or the processes of
``-n``) gives one document per share; merging is a function of those documents alone. They must
describe the same run (the header keys of ``AGREEING``: a MergeError names the first that differs,
and a check found in two documents), and the merged document is the unsplit run's: its results
and properties in the run's order (``order``, the suite's check ids: fixture cases, then
properties), readings merged point by point, totals and failure groups computed again from the
merged results (document.document_from_parts), so every view rendered from it counts and groups
as a one-process run does. Of the header, the first share's is kept, with the run's earliest
``started``, latest ``finished``, the retries, breaker calls, transport errors and time lost of
every share added up (each share made its own preflight calls), the window and budget of the share
whose breaker came nearest to tripping, and the first stop, interruption or contract drift any share recorded. The exit code is the gravest of
the shares' (143 stopped by SIGTERM, 3 could not conclude, 1 not conformant, 0).
"""

from __future__ import annotations

from collections.abc import Iterable

from conformance.compare.readings import merge_readings
from conformance.reports.document import document_from_parts, property_of_case

# Header keys every share of one run has in common: shares that differ in one are not one run.
AGREEING = (
    "suite_version",
    "target",
    "contracts",
    "seed",
    "profile",
    "examples_per_family",
    "families",
    "keyword",
    "max_failures_per_property",
    "strict",
)
EXIT_GRAVITY = (143, 3, 1, 0)  # the merged exit code: the first of these any share has
BREAKER_SUMS = (
    "calls",
    "transport_errors",
    "server_errors",
    "time_lost_s",
)  # the window and budget are each process's own
FIRST_FOUND = ("interrupted", "contract_drift", "contract_drift_allowed")  # the first share that has one


class MergeError(ValueError):
    """The documents are not shares of one run (which key differs, which share is missing or repeated)."""


def check_shards(documents: list[dict], names: list[str]) -> list[dict]:
    """The documents of ``--shard K/N`` runs in share order, each share 1..N exactly once
    (``names`` say where each document came from, for the error)."""
    found: dict[int, str] = {}
    totals: set[int] = set()
    for document, name in zip(documents, names):
        shard = document["header"].get("shard")
        if not isinstance(shard, dict):
            raise MergeError(f"{name}: not a shard's report (its header has no shard; run with --shard K/N)")
        index, total = shard["index"], shard["total"]
        if index in found:
            raise MergeError(f"shard {index}/{total} given twice: {found[index]} and {name}")
        found[index] = name
        totals.add(total)
    if len(totals) > 1:
        raise MergeError(f"the shards split the run differently: into {' and '.join(map(str, sorted(totals)))}")
    total = totals.pop()
    missing = [str(index) for index in range(1, total + 1) if index not in found]
    if missing:
        raise MergeError(
            f"shard(s) {', '.join(missing)} of {total} missing (given: "
            f"{', '.join(f'{index}/{total}' for index in sorted(found))})"
        )
    return sorted(documents, key=lambda document: document["header"]["shard"]["index"])


def check_agreement(documents: list[dict], names: list[str]) -> None:
    first = documents[0]["header"]
    for document, name in zip(documents[1:], names[1:]):
        header = document["header"]
        for key in AGREEING:
            if header.get(key) != first.get(key):
                raise MergeError(
                    f"{names[0]} and {name} are not shares of one run: their {key} differs "
                    f"({first.get(key)!r} and {header.get(key)!r})"
                )


def merge_documents(documents: list[dict], order: Iterable[str], command: str, names: list[str] | None = None) -> dict:
    """The one run's report.json document; ``order``: the run's check ids in run order. Not validated here:
    `merge-reports` validates it as it writes it, and `-n` after adding the baseline diff (validating
    a whole run's document takes a second or more)."""
    names = names or [f"share {index}" for index in range(1, len(documents) + 1)]
    if not documents:
        raise MergeError("no report to merge")
    check_agreement(documents, names)
    position = {check_id: index for index, check_id in enumerate(order)}
    known = set(position)

    def check_of(result: dict) -> str:
        case = result["case"]
        return case["case_id"] if case["origin"] == "fixture" else property_of_case(case["case_id"], known)

    def case_order(case_id: str) -> tuple:
        head, _, tail = case_id.rpartition("/")
        check = property_of_case(case_id, known)
        return position.get(check, len(position)), int(tail) if check == head and tail.isdigit() else -1, case_id

    owner: dict[str, str] = {}
    for document, name in zip(documents, names):
        checks = {check_of(result) for result in document["results"]} | {
            entry["id"] for entry in document["properties"]
        }
        for check in checks:
            if owner.setdefault(check, name) != name:
                raise MergeError(f"{check} was run by both {owner[check]} and {name}: the shares overlap")
    results = sorted(
        ((position.get(check_of(result), len(position)), number, index), result)
        for number, document in enumerate(documents)
        for index, result in enumerate(document["results"])
    )
    properties = sorted(
        ((position.get(entry["id"], len(position)), number, index), entry)
        for number, document in enumerate(documents)
        for index, entry in enumerate(document["properties"])
    )
    stopped = next((document for document in documents if document["unhealthy_reason"]), None)
    parts = {
        "header": merged_header([document["header"] for document in documents], command, stopped),
        "exit_code": merged_exit_code([document["exit_code"] for document in documents]),
        "unhealthy_reason": stopped["unhealthy_reason"] if stopped else "",
        "properties": [entry for _, entry in properties],
        "results": [result for _, result in results],
        "readings": merge_readings([document["readings"] for document in documents], case_order),
    }
    return document_from_parts(parts)


def merged_exit_code(codes: list[int]) -> int:
    return next((code for code in EXIT_GRAVITY if code in codes), max(codes))


def merged_header(headers: list[dict], command: str, stopped: dict | None) -> dict:
    header = {
        key: value
        for key, value in headers[0].items()
        if key not in ("shard", "stopped_by", "harness_errors", *FIRST_FOUND)
    }
    if all(h.get("shard") == headers[0].get("shard") for h in headers) and "shard" in headers[0]:
        header["shard"] = headers[0]["shard"]  # the processes of one shard's run (-n): still that shard
    header.update(
        command=command, started=min(h["started"] for h in headers), finished=max(h["finished"] for h in headers)
    )
    if "retries_made" in header:
        header["retries_made"] = sum(h.get("retries_made", 0) for h in headers)
    if isinstance(header.get("breaker"), dict):
        breakers = [h["breaker"] for h in headers if isinstance(h.get("breaker"), dict)]
        worst = max(breakers, key=lambda b: (b.get("window_transport_errors", 0), -b.get("time_budget_left_s", 0)))
        header["breaker"] = {**worst, **{key: round(sum(b.get(key, 0) for b in breakers), 3) for key in BREAKER_SUMS}}
    if "largest_bodies" in header:
        from conformance.wire import merged_figures

        header["largest_bodies"] = merged_figures(headers)
    if "not_served" in header:
        header["not_served"] = sorted({tool for h in headers for tool in h.get("not_served", [])})
    for key in FIRST_FOUND:
        value = next((h[key] for h in headers if key in h), None)
        if value is not None:
            header[key] = value
    if stopped and "stopped_by" in stopped["header"]:
        header["stopped_by"] = stopped["header"]["stopped_by"]
    errors = list(dict.fromkeys(error for h in headers for error in h.get("harness_errors", [])))
    if errors:
        header["harness_errors"] = errors
    return header
