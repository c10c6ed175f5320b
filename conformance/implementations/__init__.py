"""Real BLEU/chrF libraries: one module per library, holding everything the suite knows about it, found
like the tools.

A library's module (``conformance/implementations/<name>.py``) defines ``IMPLEMENTATION =
Implementation(...)`` (its name, language, distribution and the extra that installs it) and, for each
tool its public API can express, a function named like the tool's module (``oracle.registry.module_name``:
the function ``bleu_corpus_compute`` adapts that tool) taking the tool's input and returning its output
object built from the library's own answer. ``NOT_EXPRESSIBLE`` maps the other tools' module names to why
the library cannot answer them (``NOT_EXPRESSIBLE_OTHERWISE``: why for any tool not listed). For the
cross-check it declares ``CHECKS`` (tool module name -> the library calls compared with that tool,
``crosscheck.model.Check``) and ``DIVERGENCES`` (tool module name -> its catalogued departures from that
tool's contract, ``crosscheck.model.Divergence``). Nothing else lists the libraries: ``conformance
matrix``, ``conformance crosscheck`` and the target ``implementation:NAME`` ask ``implementations()``,
which reads every module of this package and of each directory named in the environment variable
``CONFORMANCE_LIBRARY_PATH`` (``os.pathsep``-separated: a library module kept outside the project, or a
test's; a run of the matrix passes it on to its subprocesses by inheritance).

An adapter is thin and declares its domain: an input the library's API cannot express (a token
holding whitespace for a library that splits strings, an option it lacks, a field of the output it
does not compute) raises ``NotApplicable(cause)``, never an invented value. None of these libraries
validates the contracts' inputs, so an input the contract rejects is not applicable either
(``Implementation.validates`` False): the matrix holds a library to what it computes, not to rules it
never claimed.

A library often computes only some of a tool's output fields (a score, not the counts behind it). Its
adapter then returns ``Partial(output)``: ``output`` holds only the fields the library computes (a
nested object may lack some of its keys too: a segment's score without its statistics rows), and
each of the others is "not expressed". The verdict validates the fields present against their
output_schema subschemas, compares only those with the oracle's, and says so ("passed on score,
segment_scores (score_fraction not expressed)"); an answer expressing no field is not applicable.
Where the contract's field is an exact six-decimal string (the chrF scores) and the library gives a
float, the adapter answers ``LibraryFloat(value, scale)`` (scale 100 for 0..100, 1 for 0..1) in its
place, never a rounding of it (glue rounding near a six-decimal tie would be the adapter's error):
the judge compares that float with the exact value within a float error bound
(conformance/compare/library_floats.py). Only an ``implementation:`` target unwraps a Partial
(``Partial.resolve``); any other target answering one fails the schema like any other non-object.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import importlib.metadata
import importlib.util
import os
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from conformance.model import Expressed
from oracle.errors import NOT_FOUND, ContractError
from oracle.registry import module_name, tool, tool_keys

LIBRARY_PATH = "CONFORMANCE_LIBRARY_PATH"  # more directories of library modules (os.pathsep-separated)


class NotApplicable(Exception):
    """The library's public API cannot express this input or this output: ``cause`` says why, in words that
    stay the same for every such input (the matrix counts one cause once); ``detail`` may name the part."""

    def __init__(self, cause: str, detail: str = ""):
        super().__init__(f"{cause} ({detail})" if detail else cause)
        self.cause = cause
        self.detail = detail


def rounded(payload: dict, value: float) -> float:
    """A library's full-precision float, with ``decimals`` as Number(x.toFixed(decimals)). No library rounds so
    itself; rounding its float here cannot fail a correct one: the comparison accepts either neighbour
    wherever the full-precision value lies within the float bound of a rounding boundary
    (compare/floats.py), and elsewhere both round alike."""
    from oracle.jsnumber import to_fixed

    return value if "decimals" not in payload else float(to_fixed(value, int(payload["decimals"])))


@dataclass(frozen=True)
class LibraryFloat:
    """The library's float for a field the contract gives as an exact six-decimal string."""

    value: float
    scale: float = 100  # the library's scale: 100 for 0..100, 1 for 0..1


@dataclass(frozen=True)
class Partial:
    """The fields of a tool's output the library computes (the others are not expressed)."""

    output: dict

    def resolve(self, output_schema: dict) -> tuple[dict, Expressed]:
        """(the answer as plain JSON, with each LibraryFloat's value; what it expresses and does not)."""
        fields: set[str] = set()
        absent: set[str] = set()
        floats: dict[str, float] = {}
        answer = _unwrapped(self.output, output_schema, "", fields, absent, floats)
        return answer, Expressed(tuple(sorted(fields)), tuple(sorted(absent - fields)), dict(sorted(floats.items())))


def _unwrapped(value: Any, schema: dict, pointer: str, fields: set, absent: set, floats: dict) -> Any:
    """The value with LibraryFloats unwrapped, recording the pointer classes expressed, absent and floats.
    An object the schema describes is walked key by key (an array of them item by item, as "/*")."""
    if isinstance(value, LibraryFloat):
        floats[pointer] = value.scale
        fields.add(pointer)
        return value.value
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if isinstance(value, dict) and properties:
        absent.update(f"{pointer}/{key}" for key in properties if key not in value)
        return {
            key: _unwrapped(item, properties.get(key, {}), f"{pointer}/{key}", fields, absent, floats)
            for key, item in value.items()
        }
    items = schema.get("items") if isinstance(schema, dict) else None
    if (
        isinstance(value, list)
        and isinstance(items, dict)
        and (items.get("properties") or any(isinstance(item, LibraryFloat) for item in value))
    ):
        return [_unwrapped(item, items, f"{pointer}/*", fields, absent, floats) for item in value]
    fields.add(pointer)
    return value


@dataclass(frozen=True)
class Implementation:
    name: str  # the matrix row and the target's name: implementation:NAME
    language: str  # the language the library's metric code is written in
    distribution: str  # the package whose version is reported (PyPI, or npm with "npm:")
    requires: tuple[str, ...] = ()  # modules that must import (checked before any call)
    counterpart: str = ""  # the library calls, as a reader would write them
    validates: bool = False  # does the library apply the contracts' input rules itself?
    # the pyproject extra that installs it ("crosscheck": always cross-checked; "" for another runtime)
    extra: str = "matrix"
    install: str = ""  # how to install it, where the extra alone does not (another runtime, a heavy dependency)


@dataclass(frozen=True)
class Library:
    """One library module, read: its declaration, its adapters by tool, and why it lacks the others."""

    implementation: Implementation
    module: ModuleType

    @property
    def name(self) -> str:
        return self.implementation.name

    def adapter(self, tool_id: str) -> Callable[[dict], dict] | None:
        return getattr(self.module, module_name(tool_id), None)

    def tools(self) -> list[tuple[str, str]]:
        """The (tool_id, version) pairs it answers, in the registry's order."""
        return [key for key in tool_keys() if self.adapter(key[0]) is not None]

    def not_expressible(self, tool_id: str) -> str:
        """Why it answers no input of this tool ("" when it has an adapter)."""
        if self.adapter(tool_id) is not None:
            return ""
        reasons = getattr(self.module, "NOT_EXPRESSIBLE", {})
        otherwise = getattr(self.module, "NOT_EXPRESSIBLE_OTHERWISE", f"{self.name} has no public API for this tool")
        return reasons.get(module_name(tool_id), otherwise)

    def call(self, tool_id: str, payload: Any) -> dict | None:
        """The library called on the input as a user would write it: {"language": "python" | "shell", "code": ...},
        a program that prints the library's answer as one JSON object of the tool's output fields (on the
        library's own scale, unrounded); None where the module writes no call for the tool or the input is no
        object. A module declares ``CALLS`` (tool module name -> payload -> code) and ``CALL_LANGUAGE``."""
        writer = getattr(self.module, "CALLS", {}).get(module_name(tool_id))
        if writer is None or not isinstance(payload, dict):
            return None
        try:
            code = writer(payload)
        except (KeyError, TypeError, ValueError):  # an input the call cannot be written for (not the tool's shape)
            return None
        return {"language": getattr(self.module, "CALL_LANGUAGE", "python"), "code": code}

    def checks(self) -> list:
        """Its cross-check Checks (crosscheck.model.Check), each with its library, tool and version filled in."""
        return self._by_tool("CHECKS", "library")

    def divergences(self) -> list:
        """Its catalogued Divergences (crosscheck.model.Divergence), each with its tool filled in and its
        libraries defaulting to this one."""
        return self._by_tool("DIVERGENCES", "libraries")

    def _by_tool(self, attribute: str, own: str) -> list:
        declared = getattr(self.module, attribute, {})
        found = []
        for tool_id, version in tool_keys():
            for entry in declared.get(module_name(tool_id), ()):
                changes: dict[str, Any] = {"tool_id": tool_id}
                if own == "library":
                    changes.update(library=self.name, version=version)
                elif not entry.libraries:
                    changes["libraries"] = (self.name,)
                found.append(dataclasses.replace(entry, **changes))
        return found

    def missing(self) -> str:
        """What is not installed ("" when everything it needs imports; a module may say it, ``library_missing``)."""
        reader = getattr(self.module, "library_missing", None)
        if reader is not None:
            return reader()
        absent = [name for name in self.implementation.requires if importlib.util.find_spec(name) is None]
        return f"not installed: {', '.join(absent)}" if absent else ""

    def version(self) -> str:
        distribution = self.implementation.distribution
        reader = getattr(self.module, "library_version", None)
        if reader is not None:
            return reader()
        try:
            return importlib.metadata.version(distribution)
        except importlib.metadata.PackageNotFoundError:
            return ""

    def execute(self, tool_id: str, version: str, payload: Any) -> dict | Partial:
        """The library's answer as the contract's output (or the Partial part it computes); ContractError(
        not_found) for a tool it has no adapter for, NotApplicable for an input it cannot express (or, when
        it validates nothing, one the contract rejects)."""
        adapter = self.adapter(tool_id)
        if adapter is None:
            raise ContractError(NOT_FOUND, f"{self.name}: {self.not_expressible(tool_id)}")
        if not self.implementation.validates:
            try:
                tool(tool_id, version).execute(payload)
            except ContractError:
                raise NotApplicable(
                    f"an input the contract rejects: {self.name} does not apply the contract's validation rules"
                ) from None
        return adapter(payload)


_PACKAGE_PATH = list(__path__)


def search_path() -> list[str]:
    """Where library modules are found: this package, then each directory of CONFORMANCE_LIBRARY_PATH."""
    extra = [entry for entry in os.environ.get(LIBRARY_PATH, "").split(os.pathsep) if entry]
    return list(dict.fromkeys([*_PACKAGE_PATH, *extra]))


@functools.cache
def implementations() -> dict[str, Library]:
    """Every library module found (``search_path``), by its implementation's name (sorted).

    A module outside this package is imported as a submodule of it (``conformance.implementations.NAME``),
    so that it is found the same way in every process; a name taken twice keeps the package's."""
    where = search_path()
    __path__[:] = where  # the package's submodules are looked up there too
    found: dict[str, Library] = {}
    for info in pkgutil.iter_modules(where):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        declared = getattr(module, "IMPLEMENTATION", None)
        if isinstance(declared, Implementation) and declared.name not in found:
            found[declared.name] = Library(declared, module)
    return dict(sorted(found.items()))


def library(name: str) -> Library:
    """The library named ``name``; KeyError naming the known ones when there is none."""
    known = implementations()
    if name not in known:
        raise KeyError(f"unknown implementation {name!r}: known are {', '.join(known)}")
    return known[name]
