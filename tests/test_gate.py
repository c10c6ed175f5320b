"""The contract gate: lint findings, change classification and version-bump rules.

Each changed contract below is a realistic edit of a published contract, with
the class a reviewer would give it written next to it; the gate must agree.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest

import oracle
from conformance.gate.diff import diff_contracts, version_bump, word_diff
from conformance.gate.lint import lint_contract

NGRAMS = ("bleu-ngrams-count", "1.0.0")
CORPUS = ("bleu-corpus-compute", "1.0.0")
CHRF = ("chrf-plus-plus-compute", "1.0.0")


def published(tool):
    return oracle.load_contract(*tool)


def edited(tool, edit, version=None):
    contract = copy.deepcopy(published(tool))
    edit(contract)
    if version:
        contract["version"] = version
    return contract


def _set(path, value):
    def edit(contract):
        node = contract
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = value

    return edit


def _delete(path):
    def edit(contract):
        node = contract
        for part in path[:-1]:
            node = node[part]
        del node[path[-1]]

    return edit


def _append(path, value):
    def edit(contract):
        node = contract
        for part in path:
            node = node[part]
        node.append(value)

    return edit


IN = ("input_schema", "properties")
OUT = ("output_schema", "properties")

# (name, tool, edit, expected class, a change kind that must be among those reported)
CHANGES = [
    (
        "required input field added",
        CORPUS,
        lambda c: (
            c["input_schema"]["properties"].__setitem__("smoothing", {"type": "string"}),
            c["input_schema"]["required"].append("smoothing"),
        ),
        "breaking",
        "input-field-now-required",
    ),
    (
        "optional input field added",
        CORPUS,
        _set(IN + ("smoothing",), {"type": "string", "enum": ["none", "exp"]}),
        "additive",
        "input-field-added",
    ),
    (
        "input enum value removed",
        NGRAMS,
        _set(IN + ("detail", "enum"), ["totals", "segments"]),
        "breaking",
        "input-enum-value-removed",
    ),
    (
        "input enum value added",
        NGRAMS,
        _set(IN + ("detail", "enum"), ["totals", "segments", "ngrams", "orders"]),
        "additive",
        "input-enum-value-added",
    ),
    ("limit lowered", CHRF, _set(("limits", "max_text_bytes"), 32768), "breaking", "limit-lowered"),
    ("limit raised", CHRF, _set(("limits", "max_text_bytes"), 131072), "additive", "limit-raised"),
    ("new limit", NGRAMS, _set(("limits", "max_ngrams_rows"), 100000), "breaking", "limit-added"),
    (
        "schema maxItems lowered",
        CORPUS,
        _set(IN + ("hypotheses", "maxItems"), 500),
        "breaking",
        "input-maxItems-lowered",
    ),
    ("schema maxItems raised", CHRF, _set(IN + ("hypotheses", "maxItems"), 512), "additive", "input-maxItems-raised"),
    ("input maximum lowered", CORPUS, _set(IN + ("decimals", "maximum"), 10), "breaking", "input-maximum-lowered"),
    ("input minimum raised", CHRF, _set(IN + ("beta", "minimum"), 2), "breaking", "input-minimum-raised"),
    ("input integer widened to number", CHRF, _set(IN + ("beta", "type"), "number"), "additive", "input-type-widened"),
    (
        "input type narrowed",
        CHRF,
        _set(IN + ("lowercase",), {"type": "boolean", "const": False}),
        "breaking",
        "input-enum-constraint",
    ),
    (
        "token minLength dropped",
        NGRAMS,
        _delete(IN + ("hypotheses", "items", "items", "minLength")),
        "additive",
        "input-minLength-removed",
    ),
    (
        "output field removed",
        CORPUS,
        lambda c: (
            c["output_schema"]["properties"].pop("reference_length"),
            c["output_schema"]["required"].remove("reference_length"),
        ),
        "breaking",
        "output-field-removed",
    ),
    (
        "output field type changed integer -> number",
        CORPUS,
        _set(OUT + ("candidate_length", "type"), "number"),
        "breaking",
        "output-type-widened",
    ),
    (
        "output field type changed to string",
        CORPUS,
        _set(OUT + ("bleu", "type"), "string"),
        "breaking",
        "output-type-narrowed",
    ),
    (
        "output field no longer required",
        CHRF,
        lambda c: c["output_schema"]["required"].remove("word_tokens"),
        "breaking",
        "output-field-no-longer-required",
    ),
    (
        "output enum widened",
        CHRF,
        _set(OUT + ("metric",), {"type": "string", "enum": ["chrF++", "chrF"]}),
        "breaking",
        "output-enum-value-added",
    ),
    (
        "optional output field added",
        CORPUS,
        _set(OUT + ("precisions",), {"type": "array", "items": {"type": "number"}}),
        "additive",
        "output-optional-field-added",
    ),
    ("output range narrowed", CORPUS, _set(OUT + ("max_order", "maximum"), 4), "additive", "output-maximum-lowered"),
    (
        "output pattern changed",
        CHRF,
        _set(OUT + ("score", "pattern"), "^[0-9]{1,3}\\.[0-9]{4}$"),
        "breaking",
        "output-pattern-changed",
    ),
    (
        "input object opened",
        CHRF,
        _delete(("input_schema", "additionalProperties")),
        "additive",
        "input-additionalProperties-changed",
    ),
    (
        "description reworded",
        NGRAMS,
        _set(("description",), "Count clipped BLEU n-gram matches per order."),
        "editorial",
        "description-changed",
    ),
    (
        "supported operation added",
        CHRF,
        _append(("supported_operations",), "chrF++ for subtitles"),
        "editorial",
        "supported_operations-changed",
    ),
    (
        "schema description added",
        CORPUS,
        _set(IN + ("decimals", "description"), "digits after the point"),
        "editorial",
        "input-annotation",
    ),
    (
        "semantics line changed",
        CORPUS,
        lambda c: c.__setitem__(
            "semantics", [s.replace("ties going to the shorter", "ties going to the longer") for s in c["semantics"]]
        ),
        "breaking",
        "semantics-line-changed",
    ),
    (
        "semantics line added",
        CHRF,
        _append(("semantics",), "Scores are cached per input."),
        "breaking",
        "semantics-line-added",
    ),
    (
        "example output changed",
        CORPUS,
        _set(("examples", 0, "output", "bleu"), 0.5),
        "breaking",
        "example-output-changed",
    ),
    (
        "a field beside the contract's keys",
        CORPUS,
        _set(("updated_at",), "2026-01-01T00:00:00Z"),
        "editorial",
        "non-contract-field-added",
    ),
    (
        "a contract key spelt otherwise, saying something else",
        CORPUS,
        _set(("Limits",), {"max_segments": 10}),
        "breaking",
        "contract-key-spelt-otherwise",
    ),
    (
        "example added",
        NGRAMS,
        _append(
            ("examples",),
            {
                "input": {"hypotheses": [["a"]], "references": [[["a"]]]},
                "output": {"max_order": 4, "matches": [1, 0, 0, 0], "totals": [1, 0, 0, 0]},
            },
        ),
        "editorial",
        "example-added",
    ),
]


@pytest.mark.parametrize("name, tool, edit, expected_class, expected_kind", CHANGES, ids=[c[0] for c in CHANGES])
def test_change_is_classified(name, tool, edit, expected_class, expected_kind):
    report = diff_contracts(published(tool), edited(tool, edit, version="9.0.0"))
    kinds = {change.kind for change in report.changes}
    assert expected_kind in kinds, report.text()
    assert report.change_class == expected_class, report.text()


@pytest.mark.parametrize("name, tool, edit, expected_class, expected_kind", CHANGES, ids=[c[0] for c in CHANGES])
def test_version_bump_must_match_the_change(name, tool, edit, expected_class, expected_kind):
    required = {"breaking": "2.0.0", "additive": "1.1.0", "editorial": "1.0.1"}[expected_class]
    assert not diff_contracts(published(tool), edited(tool, edit, version=required)).violations
    too_small = {"breaking": "1.1.0", "additive": "1.0.1", "editorial": None}[expected_class]
    if too_small:
        report = diff_contracts(published(tool), edited(tool, edit, version=too_small))
        assert report.violations and "requires a" in report.violations[0]
    in_place = diff_contracts(published(tool), edited(tool, edit))
    assert in_place.violations and "changed in place" in in_place.violations[0]


def test_identical_contracts_have_no_change():
    for tool in (NGRAMS, CORPUS, CHRF):
        report = diff_contracts(published(tool), published(tool))
        assert report.changes == [] and report.violations == [] and report.change_class == "none"


def test_allow_list_marks_a_semantics_line_editorial():
    def fix_typo(contract):
        contract["semantics"][0] = contract["semantics"][0].replace("no case folding", "no case-folding")

    new = edited(CORPUS, fix_typo, version="1.0.1")
    assert diff_contracts(published(CORPUS), new).change_class == "breaking"
    allow = [{"contract": "bleu-corpus-compute", "text": new["semantics"][0], "reason": "hyphenation only"}]
    report = diff_contracts(published(CORPUS), new, allow=allow)
    assert report.change_class == "editorial" and not report.violations
    assert "{+case-folding,+}" in report.changes[0].detail or "case-folding" in report.changes[0].detail


def test_word_diff_shows_removed_and_added_words():
    assert (
        word_diff("ties going to the shorter reference", "ties going to the longer reference")
        == "ties going to the [-shorter-] {+longer+} reference"
    )


@pytest.mark.parametrize(
    "old, new, bump",
    [
        ("1.0.0", "2.0.0", "major"),
        ("1.0.0", "1.1.0", "minor"),
        ("1.0.0", "1.0.1", "patch"),
        ("1.2.3", "1.2.3", "none"),
        ("1.2.3", "1.2.2", "downgrade"),
        ("1.0", "1.0.1", "invalid"),
    ],
)
def test_version_bump(old, new, bump):
    assert version_bump(old, new) == bump


def test_published_contracts_lint_clean_except_explained_notes():
    for tool in (NGRAMS, CORPUS, CHRF):
        findings = lint_contract(published(tool), f"{tool[0]}@{tool[1]}")
        assert [f for f in findings if f.severity != "info"] == [], [f.line() for f in findings]
        # the one unit mismatch the contracts carry is explained, not silently accepted
        if tool != CHRF:
            assert any(f.rule == "limit-units" for f in findings)


@pytest.mark.parametrize(
    "edit, rule",
    [
        (_delete(("semantics",)), "required-field"),
        (_set(("version",), "1.0"), "semver"),
        (_set(("input_schema", "type"), "objekt"), "schema-valid"),
        (_set(("examples", 0, "output", "bleu"), 0.9), "example-reproduces"),
        (_set(("examples", 0, "input", "decimals"), 99), "example-input-valid"),
        (_set(("examples", 0, "output", "max_order"), 0), "example-output-valid"),
        (_set(("limits", "max_segments"), 999), "limit-matches-schema"),
        (_set(("execute_url",), "/v1/tools/bleu/execute"), "execute-url"),
    ],
)
def test_lint_reports_errors_with_pointer_and_rule(edit, rule):
    findings = lint_contract(edited(CORPUS, edit), "bleu-corpus-compute@1.0.0")
    errors = [f for f in findings if f.severity == "error"]
    assert any(f.rule == rule for f in errors), [f.line() for f in findings]
    assert all(f.pointer.startswith("/") or f.pointer == "" for f in errors)


def test_cli_exit_codes(tmp_path):
    old = tmp_path / "old.json"
    new = tmp_path / "new.json"
    old.write_text(json.dumps(published(CHRF)))
    new.write_text(json.dumps(edited(CHRF, _set(("limits", "max_text_bytes"), 1024), version="1.1.0")))

    def run(*args):
        return subprocess.run([sys.executable, "-m", "conformance", "contracts", *args], capture_output=True, text=True)

    result = run("diff", str(old), str(new))
    assert result.returncode == 1 and "limit-lowered" in result.stdout and "requires a major bump" in result.stdout
    new.write_text(json.dumps(edited(CHRF, _set(("limits", "max_text_bytes"), 1024), version="2.0.0")))
    result = run("diff", str(old), str(new), "--format", "json")
    assert result.returncode == 0 and json.loads(result.stdout)["change_class"] == "breaking"
    assert run("lint").returncode == 0
    bad = tmp_path / "chrf-plus-plus-compute" / "1.0.0.json"
    bad.parent.mkdir()
    bad.write_text(json.dumps(edited(CHRF, _set(("examples", 1, "output", "score"), "99.000000"))))
    result = run("lint", str(bad))
    assert result.returncode == 1 and "example-reproduces" in result.stdout
    assert run("diff", str(old), str(tmp_path / "missing.json")).returncode == 2


def test_changed_since_base_diffs_a_new_version_against_its_predecessor(tmp_path):
    def git(*args):
        return subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=True,
        )

    folder = tmp_path / "contracts" / "chrf-plus-plus-compute"
    folder.mkdir(parents=True)
    (folder / "1.0.0.json").write_text(json.dumps(published(CHRF)))
    git("init", "-q")
    git("add", "-A")
    git("commit", "-qm", "base")
    lowered = edited(CHRF, _set(("limits", "max_text_bytes"), 4096), version="1.1.0")
    lowered["execute_url"] = "/v1/tools/chrf-plus-plus-compute/versions/1.1.0/execute"
    (folder / "1.1.0.json").write_text(json.dumps(lowered))
    git("add", "-A")
    git("commit", "-qm", "lower a limit with a minor bump")

    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "conformance", "contracts", "changed", "--base", "HEAD~1", *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
        )

    result = run()
    assert result.returncode == 1, result.stdout + result.stderr
    assert "limit-lowered" in result.stdout and "requires a major bump" in result.stdout
    assert run("--affected-tools").stdout.strip() == "chrf-plus-plus-compute@1.1.0"


def test_lint_holds_examples_to_the_suite_comparison_policy():
    """A full-precision example computed with another libm (1 ulp away) lints clean; a wrong one does not."""
    import math

    base = published(CORPUS)["examples"][1]["input"]
    payload = {k: v for k, v in base.items() if k != "decimals"}
    exact = oracle.execute(*CORPUS, payload)

    def with_example(bleu):
        def edit(contract):
            contract["examples"].append({"input": payload, "output": {**exact, "bleu": bleu}})

        return lint_contract(edited(CORPUS, edit), "bleu-corpus-compute@1.0.0")

    one_ulp = math.nextafter(exact["bleu"], 1.0)
    assert not [f for f in with_example(one_ulp) if f.rule == "example-reproduces"]
    wrong = [f for f in with_example(exact["bleu"] * (1 + 1e-9)) if f.rule == "example-reproduces"]
    assert wrong and wrong[0].pointer.endswith("/output/bleu")


# --- drafts ---------------------------------------------------------------------------------

SENTENCE = ("bleu-sentence-compute", "1.0.0")


def test_drafts_lint_like_published_contracts():
    for tool in (SENTENCE, ("bleu-sentence-components", "1.0.0"), ("bleu-brevity-penalty", "1.0.0")):
        assert published(tool)["status"] == "draft"
        findings = lint_contract(published(tool), f"{tool[0]}@{tool[1]}")
        assert [f for f in findings if f.severity != "info"] == [], [f.line() for f in findings]
    broken = edited(SENTENCE, _set(("examples", 0, "output", "orders_used"), 3))
    assert any(f.rule == "example-reproduces" for f in lint_contract(broken, "draft"))


def test_a_draft_may_change_without_a_version_bump():
    changed = edited(SENTENCE, _set(("limits", "max_total_tokens"), 40_000))
    report = diff_contracts(published(SENTENCE), changed)
    assert report.change_class == "breaking" and not report.violations
    assert any("draft may change" in note for note in report.notes)


def _published_from_draft(edit=None):
    def publish(contract):
        del contract["status"]
        if edit:
            edit(contract)

    return edited(SENTENCE, publish)


def test_publishing_a_draft_unchanged_needs_no_bump():
    report = diff_contracts(published(SENTENCE), _published_from_draft())
    assert report.changes == [] and not report.violations
    assert any("published" in note for note in report.notes)


def test_publishing_a_draft_with_changes_is_classified_like_any_change():
    lowered = _published_from_draft(_set(("limits", "max_total_tokens"), 40_000))
    report = diff_contracts(published(SENTENCE), lowered)
    assert report.change_class == "breaking"
    assert report.violations and "differs from its draft" in report.violations[0]
    lowered["version"] = "2.0.0"
    assert not diff_contracts(published(SENTENCE), lowered).violations


def test_a_published_contract_cannot_become_a_draft_again():
    draft_again = edited(CORPUS, _set(("status",), "draft"))
    report = diff_contracts(published(CORPUS), draft_again)
    assert report.change_class == "breaking" and report.violations


def test_a_field_outside_the_contract_keys_is_editorial_and_named_so():
    """No rule the suite reads lives outside the contract's keys; a key spelt like one (``inputSchema``)
    that restates it is editorial too, and lint warns about every such key in a contract file."""
    restated = edited(CORPUS, lambda c: c.update(etag="W/1", inputSchema=c["input_schema"]), version="1.0.1")
    report = diff_contracts(published(CORPUS), restated)
    assert report.change_class == "editorial" and not report.violations, report.text()
    assert [change.message for change in report.changes] == [
        "extra top-level field `etag` (not a contract key)",
        "extra top-level field `inputSchema` (not a contract key, restating `input_schema`)",
    ]
    warnings = [finding for finding in lint_contract(restated, "x") if finding.rule == "contract-key"]
    assert [(finding.severity, finding.pointer) for finding in warnings] == [
        ("warning", "/etag"),
        ("warning", "/inputSchema"),
    ]
    assert "did you mean 'input_schema'" in warnings[1].message
