"""The documentation: README.md fits a first read and links into docs/, the MkDocs site (mkdocs.yml,
docs/) builds with --strict, and the reference it generates from the code names every option of every
command, so a new option without documentation fails here."""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.cli import COMMANDS, build_parser

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
README_LINK = re.compile(r"\]\((docs/[^)#\s]*)(#[^)\s]*)?\)")


def commands() -> list[tuple[str, argparse.ArgumentParser]]:
    """Every command and sub-command with its parser, walked here apart from docs/hooks.py."""
    found = []

    def visit(name: str, parser: argparse.ArgumentParser) -> None:
        found.append((name, parser))
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub_name, sub in action.choices.items():
                    visit(f"{name} {sub_name}", sub)

    for name, _module, _help in COMMANDS:
        subparsers = next(a for a in build_parser(name)._actions if isinstance(a, argparse._SubParsersAction))
        visit(f"conformance {name}", subparsers.choices[name])
    return found


def test_readme_is_short_and_starts_with_the_two_commands():
    text = README.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines: move the rest into docs/"
    assert lines[0].startswith("# ") and lines[1] == ""
    assert lines[2] == "```sh" and lines[5] == "```", "the first block holds exactly two commands"
    install, tests = lines[3], lines[4]
    assert "pip install" in install and "conformance run --target oracle" in install
    assert "pytest" in tests
    # .ci/run evaluates the third line of the first ```sh ... ``` range: the test command
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "sed -n '/^```sh$/,/^```$/p' README.md | sed -n '3p'" in ci


def test_every_link_of_the_readme_into_docs_leads_to_a_file():
    links = README_LINK.findall(README.read_text(encoding="utf-8"))
    assert links, "README.md links into docs/"
    missing = sorted({path for path, _anchor in links if not (ROOT / path).is_file()})
    assert not missing, f"README.md links to missing files: {missing}"


def test_no_generated_reference_page_is_committed():
    assert not (DOCS / "reference").exists(), "docs/hooks.py makes the reference pages at build time"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    if importlib.util.find_spec("mkdocs") is None:
        pytest.skip("mkdocs is not installed (pip install -e '.[docs]')")
    site_dir = tmp_path_factory.mktemp("site")
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(ROOT / "mkdocs.yml")]
        + ["--site-dir", str(site_dir)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, f"mkdocs build --strict failed:\n{built.stdout}\n{built.stderr}"
    return site_dir


def test_the_site_builds_strictly_with_every_page_of_its_nav(site):
    for page in ("index.html", "targets/index.html", "reference/cli/index.html", "reference/report/index.html"):
        assert (site / page).is_file(), page


def test_the_cli_reference_names_every_option_of_every_command(site):
    reference = (site / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    missing = [
        f"{name} {option}"
        for name, parser in commands()
        for action in parser._actions
        for option in action.option_strings
        if option not in ("-h", "--help") and f"<code>{option}</code>" not in reference
    ]
    missing += [name for name, _parser in commands() if f"<code>{name}</code>" not in reference]
    assert not missing, f"options or commands missing from the generated CLI reference: {missing}"


def test_the_exit_codes_reference_lists_every_command(site):
    reference = (site / "reference" / "exit-codes" / "index.html").read_text(encoding="utf-8")
    missing = [name for name, _parser in commands() if f"<code>{name}</code>" not in reference]
    assert not missing, f"commands missing from the exit-codes reference: {missing}"


def test_the_report_reference_names_every_top_level_field(site):
    for schema_file, page in (("report.schema.json", "report"), ("matrix.schema.json", "matrix")):
        schema = json.loads((ROOT / "conformance" / schema_file).read_text(encoding="utf-8"))
        reference = (site / "reference" / page / "index.html").read_text(encoding="utf-8")
        missing = [field for field in schema["properties"] if f"<code>{field}</code>" not in reference]
        assert not missing, f"fields of {schema_file} missing from its reference: {missing}"


def test_the_divergences_reference_has_a_section_for_every_mechanism(site):
    from conformance.divergences import MECHANISMS

    reference = (site / "reference" / "divergences" / "index.html").read_text(encoding="utf-8")
    missing = [m.id for m in MECHANISMS if f'id="{m.id}"' not in reference]
    assert not missing, f"mechanisms missing from the divergences reference: {missing}"


def test_the_matrix_page_shows_the_committed_headline_table(site):
    from conformance.matrix.views import headline_table

    document = json.loads((ROOT / "reports" / "compatibility" / "matrix.json").read_text(encoding="utf-8"))
    page = (site / "matrix" / "index.html").read_text(encoding="utf-8")
    assert "matrix headline table" not in page, "the hook replaced its marker"
    assert page.count("<tr>") >= len(headline_table(document)) - 1  # heading row + a row per implementation


def test_the_readmes_matrix_table_is_the_committed_matrix():
    """The README's headline table is written from reports/compatibility/matrix.json (never by hand):
    `python -m conformance.matrix.views README.md reports/compatibility/matrix.json` writes it anew."""
    from conformance.matrix.views import README_END, README_START, readme_table

    document = json.loads((ROOT / "reports" / "compatibility" / "matrix.json").read_text(encoding="utf-8"))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = readme.split(README_START, 1)[1].split(README_END, 1)[0].strip().splitlines()
    assert shown == readme_table(document)
    assert len(shown) == 2 + len(document["implementations"])
    # every row of the table names its library and version as the matrix does
    for line, row in zip(shown[2:], document["implementations"]):
        assert line.startswith(f"| {row['name']} {row['version']}")
