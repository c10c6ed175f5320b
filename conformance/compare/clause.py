"""The contract clause a failure breaks: a semantics line, a named limit or a schema keyword.

    output_clause(tool, payload, pointer)  the line defining the differing output field (Tool.clauses)
    rejection_clause(tool, payload)        the rule that rejects the input: the first failing rule of
                                           the tool's validation, as the oracle applies them
    schema_clause(tool, pointer, keyword)  an output_schema keyword the answer violates

Only what is determinable is named. A field the tool does not list (a chrF score depends on every
line), a field two applicable lines define (``decimals`` given: the formula or the rounding), an
input every rule accepts: the clause is "unattributed", never a guess.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import asdict, dataclass
from typing import Any

from oracle.errors import ContractError
from oracle.tool import Tool
from oracle.validation import Schema, describe_violation, schema_accepts
from oracle.value_clauses import ValueClause

_INDEX = re.compile(r"/\d+(?=/|$)")


def pointer_class(pointer: str) -> str:
    """``/segments/3/precisions/0`` -> ``/segments/*/precisions/*``: one class for every index."""
    return _INDEX.sub("/*", pointer)


@dataclass(frozen=True)
class Clause:
    tool: str  # tool@version
    kind: str  # "semantics" | "limit" | "schema" | "unattributed"
    number: int | None  # the semantics line (1-based)
    name: str | None  # the limit, the schema keyword (with where it applies), the prose rule
    text: str  # the clause quoted, or why none is named
    mechanism: str | None = None  # how the answer departs from it, where the answer shows it ("whitespace set")

    @property
    def key(self) -> str:
        """What tells two clauses apart in a failure signature (two mechanisms of one line are two causes)."""
        key = f"{self.kind}:{self.number if self.number is not None else self.name or ''}"
        return f"{key}:{self.mechanism}" if self.mechanism else key

    def label(self) -> str:
        """``semantics 5``, ``semantics 2 (whitespace set)``, ``limit max_token_bytes``, ``unattributed``."""
        if self.kind == "semantics" and self.number is not None:
            return f"semantics {self.number}" + (f" ({self.mechanism})" if self.mechanism else "")
        return f"{self.kind} {self.name}" if self.name else self.kind

    def to_dict(self) -> dict:
        return asdict(self)


def unattributed(tool: Tool, why: str) -> Clause:
    return Clause(tool.label, "unattributed", None, None, why)


def semantics_line(tool: Tool, number: int, mechanism: str | None = None) -> Clause:
    lines = tool.contract.semantics
    return Clause(tool.label, "semantics", number, None, lines[number - 1], mechanism)


# ---------------------------------------------------------------- a differing output value


_OMITTED = object()


def _sets_option(tool: Tool, options: dict, option: str) -> bool:
    """Does the input set ``option`` to something it does not mean when omitted? (An option set to its
    default, ``"lowercase": false``, is the input without it: the same cause, one group.)"""
    if option not in options:
        return False
    default = tool.defaults.get(option, _OMITTED)
    value = options[option]
    return default is _OMITTED or type(value) is not type(default) or value != default


def _applicable_lines(tool: Tool, entry: Any, payload: Any, option_settled: bool | None) -> list[int]:
    """The lines of a Tool.clauses entry that apply to this input: a plain line always, a
    (line, option) pair when the input sets the option (to other than its default). ``option_settled``:
    True when the difference is known to come from the option's line, False when known not to, None if
    unknown."""
    entries = entry if isinstance(entry, tuple) else (entry,)
    options = payload if isinstance(payload, dict) else {}
    plain = [item for item in entries if isinstance(item, int)]
    optional = [item[0] for item in entries if not isinstance(item, int) and _sets_option(tool, options, item[1])]
    if option_settled is True and optional:
        return optional
    if option_settled is False:
        return plain
    return plain + optional


def output_clause(
    tool: Tool, payload: Any, pointer: str, option_settled: bool | None = None, actual: Any = None
) -> Clause:
    """The semantics line defining the field at ``pointer`` (its class, or its nearest listed parent).

    ``option_settled`` says whether an option's line is known to be the one broken: a value the
    contract fixes whatever the rounding (False), a rounded value that no rounding gives (True).
    ``actual`` is the target's output: a ValueClause entry chooses its line from it."""
    where = pointer_class(pointer)
    probe = where
    while probe and probe not in tool.clauses:
        probe = probe.rpartition("/")[0]
    if not probe:
        return unattributed(
            tool, f"no single semantics line defines {where or 'the whole output'}: its value depends on several"
        )
    entry = tool.clauses[probe]
    if isinstance(entry, ValueClause):
        number = entry.choose(payload, actual, pointer) if isinstance(actual, dict) else None
        return (
            semantics_line(tool, number)
            if number is not None
            else unattributed(
                tool,
                f"no single semantics line determines this {where} from the target's own answer: "
                "it may come from any of the lines it depends on",
            )
        )
    lines = _applicable_lines(tool, entry, payload, option_settled)
    if len(lines) != 1:
        listed = " and ".join(f"semantics {n}" for n in lines)
        return unattributed(tool, f"{where} is defined by {listed} for this input: either could be broken")
    return semantics_line(tool, lines[0])


# ---------------------------------------------------------------- what a fixture says it tests


@functools.lru_cache(maxsize=1)
def _fixture_sources() -> dict[str, str]:
    from conformance.fixtures import load_files

    return {
        f"{data['tool']}/{data['version']}/{data['topic']}#{case['id']}": case.get("source", "")
        for _, data in load_files()
        for case in data["cases"]
    }


def fixture_clause(tool: Tool, case_id: str) -> Clause | None:
    """The one semantics line a fixture case's ``source`` names, if it names exactly one and nothing else
    (a source also naming a limit, a schema keyword or a second line settles nothing)."""
    source = _fixture_sources().get(case_id, "")
    lines = set(re.findall(r"\bsemantics (\d+)\b", source))
    if len(lines) != 1 or re.search(r"\bsemantics \d+ and\b|limits|input_schema", source):
        return None
    number = int(lines.pop())
    return semantics_line(tool, number) if 1 <= number <= len(tool.contract.semantics) else None


# ---------------------------------------------------------------- a rejection


def _limit_named_in(tool: Tool, message: str) -> str | None:
    return next((name for name in tool.contract.limits if re.search(rf"\b{re.escape(name)}\b", message)), None)


def _limit_clause(tool: Tool, name: str) -> Clause:
    return Clause(tool.label, "limit", None, name, f"limits: {name} {tool.contract.limits[name]}")


def _rule_clause(tool: Tool, rule_name: str, error: ContractError) -> Clause:
    """A prose rule: the named limit its message cites, else the semantics line stating the rule."""
    limit = _limit_named_in(tool, error.message)
    if limit:
        return _limit_clause(tool, limit)
    stating = [number for number, line in enumerate(tool.contract.semantics, 1) if rule_name.lower() in line.lower()]
    if len(stating) == 1:
        return semantics_line(tool, stating[0])
    return Clause(tool.label, "semantics", None, rule_name, f"the rule '{rule_name}' ({error.message})")


def _input_schema_clause(tool: Tool, keyword: str, where: str, words: str) -> Clause:
    return Clause(tool.label, "schema", None, f"input_schema {where} {keyword}", words)


def _shape_clause(tool: Tool, payload: Any) -> Clause | None:
    """Plain object, unknown keys, missing keys: the first checks of every tool."""
    schema = tool.contract.input_schema
    if not isinstance(payload, dict):
        return _input_schema_clause(tool, "type", "/", 'the input must be an object ("type": "object")')
    unknown = [key for key in payload if key not in schema.get("properties", {})]
    if unknown:
        return _input_schema_clause(
            tool,
            "additionalProperties",
            "/",
            f"unknown keys are not allowed (additionalProperties false): {unknown[0]!r}",
        )
    missing = [key for key in schema.get("required", []) if key not in payload]
    if missing:
        return _input_schema_clause(tool, "required", "/", f"required: {', '.join(schema['required'])}")
    return None


def rejection_clause(tool: Tool, payload: Any) -> Clause:
    """The first rule of the tool's validation that rejects the input, as the oracle applies them."""
    shape = _shape_clause(tool, payload)
    if shape is not None:
        return shape
    schema_ok = schema_accepts(tool.contract, payload)
    for rule in tool.validation:
        if isinstance(rule, Schema):
            error = None if schema_ok else rule.violation(payload, tool.contract)
            if error is not None:
                where = pointer_class("/" + "/".join(str(p) for p in [rule.prop, *error.absolute_path]))
                value = json.dumps(error.validator_value)
                return _input_schema_clause(
                    tool,
                    error.validator,
                    where,
                    f"{where} {describe_violation(error)} (keyword {error.validator}: {value})",
                )
            continue
        try:
            rule.check(payload, tool.contract)
        except ContractError as error:
            return _rule_clause(tool, rule.name, error)
    try:
        tool.execute(payload)
    except ContractError as error:  # an output rule (the output-size limit)
        limit = _limit_named_in(tool, error.message)
        return _limit_clause(tool, limit) if limit else unattributed(tool, error.message)
    return unattributed(tool, "the oracle accepts this input (only another reading of an open point rejects it)")


# ---------------------------------------------------------------- an output_schema violation


def schema_clause(tool: Tool, pointer: str, keyword: dict) -> Clause:
    """``keyword`` is the Mismatch's expected value: {keyword: value} (compare.schema)."""
    ((name, value),) = (
        keyword.items() if isinstance(keyword, dict) and len(keyword) == 1 else (("output_schema", None),)
    )
    where = pointer_class(pointer) or "/"
    return Clause(tool.label, "schema", None, f"output_schema {where} {name}", f"{name}: {json.dumps(value)}")
