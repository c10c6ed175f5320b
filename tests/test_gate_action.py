"""The contract gate as the pull-request step of action.yml, run on throw-away git repositories.

Each repository is a copy of the project (its packages, contracts and fixtures) committed on
`main` and cloned, as actions/checkout leaves a pull request's checkout; a change is committed
on top. The tests run the action's own steps: each `run:` script of action.yml with the
values GitHub would hand it (its `env:` expressions evaluated from the inputs and the
earlier steps' outputs), under bash as the `bash` shell runs it, in the step's
working-directory. Only setup-python and the install step are left out: the package is this
one, imported from the copy (PYTHONPATH), so the oracle reads the copy's contracts.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
COPIED = ("oracle", "conformance", "contracts", "fixtures/fixture.schema.json", "pyproject.toml")
# the golden fixtures of the tools whose contracts the tests re-validate (the others are not read)
FIXTURES_COPIED = ("chrf-plus-plus-compute", "chrf-components", "bleu-corpus-compute")
NOT_RUN = {"install"}  # the package is already installed: the copy is put first on the import path
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
BASH = ["bash", "--noprofile", "--norc", "-eo", "pipefail"]  # GitHub's `shell: bash`

CHRF_PP = "contracts/chrf-plus-plus-compute"


def environment(copy: Path) -> dict[str, str]:
    """The copy's packages first on the import path, git without the machine's own settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        PYTHONPATH=str(copy),
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="maintainer",
        GIT_AUTHOR_EMAIL="maintainer@example.org",
        GIT_COMMITTER_NAME="maintainer",
        GIT_COMMITTER_EMAIL="maintainer@example.org",
    )
    return env


def git(folder: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=folder, env=environment(folder), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def upstream(tmp_path_factory) -> Path:
    """The project as its main branch holds it."""
    folder = tmp_path_factory.mktemp("upstream")
    for name in (*COPIED, *(f"fixtures/{tool_id}" for tool_id in FIXTURES_COPIED)):
        source, target = ROOT / name, folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "_data"))
        else:
            shutil.copy2(source, target)
    git(folder, "init", "-q", "-b", "main")
    git(folder, "add", "-A")
    git(folder, "commit", "-qm", "the published contracts")
    return folder


@pytest.fixture
def checkout(upstream, tmp_path) -> Path:
    """A pull request's checkout as actions/checkout leaves it: main only as origin/main, HEAD a branch of its own."""
    folder = tmp_path / "checkout"
    git(tmp_path, "clone", "-q", str(upstream), str(folder))
    git(folder, "switch", "-q", "-c", "change")
    git(folder, "branch", "-q", "-D", "main")
    return folder


PULL_REQUEST = {"base_ref": "main"}  # the github context of a pull request into main


def evaluate(text: str, inputs: dict, outputs: dict) -> str:
    """A `${{ }}` expression as GitHub evaluates those action.yml uses: the github context of a pull
    request, the inputs and the steps' outputs."""

    def value(match: re.Match) -> str:
        name = match.group(1)
        if name.startswith("github."):
            return PULL_REQUEST[name.removeprefix("github.")]
        if name.startswith("inputs."):
            return str(inputs[name.removeprefix("inputs.")])
        step_output = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", name)
        assert step_output, f"an expression the tests do not evaluate: {name}"
        return outputs.get(step_output.group(1), {}).get(step_output.group(2), "")

    return EXPRESSION.sub(value, text)


def run_action(workspace: Path, **given: str) -> subprocess.CompletedProcess:
    """The action's steps, in order, until one fails; the last step's result."""
    inputs = {name: evaluate(str(spec.get("default", "")), {}, {}) for name, spec in ACTION["inputs"].items()}
    inputs.update(given)
    outputs: dict[str, dict[str, str]] = {}
    logs = []
    for index, step in enumerate(ACTION["runs"]["steps"]):
        if "run" not in step or step.get("id") in NOT_RUN:
            continue
        assert step["shell"] == "bash"
        output_file = workspace.parent / f"step-{index}.out"
        output_file.write_text("")
        script = workspace.parent / f"step-{index}.sh"
        script.write_text(step["run"])
        env = environment(workspace)
        env.update({name: evaluate(str(value), inputs, outputs) for name, value in step.get("env", {}).items()})
        env["GITHUB_OUTPUT"] = str(output_file)
        folder = workspace / evaluate(step.get("working-directory", "."), inputs, outputs)
        done = subprocess.run([*BASH, str(script)], cwd=folder, env=env, capture_output=True, text=True, timeout=300)
        logs.append(done.stdout + done.stderr)
        outputs[step.get("id", str(index))] = dict(
            line.split("=", 1) for line in output_file.read_text().splitlines() if "=" in line
        )
        if done.returncode != 0:
            break
    done.stdout = "\n".join(logs)
    return done


def edit_contract(checkout: Path, source: str, target: str, edit) -> None:
    """contracts/<tool>/<target>.json: the source version's contract edited (in place when they are equal)."""
    folder = checkout / "contracts" / source.split("@")[0]
    contract = json.loads((folder / f"{source.split('@')[1]}.json").read_text(encoding="utf-8"))
    contract["version"] = target
    contract["execute_url"] = f"/v1/tools/{contract['id']}/versions/{target}/execute"
    edit(contract)
    (folder / f"{target}.json").write_text(json.dumps(contract, indent=2, ensure_ascii=False), encoding="utf-8")


def commit(checkout: Path, message: str) -> None:
    git(checkout, "add", "-A")
    git(checkout, "commit", "-qm", message)


def beta_at_most_8(contract: dict) -> None:
    contract["input_schema"]["properties"]["beta"]["maximum"] = 8


def section(output: str, path: str) -> str:
    """The gate's own section of one contract file: from its `== path` line to the next."""
    match = re.search(rf"^== {re.escape(path)}: .*?(?=^== |^summary:)", output, re.S | re.M)
    assert match, output
    return match.group(0)


def test_a_breaking_change_fails_without_its_bump_and_passes_with_it(checkout):
    git(checkout, "update-ref", "-d", "refs/remotes/origin/main")  # the step must fetch the base
    edit_contract(checkout, "chrf-plus-plus-compute@1.0.0", "1.0.0", beta_at_most_8)
    commit(checkout, "beta at most 8, in place")
    result = run_action(checkout)
    assert result.returncode == 1, result.stdout
    mine = section(result.stdout, f"{CHRF_PP}/1.0.0.json")
    assert mine.startswith(f"== {CHRF_PP}/1.0.0.json: FAIL")
    assert "/input_schema/properties/beta  maximum 16 -> 8  [input-maximum-lowered]" in mine
    assert "changed in place" in mine and "requires a major bump" in mine
    assert "contract gate: FAIL (1 of 1 changed contract file(s) failed)" in result.stdout

    git(checkout, "reset", "-q", "--hard", "origin/main")
    edit_contract(checkout, "chrf-plus-plus-compute@1.0.0", "2.0.0", beta_at_most_8)
    commit(checkout, "beta at most 8, as 2.0.0")
    result = run_action(checkout, base="main")
    assert result.returncode == 0, result.stdout
    assert (
        f"PASS  {CHRF_PP}/2.0.0.json  breaking change 1.0.0 -> 2.0.0: requires a major bump, given major"
        in result.stdout
    )
    assert "not re-validated: the oracle does not implement chrf-plus-plus-compute@2.0.0" in result.stdout


def decimals_up_to_20(contract: dict) -> None:
    contract["input_schema"]["properties"]["decimals"]["maximum"] = 20


def reworded(contract: dict) -> None:
    contract["description"] = "Reworded."
    contract["semantics"][0] = "The input is " + contract["semantics"][0].removeprefix("Input is ")


def test_additive_with_a_minor_bump_and_editorial_with_a_patch_pass_from_any_folder(checkout):
    edit_contract(checkout, "bleu-corpus-compute@1.0.0", "1.1.0", decimals_up_to_20)
    edit_contract(checkout, "bleu-ngrams-count@1.0.0", "1.0.1", reworded)
    line = json.loads((checkout / "contracts" / "bleu-ngrams-count" / "1.0.1.json").read_text())["semantics"][0]
    allow = {"editorial": [{"contract": "bleu-ngrams-count", "text": line, "reason": "wording only"}]}
    (checkout / "reviewed allow-list.json").write_text(json.dumps(allow), encoding="utf-8")
    commit(checkout, "decimals up to 20; a description and a semantics line reworded")
    result = run_action(checkout, allow="reviewed allow-list.json")
    assert result.returncode == 0, result.stdout
    assert "additive change 1.0.0 -> 1.1.0: requires a minor bump, given minor" in result.stdout
    assert "editorial change 1.0.0 -> 1.0.1: requires a patch bump, given patch" in result.stdout
    assert "semantics line changed (allow-listed as editorial: wording only)" in result.stdout
    assert "contract gate: PASS (0 of 2 changed contract file(s) failed)" in result.stdout

    # the same command from a folder deep inside the checkout, on a change not even committed
    edit_contract(checkout, "bleu-corpus-compute@1.0.0", "1.0.1", decimals_up_to_20)
    done = subprocess.run(
        ["conformance", "contracts", "gate", "--base", "origin/main"],
        cwd=checkout / "fixtures" / "bleu-corpus-compute",
        env=environment(checkout),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    mine = section(done.stdout, "contracts/bleu-corpus-compute/1.0.1.json")
    assert "requires a minor bump, but the version only had a patch bump (1.0.0 -> 1.0.1)" in mine


def implement(checkout: Path, tool_id: str, version: str) -> None:
    """The copy's oracle implements tool@version as it does 1.0.0, with 1.0.0's fixtures copied to it."""
    module = checkout / "oracle" / f"{tool_id.replace('-', '_')}.py"
    module.write_text(
        module.read_text(encoding="utf-8")
        + f'\nimport dataclasses\n\nTOOLS = [TOOL, dataclasses.replace(TOOL, version="{version}")]\n',
        encoding="utf-8",
    )
    source, target = checkout / "fixtures" / tool_id / "1.0.0", checkout / "fixtures" / tool_id / version
    target.mkdir()
    for path in source.glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        data["version"] = version
        (target / path.name).write_text(json.dumps(data), encoding="utf-8")


def test_the_oracle_and_fixtures_are_revalidated_against_every_changed_contract(checkout):
    def example_changed(contract):
        contract["examples"][1]["output"]["bleu"] = 0.5

    edit_contract(checkout, "bleu-corpus-compute@1.0.0", "2.0.0", example_changed)
    implement(checkout, "bleu-corpus-compute", "2.0.0")
    edit_contract(checkout, "chrf-plus-plus-compute@1.0.0", "2.0.0", beta_at_most_8)
    implement(checkout, "chrf-plus-plus-compute", "2.0.0")
    edit_contract(checkout, "chrf-components@1.0.0", "1.0.1", lambda c: c.__setitem__("description", "Reworded."))
    implement(checkout, "chrf-components", "1.0.1")
    commit(checkout, "three new versions, each implemented by the oracle, with fixtures")
    result = run_action(checkout)
    assert result.returncode == 1, result.stdout

    # an example the oracle reproduces, changed: failing even with the major bump its change requires
    corpus = section(result.stdout, "contracts/bleu-corpus-compute/2.0.0.json")
    assert corpus.startswith("== contracts/bleu-corpus-compute/2.0.0.json: FAIL")
    assert "[example-output-changed]" in corpus and "OK: the version bump matches the change" in corpus
    assert "#/examples/1/output/bleu [example-reproduces]" in corpus

    # beta at most 8 under the new contract: its fixtures with beta 16 no longer hold
    chrf_pp = section(result.stdout, f"{CHRF_PP}/2.0.0.json")
    assert "OK: the version bump matches the change" in chrf_pp
    fixture_input = r"fixtures/chrf-plus-plus-compute/2\.0\.0/\S+\.json#/cases/\d+/input/beta \[fixture-input-valid\]"
    assert re.search(fixture_input, chrf_pp), chrf_pp
    assert "16 is greater than the maximum of 8" in chrf_pp

    # a draft's description reworded: no bump required, and every fixture still agrees with the oracle under it
    assert "PASS  contracts/chrf-components/1.0.1.json  editorial change of a draft 1.0.0 -> 1.0.1" in result.stdout
    components = section(result.stdout, "contracts/chrf-components/1.0.1.json")
    assert components.startswith("== contracts/chrf-components/1.0.1.json: PASS")
    checked = r"oracle and fixtures: [1-9]\d* fixture case\(s\) of chrf-components@1\.0\.1 checked .*, 0 failed"
    assert re.search(checked, components), components
    assert "contract gate: FAIL (2 of 3 changed contract file(s) failed)" in result.stdout


@pytest.fixture
def in_process(checkout, monkeypatch):
    """`conformance contracts gate` in this process, the package's contracts taken to be the checkout's
    (for what needs no re-validation: that would read the contracts of this process's oracle)."""
    from conformance import gate
    from conformance.cli import main

    monkeypatch.setattr(gate, "contracts_dir", lambda: checkout / "contracts")
    return lambda *args: main(["contracts", "gate", *args])


def test_no_changed_contract_passes_and_says_so(checkout, in_process, monkeypatch, capsys):
    (checkout / "fixtures" / "README.md").write_text("reworded\n", encoding="utf-8")
    commit(checkout, "not a contract")
    monkeypatch.chdir(checkout)
    assert in_process("--base", "origin/main") == 0
    assert "contract gate: PASS (no contract file changed: nothing to check)" in capsys.readouterr().out


def test_usage_errors_say_what_is_wrong_and_exit_2(checkout, in_process, tmp_path, monkeypatch, capsys):
    elsewhere = tmp_path / "another-repository"
    elsewhere.mkdir()
    git(elsewhere, "init", "-q")
    for folder, args, says in (
        (checkout, ("--base", "no-such-branch"), "no revision 'no-such-branch'"),
        (checkout, ("--base", "origin/main", "--allow", "missing.json"), "missing.json"),
        (elsewhere, ("--base", "HEAD"), "the installed package reads its contracts from"),
    ):
        monkeypatch.chdir(folder)
        assert in_process(*args) == 2
        out, err = capsys.readouterr()
        assert out == "" and says in err, err

    done = run_action(checkout, base="")
    assert done.returncode == 2 and "needs a base" in done.stdout


def test_the_action_is_composite_and_hands_values_to_its_scripts_through_env_only():
    """No `${{ }}` inside a script (an input's text is never spliced into the shell); each
    expression names an input the action declares or a step before it."""
    assert ACTION["runs"]["using"] == "composite"
    steps = ACTION["runs"]["steps"]
    ids = [step.get("id") for step in steps]
    for index, step in enumerate(steps):
        if "run" in step:
            assert step["shell"] == "bash" and not EXPRESSION.search(step["run"]), step
        for value in [*step.get("env", {}).values(), *step.get("with", {}).values(), step.get("working-directory", "")]:
            for name in EXPRESSION.findall(str(value)):
                used = re.fullmatch(r"inputs\.([\w-]+)|steps\.([\w-]+)\.outputs\.[\w-]+", name)
                assert used, name
                assert used.group(1) in ACTION["inputs"] if used.group(1) else used.group(2) in ids[:index]
    gate_step = next(step for step in steps if step.get("id") == "gate")
    assert gate_step["run"].split()[:3] == ["conformance", "contracts", "gate"]


# --- the parts, in process ------------------------------------------------------------------


def test_contracts_no_checkout_tracks_are_refused(tmp_path):
    """A folder outside git, or a wheel's copy in a virtualenv a checkout ignores: no history to compare."""
    from conformance.gate.checkout import CheckoutError, checkout_holding

    plain = tmp_path / "plain" / "contracts"
    plain.mkdir(parents=True)
    ignored = tmp_path / "repository" / "venv" / "contracts"
    (ignored / "a-tool").mkdir(parents=True)
    (ignored / "a-tool" / "1.0.0.json").write_text("{}")
    (tmp_path / "repository" / ".gitignore").write_text("venv/\n")
    git(tmp_path / "repository", "init", "-q")
    git(tmp_path / "repository", "add", "-A")
    git(tmp_path / "repository", "commit", "-qm", "ignored")
    for folder in (plain, ignored):
        with pytest.raises(CheckoutError, match="no git checkout tracks"):
            checkout_holding(folder)


FIXTURES = ROOT / "fixtures" / "chrf-plus-plus-compute" / "1.0.0"


def test_each_disagreement_of_a_fixture_with_the_oracle_is_named(tmp_path, monkeypatch):
    """Fixtures of chrf-plus-plus-compute@1.0.0 altered by hand, each one way; the oracle is unchanged."""
    from conformance import fixtures
    from conformance.gate.revalidate import revalidate

    folder = tmp_path / "fixtures" / "chrf-plus-plus-compute" / "1.0.0"
    folder.mkdir(parents=True)
    shutil.copy2(ROOT / "fixtures" / "fixture.schema.json", tmp_path / "fixtures")
    examples = json.loads((FIXTURES / "examples.json").read_text(encoding="utf-8"))
    examples["cases"][0]["expect"]["output"]["score"] = "82.872638"  # one millionth off the exact score
    validation = json.loads((FIXTURES / "validation.json").read_text(encoding="utf-8"))
    validation["cases"] = validation["cases"][:3]
    validation["cases"][0]["expect"] = {"error": "limit_exceeded"}  # ["a"] is not an object: invalid_input
    validation["cases"][1]["input"] = {"hypotheses": ["a"], "references": ["a"]}  # a valid input, "expected" rejected
    header = dict(validation, version="1.0.1", cases=validation["cases"][2:])
    for name, data in (("examples", examples), ("validation", validation), ("header", header)):
        (folder / f"{name}.json").write_text(json.dumps(data), encoding="utf-8")
    (folder / "broken.json").write_text("{", encoding="utf-8")
    monkeypatch.setattr(fixtures, "fixtures_dir", lambda: tmp_path / "fixtures")

    result = revalidate("chrf-plus-plus-compute", "1.0.0")
    found = {(f.contract.rsplit("/", 1)[1], f.pointer, f.rule): f.message for f in result.findings}
    assert (result.cases, result.failed) == (5, 3)
    assert (
        'expected "82.872638", got "82.872637"'
        in found[("examples.json", "/cases/0/expect/output/score", "fixture-reproduces")]
    )
    assert (
        "rejects it with invalid_input, the fixture expects limit_exceeded"
        in found[("validation.json", "/cases/0/expect", "fixture-reproduces")]
    )
    assert (
        "answers an input the fixture expects rejected"
        in found[("validation.json", "/cases/1/expect", "fixture-reproduces")]
    )
    assert "the file says chrf-plus-plus-compute@1.0.1" in found[("header.json", "", "fixture-well-formed")]
    assert "cannot read the fixture file" in found[("broken.json", "", "fixture-well-formed")]
    assert len(found) == 5, found


@pytest.mark.slow
def test_every_published_fixture_holds_under_its_contract():
    """No false alarm: the project's own contracts and fixtures, all re-validated, give no finding."""
    import oracle
    from conformance.gate.revalidate import revalidate

    for tool_id, version in oracle.tool_keys():
        result = revalidate(tool_id, version)
        assert result.cases and not result.findings, [f.line() for f in result.findings[:5]]
