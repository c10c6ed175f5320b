"""The code point classes (conformance/strategies/code_points.py): every tool with texts or tokens
has the family, its quick run reaches every aim it declares (each class, and each class under each
option that transforms or echoes text) at seeds 0, 1 and 2, its cases stay clear of the open points,
the faulty implementations it is aimed at are caught and the independent implementation passes.

Reachability is counted in a fresh interpreter (as tests/test_aims.py does): Hypothesis also draws
from the literals of the loaded modules, so in this process the examples would depend on which
modules the session happened to import. The `conformance run` checks run the real command (slow);
the same catches at the quick profile are judged in this process by default.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

import oracle
from conformance import compare
from conformance.engine import PROFILES
from conformance.model import Case
from conformance.strategies import code_points, draw_examples, supported
from conformance.strategies.alphabets import always_lowercases_to_itself, lowercase_safe
from conformance.targets.inprocess import InProcessTarget

TESTS_DIR = Path(__file__).resolve().parent
ROOT = TESTS_DIR.parent
if str(TESTS_DIR) not in sys.path:  # the mutants and the independent implementation live here
    sys.path.insert(0, str(TESTS_DIR))

import independent  # noqa: E402
import mutants  # noqa: E402

FAMILY = code_points.NAME
QUICK_SEEDS = (0, 1, 2)
MUTANT_SEEDS = (1, 2, 3)
# Each faulty implementation of the family's bug classes, with a tool it changes.
MUTANTS = (
    ("bleu_truncates_at_nul", "bleu-ngrams-count"),
    ("bleu_truncates_at_nul", "bleu-corpus-compute"),
    ("bleu_sentence_tokens_split_into_lines", "bleu-sentence-compute"),
    ("chrf_graphemes_as_characters", "chrf-plus-plus-compute"),
)
VERSION = "1.0.0"

COUNTING_SCRIPT = """
import json, sys
from conformance import strategies
from conformance.hypothesis_profiles import run_settings
from conformance.strategies import aim_counts, code_points

counts = {}
for tool_id, version in strategies.supported():
    for family in code_points.families(tool_id, version):
        for seed in map(int, sys.argv[1:]):
            with aim_counts.counting() as counter:
                # as many examples as a quick run sends (the family's share of the profile's)
                examples = family.settings(run_settings("quick", family.category)).max_examples
                strategies.draw_examples(family.strategy, examples, seed=seed)
            counts[f"{tool_id} seed {seed}"] = [list(family.aims), dict(counter.counts)]
print(json.dumps(counts))
"""


@functools.cache
def quick_counts() -> dict[str, tuple[list[str], dict[str, int]]]:
    completed = subprocess.run(
        [sys.executable, "-c", COUNTING_SCRIPT, *map(str, QUICK_SEEDS)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(completed.stdout)


def texts_of(payload: dict) -> tuple[list[str], list[str]]:
    """(hypothesis strings, reference strings): the texts, or every token."""
    if "hypothesis" in payload:
        return payload["hypothesis"], [t for r in payload["references"] for t in r]
    if payload["hypotheses"] and isinstance(payload["hypotheses"][0], str):
        return payload["hypotheses"], payload["references"]
    return [t for h in payload["hypotheses"] for t in h], [t for refs in payload["references"] for r in refs for t in r]


@functools.cache
def drawn(tool_id: str, count: int, seed: int) -> tuple:
    family = code_points.families(tool_id, VERSION)[0]
    return tuple(draw_examples(family.strategy, count, seed=seed))


def tools_with_text() -> list[str]:
    return [tool_id for tool_id, version in supported() if code_points.families(tool_id, version)]


# --- the family --------------------------------------------------------------------------------


def test_every_tool_with_texts_or_tokens_has_the_family():
    for tool_id, version in supported():
        properties = oracle.load_contract(tool_id, version)["input_schema"]["properties"]
        found = code_points.families(tool_id, version)
        has_text = "hypotheses" in properties or "hypothesis" in properties
        assert [f.name for f in found] == ([FAMILY] if has_text else []), tool_id


def test_quick_reaches_every_declared_aim_of_every_tool_at_seeds_0_1_2():
    counts = quick_counts()
    assert set(counts) == {f"{tool_id} seed {seed}" for tool_id in tools_with_text() for seed in QUICK_SEEDS}
    for name, (aims, reached) in counts.items():
        assert not [aim for aim in aims if not reached.get(aim)], f"{name}: aims not reached"
        assert set(reached) <= set(aims), f"{name}: undeclared {set(reached) - set(aims)}"


def test_every_class_is_aimed_for_every_tool_and_combined_with_the_options_that_transform_text():
    labels = [c.label for c in code_points.CLASSES]
    assert len(labels) == 16
    lowercased = {c.label for c in code_points.lowercase_classes()}
    # A5: with lowercase true, no class without a member whose lowercase is the same in every Unicode version
    # (the lowercase-safe alphabet, and the code points no version gives a case: controls, U+2028, U+2029,
    # private use, noncharacters); a ZWJ sequence's emoji and a regional indicator are not among them
    assert "ZWJ sequence" not in lowercased and "regional-indicator pair" not in lowercased
    every = {"U+0000", "LF", "CR", "CRLF", "NEL (U+0085)", "noncharacter", "private-use code point"}
    every |= {"LINE SEPARATOR (U+2028)", "PARAGRAPH SEPARATOR (U+2029)", "C0 control (U+0001-U+001F)"}
    assert every | {"astral character", "combining mark after punctuation"} <= lowercased, lowercased
    for tool_id in tools_with_text():
        aims = code_points.families(tool_id, VERSION)[0].aims
        assert aims[: len(labels)] == tuple(labels), tool_id
        properties = oracle.load_contract(tool_id, VERSION)["input_schema"]["properties"]
        for option, combined in (
            ("lowercase", "with lowercase"),
            ("whitespace", "with whitespace kept"),
            ("word_order", "in word n-grams"),
            ("detail", "echoed in n-gram rows"),
        ):
            assert any(aim.endswith(combined) for aim in aims) == (option in properties), (tool_id, option)


@pytest.mark.parametrize("tool_id", tools_with_text())
def test_cases_hold_every_class_on_both_sides_answered_and_clear_of_open_points(tool_id):
    import readings_by_id as readings

    properties = oracle.load_contract(tool_id, VERSION)["input_schema"]["properties"]
    for generated in drawn(tool_id, 30, 0):
        payload = generated.input
        oracle.execute(tool_id, VERSION, payload)  # every case is answered
        points = set(readings.depends_on_open_point(tool_id, VERSION, payload)) - {"A4"}
        assert not points, (generated.description, points)
        hypotheses, references = texts_of(payload)
        lowercase = payload.get("lowercase") is True
        for side in (hypotheses, references):
            text = "".join(side)
            assert "\x00" in text or lowercase
            assert "\r\n" in text and "\u0085" in text
            assert any(unicodedata.category(ch).startswith("M") for ch in text)
            assert any(ord(ch) > 0xFFFF for ch in text)
            if not lowercase:
                assert "\u2028" in text and "\u2029" in text and "\u200d" in text
                assert any(unicodedata.category(ch) == "Co" for ch in text)
                assert any(unicodedata.category(ch) == "Cn" for ch in text)  # the noncharacters
        if lowercase:
            assert lowercase_safe(*hypotheses, *references)
        if "lowercase" not in properties:  # tokens: none empty, none past max_token_bytes
            assert all(0 < len(token.encode("utf-8")) <= 128 for token in hypotheses + references)


# --- the bugs it is aimed at, and a correct implementation ------------------------------------


def failures(execute, tool_id: str, seed: int, profile: str = "quick") -> list[str]:
    """The family's cases at the profile, judged as `conformance run` judges them."""
    target = InProcessTarget("python:under-test", execute)
    found = []
    for i, generated in enumerate(drawn(tool_id, PROFILES[profile]["valid"], seed)):
        case = Case(
            tool_id,
            VERSION,
            f"generated/{tool_id}/{FAMILY}/{i}",
            "generated",
            "valid",
            generated.input,
            generated.expect,
        )
        verdict = compare.check(case, target.call(tool_id, VERSION, generated.input))
        if verdict.outcome != "passed":
            found.append(f"{case.case_id}: {verdict.message[:200]}")
    return found


@pytest.mark.parametrize("name, tool_id", MUTANTS)
def test_the_quick_family_catches_each_mutant(name, tool_id):
    module = mutants.load(name)
    assert (tool_id, VERSION) in mutants.changed_tools(module)
    assert failures(module.execute, tool_id, seed=0), f"{name} passes every {FAMILY} case of {tool_id}"


@pytest.mark.parametrize("tool_id", tools_with_text())
def test_the_independent_implementation_passes_the_quick_family(tool_id):
    assert not failures(independent.execute, tool_id, seed=0)


def conformance_run(target: str, seed: int, report_dir: Path, *tools: str) -> subprocess.CompletedProcess:
    """`conformance run` of the family alone at the default profile, from tests/ (so `mutants` imports)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS_DIR), os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "conformance", "run", "--target", target, "--profile", "default"]
    command += ["--seed", str(seed), "--families", FAMILY, "--generated-only", "--report-dir", str(report_dir)]
    command += ["--tools", ",".join(tools)] if tools else []
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=TESTS_DIR, timeout=900)


@pytest.mark.slow
@pytest.mark.parametrize("seed", MUTANT_SEEDS)
@pytest.mark.parametrize("name, tool_id", MUTANTS)
def test_conformance_run_catches_each_mutant_with_the_family(name, tool_id, seed, tmp_path):
    completed = conformance_run(f"python:mutants.{name}", seed, tmp_path, tool_id)
    assert completed.returncode == 1, completed.stdout[-3000:] + completed.stderr[-3000:]
    assert f"generated/{tool_id}/{FAMILY}/" in completed.stdout


@pytest.mark.slow
def test_conformance_run_passes_the_independent_implementation_on_every_tool(tmp_path):
    completed = conformance_run("python:independent", 1, tmp_path)
    assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr[-3000:]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_caseless_code_points_lowercase_to_themselves_in_javascript():
    """A5: controls, line and paragraph separators, private use and noncharacters may be sent with lowercase
    true (alphabets.always_lowercases_to_itself): in V8, with its own Unicode data, every one of them (and
    none of its category that Python's data knows otherwise) lowercases to itself."""
    script = r"""
        const odd = [];
        for (let cp = 0; cp <= 0x10ffff; cp++) {
            if (cp >= 0xd800 && cp <= 0xdfff) continue;
            const s = String.fromCodePoint(cp);
            const nonchar = (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) === 0xfffe;
            if ((/[\p{Cc}\p{Zl}\p{Zp}\p{Co}]/u.test(s) || nonchar) && s.toLowerCase() !== s) odd.push(cp);
        }
        process.stdout.write(JSON.stringify(odd));
    """
    done = subprocess.run(["node", "-e", script], capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(done.stdout) == []
    sample = [0x00, 0x1F, 0x7F, 0x85, 0x9F, 0x2028, 0x2029, 0xE000, 0xF8FF, 0xF0000, 0x10FFFD, 0xFDD0, 0xFFFE, 0x10FFFF]
    assert all(always_lowercases_to_itself(chr(cp)) for cp in sample)
    assert not any(always_lowercases_to_itself(ch) for ch in "AaÀİΣ\u00a0 ")
