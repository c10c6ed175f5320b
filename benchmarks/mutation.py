"""The suite's power against every mutation of the oracle, by cosmic-ray (an established mutation tool).

    python benchmarks/mutation.py                                  # every module of oracle/, then the report
    python benchmarks/mutation.py --modules bleu_brevity_penalty,bleu_score --tools bleu-brevity-penalty
    python benchmarks/mutation.py --report-only                    # reports/mutation.md from the sessions kept
    python benchmarks/mutation.py --fresh                          # new session databases (else: resumed)

Why cosmic-ray (8.x) and not mutmut: cosmic-ray's model is a config naming the files to mutate, a
test command and a timeout; ``cosmic-ray init`` enumerates every mutation into a session database
(sqlite), ``cosmic-ray exec`` applies each one to the file in place, runs the command, records
killed/survived and puts the file back. A mutant of the oracle must be judged as a target in a
separate process while the harness keeps the pristine oracle, which is exactly a test command
over a copy; mutmut 3 runs trampolined code inside one pytest process, which does not fit.

How one mutant is judged (``judge``, the test command cosmic-ray runs): cosmic-ray mutates a
scratch copy of the oracle package (WORK_DIR/scratch/oracle, with ``contracts`` beside it), and
``python -m conformance run`` is run from this tree, whose harness imports the untouched oracle
(no PYTHONPATH, this tree's root first on its path), against the target
``jsonl:python WORK_DIR/scratch/jsonl_oracle.py``: a launcher beside the scratch package, so the
target process alone imports the mutated copy (its script folder comes first on its path) and
answers every case in one process. Only the tools whose answers import the mutated module run
(``oracle.registry.modules_used``). Stages, each stopping at the first failure (``-x``,
``--max-failures-per-property 1``): the golden fixtures and the quick profile, then, for a
survivor, the default profile's generated cases. A mutant is killed by any failing or errored
case (exit 1) and by a target that crashes, hangs or answers garbage (exit 3: the harness could
not conclude because the mutated oracle broke); an exit 2 is the harness's own error, recorded
as *errored*, never as killed; cosmic-ray's timeout (the whole judgement) also kills. A
survivor of a module whose mutants can change what the hosted API sends beyond the line
protocol's answers (``SERVED_MODULES``: oracle/errors.py, the HTTP status of each error code, and
oracle/registry.py, whose ``implemented`` only the servers ask)
faces one more stage, "http": the golden fixtures against ``conformance serve`` running the
mutated copy (``judge_served``).

Before a module's mutants, the pristine scratch copy is judged by the same command: it must
survive, or the run stops (a kill would then prove nothing). Every judged mutant is kept in
reports/mutation/<tool selection>/<module>.json (cosmic-ray's result as it recorded it, with the
module's source digest): that file is the record the report is made from, committed, and a new
session database (WORK_DIR/<tool selection>/<module>.sqlite, a resumable cache; a module whose
source changed gets a new one) is seeded from it, so a run stopped on one machine goes on on
another. Mutants that cannot change any answer are recorded equivalent without a run
(``inert_position``): annotations in a module with postponed evaluation, and, in a triage scope
marked ``not_run`` (read or called by the harness alone), positions inside a function body or a
literal keyword value (anything there that could raise on import is judged as usual).
Ctrl-C stops a run (its judgements so far exported); a judgement it cut short has no verdict line and is
judged again when the run resumes (``cut_short``). ``cr-report FILE.sqlite --show-output`` shows a
session as cosmic-ray does. The report
(reports/mutation.md) counts per module and per tool and triages every survivor from
benchmarks/mutation_triage.json (keyed by the stable id ``module:line:operator:occurrence``, or
a scope: a module, a definition, a source line's text); survivors without an entry are listed
as untriaged, entries naming no survivor as stale.
It runs for hours in full (one worker: a harness start per mutant); nothing here is asserted by
the test suite, which keeps a smoke test of four fixed mutants (tests/test_mutation.py).
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ORACLE_DIR = ROOT / "oracle"
WORK_DIR = ROOT / "build" / "mutation"
TRIAGE_FILE = ROOT / "benchmarks" / "mutation_triage.json"
REPORT_FILE = ROOT / "reports" / "mutation.md"
# every judged mutant, one JSON file per module and tool selection: the durable record the report is made
# from (a session database is a resumable cache; a new machine seeds its sessions from these files)
RESULTS_DIR = ROOT / "reports" / "mutation"
NOT_RUN_PREFIX = "not run: "  # the output recorded for a mutant judged equivalent without a run
PROFILES = ("quick", "default")  # the first stage also runs the golden fixtures
SEED = 1
REQUEST_TIMEOUT = 10.0  # seconds per request (the harness's --timeout)
MUTANT_TIMEOUT = 900.0  # seconds for one mutant's whole judgement (cosmic-ray's timeout: killed)
VERDICT_PREFIX = "mutation-verdict: "  # the judge's last stdout line, kept by cosmic-ray in the session
LAUNCHER_HEAD = '''"""{about} over the oracle package beside this file (a mutation-testing copy)."""
import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # this folder first: its oracle/ is the one imported (also by spawned workers)
import oracle  # noqa: E402

if Path(oracle.__file__).resolve().parent != HERE / "oracle":
    sys.exit(f"the target imported {{oracle.__file__}}, not the copy beside {{__file__}}")
if sys.argv[1:] == ["--where"]:  # which oracle this target runs (checked by tests/test_mutation.py)
    sys.exit(print(Path(oracle.__file__).resolve()))
'''
LAUNCHER = LAUNCHER_HEAD.format(about="The line-protocol oracle") + (
    'runpy.run_module("conformance.jsonl_oracle", run_name="__main__", alter_sys=True)\n'
)
# `conformance serve ARGS...` (its workers are spawned: they re-import this file, as __mp_main__)
SERVE_LAUNCHER = LAUNCHER_HEAD.format(about="`conformance serve`") + (
    'if __name__ == "__main__":\n    runpy.run_module("conformance", run_name="__main__", alter_sys=True)\n'
)
# Modules whose mutants can change what the hosted API sends beyond what the line protocol
# carries: oracle/errors.py holds the HTTP status of each error code, which only `conformance
# serve` sends, and oracle/registry.py says which tools are implemented (`implemented`, which the
# server and the MCP server ask and the line protocol never does). A survivor of the
# line-protocol stages of such a module is judged once more by the golden fixtures against
# `conformance serve` over the mutated copy (the stage "http").
SERVED_MODULES = frozenset({"errors", "registry"})
SERVE_START_SECONDS = 60.0  # for the server's first line (its address), after its workers warmed up


# --- the scratch copy and the harness that judges it ----------------------------------------


def make_scratch(scratch: Path) -> Path:
    """A fresh copy of the oracle package (no bytecode) with the contracts beside it and the target's launcher."""
    if scratch.exists():
        shutil.rmtree(scratch)
    shutil.copytree(ORACLE_DIR, scratch / "oracle", ignore=shutil.ignore_patterns("__pycache__", "_data"))
    (scratch / "contracts").symlink_to(ROOT / "contracts", target_is_directory=True)
    (scratch / "jsonl_oracle.py").write_text(LAUNCHER, encoding="utf-8")
    (scratch / "serve_oracle.py").write_text(SERVE_LAUNCHER, encoding="utf-8")
    return scratch


def target_spec(scratch: Path) -> str:
    return "jsonl:" + shlex.join([sys.executable, str(scratch / "jsonl_oracle.py")])


def harness_env() -> dict[str, str]:
    """The harness's environment: no PYTHONPATH (its oracle is this tree's), no bytecode written into the copy."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def import_paths(scratch: Path) -> dict[str, Path]:
    """The oracle package the targets (jsonl: and served) and the harness import: the copy and this tree's."""
    harness = [sys.executable, "-c", "import oracle, pathlib; print(pathlib.Path(oracle.__file__).resolve())"]
    target = [sys.executable, str(scratch / "jsonl_oracle.py"), "--where"]
    served = [sys.executable, str(scratch / "serve_oracle.py"), "--where"]
    return {
        name: Path(
            subprocess.run(argv, cwd=ROOT, env=harness_env(), capture_output=True, text=True, check=True).stdout.strip()
        )
        for name, argv in (("harness", harness), ("target", target), ("served", served))
    }


def harness_argv(
    scratch: Path, tools: list[str], profile: str, first: bool, seed: int, target: str | None = None
) -> list[str]:
    """One stage: the fixtures and the profile's generated cases (first stage) or its generated cases alone."""
    argv = [
        sys.executable,
        "-m",
        "conformance",
        "run",
        "--target",
        target or target_spec(scratch),
        "--tools",
        ",".join(tools),
        "--profile",
        profile,
        "--seed",
        str(seed),
        "-x",
        "--max-failures-per-property",
        "1",
        "--timeout",
        str(REQUEST_TIMEOUT),
        "--report-dir",
        str(scratch / "report"),
    ]
    return argv if first else [*argv, "--generated-only"]


@dataclass(frozen=True)
class Verdict:
    verdict: str  # killed | survived | errored
    stage: str = ""
    exit: int = 0
    tool: str = ""
    case: str = ""
    detail: str = ""
    checks: str = ""  # the checks that judged it ("" every check; else the coverage map's choice)

    def line(self) -> str:
        return VERDICT_PREFIX + json.dumps(self.__dict__, ensure_ascii=False)


def interrupted(report_dir: Path) -> bool:
    """The stage's run was stopped by a signal (its report.json header says by which)."""
    try:
        return bool(json.loads((report_dir / "report.json").read_text(encoding="utf-8"))["header"].get("interrupted"))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False


def first_failure(report_dir: Path) -> tuple[str, str, str]:
    """(tool, case or property id, reason) of the first failing check of a stage's report.json."""
    try:
        record = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "", "", "no report.json"
    for entry in [*(record.get("results") or []), *(record.get("properties") or [])]:
        if isinstance(entry, dict) and entry.get("outcome") in ("failed", "errored"):
            case = entry.get("case") if isinstance(entry.get("case"), dict) else entry  # a result holds its case
            return (
                str(case.get("tool_id", "")),
                str(case.get("case_id") or case.get("id") or ""),
                str(entry.get("message", ""))[:200],
            )
    return "", "", str(record.get("unhealthy_reason") or "")[:200]


def process_options() -> dict:
    """How the judge starts the harness and the served copy: from this tree, its environment, no input."""
    return {"cwd": ROOT, "env": harness_env(), "stdin": subprocess.DEVNULL, "text": True, "errors": "replace"}


def run_stage(scratch: Path, stage: str, argv: list[str]) -> Verdict | None:
    """One stage of the harness: a Verdict if it ended the judgement (a kill or the harness's error), else None."""
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **process_options())
    if done.returncode in (1, 3):
        if interrupted(scratch / "report"):  # Ctrl-C or SIGTERM stopped the harness: no verdict (cut_short)
            sys.exit(f"mutation: the harness was interrupted at the stage {stage}: no verdict")
        tool, case, reason = first_failure(scratch / "report")
        return Verdict("killed", stage, done.returncode, tool, case, reason)
    if done.returncode != 0:
        return Verdict("errored", stage, done.returncode, detail=done.stdout[-400:])
    unserved = not_served(scratch / "report")
    if unserved:  # the oracle answers "not found" for a tool it implements: the run skipped it, the mutant broke it
        return Verdict("killed", stage, done.returncode, unserved[0], "", "answered 'not found' at the preflight")
    return None


def not_served(report_dir: Path) -> list[str]:
    """The tools the stage's run found not served (a jsonl: target answering "not found" for them)."""
    try:
        return list(json.loads((report_dir / "report.json").read_text(encoding="utf-8"))["header"]["not_served"])
    except (OSError, ValueError, KeyError, TypeError):
        return []


def judge(
    scratch: Path,
    tools: list[str],
    profiles: tuple[str, ...] = PROFILES,
    seed: int = SEED,
    served: bool = False,
    module: str = "",
    coverage: Path | None = None,
) -> Verdict:
    """The scratch copy (as it is now, mutated or not) judged stage by stage, stopping at the first kill.

    With a coverage map (mutation_coverage) and the mutated module's name, only the checks that
    execute the mutated statement run; a statement no check executes survives without a run."""
    chosen = selected_checks(scratch, module, coverage) if module and coverage else None
    checks = chosen.describe() if chosen is not None else ""
    stages = [] if chosen is not None and chosen.empty() else list(profiles)  # no line-protocol check runs it
    if not stages and not served:
        return Verdict("survived", "coverage", detail="no check executes the mutated statement: not run", checks=checks)
    for index, profile in enumerate(stages):
        argv = harness_argv(scratch, tools, profile, index == 0, seed)
        if chosen is not None:
            argv = narrowed(argv, chosen, profile, index == 0)
            if argv is None:
                continue
        verdict = run_stage(scratch, profile, argv)
        if verdict:
            return dataclasses.replace(verdict, checks=checks)
    if served:  # the map knows the line protocol only: what the hosted API alone runs is judged there
        verdict = judge_served(scratch, tools, seed)
        if verdict:
            return dataclasses.replace(verdict, checks=checks)
    return Verdict("survived", ",".join([*stages, *(["http"] if served else [])]) or "coverage", checks=checks)


def selected_checks(scratch: Path, module: str, coverage: Path):
    """The checks executing the statement the scratch copy's ``module`` changed, or None (then every check)."""
    from mutation_coverage import selection

    try:
        record = json.loads(coverage.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    pristine = (ORACLE_DIR / f"{module}.py").read_text(encoding="utf-8")
    mutated = (scratch / "oracle" / f"{module}.py").read_text(encoding="utf-8")
    return selection(module, pristine, mutated, record)


def narrowed(argv: list[str], chosen, profile: str, first: bool) -> list[str] | None:
    """A stage's argv restricted to the chosen checks (their tools, their properties), or None: nothing to run."""
    properties = sorted(chosen.properties.get(profile, ()))
    tools = {name.split("/")[1] for name in properties} | (set(chosen.fixture_tools) if first else set())
    if not tools:
        return None
    argv = list(argv)
    argv[argv.index("--tools") + 1] = ",".join(sorted(tools))
    if properties:
        return [*argv, "--families", ",".join(glob_escape(name) for name in properties)]
    return [*argv, "--fixtures-only"]


def glob_escape(name: str) -> str:
    """A property id as an fnmatch pattern matching itself alone."""
    return "".join(f"[{char}]" if char in "*?[" else char for char in name)


def judge_served(scratch: Path, tools: list[str], seed: int) -> Verdict | None:
    """The stage "http": the golden fixtures against `conformance serve` running the scratch copy.

    A server that does not start (the mutant broke its import, or its workers' warm-up) is a kill:
    the mutated oracle cannot serve the hosted API."""
    server = subprocess.Popen(
        [sys.executable, str(scratch / "serve_oracle.py"), "serve", "--port", "0", "--workers", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # the server and its spawned workers end together below
        **process_options(),
    )
    try:
        line = first_line(server, SERVE_START_SECONDS)  # "conformance serve: listening on http://HOST:PORT (...)"
        address = next((word for word in line.split() if word.startswith("http://")), "")
        if not address:
            return Verdict("killed", "http", 3, detail=f"conformance serve did not start: {line!r}")
        argv = harness_argv(scratch, tools, "quick", True, seed, target=address)
        return run_stage(scratch, "http", [*argv, "--fixtures-only"])
    finally:
        stop_process_group(server)


def first_line(process: subprocess.Popen, seconds: float) -> str:
    """The first stdout line of a process, or "" if it ends or says nothing within ``seconds``."""
    import selectors

    assert process.stdout is not None  # piped above
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        if not selector.select(timeout=seconds):
            return ""
    return process.stdout.readline().strip()


def stop_process_group(process: subprocess.Popen) -> None:
    import signal

    for signum, wait in ((signal.SIGTERM, 10.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(process.pid, signum)
            process.wait(timeout=wait)
            return
        except ProcessLookupError:
            return
        except subprocess.TimeoutExpired:
            continue


def judge_command(
    scratch: Path,
    tools: list[str],
    profiles,
    seed: int,
    served: bool = False,
    module: str = "",
    coverage: Path | None = None,
) -> list[str]:
    """The test command cosmic-ray runs per mutant: this script's ``judge`` (exit 0 survived, 1 killed, 2 errored)."""
    chosen = ["--module", module, "--coverage", str(coverage)] if module and coverage else []
    return [
        sys.executable,
        str(Path(__file__).resolve()),
        "judge",
        "--scratch",
        str(scratch),
        "--tools",
        ",".join(tools),
        "--profiles",
        ",".join(profiles),
        "--seed",
        str(seed),
        *(["--served"] if served else []),
        *chosen,
    ]


# --- which modules, which tools -------------------------------------------------------------


def module_users() -> dict[str, list[str]]:
    """Each oracle module (file stem) -> the tools whose answers import it."""
    from oracle import registry

    users: dict[str, list[str]] = {path.stem: [] for path in sorted(ORACLE_DIR.glob("*.py"))}
    for tool_id, _version in registry.tool_keys():
        for stem in registry.modules_used(tool_id):
            users[stem].append(tool_id)
    return users


def selection_name(tools: list[str] | None) -> str:
    return "all" if not tools else "+".join(sorted(tools))


# --- cosmic-ray sessions --------------------------------------------------------------------


def source_digest(stem: str) -> str:
    return hashlib.sha256((ORACLE_DIR / f"{stem}.py").read_bytes()).hexdigest()


def cosmic_ray(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "cosmic_ray.cli", *args], cwd=ROOT, check=True)


def write_config(path: Path, module_file: Path, test_command: list[str]) -> None:
    import toml  # cosmic-ray's own config reader

    config = {
        "module-path": str(module_file),
        "timeout": MUTANT_TIMEOUT,
        "excluded-modules": [],
        "test-command": shlex.join(test_command),
        "distributor": {"name": "local"},
    }
    path.write_text(toml.dumps({"cosmic-ray": config}), encoding="utf-8")


def results_path(args: argparse.Namespace, stem: str) -> Path:
    return args.results_dir / selection_name(args.tools) / f"{stem}.json"


def read_results(path: Path) -> dict:
    """A module's recorded judgements, or an empty record (also when the file is unreadable)."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"mutants": {}}
    return record if isinstance(record, dict) and isinstance(record.get("mutants"), dict) else {"mutants": {}}


def spec_id(stem: str, spec) -> str:
    return mutant_id(stem, spec.start_pos[0], spec.operator_name, spec.occurrence)


def export_session(database: Path, stem: str, path: Path) -> None:
    """Every judged mutant of a session, with cosmic-ray's result as it recorded it, into the module's results file."""
    from cosmic_ray.work_db import WorkDB, use_db

    tree = ast.parse((ORACLE_DIR / f"{stem}.py").read_text(encoding="utf-8"))
    with use_db(str(database), WorkDB.Mode.open) as db:
        judged = {
            spec_id(stem, item.mutations[0]): {
                "definition": item.mutations[0].definition_name
                or module_level_part(tree, item.mutations[0].start_pos[0]),
                "result": {
                    "worker_outcome": str(result.worker_outcome.value),
                    "test_outcome": None if result.test_outcome is None else str(result.test_outcome.value),
                    "output": result.output,
                    "diff": result.diff,
                },
            }
            for item, result in db.completed_work_items
        }
        enumerated = db.num_work_items
    record = {
        "module": stem,
        "source_sha256": source_digest(stem),
        "cosmic_ray": cosmic_ray_version(),
        "enumerated": enumerated,
        "mutants": dict(sorted(judged.items())),
    }
    text = json.dumps(record, indent=1, ensure_ascii=False) + "\n"
    for prefix in (f"{ROOT}/", f"{str(ROOT).lstrip('/')}/"):  # the project's paths relative (a diff writes a/PATH)
        text = text.replace(json.dumps(prefix)[1:-1], "")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def seed_session(database: Path, path: Path) -> int:
    """Judgements recorded for the same source, put into a fresh session so they are not judged again."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkResult

    record = read_results(path)
    if record.get("source_sha256") != source_digest(database.stem):
        return 0
    seeded = 0
    with use_db(str(database), WorkDB.Mode.open) as db:
        for item in list(db.pending_work_items):
            stored = record["mutants"].get(spec_id(database.stem, item.mutations[0]))
            if isinstance(stored, dict) and isinstance(stored.get("result"), dict) and not cut_short(stored["result"]):
                db.set_result(item.job_id, WorkResult(**stored["result"]))
                seeded += 1
    return seeded


def cut_short(result: dict) -> bool:
    """A judgement that ended without the judge's verdict line (a run stopped with Ctrl-C while it was being
    judged: cosmic-ray then records whatever exit it saw), other than cosmic-ray's own timeout or a
    mutant recorded equivalent without a run: it says nothing of the mutant, and is judged again."""
    output = (result.get("output") or "").strip()
    if result.get("test_outcome") is None or output == "timeout" or output.startswith(NOT_RUN_PREFIX):
        return False
    return not any(line.startswith(VERDICT_PREFIX) for line in output.splitlines())


def forget_cut_short(database: Path) -> int:
    """Remove the session's judgements that were cut short (``cut_short``), so that `exec` judges them again."""
    import sqlite3

    with sqlite3.connect(database) as connection:  # cosmic-ray's own table of results (work_db.WorkResultStorage)
        rows = connection.execute("SELECT job_id, output, test_outcome FROM work_results").fetchall()
        forgotten = [job for job, output, outcome in rows if cut_short({"output": output, "test_outcome": outcome})]
        connection.executemany("DELETE FROM work_results WHERE job_id = ?", [(job,) for job in forgotten])
    return len(forgotten)


def inert_position(tree: ast.Module, line: int, column: int, definition_body: bool) -> str:
    """Why a mutation at (line, column) cannot change what any answer is, or "" (then it is judged).

    An annotation is never evaluated in a module with ``from __future__ import annotations``. In a
    scope that only the harness calls or reads (a triage scope with ``not_run``), a mutation inside
    a function's body never runs in a target, and one inside a module-level literal (a keyword's
    whole value ``ast.literal_eval`` accepts) cannot raise on import; anything else there (a
    default value, a decorator, an expression that could raise on import) is judged as usual.
    """

    def covers(node: ast.AST) -> bool:
        start, end = (node.lineno, node.col_offset), (node.end_lineno, node.end_col_offset)
        return start <= (line, column) < end

    future = any(
        isinstance(node, ast.ImportFrom)
        and node.module == "__future__"
        and any(a.name == "annotations" for a in node.names)
        for node in tree.body
    )
    for node in ast.walk(tree):
        annotations = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = node.args
            every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
            annotations = [a.annotation for a in every if a is not None and a.annotation is not None]
            annotations += [node.returns] if node.returns is not None else []
            if definition_body and node.body and any(covers(statement) for statement in node.body):
                return "inside a function only the harness calls: it never runs in a target"
        elif isinstance(node, ast.AnnAssign):
            annotations = [node.annotation]
        if future and any(covers(annotation) for annotation in annotations):
            return "an annotation, never evaluated (from __future__ import annotations)"
        if definition_body and isinstance(node, ast.keyword) and covers(node.value):
            try:
                ast.literal_eval(node.value)
            except ValueError:
                continue
            return "a literal only the harness reads: the target's answers never depend on it"
    return ""


def mark_not_run(database: Path, stem: str, triage: dict) -> int:
    """Pending mutants that cannot change any answer recorded as equivalent without a run (``inert_position``)."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    text = (ORACLE_DIR / f"{stem}.py").read_text(encoding="utf-8")
    tree, source = ast.parse(text), text.splitlines()
    marked = 0
    with use_db(str(database), WorkDB.Mode.open) as db:
        for item in list(db.pending_work_items):
            spec = item.mutations[0]
            line, column = spec.start_pos
            probe = Mutant(
                spec_id(stem, spec),
                stem,
                line,
                spec.operator_name,
                spec.definition_name or module_level_part(tree, line),
                source[line - 1].strip(),
                "",
                "survived",
                Verdict("survived"),
            )
            scope = triage_of(probe, triage)
            why = inert_position(tree, line, column, bool(scope and scope.get("not_run")))
            if why:
                output = NOT_RUN_PREFIX + why
                db.set_result(item.job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output=output))
                marked += 1
    return marked


def run_module(stem: str, tools: list[str], session_dir: Path, scratch: Path, args: argparse.Namespace) -> None:
    """Init (unless a session of the same source exists) and exec one module's session."""
    database, config, digest_file = (session_dir / f"{stem}{suffix}" for suffix in (".sqlite", ".toml", ".source"))
    command = judge_command(scratch, tools, args.profiles, args.seed, stem in SERVED_MODULES, stem, args.coverage_map)
    write_config(config, scratch / "oracle" / f"{stem}.py", command)
    if args.fresh or not database.exists() or digest_file.read_text() != source_digest(stem):
        database.unlink(missing_ok=True)
        cosmic_ray("init", str(config), str(database))
        digest_file.write_text(source_digest(stem))
    results = results_path(args, stem)
    seeded = 0 if args.fresh else seed_session(database, results)
    inert = mark_not_run(database, stem, load_triage())
    again = forget_cut_short(database)
    print(
        f"{stem}: {seeded} judgements taken from {results.name}, {inert} mutants equivalent without a run, "
        f"{again} cut short to judge again",
        flush=True,
    )
    started = time.perf_counter()
    try:
        cosmic_ray("exec", str(config), str(database))
    finally:  # what was judged is kept even when the run is stopped
        export_session(database, stem, results)
    print(f"{stem}: executed in {time.perf_counter() - started:.0f} s ({', '.join(tools)})", flush=True)


def run(args: argparse.Namespace) -> int:
    users = module_users()
    wanted = args.modules or [stem for stem in users if users[stem]]
    unknown = [stem for stem in wanted if stem not in users]
    if unknown:
        print(f"mutation: no oracle module {', '.join(unknown)} (known: {', '.join(users)})", file=sys.stderr)
        return 2
    session_dir = args.work_dir / selection_name(args.tools)
    session_dir.mkdir(parents=True, exist_ok=True)
    scratch = make_scratch(args.work_dir / "scratch")
    args.coverage_map = None if args.every_check else coverage_map(args, scratch)
    baselines: dict[tuple, Verdict] = {}
    for stem in wanted:
        tools = [tool for tool in users[stem] if not args.tools or tool in args.tools]
        if not tools:
            print(f"{stem}: no selected tool uses it, skipped")
            continue
        served = stem in SERVED_MODULES
        key = (*tools, served)
        baselines[key] = baselines.get(key) or judge(scratch, tools, tuple(args.profiles), args.seed, served)
        if baselines[key].verdict != "survived":
            print(
                f"mutation: the unmutated oracle does not pass ({baselines[key].line()}): no mutant can be judged",
                file=sys.stderr,
            )
            return 2
        run_module(stem, tools, session_dir, scratch, args)
    return report(args)


def coverage_map(args: argparse.Namespace, scratch: Path) -> Path:
    """Which checks execute each oracle line at this seed and these profiles (collected once per source state)."""
    import mutation_coverage

    path = args.work_dir / f"coverage-seed{args.seed}-{'-'.join(args.profiles)}.json"
    try:
        current = json.loads(path.read_text(encoding="utf-8")).get("digest")
    except (OSError, ValueError, AttributeError):
        current = None
    if current != mutation_coverage.digest(ROOT, args.seed):
        started = time.perf_counter()

        def argv_of(profile: str, first: bool, target: str) -> list[str]:
            argv = harness_argv(scratch, sorted(module_users()["__init__"]), profile, first, args.seed, target)
            return [option for option in argv if option != "-x"]

        mutation_coverage.collect(ROOT, scratch, argv_of, tuple(args.profiles), args.seed, path)
        print(f"coverage map: {path.name} collected in {time.perf_counter() - started:.0f} s", flush=True)
    return path


def recheck(args: argparse.Namespace) -> int:
    """Recorded kills judged again with the coverage map: each must be killed again (the map's exactness, measured).

    A sample of each module's recorded kills (cosmic-ray's timeouts aside), judged by every check
    when they were recorded, and for which the map chooses fewer checks, is applied again by
    cosmic-ray and judged by the checks the map chooses. A kill the map's choice misses is
    printed and makes the exit 1."""
    import random

    from cosmic_ray.mutating import mutate_and_test, mutate_code
    from cosmic_ray.plugins import get_operator
    from cosmic_ray.work_item import MutationSpec
    from mutation_coverage import selection

    def narrowed_by_the_map(stem: str, key: str, record: dict) -> bool:
        _, _line, operator, occurrence = key.split(":")
        pristine = (ORACLE_DIR / f"{stem}.py").read_text(encoding="utf-8")
        mutated = mutate_code(pristine, get_operator(operator)(), int(occurrence))
        return mutated is not None and selection(stem, pristine, mutated, record) is not None

    users, chooser = module_users(), random.Random(args.seed)
    scratch = make_scratch(args.work_dir / "scratch-recheck")
    coverage = coverage_map(args, scratch)
    tally, lines = Counter(), json.loads(coverage.read_text(encoding="utf-8"))
    for stem in args.modules or [stem for stem in users if users[stem]]:
        record = read_results(results_path(args, stem))
        if record.get("source_sha256") != source_digest(stem):
            continue
        kills = [
            key
            for key, stored in record["mutants"].items()
            if (stored["result"].get("output") or "").strip() != "timeout"
            and parse_verdict(stored["result"].get("output") or "").verdict == "killed"
            and not parse_verdict(stored["result"].get("output") or "").checks  # judged by every check
            and narrowed_by_the_map(stem, key, lines)
        ]
        for key in sorted(chooser.sample(kills, min(args.sample, len(kills)))):
            _, line, operator, occurrence = key.split(":")
            spec = MutationSpec(
                scratch / "oracle" / f"{stem}.py", operator, int(occurrence), (int(line), 0), (int(line), 1)
            )
            command = judge_command(scratch, users[stem], args.profiles, args.seed, False, stem, coverage)
            verdict = parse_verdict(mutate_and_test([spec], shlex.join(command), timeout=MUTANT_TIMEOUT).output)
            outcome = f"{verdict.verdict}, by {'the chosen checks' if verdict.checks else 'every check'}"
            tally[outcome] += 1
            print(f"{key}: {outcome} {verdict.checks}", flush=True)
    print("recheck: " + ", ".join(f"{count} {outcome}" for outcome, count in sorted(tally.items())))
    return 1 if any(not outcome.startswith("killed") for outcome in tally) else 0


# --- the report -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Mutant:
    id: str
    module: str
    line: int
    operator: str
    definition: str
    source_line: str
    changed_line: str
    verdict: str  # killed | survived | errored
    judged: Verdict


def module_level_part(tree: ast.Module, line: int) -> str:
    """Where a mutation outside any function lies: the assigned name and keyword (``TOOL.clauses``), or ""."""
    for statement in tree.body:
        if isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.lineno <= line <= statement.end_lineno:
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            name = ",".join(ast.unparse(target) for target in targets)
            keyword = next(
                (
                    node.arg
                    for node in ast.walk(statement)
                    if isinstance(node, ast.keyword) and node.value.lineno <= line <= node.value.end_lineno
                ),
                None,
            )
            return f"{name}.{keyword}" if keyword else name
    return ""


def mutant_id(module: str, line: int, operator: str, occurrence: int) -> str:
    return f"{module}:{line}:{operator}:{occurrence}"


def changed_line(diff: str) -> str:
    return next(
        (line[1:].strip() for line in (diff or "").splitlines() if line.startswith("+") and not line.startswith("+++")),
        "",
    )


def parse_verdict(output: str) -> Verdict:
    """The judge's verdict line; without one, cosmic-ray's timeout kills, anything else is the judge's own error."""
    lines = [line for line in (output or "").splitlines() if line.startswith(VERDICT_PREFIX)]
    if lines:
        return Verdict(**json.loads(lines[-1][len(VERDICT_PREFIX) :]))
    if (output or "").strip() == "timeout":  # what cosmic-ray records when it killed the command
        return Verdict("killed", detail=f"the judgement took over {MUTANT_TIMEOUT:g} s")
    return Verdict("errored", detail=(output or "")[-200:])


def recorded_mutants(record: dict) -> list[Mutant]:
    """The judged mutants of one module's results record (``export_session``), in source order."""
    module = record["module"]
    source = (ORACLE_DIR / f"{module}.py").read_text(encoding="utf-8").splitlines()
    mutants = []
    for key, stored in record["mutants"].items():
        result = stored["result"]
        output = result.get("output") or ""
        if output.startswith(NOT_RUN_PREFIX):
            judged = Verdict("not-run", detail=output[len(NOT_RUN_PREFIX) :])
        elif result.get("test_outcome") is None:  # no mutation applied (cosmic-ray's no-test)
            continue
        else:
            judged = parse_verdict(output)
        _, line, operator, _occurrence = key.split(":")
        mutants.append(
            Mutant(
                key,
                module,
                int(line),
                operator,
                stored.get("definition", ""),
                source[int(line) - 1].strip(),
                changed_line(result.get("diff")),
                judged.verdict,
                judged,
            )
        )
    return sorted(mutants, key=lambda m: (m.line, m.operator, m.id))


def load_triage(path: Path = TRIAGE_FILE) -> dict:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {"mutants": {}, "scopes": []}


def triage_of(mutant: Mutant, triage: dict) -> dict | None:
    """The triage entry of a survivor: its own id first, else the first scope that covers it."""
    if mutant.id in triage.get("mutants", {}):
        return triage["mutants"][mutant.id]
    for scope in triage.get("scopes", []):
        if (
            scope["module"] in ("*", mutant.module)
            and scope.get("definition", mutant.definition) == mutant.definition
            and scope.get("line_contains", "") in mutant.source_line
        ):
            return scope
    return None


CATEGORIES = ("equivalent", "open-point", "gap")


def counts(mutants: list[Mutant], triage: dict) -> dict[str, int]:
    tally = {"mutants": len(mutants), "killed": 0, "errored": 0, "untriaged": 0, "not run": 0}
    tally.update({c: 0 for c in CATEGORIES})
    for mutant in mutants:
        if mutant.verdict in ("killed", "errored"):
            tally[mutant.verdict] += 1
        elif mutant.verdict == "not-run":
            tally["equivalent"] += 1
            tally["not run"] += 1
        else:
            entry = triage_of(mutant, triage)
            tally[entry["verdict"] if entry else "untriaged"] += 1
    # equivalent and open-point survivors cannot be killed by a suite that never raises a false alarm
    tally["killable"] = tally["mutants"] - tally["equivalent"] - tally["open-point"]
    return tally


def score(tally: dict[str, int]) -> str:
    return f"{100 * tally['killed'] / tally['killable']:.1f} %" if tally["killable"] else "-"


def table_row(name: str, tools: str, tally: dict[str, int]) -> str:
    cells = [
        name,
        tools,
        tally["mutants"],
        tally["killed"],
        f"{tally['equivalent']} ({tally['not run']} not run)" if tally["not run"] else tally["equivalent"],
        tally["open-point"],
        tally["gap"],
        tally["untriaged"],
        tally["errored"],
        f"{tally['killed']} of {tally['killable']}",
        score(tally),
    ]
    return "| " + " | ".join(str(cell) for cell in cells) + " |"


HEADER = (
    "| {} | tools | mutants | killed | equivalent | open point | gap | untriaged | errored | killed of "
    "non-equivalent | score |\n|---|---|---|---|---|---|---|---|---|---|---|"
)


def cosmic_ray_version() -> str:
    from importlib.metadata import version

    return version("cosmic-ray")


def escape(text: str) -> str:
    return text.replace("|", "\\|").replace("`", "'")


def render(
    by_module: dict[str, list[Mutant]],
    users: dict[str, list[str]],
    triage: dict,
    command: str,
    progress: dict[str, tuple[int, int]],
    stale_modules: list[str] = (),
) -> str:
    everything = [mutant for mutants in by_module.values() for mutant in mutants]
    overall = counts(everything, triage)
    out = [
        "# Mutation testing of the oracle",
        "",
        f"Generated by `{command}` with cosmic-ray {cosmic_ray_version()} (benchmarks/mutation.py says how a "
        "mutant is judged); triage from `benchmarks/mutation_triage.json`.",
        "",
        f"all tools: {overall['killed']} of {overall['killable']} non-equivalent killed, {score(overall)}",
        "",
        "A mutant is killed by a failing or errored case, or a target that crashed, hung or answered garbage "
        "(exit 3); *non-equivalent* leaves out the survivors triaged equivalent (no answer the contracts "
        "determine can change) and open-point (only what an open point leaves open changes: a suite "
        "that never raises a false alarm cannot kill them). Untriaged survivors and errored judgements "
        "count as not killed.",
        "",
        f"Judged by the checks the coverage map chose (those executing the mutated statement; "
        f"benchmarks/mutation_coverage.py): {sum(1 for m in everything if m.judged.checks)} of "
        f"{sum(1 for m in everything if m.verdict != 'not-run')} judged mutants, the others by every check of "
        f"the tools using their module; {sum(1 for m in everything if m.judged.stage == 'coverage')} survived "
        "without a run because no check executes their statement (each is triaged below).",
        "",
        "## Per oracle module",
        "",
        HEADER.format("module"),
    ]
    out += [
        table_row(f"`{stem}`", ", ".join(users[stem]), counts(mutants, triage))
        for stem, mutants in sorted(by_module.items())
    ]
    not_run = sorted(stem for stem in users if stem not in by_module)
    unfinished = [
        f"`{stem}` ({done} of {total} judged)" for stem, (done, total) in sorted(progress.items()) if done < total
    ]
    out += [
        "",
        "Modules not run yet: " + (", ".join(f"`{stem}`" for stem in not_run) or "none") + ".",
        "",
        "Sessions not finished (the table counts the mutants judged so far): "
        + (", ".join(unfinished) or "none")
        + ".",
    ]
    if stale_modules:
        out += [
            "",
            "Results of another version of the module, not counted (run again): "
            + ", ".join(f"`{stem}`" for stem in stale_modules)
            + ".",
        ]
    out += [
        "",
        "## Per tool",
        "",
        "A tool's mutants are those of the modules its answers import (`oracle.registry.modules_used`); a "
        "mutant of a shared module is judged on every tool using it and counts as killed for each of them "
        "when any of their cases kills it.",
        "",
        HEADER.format("tool"),
    ]
    tool_ids = sorted({tool for tools in users.values() for tool in tools})
    for tool in tool_ids:
        reached = [m for stem, mutants in by_module.items() if tool in users[stem] for m in mutants]
        modules = sorted(stem for stem in by_module if tool in users[stem])
        out.append(table_row(tool, f"{len(modules)} modules", counts(reached, triage)))
    out += ["", "## Survivors and errored judgements", ""]
    for stem, mutants in sorted(by_module.items()):
        rows = [m for m in mutants if m.verdict not in ("killed", "not-run")]
        inert = Counter(m.judged.detail for m in mutants if m.verdict == "not-run")
        if not rows and not inert:
            continue
        out += [f"### `{stem}`", ""]
        out += (
            [
                f"Equivalent without a run ({sum(inert.values())}): "
                + "; ".join(f"{count} {why}" for why, count in sorted(inert.items()))
                + ".",
                "",
            ]
            if inert
            else []
        )
        if not rows:
            continue
        out += ["| id | line | mutated to | triage | reason |", "|---|---|---|---|---|"]
        for m in rows:
            entry = triage_of(m, triage) if m.verdict == "survived" else None
            verdict = m.verdict if m.verdict == "errored" else (entry["verdict"] if entry else "**untriaged**")
            reason = m.judged.detail if m.verdict == "errored" else (entry or {}).get("reason", "")
            out.append(
                f"| `{m.id}` | `{escape(m.source_line)}` | `{escape(m.changed_line)}` | {verdict} | {escape(reason)} |"
            )
        out.append("")
    survivor_ids = {m.id for m in everything if m.verdict == "survived"}
    stale = sorted(
        key for key in triage.get("mutants", {}) if key.split(":")[0] in by_module and key not in survivor_ids
    )
    out += [
        "## Stale triage entries",
        "",
        "Entries naming no survivor of a module that was run (the mutant is "
        "killed now, or the source moved): " + (", ".join(f"`{key}`" for key in stale) or "none") + ".",
    ]
    return "\n".join(out) + "\n"


def report(args: argparse.Namespace) -> int:
    """reports/mutation.md from the results files (each kept session exported first)."""
    session_dir = args.work_dir / selection_name(args.tools)
    for database in sorted(session_dir.glob("*.sqlite")):
        digest = session_dir / f"{database.stem}.source"
        if digest.is_file() and digest.read_text() == source_digest(database.stem):
            export_session(database, database.stem, results_path(args, database.stem))
    by_module, progress, stale = {}, {}, []
    for path in sorted((args.results_dir / selection_name(args.tools)).glob("*.json")):
        record = read_results(path)
        if record.get("module") != path.stem or not (ORACLE_DIR / path.name.replace(".json", ".py")).is_file():
            continue
        if record.get("source_sha256") != source_digest(path.stem):
            stale.append(path.stem)  # judged on another version of the module: not counted
            continue
        by_module[path.stem] = recorded_mutants(record)
        progress[path.stem] = (len(record["mutants"]), int(record.get("enumerated") or 0))
    command = (
        "python benchmarks/mutation.py"
        + " --report-only" * args.report_only
        + "".join(
            f" --{name} {','.join(value)}"
            for name, value in (("modules", args.modules), ("tools", args.tools))
            if value
        )
    )
    text = render(by_module, module_users(), load_triage(), command, progress, stale)
    args.report.write_text(text, encoding="utf-8")
    print(text.splitlines()[4])
    print(f"report: {args.report}")
    return 0


# --- the command line -----------------------------------------------------------------------


def split(value: str) -> list[str]:
    return [part for part in value.split(",") if part]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command")
    judging = sub.add_parser("judge", help="judge the scratch copy as it is (the test command cosmic-ray runs)")
    rechecking = sub.add_parser("recheck", help="recorded kills judged again by the checks the coverage map chooses")
    rechecking.add_argument("--sample", type=int, default=10, help="kills per module (default 10)")
    judging.add_argument("--scratch", type=Path, required=True)
    judging.add_argument("--tools", type=split, required=True)
    judging.add_argument("--served", action="store_true", help="then the fixtures against `conformance serve` (http)")
    judging.add_argument(
        "--module", default="", help="the mutated module (with --coverage: only the checks running it)"
    )
    judging.add_argument("--coverage", type=Path, help="the coverage map (mutation_coverage) of the run's seed")
    for target in (parser, judging, rechecking):
        target.add_argument("--profiles", type=split, default=list(PROFILES), help="stages (default quick,default)")
        target.add_argument("--seed", type=int, default=SEED)
    for target in (parser, rechecking):
        target.add_argument("--modules", type=split, default=[], help="oracle modules by file stem (default: all used)")
        target.add_argument("--tools", type=split, default=[], help="only these tools (default: every tool using one)")
        target.add_argument("--work-dir", type=Path, default=WORK_DIR, help="sessions and the scratch copy")
        target.add_argument(
            "--results-dir", type=Path, default=RESULTS_DIR, help="the judged mutants, a file per module"
        )
    parser.add_argument("--report", type=Path, default=REPORT_FILE)
    parser.add_argument("--fresh", action="store_true", help="new sessions (default: resume the kept ones)")
    parser.add_argument("--report-only", action="store_true", help="only the report, from the kept sessions")
    parser.add_argument(
        "--every-check", action="store_true", help="judge each mutant by every check (default: those running its line)"
    )
    args = parser.parse_args(argv)
    if args.command == "recheck":
        return recheck(args)
    if args.command == "judge":
        verdict = judge(
            args.scratch, args.tools, tuple(args.profiles), args.seed, args.served, args.module, args.coverage
        )
        print(verdict.line())
        return {"survived": 0, "killed": 1}.get(verdict.verdict, 2)
    return report(args) if args.report_only else run(args)


if __name__ == "__main__":
    sys.exit(main())
