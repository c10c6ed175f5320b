"""Which checks execute each line of the oracle: so a mutant is judged by the checks that can see it.

A mutant changes one statement of the oracle. A request whose answer never executes that
statement gets the pristine answer, and with the same seed the harness then generates the
same next input, so a check none of whose requests execute the statement passes against the
mutant exactly as against the pristine oracle: running it can never kill the mutant. This map
(``collect``) records, for the pristine oracle at the mutation run's seed and profiles, which
check (a golden fixture case, or a generated property ``generated/<tool>/<family>``) executes
each line, in the target process itself: ``conformance run`` against a line-protocol launcher
that measures the oracle package beside it with coverage.py, while a pytest plugin in the
harness (this module, loaded through ``PYTEST_PLUGINS``) names the running check in a file the
launcher reads before each request, as the coverage context.

What would make a line's record too small, and how it is excluded:
- memoized state: a check that finds a value cached by an earlier check would not execute the
  lines computing it. The launcher clears every cache of the oracle (``functools.cache``,
  and with the contracts' cache every ``cached_property`` of a contract) whenever the running
  check changes, so each check's record is what it executes from cold.
- lines that run outside any check: at import (module level, ``def`` lines, decorators,
  defaults; the launcher imports every module of the package before the first request) or for the harness's own requests between checks (the preflight). Their record
  holds the context ``IMPORT`` or ``SESSION``, and a mutant touching them is judged by every
  check, as without the map (``selection`` returns None).
A mutant's statement is its innermost enclosing statement in the pristine source, body
included (a changed ``if`` test is charged with the whole ``if``): a superset, never less.
A statement no check executes at all can kill no mutant: ``selection`` then returns an empty
Selection, and the judge records the mutant survived without a run, to be triaged.
"""

from __future__ import annotations

import ast
import difflib
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

CONTEXT_FILE = "MUTATION_CONTEXT_FILE"  # the harness writes the running check's pytest node id here
DATA_FILE = "MUTATION_COVERAGE_DATA"  # the launcher's coverage data file (one per process, suffixed)
IMPORT, SESSION = "", "session"  # the contexts of lines run at import, and of requests outside any check
FIXTURE_TEST, PROPERTY_TEST = "test_fixture_case[", "test_generated_family["

LAUNCHER = f'''"""The line-protocol oracle over the oracle package beside this file, measured by coverage.py per check."""
import importlib
import os
import sys
from pathlib import Path

import coverage

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
measure = coverage.Coverage(data_file=os.environ["{DATA_FILE}"], data_suffix=True, include=[str(HERE / "oracle" / "*")])
measure.start()  # before the oracle's import: its module-level lines are recorded in the context ""
import oracle  # noqa: E402
from conformance import jsonl_oracle  # noqa: E402

if Path(oracle.__file__).resolve().parent != HERE / "oracle":
    sys.exit(f"the target imported {{oracle.__file__}}, not the copy beside {{__file__}}")
for path in sorted((HERE / "oracle").glob("*.py")):  # every module now, not at the first check needing it
    importlib.import_module(f"oracle.{{path.stem}}")
CONTEXT = Path(os.environ["{CONTEXT_FILE}"])
pristine_answer, running = jsonl_oracle.answer, [None]


def clear_caches():
    """Every functools cache of the oracle (the contracts' cache holds every cached_property)."""
    for name, module in list(sys.modules.items()):
        if name == "oracle" or name.startswith("oracle."):
            for value in list(vars(module).values()):
                for member in [value, *(vars(value).values() if isinstance(value, type) else [])]:
                    if callable(getattr(member, "cache_clear", None)):
                        member.cache_clear()


def answer(line):
    try:
        context = CONTEXT.read_text(encoding="utf-8") or "{SESSION}"
    except OSError:
        context = "{SESSION}"
    if context != running[0]:
        running[0] = context
        clear_caches()
        measure.switch_context(context)
    return pristine_answer(line)


jsonl_oracle.answer = answer
try:
    jsonl_oracle.main()
finally:
    measure.stop()
    measure.save()
'''


# --- the harness side: a pytest plugin naming the running check ------------------------------


def _name(text: str) -> None:
    path = Path(os.environ[CONTEXT_FILE])
    scratch = path.with_suffix(".part")
    scratch.write_text(text, encoding="utf-8")
    os.replace(scratch, path)  # the launcher never reads half a name


def pytest_runtest_setup(item) -> None:
    _name(item.nodeid)


def pytest_runtest_teardown(item) -> None:
    _name("")


# --- collecting the map --------------------------------------------------------------------------


def check_of(context: str) -> tuple[str, str] | None:
    """A pytest node id -> ("fixture", tool) or ("property", generated/<tool>/<family>); None outside a check."""
    for test, kind in ((FIXTURE_TEST, "fixture"), (PROPERTY_TEST, "property")):
        start = context.find(test)
        if start >= 0 and context.endswith("]"):
            name = context[start + len(test) : -1]
            return (kind, name.split("/")[0]) if kind == "fixture" else (kind, name)
    return None


def digest(root: Path, seed: int) -> str:
    """What the map depends on: the oracle, the harness, the contracts and fixtures, and the seed."""
    hashed = hashlib.sha256(str(seed).encode())
    for folder in ("oracle", "conformance", "contracts", "fixtures"):
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                hashed.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return hashed.hexdigest()


def collect(root: Path, scratch: Path, argv_of, profiles: tuple[str, ...], seed: int, path: Path) -> dict:
    """Run each profile's stage against the measuring launcher and write {profile: {stem: {line: [contexts]}}}."""
    import coverage

    (scratch / "jsonl_coverage.py").write_text(LAUNCHER, encoding="utf-8")
    target = "jsonl:" + " ".join([sys.executable, str(scratch / "jsonl_coverage.py")])
    lines: dict[str, dict[str, dict[str, list[str]]]] = {}
    for index, profile in enumerate(profiles):
        with tempfile.TemporaryDirectory(prefix="mutation-coverage-") as work:
            env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
            env.update(
                PYTHONDONTWRITEBYTECODE="1",
                PYTHONPATH=str(Path(__file__).resolve().parent),
                PYTEST_PLUGINS=Path(__file__).stem,
                **{CONTEXT_FILE: str(Path(work) / "context"), DATA_FILE: str(Path(work) / "coverage")},
            )
            argv = argv_of(profile, index == 0, target)
            done = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True, errors="replace")
            if done.returncode != 0:
                raise RuntimeError(f"the coverage run ({profile}) exited {done.returncode}: {done.stdout[-800:]}")
            combined = coverage.CoverageData(basename=str(Path(work) / "combined"))
            for part in Path(work).glob("coverage.*"):
                data = coverage.CoverageData(basename=str(part))
                data.read()
                combined.update(data)
            per_module: dict[str, dict[str, list[str]]] = {}
            for filename in combined.measured_files():
                per_line = combined.contexts_by_lineno(filename)
                per_module[Path(filename).stem] = {str(line): sorted(set(found)) for line, found in per_line.items()}
            lines[profile] = per_module
    record = {"digest": digest(root, seed), "seed": seed, "profiles": lines}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    return record


# --- a mutant's checks --------------------------------------------------------------------------


@dataclass(frozen=True)
class Selection:
    """The checks a mutant is judged by: per profile, the tools (fixtures) and the generated properties."""

    lines: tuple[int, int]
    fixture_tools: frozenset[str]
    properties: dict[str, frozenset[str]]  # profile -> property ids

    def empty(self) -> bool:
        return not self.fixture_tools and not any(self.properties.values())

    def describe(self) -> str:
        """``lines 5-7: fixtures of 1 tool, quick 0 and default 2 properties``."""
        counts = " and ".join(f"{profile} {len(names)}" for profile, names in self.properties.items())
        return (
            f"lines {self.lines[0]}-{self.lines[1]}: fixtures of {len(self.fixture_tools)} tools, {counts} properties"
        )


def changed_lines(pristine: str, mutated: str) -> list[int]:
    """The pristine source's line numbers that the mutation changed or removed (or next to which it inserted)."""
    before, after = pristine.splitlines(), mutated.splitlines()
    changed: list[int] = []
    for tag, i1, i2, _j1, _j2 in difflib.SequenceMatcher(a=before, b=after, autojunk=False).get_opcodes():
        if tag != "equal":
            changed.extend(range(i1 + 1, max(i2, i1 + 1) + 1))
    return changed


def statement_span(tree: ast.Module, line: int) -> tuple[int, int]:
    """The innermost statement holding ``line`` (its whole extent, body included), or the line itself."""
    spans = [
        (node.lineno, node.end_lineno or node.lineno)
        for node in ast.walk(tree)
        if isinstance(node, ast.stmt) and node.lineno <= line <= (node.end_lineno or node.lineno)
    ]
    return min(spans, key=lambda span: span[1] - span[0], default=(line, line))


def selection(stem: str, pristine: str, mutated: str, record: dict) -> Selection | None:
    """The checks that execute the mutated statement, or None when every check must judge it."""
    changed = changed_lines(pristine, mutated)
    if not changed:
        return None
    tree = ast.parse(pristine)
    spans = [statement_span(tree, line) for line in changed]
    first, last = min(start for start, _ in spans), max(end for _, end in spans)
    fixture_tools: set[str] = set()
    properties: dict[str, frozenset[str]] = {}
    for profile, modules in record["profiles"].items():
        found: set[str] = set()
        for start, end in spans:
            for line in range(start, end + 1):
                found.update(modules.get(stem, {}).get(str(line), []))
        if IMPORT in found or SESSION in found:
            return None
        checks = [check for check in map(check_of, found) if check]
        if len(checks) != len(found):  # a context this map does not know: judge by every check
            return None
        fixture_tools.update(name for kind, name in checks if kind == "fixture")
        properties[profile] = frozenset(name for kind, name in checks if kind == "property")
    return Selection((first, last), frozenset(fixture_tools), properties)
