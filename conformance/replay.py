"""Reproducers: a failing case saved as JSON, and `conformance replay FILE`.

``conformance run`` saves every failing fixture case and every minimal (shrunk) failing
generated example under ``<report-dir>/reproducers/<safe-id>.json`` (schema
``conformance/schemas/reproducer.schema.json``)::

    {"format": "conformance-reproducer/1", "tool": ..., "version": ..., "target": ...,
     "seed": ..., "case": {case_id, origin, category, input, expect, description, ...},
     "outcome": "failed", "message": ..., "mismatch": {...}, "expected": ..., "actual": {...}}

``conformance replay FILE [--target T]`` re-sends the input (every step of a sequence or burst,
sent as the run sent them) to the target named in the file (or T), judges the answer as the run did, prints the difference, and exits 0 if the
case now passes, 1 if it still fails (a transport error counts as failing), 2 on usage.

``conformance replay FILE --promote fixtures/<tool>/<version>/<topic>.json --id NAME``
adds the case to that fixture file (creating it if needed) with the oracle's expected
output; edit its ``description`` to write out the hand computation before committing.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from pathlib import Path

from conformance import schemas, wire
from conformance.jsonio import MAX_NESTING
from conformance.model import Case, CaseResult, Expectation, Verdict, bounded, too_deep
from conformance.reports.text import LINE_LIMIT
from conformance.targets import DEFAULT_TIMEOUT, TargetSpecError, make_target

FORMAT = "conformance-reproducer/1"
EXIT_PASSES, EXIT_FAILS, EXIT_USAGE = 0, 1, 2
WHOLE_IN_REPORT = "the full value is in report.json"  # a run's note on a value cut (reports.text.truncate)


class ReproducerError(ValueError):
    pass


def safe_name(case_id: str) -> str:
    """A file name for a case id: letters, digits, dot, dash and underscore only."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", case_id).strip("._")[:180] or "case"


def reproducer(result: CaseResult, target_spec: str, seed: int | None) -> dict:
    case = result.case
    return {
        "format": FORMAT,
        "tool": case.tool_id,
        "version": case.version,
        "target": target_spec,
        "seed": seed,
        "case": case.to_dict(),
        # the exact text sent (the input in the case's wire form): a parsed value would lose a wire-form bug
        "body": wire.sent_body(case),
        "outcome": result.outcome,
        "message": result.message,
        "mismatch": result.mismatch.to_dict() if result.mismatch else None,
        "expected": bounded(result.expected),
        "actual": result.response.to_dict() if result.response else None,
    }


def write_reproducer(directory: Path, result: CaseResult, target_spec: str, seed: int | None) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{safe_name(result.case.case_id)}.json"
    text = json.dumps(reproducer(result, target_spec, seed), indent=2, ensure_ascii=True, default=str)
    path.write_text(text + "\n", encoding="utf-8")  # ensure_ascii: lone surrogates survive the file
    return path


def read_reproducer(path: str | Path) -> tuple[Case, dict]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ReproducerError(f"cannot read {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ReproducerError(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:
        raise ReproducerError(
            f"{path}: nested too deeply to read (a run writes values at most {MAX_NESTING} levels deep)"
        ) from None
    error = schemas.first_error("reproducer", data, prefer=("format",))
    if error is not None:
        where = list(error.absolute_path)
        if not where or where[0] == "format" or (where == ["case"] and error.validator == "type"):
            raise ReproducerError(f"{path}: not a reproducer file (format {FORMAT}): {schemas.explain(error)}")
        kind = "case" if where[0] == "case" else "reproducer"
        raise ReproducerError(f"{path}: malformed {kind}: {schemas.explain(error)}")
    raw = data["case"]
    if too_deep(raw["input"]):  # no target on the wire could read it, and a run never writes one
        raise ReproducerError(
            f"{path}: malformed case: its input is nested deeper than {MAX_NESTING} levels (a run cuts what is deeper)"
        )
    case = Case(**{**raw, "expect": Expectation(**raw["expect"])})
    return case, data


def judge(case: Case, target) -> tuple[Case, object, Verdict]:
    """Re-send the case (every step of a case of several requests, in order or as a burst, as the run
    did) and judge it: (the case as judged, the deciding answer, its verdict)."""
    from conformance import steps
    from conformance.compare import check

    if not case.steps:
        response = wire.call(target, case)
        return case, response, check(case, response)
    cases = steps.step_cases(case)
    responses = steps.send(lambda step: wire.call(target, step), cases, case.sending)
    shown, index, verdict = steps.judged(case, [check(step, response) for step, response in zip(cases, responses)])
    return shown, responses[index], verdict


def describe(case: Case, response, verdict: Verdict, whole: Path) -> tuple[str, Path | None]:
    """The replayed case as the end of a run shows it (conformance.reports.failures): each line cut to
    LINE_LIMIT, an input too large to show inline by its beginning. What was cut is written whole to
    ``whole`` (JSON: the input, the expected output, the answer), which the text names; (the text, that
    file, or None when nothing was cut)."""
    from conformance.compare import expected_for
    from conformance.reports.failures import result_text
    from conformance.reports.text import INPUT_INLINE_LIMIT, render_value

    expected = expected_for(case) if verdict.outcome in ("failed", "errored") else None
    result = CaseResult(case, verdict.outcome, verdict.message, verdict.mismatch, response, expected)
    text = result_text(result)
    if not render_value(case.input, INPUT_INLINE_LIMIT)[1] and WHOLE_IN_REPORT not in text:
        return text, None
    values = {"input": case.input, "expected": expected, "answer": response.to_dict() if response else None}
    try:
        whole.write_text(json.dumps(values, indent=2, ensure_ascii=True, default=str) + "\n", encoding="utf-8")
    except OSError:  # the reproducer's directory is not writable: a temporary file
        handle, name = tempfile.mkstemp(prefix=whole.stem, suffix=".json")
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(json.dumps(values, indent=2, ensure_ascii=True, default=str) + "\n")
        whole = Path(name)
    result.reproducer_file = str(whole)  # an input too large to show: "saved in" this file, as a run's card says
    return result_text(result).replace(WHOLE_IN_REPORT, f"the full value is in {whole}"), whole


def whole_values_path(reproducer_path: str | Path) -> Path:
    """Where replay writes what it cut: beside the reproducer, ``<name>.replayed.json``."""
    path = Path(reproducer_path)
    return path.with_name(f"{path.stem}.replayed.json")


def shown_hint(hint: str, replay_file: str | Path) -> str:
    """The target's shell line re-sending the input, unless longer than a line: then what it is."""
    if len(hint) <= LINE_LIMIT:
        return hint
    return f"a shell line of {len(hint):,} characters, not shown (conformance replay {replay_file} re-sends it)"


def promote(case: Case, fixture_path: Path, case_id: str) -> Path:
    """Append the case to a fixture file, with the oracle's output as its expectation."""
    from conformance.compare import expected_for

    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", case_id):
        raise ReproducerError(f"--id {case_id!r}: use lowercase kebab-case (e.g. short-hypothesis-bp)")
    parts = fixture_path.with_suffix("").parts[-3:]
    if len(parts) != 3 or fixture_path.suffix != ".json" or tuple(parts[:2]) != (case.tool_id, case.version):
        raise ReproducerError(f"--promote must be fixtures/{case.tool_id}/{case.version}/<topic>.json")
    if fixture_path.exists():
        data = json.loads(fixture_path.read_text(encoding="utf-8"))
    else:
        data = {
            "tool": case.tool_id,
            "version": case.version,
            "topic": parts[2],
            "description": "Cases promoted from reproducers of failing runs.",
            "cases": [],
        }
    if any(existing["id"] == case_id for existing in data["cases"]):
        raise ReproducerError(f"{fixture_path} already has a case {case_id!r}")
    if case.expect.kind == "error":
        expect = {"error": case.expect.error_code or "any"}
    else:
        expect = {"output": expected_for(case)}
    data["cases"].append(
        {
            "id": case_id,
            "description": f"{case.description or case.case_id} (promoted from a reproducer: write out the hand "
            "computation here)",
            "source": "derived",
            "input": case.input,
            "expect": expect,
            "tags": ["regression"],
        }
    )
    fixture_path.parent.mkdir(parents=True, exist_ok=True)
    fixture_path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    # a fixture id is published the moment it exists: users pin known failures on it
    published = fixture_path.parents[2] / "published-ids.txt"
    if published.is_file():
        with published.open("a", encoding="utf-8") as ids:
            ids.write(f"{case.tool_id}/{case.version}/{parts[2]}#{case_id}\n")
    return fixture_path


def register(subparsers) -> None:
    parser = subparsers.add_parser("replay", help="re-send a saved failing case to its target and show the diff")
    parser.add_argument("file", metavar="FILE", help="a reproducer JSON file written by `conformance run`")
    parser.add_argument("--target", default=None, help="send to this target instead of the one in the file")
    parser.add_argument(
        "--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds for the request (default %(default)g)"
    )
    parser.add_argument(
        "--promote",
        default=None,
        metavar="FIXTURE_FILE",
        help="add the case to fixtures/<tool>/<version>/<topic>.json instead of replaying",
    )
    parser.add_argument("--id", dest="case_id", default=None, help="the new fixture case id (with --promote)")
    parser.set_defaults(func=run)


def run(args) -> int:
    try:
        case, data = read_reproducer(args.file)
        if args.promote:
            if not args.case_id:
                raise ReproducerError("--promote needs --id NAME (the fixture case's stable id)")
            path = promote(case, Path(args.promote), args.case_id)
            print(f"added {case.tool_id}/{case.version}/{path.stem}#{args.case_id} to {path}")
            return EXIT_PASSES
        spec = args.target or data.get("target")
        if not spec:  # the schema leaves "target" out of what a file needs
            raise ReproducerError(
                f"{args.file} names no target: give one with --target (oracle, python:MODULE, "
                "cmd:COMMAND, jsonl:COMMAND or URL)"
            )
        target = make_target(spec, timeout=args.timeout)
    except (ReproducerError, TargetSpecError) as exc:
        print(f"conformance replay: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        case, response, verdict = judge(case, target)
    finally:
        target.close()
    text, whole = describe(case, response, verdict, whole_values_path(args.file))
    print(text)
    if whole is not None:
        print(f"  whole input, expected output and answer: {whole}")
    hint = wire.reproduce_hint(target, case)
    if hint and verdict.outcome != "passed":
        print(f"  reproduce: {shown_hint(hint, args.file)}")
    print(f"replayed against {target.spec}: {'passes now' if verdict.outcome == 'passed' else 'still fails'}")
    return EXIT_PASSES if verdict.outcome == "passed" else EXIT_FAILS
