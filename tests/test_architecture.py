"""The structure docs/architecture.md describes, held to by tests.

- no import cycle among the modules of oracle/ and conformance/ (imports inside functions count);
- a tool id is written only in the tool's own units (its oracle, strategies and cross-check
  modules, its contract and fixtures): every other part finds tools from the registry;
- every implemented tool is a whole unit: contract, oracle module, strategies module, fixtures;
- the project describes itself: no code or document points at files outside it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import oracle
from oracle.registry import module_name

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("oracle", "conformance")


def project_modules() -> dict[str, Path]:
    modules = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            modules[name] = path
    return modules


def imported_modules(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules ``name`` imports anywhere in its file (``from pkg import sub`` names both)."""
    found = set()
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = name.split(".")[: None if is_package else -1]
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join(parts + ([base] if base else []))
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        for imported in names:
            while imported and imported not in known:
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                found.add(imported)
    return found


def import_cycles() -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan's algorithm, iteratively)."""
    modules = project_modules()
    graph = {name: sorted(imported_modules(name, path, modules)) for name, path in modules.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, edge = work.pop()
            if edge == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if edge < len(graph[node]):
                work.append((node, edge + 1))
                child = graph[node][edge]
                if child not in index:
                    work.append((child, 0))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return groups


def test_the_cycle_finder_finds_a_cycle(tmp_path, monkeypatch):
    package = tmp_path / "oracle"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from oracle import b\n")
    (package / "b.py").write_text("def f():\n    from oracle.a import x\n")
    (tmp_path / "conformance").mkdir()
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    assert import_cycles() == [["oracle.a", "oracle.b"]]


def test_no_import_cycles():
    assert import_cycles() == []


def test_a_tools_modules_are_those_its_answers_import():
    # read by hand from the import lines: bleu-ngrams-count's module imports bleu_statistics, tool and
    # validation; the package's entry brings contracts, errors and registry; nothing reaches the BLEU
    # scores, jsnumber or chrF
    assert oracle.registry.modules_used("bleu-ngrams-count") == {
        "__init__",
        "bleu_ngrams_count",
        "bleu_statistics",
        "tool",
        "validation",
        "contracts",
        "errors",
        "registry",
    }
    # chrf-compute's module imports chrf and value_clauses by `from oracle import chrf, value_clauses`
    assert {"chrf", "value_clauses"} <= oracle.registry.modules_used("chrf-compute")
    assert "bleu_score" not in oracle.registry.modules_used("chrf-compute")


# --- one unit per tool --------------------------------------------------------------------

TOOL_IDS = sorted({tool_id for tool_id, _ in oracle.available()})


def unit_files(tool_id: str) -> set[Path]:
    name = module_name(tool_id)
    return {
        ROOT / "oracle" / f"{name}.py",
        ROOT / "conformance" / "strategies" / f"{name}.py",
        ROOT / "conformance" / "crosscheck" / "adapters" / f"{name}.py",
    }


def string_literals(path: Path) -> list[tuple[int, str]]:
    """String constants of a module that are not docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def test_tool_ids_are_written_only_in_their_units():
    pattern = re.compile("|".join(re.escape(tool_id) for tool_id in TOOL_IDS))
    misplaced = []
    for path in project_modules().values():
        own = {tool_id for tool_id in TOOL_IDS if path in unit_files(tool_id)}
        for line, text in string_literals(path):
            for found in pattern.findall(text):
                if found not in own:
                    misplaced.append(f"{path.relative_to(ROOT)}:{line}: {text[:80]!r}")
    assert not misplaced, "tool ids outside their units (ask oracle.registry instead):\n" + "\n".join(misplaced)


@pytest.mark.parametrize("tool", oracle.tools(), ids=lambda tool: tool.label)
def test_every_tool_is_a_whole_unit(tool):
    name = module_name(tool.id)
    assert (ROOT / "contracts" / tool.id / f"{tool.version}.json").is_file()
    assert (ROOT / "oracle" / f"{name}.py").is_file()
    assert (ROOT / "conformance" / "strategies" / f"{name}.py").is_file(), "generated cases: the recipe's step 3"
    assert any((ROOT / "fixtures" / tool.id / tool.version).glob("*.json")), "golden fixtures: the recipe's step 4"


# Tools and versions no contract defines (open point A18: the suite never judges a target on them, so the
# project's own tests hold its oracle and servers to not_found). The path-like ones name a contract file
# through a path: they must be refused before any file or module lookup.
UNKNOWN_ADDRESSES = [
    ("no-such-tool", "1.0.0"),
    ("bleu-corpus-compute", "9.9.9"),
    ("../contracts/bleu-corpus-compute", "1.0.0"),
    ("bleu-corpus-compute/../bleu-corpus-compute", "1.0.0"),
    ("bleu-corpus-compute", "../bleu-corpus-compute/1.0.0"),
    ("..", "1.0.0"),
]


@pytest.mark.parametrize("tool_id, version", UNKNOWN_ADDRESSES)
def test_a_tool_without_a_contract_is_not_found_and_not_implemented(tool_id, version):
    """The registry answers "no such tool" for an id or version without a contract, also one naming a
    contract file through a path: never an import of a module named after it, never a crash."""
    from oracle.errors import NOT_FOUND, ContractError
    from oracle.registry import implemented

    assert implemented(tool_id, version) is False
    with pytest.raises(ContractError) as raised:
        oracle.execute(tool_id, version, {"hypotheses": [["a"]], "references": [[["a"]]]})
    assert raised.value.code == NOT_FOUND


# --- the project speaks of itself ---------------------------------------------------------


def test_nothing_points_outside_the_project():
    outside = re.compile(r"DESIGN\.md|\.\./shared")
    files = [
        *project_modules().values(),
        *(ROOT / "tests").rglob("*.py"),
        ROOT / "README.md",
        *(ROOT / "docs").rglob("*.md"),
        *(ROOT / "docs").glob("*.py"),
        ROOT / "mkdocs.yml",
        *(ROOT / "benchmarks").glob("*.py"),
        *(ROOT / "tools").glob("*.py"),
    ]
    pointing = [
        str(path.relative_to(ROOT))
        for path in files
        if path != Path(__file__) and outside.search(path.read_text(encoding="utf-8"))
    ]
    assert not pointing, f"these files point outside the project: {pointing}"
