"""The matrix's static site (conformance/matrix/site.py), from matrix.json alone: every link resolves, each page
says what it must, the reproducer replays, and no page scrolls sideways at 1400 or at 390 pixels."""

from __future__ import annotations

import copy
import importlib.util
import json
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag

import pytest

from conformance.matrix.document import validate
from conformance.matrix.site import one_page, reproducer, write_site

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from check_matrix_html import sample_document  # noqa: E402
from test_reports import CHROMIUM, laid_out  # noqa: E402

LONG_TOKEN = "x" * 400


def document() -> dict:
    """The browser check's sample matrix, with what the site must also show: two mechanisms named at once, a
    library call, a long command, a long unbroken token, an interruption."""
    sample = copy.deepcopy(sample_document())
    sample["header"]["command"] = "conformance matrix --implementations " + ",".join(["a-rather-long-name"] * 20)
    sample["header"]["interrupted"] = "SIGTERM"
    group = sample["cells"][0]["failure_groups"][0]
    group["divergence"] = {
        "id": "lib-denominator + lib-smoothing",
        "libraries": ["a", "nltk"],
        "explanation": "1 instead of 0 (as in lib)",
    }
    group["smallest"] = {"hypotheses": [[LONG_TOKEN, "b"]], "references": [[["a"]]]}
    group["call"] = {"language": "python", "code": "import lib\nprint(lib.bleu([['" + LONG_TOKEN + "']]))"}
    return validate(sample)


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(found["id"])
        if tag == "a" and found.get("href") is not None:
            self.hrefs.append(found["href"])


def parsed(path: Path) -> Links:
    links = Links()
    links.feed(path.read_text(encoding="utf-8"))
    return links


def broken_links(directory: Path) -> list[str]:
    """Every local href of every page that names no file, or an anchor its page lacks."""
    broken = []
    for page in sorted(directory.rglob("*.html")):
        for href in parsed(page).hrefs:
            if "://" in href or href.startswith("mailto:"):
                broken.append(f"{page.name}: {href} leaves the site")
                continue
            target, anchor = urldefrag(href)
            where = (page.parent / target).resolve() if target else page
            if not where.is_file():
                broken.append(f"{page.relative_to(directory)}: {href}: no such page")
            elif anchor and anchor not in parsed(where).ids:
                broken.append(f"{page.relative_to(directory)}: {href}: no such anchor")
    return broken


def test_every_link_of_the_site_and_of_the_one_page_resolves(tmp_path):
    pages = write_site(document(), tmp_path / "site")
    names = sorted(str(path.relative_to(tmp_path / "site")) for path in pages)
    assert names == [
        "divergences/lib-denominator.html",
        "divergences/lib-smoothing.html",
        "implementations/a.html",
        "implementations/b.html",
        "index.html",
    ]
    hrefs = [href for path in pages for href in parsed(path).hrefs]
    assert len(hrefs) > 10 and any("#" in href for href in hrefs)
    assert broken_links(tmp_path / "site") == []
    (tmp_path / "one").mkdir()
    (tmp_path / "one" / "matrix.html").write_text(one_page(document()), encoding="utf-8")
    assert parsed(tmp_path / "one" / "matrix.html").hrefs and broken_links(tmp_path / "one") == []


def test_the_crawl_finds_a_missing_page_and_a_missing_anchor(tmp_path):
    (tmp_path / "index.html").write_text(
        '<a href="gone.html">x</a><a href="#nowhere">y</a><a href="index.html#here">z</a><p id="here"></p>'
    )
    assert broken_links(tmp_path) == ["index.html: gone.html: no such page", "index.html: #nowhere: no such anchor"]


def test_each_page_says_what_it_must(tmp_path):
    write_site(document(), tmp_path)
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    for needle in ("Suite 0.1.0", "a 1.0 (Python)", "conformance matrix --implementations", "Interrupted by SIGTERM"):
        assert needle in index, needle
    assert 'class="failing"' in index and 'href="implementations/a.html#cell-a-bleu-x-1-0-0"' in index
    page = (tmp_path / "implementations" / "a.html").read_text(encoding="utf-8")
    assert "totals[n-1] sums max(0, len - n + 1)" in page  # the clause
    assert 'href="../divergences/lib-denominator.html"' in page and 'href="../divergences/lib-smoothing.html"' in page
    assert "conformance replay reproducer.json" in page and "print(lib.bleu(" in page  # reproducer, call
    assert "<script" not in page and "&lt;script&gt;" in (tmp_path / "implementations" / "a.html").read_text() + index
    divergence = (tmp_path / "divergences" / "lib-smoothing.html").read_text(encoding="utf-8")
    assert "Libraries the catalogue says show it: a, nltk." in divergence
    assert 'href="../implementations/a.html#cell-a-bleu-x-1-0-0-group-1"' in divergence


def test_a_reproducer_replays_the_smallest_input(tmp_path):
    cell = {"implementation": "x", "tool": "bleu-corpus-compute@1.0.0"}
    group = {
        "smallest": {"hypotheses": [[]], "references": [[[]]]},
        "smallest_case": "generated/bleu-corpus-compute/valid/empty/3",
    }
    script = reproducer(cell, group).replace("conformance replay", f"{sys.executable} -m conformance replay")
    passing = subprocess.run(
        ["bash", "-c", script + " --target oracle"], capture_output=True, text=True, cwd=tmp_path, timeout=120
    )
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert json.loads((tmp_path / "reproducer.json").read_text())["case"]["category"] == "valid"
    if importlib.util.find_spec("sacrebleu") is None:
        return
    failing = subprocess.run(  # sacreBLEU's brevity penalty of an empty candidate and reference is 1, not 0
        ["bash", "-c", script + " --target implementation:sacrebleu"], capture_output=True, text=True, cwd=tmp_path
    )
    assert failing.returncode == 1 and "still fails" in failing.stdout, failing.stdout + failing.stderr


@pytest.mark.slow  # a browser
@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH: the layout is measured only where a browser exists")
@pytest.mark.parametrize("width", [1400, 390])
def test_no_page_of_the_site_scrolls_sideways(tmp_path, width):
    pages = write_site(document(), tmp_path / "site") + [tmp_path / "matrix.html"]
    (tmp_path / "matrix.html").write_text(one_page(document()), encoding="utf-8")
    for path in pages:
        if path.parent.name == "divergences" and path.name != "lib-smoothing.html":
            continue  # the same layout as the one measured
        measured = laid_out(path.read_text(encoding="utf-8"), width, tmp_path)
        assert measured["width"] == width and measured["page"] <= width and measured["past"] == [], (path, measured)
