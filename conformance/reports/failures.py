"""One failure, format-neutral: the FailureView every report renders, and its plain text.

    failure_view(number, result, header) -> FailureView   # result: one entry of report.json "results"
    failure_text(view)                   -> str           # JUnit's failure body
    failure_text(view, compact=True)     -> str           # the console, pytest's failure message, replay

A view is built from a result as report.json holds it (a dict), so report.md, report.html,
junit.xml, the end-of-run console summary, the message pytest shows for a failing test and
``conformance replay`` all say the same thing about a failure: the case, why it failed,
where the answer first differs (both values, the numeric difference against the
tolerance), the input, a whole-output diff, what the target said, and how to reproduce it.
``result_text`` takes an in-memory CaseResult through the same document form first.
"""

from __future__ import annotations

import difflib
import json
import math
from dataclasses import dataclass
from typing import Any

from conformance.model import CaseResult
from conformance.reports.document import json_safe, outcome_word, problem_results, tool_label
from conformance.reports.text import (
    BLOCK_LIMIT,
    DIFF_MAX_LINES,
    ESCAPED_NOTE,
    INPUT_INLINE_LIMIT,
    LINE_LIMIT,
    MAX_DETAILED_FAILURES,
    command_text,
    counted,
    holds_unusual,
    json_scalar,
    prose,
    render_escaped,
    render_value,
    truncate,
    visible,
    visible_lines,
)

OUTCOME_MEANING = {
    "passed": "passed",
    "failed": "failed: a wrong answer",
    "errored": "errored: a transport or target error, not an answer",
    "skipped": "skipped",
    "xfailed": "known failure: listed as expected, still failing",
    "fixed": "known failure now passing: listed in the known-failures file, it passes now; remove it from the file",
}

# Facts that are sentences (shown as text); every other fact is a value (shown as code).
PROSE_FACTS = frozenset({"outcome", "description", "why", "detail", "target said", "known failure reason"})
# Facts the title already gives: the compact text leaves them out.
TITLE_FACTS = frozenset({"tool", "case"})
COMPACT_BLOCK_LIMIT = 2_000  # a block in the compact text (the full one is in report.md)
_NON_FINITE = frozenset({"NaN", "Infinity", "-Infinity"})  # how report.json writes non-finite numbers


@dataclass
class Block:
    label: str
    text: str
    note: str = ""  # e.g. what was truncated
    kind: str = "code"  # "code" (JSON) | "diff" | "command" | "text"


@dataclass
class FailureView:
    number: int
    outcome: str
    title: str
    facts: list[tuple[str, str]]  # (label, text); labels in PROSE_FACTS or prose_labels are sentences, the rest values
    blocks: list[Block]
    prose_labels: frozenset[str] = frozenset()  # this failure's other sentences ("actual": missing, say)

    @property
    def anchor(self) -> str:
        return f"failure-{self.number}"

    def is_prose(self, label: str) -> bool:
        return label in PROSE_FACTS or label in self.prose_labels


def _pointer_tokens(pointer: str) -> list[str]:
    """The reference tokens of a JSON pointer (RFC 6901)."""
    if not pointer:
        return []
    return [token.replace("~1", "/").replace("~0", "~") for token in pointer[1:].split("/")]


def absent_at(value: Any, pointer: str) -> str:
    """What ``value`` lacks at ``pointer`` when its parent is there but the place itself is not:
    ``no item 3 (it has 3 items, numbered from 0)``, ``no key "bleu"``; "" when the place is there
    (a null there is a null) or not even its parent is."""
    tokens = _pointer_tokens(pointer)
    if not tokens:
        return ""
    parent = value
    for token in tokens[:-1]:
        if isinstance(parent, dict) and token in parent:
            parent = parent[token]
        elif isinstance(parent, list) and token.isdigit() and int(token) < len(parent):
            parent = parent[int(token)]
        else:
            return ""
    last = tokens[-1]
    if isinstance(parent, list) and last.isdigit() and int(last) >= len(parent):
        items = f"{counted(len(parent), 'item')}, numbered from 0" if parent else "no items"
        return f"no item {last} (it has {items})"
    if isinstance(parent, dict) and last not in parent:
        return f"no key {json.dumps(last, ensure_ascii=False)}"
    return ""


def difference_values(
    pointer: str, expected: Any, actual: Any, expected_output: Any, actual_output: Any
) -> tuple[list[tuple[str, str]], frozenset[str]]:
    """The expected and actual facts at a first difference, and which of them are sentences: a place
    the answer lacks is "missing: the answer has no item 3 ...", one only the answer has is "extra",
    never a null; a value holding characters outside printable ASCII is also shown escaped."""
    facts: list[tuple[str, str]] = []
    sentences = set()
    for label, value, output, other, says in (
        ("expected", expected, expected_output, actual_output, "extra: the expected output has {}; the answer has one"),
        ("actual", actual, actual_output, expected_output, "missing: the answer has {}"),
    ):
        lacks = absent_at(output, pointer) if value is None else ""
        if lacks and not absent_at(other, pointer):
            facts.append((label, prose(says.format(lacks))))
            sentences.add(label)
            continue
        facts.append((label, _with_note(*render_value(value))))
        if holds_unusual(value):
            facts.append((f"{label}, escaped", _with_note(*render_escaped(value))))
    return facts, frozenset(sentences)


def _number(value: Any) -> Any:
    """A delta or tolerance as a number again (report.json writes non-finite ones as strings)."""
    return float(value) if isinstance(value, str) and value in _NON_FINITE else value


def numeric_difference(delta: Any, tolerance: Any) -> str:
    """``|expected − actual| = 1.8e-11, tolerance 4.4e-16 (41,021× the tolerance)``.

    Three significant digits, unless the difference is so close to the tolerance that they
    would look equal: then every digit.
    """
    delta, tolerance = _number(delta), _number(tolerance)
    numbers = all(
        isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in (delta, tolerance)
    )
    ratio = delta / tolerance if numbers and tolerance > 0 else None
    close_call = ratio is not None and 0.99 <= ratio <= 1.01

    def show(value: Any) -> str:
        if isinstance(value, float) and math.isfinite(value) and not close_call:
            return f"{value:.3g}"
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return json_scalar(value)
        return render_value(value, 40)[0]

    text = f"|expected − actual| = {show(delta)}"
    if tolerance is None:
        return text + " (compared exactly)"
    text += f", tolerance {show(tolerance)}"
    if ratio is not None:
        precision = ".6g" if close_call else ".3g"
        text += f" ({ratio:,.0f}× the tolerance)" if ratio >= 100 else f" ({ratio:{precision}}× the tolerance)"
    return text


def whole_output_diff(expected: Any, actual: Any) -> tuple[str, str]:
    """A unified diff of the pretty-printed values, or ("", reason) when there is none to show."""
    if not isinstance(expected, (dict, list)) or not isinstance(actual, (dict, list)):
        return "", ""
    budget = DIFF_MAX_LINES * 80
    expected_text, expected_cut = render_value(expected, budget, indent=2)
    actual_text, actual_cut = render_value(actual, budget, indent=2)
    expected_lines, actual_lines = expected_text.split("\n"), actual_text.split("\n")
    if expected_cut or actual_cut or max(len(expected_lines), len(actual_lines)) > DIFF_MAX_LINES:
        return "", "outputs too large for a whole-output diff; see the first difference above and report.json"
    diff = difflib.unified_diff(expected_lines, actual_lines, "expected", "actual", lineterm="", n=3)
    return "\n".join(diff), ""


def _with_note(text: str, note: str) -> str:
    return text + (f" ({note})" if note else "")


def _case_facts(result: dict, header: dict) -> list[tuple[str, str]]:
    case = result["case"]
    case_label = case["case_id"] if case["origin"] == "fixture" else f"generated ({case['case_id']})"
    facts = [
        ("outcome", OUTCOME_MEANING.get(result["outcome"], result["outcome"])),
        ("tool", tool_label(case["tool_id"], case["version"])),
        ("case", prose(case_label)),
        ("category", prose(case["category"])),
    ]
    if case["description"]:
        facts.append(("description", prose(case["description"])))
    seed = case["seed"] if case["seed"] is not None else header.get("seed")
    if seed is not None:
        facts.append(("seed", str(seed)))
    if case.get("wire"):  # the form its bytes took (conformance/wire.py): the reproducer keeps them
        from conformance.wire import WireForm

        facts.append(("sent as", WireForm.from_dict(case["wire"]).describe()))
    return facts


def _outputs(result: dict) -> tuple[Any, Any]:
    """(the expected output, the answer's output); None where there is none."""
    response = result["response"]
    answer = response["result"] if response is not None and response["kind"] == "result" else None
    return result["expected"], answer


def _mismatch_facts(mismatch: dict, why: str, result: dict) -> tuple[list[tuple[str, str]], frozenset[str]]:
    """Where the answer first differs, both values there (or what is missing or extra there), and
    the numeric delta against the tolerance; which facts are sentences."""
    pointer = json.dumps(visible(mismatch["pointer"]), ensure_ascii=False)
    facts = [
        ("first difference at", f"JSON pointer {pointer}" + (" (the whole output)" if not mismatch["pointer"] else ""))
    ]
    values, sentences = difference_values(
        mismatch["pointer"], mismatch["expected"], mismatch["actual"], *_outputs(result)
    )
    facts += values
    if mismatch["delta"] is not None:
        facts.append(("numeric difference", numeric_difference(mismatch["delta"], mismatch["tolerance"])))
    if mismatch["message"] and mismatch["message"] not in why:
        facts.append(("detail", prose(mismatch["message"])))
    return facts, sentences


def _response_facts(response: dict) -> list[tuple[str, str]]:
    """How a rejection or a transport error looked: kind, status, error code, explanation."""
    facts = []
    if response["kind"] != "result":
        said = [response["kind"].replace("_", " ")]
        if response["status"] is not None:
            said.append(f"status {response['status']}")
        if response["error_code"]:
            said.append(f"error code {render_value(response['error_code'], 80)[0]}")
        if response["detail"]:
            said.append(prose(response["detail"]))
        facts.append(("target said", ", ".join(said)))
    if response["retries"]:
        facts.append(("retries", str(response["retries"])))
    return facts


def _input_parts(result: dict) -> tuple[list[tuple[str, str]], Block]:
    """The (shrunk) input inline when small; else its beginning and the reproducer file holding it."""
    text, note = render_value(result["case"]["input"], INPUT_INLINE_LIMIT)
    where = prose(result["reproducer_file"])
    if note and result["reproducer_file"]:
        text, note = render_value(result["case"]["input"], 300)
        return [("input", f"too large to show here; saved in {where}")], Block("input (beginning)", text, note)
    facts = [("reproducer file", where)] if result["reproducer_file"] else []
    return facts, Block("input", text, note)


def escaped_input_blocks(value: Any) -> list[Block]:
    """An input holding characters outside printable ASCII, escaped as well: inputs that look alike
    (two emoji, a no-break space and a space) can then be told apart."""
    if not holds_unusual(value):
        return []
    text, note = render_escaped(value, INPUT_INLINE_LIMIT)
    return [Block(f"input, escaped ({ESCAPED_NOTE})", text, note)]


def _answer_parts(result: dict) -> tuple[list[tuple[str, str]], list[Block]]:
    """What was expected against what came back: a whole-output diff when both are outputs."""
    expect, response = result["case"]["expect"], result["response"]
    answered = response is not None and response["kind"] == "result"
    facts: list[tuple[str, str]] = []
    blocks: list[Block] = []
    if expect["kind"] == "output" and answered:
        expected, title = result["expected"], "expected output (oracle) → actual output"
        if response.get("expressed"):  # a partial answer: the fields it expresses, not those it cannot
            from conformance.compare.partial import projected

            expected, title = (
                projected(expected, response["result"]),
                "expected output (oracle, the fields the library expresses) → actual output",
            )
        diff, note = whole_output_diff(expected, response["result"])
        if diff or note:
            blocks.append(Block(title, diff, note, kind="diff"))
    elif expect["kind"] == "output":
        facts.append(("expected answer", "an output: " + _with_note(*render_value(result["expected"]))))
    else:
        code = expect["error_code"]
        wanted = f" with the code {code}" if code and code != "any" else " (any error code)"
        facts.append(("expected answer", "a rejection" + wanted))
        if answered:
            text, note = render_value(response["result"], BLOCK_LIMIT, indent=2)
            blocks.append(Block("actual answer (should have been a rejection)", text, note))
    if response is not None and not answered and response["raw"]:
        # the target's own words: why it rejected, or what broke
        text, note = truncate(visible_lines(response["raw"]), BLOCK_LIMIT)
        blocks.append(Block("raw response", text, note, kind="text"))
    return facts, blocks


def _steps_blocks(case: dict) -> list[Block]:
    """A case of several requests: every step (tool, outcome, input), the first wrong one marked; the
    input, diff and answer shown below are that step's."""
    steps = case.get("steps") or []
    if not steps:
        return []
    wrong = case.get("failing_step")
    lines = []
    for index, step in enumerate(steps):
        mark = "  <- went wrong first" if index == wrong else ""
        text, _ = render_value(step["input"], 300)
        lines.append(
            f"{index + 1}. {step['tool_id']}@{step['version']} [{step.get('outcome', '')}] "
            f"{step.get('description', '')}: {text}{mark}"
        )
    sent = "sent one after the other" if case.get("sending") == "sequence" else "released together"
    where = f"; step {wrong + 1} went wrong first (its input, diff and answer below)" if wrong is not None else ""
    return [Block(f"steps ({len(steps)} requests {sent}{where})", "\n".join(lines), kind="text")]


def reproduce_label(command: str) -> str:
    """What a reproduce line is: "curl" only when it is a curl command."""
    return "curl" if command.startswith("curl ") else "shell"


def failure_view(number: int, result: dict, header: dict) -> FailureView:
    """Everything a person needs to understand and reproduce one failure."""
    case, mismatch, response = result["case"], result["mismatch"], result["response"]
    why = result["message"] or (mismatch["message"] if mismatch else "")
    facts = _case_facts(result, header)
    if why:
        facts.append(("why", prose(why)))
    sentences: frozenset[str] = frozenset()
    if mismatch is not None:
        found, sentences = _mismatch_facts(mismatch, why, result)
        facts += found
    if response is not None:
        facts += _response_facts(response)
    if result["known_failure_reason"]:
        facts.append(("known failure reason", prose(result["known_failure_reason"])))
    input_facts, input_block = _input_parts(result)
    answer_facts, answer_blocks = _answer_parts(result)
    blocks = [*_steps_blocks(case), input_block, *escaped_input_blocks(case["input"]), *answer_blocks]
    if result["replay"]:
        blocks.append(Block("replay", *command_text(result["replay"]), kind="command"))
    if result["curl"]:  # the target's own reproduce line: curl for HTTP, a shell pipe for a command
        blocks.append(Block(reproduce_label(result["curl"]), *command_text(result["curl"]), kind="command"))
    title = (
        f"{outcome_word(result['outcome'])} · {tool_label(case['tool_id'], case['version'])} · {prose(case['case_id'])}"
    )
    return FailureView(number, result["outcome"], title, facts + input_facts + answer_facts, blocks, sentences)


def failure_views(document: dict) -> list[FailureView]:
    """A view per failure section of the reports: the first MAX_DETAILED_FAILURES problems."""
    problems = problem_results(document)[:MAX_DETAILED_FAILURES]
    return [failure_view(number, result, document["header"]) for number, result in enumerate(problems, 1)]


def failure_text(view: FailureView, *, compact: bool = False) -> str:
    """Plain text of one failure: the JUnit failure body, or (``compact``) the console's form:
    indented under the title, without what the title or the replay command already says, each
    fact on one line and each block within COMPACT_BLOCK_LIMIT."""
    if not compact:
        lines = [view.title, ""]
        lines += [f"{label}: {text}" for label, text in view.facts]
        for block in view.blocks:
            lines += ["", f"{block.label}:", block.text]
            if block.note:
                lines.append(f"({block.note})")
        return "\n".join(lines)
    lines = [view.title]
    replayable = any(block.label == "replay" for block in view.blocks)  # the command names the file
    lines += [
        f"  {label}: {truncate(text, LINE_LIMIT)[0]}"
        for label, text in view.facts
        if label not in TITLE_FACTS and not (replayable and label == "reproducer file")
    ]
    for block in view.blocks:
        text, note = block.text, block.note
        if "\n" in text:
            text, cut = truncate(text, COMPACT_BLOCK_LIMIT)
            lines += [f"  {block.label}:", *(f"    {line}".rstrip() for line in text.split("\n"))]
        else:
            text, cut = truncate(text, LINE_LIMIT)
            lines.append(f"  {block.label}: {text}".rstrip())
        for remark in (note, cut):
            if remark:
                lines.append(f"    ({remark})")
    return "\n".join(lines)


def result_text(result: CaseResult | dict, header: dict | None = None) -> str:
    """The compact text of one judged case (an in-memory CaseResult or a report.json result).
    A passing case needs no explanation: its title only."""
    entry = json_safe(result.to_dict()) if isinstance(result, CaseResult) else result
    view = failure_view(0, entry, header or {})
    if entry["outcome"] == "passed":
        return view.title
    return failure_text(view, compact=True)
