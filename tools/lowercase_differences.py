"""Write oracle/data/lowercase_unicode_differences.json: where Python's str.lower() and a
JavaScript runtime's String.prototype.toLowerCase() disagree.

chrf-plus-plus-compute lowercases with "String.prototype.toLowerCase (runtime Unicode
default case mapping)". The oracle uses Python's str.lower(), the same algorithm (full
case mapping, Final_Sigma included) on Python's Unicode version; JavaScript engines ship
newer ones. Every code point whose lowercase, or whose effect on a neighbouring capital
sigma (Final_Sigma reads the Cased and Case_Ignorable properties), differs between the
two is listed, so the suite never asserts an input that uses one (open point A5). The
code points still unassigned in Python's version but assigned in the JavaScript runtime's
are listed as ranges; the suite avoids every unassigned code point anyway.

Usage: python tools/lowercase_differences.py [--check]
(--check compares with the committed file instead of writing it; exit 1 if it differs)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NODE_SCRIPT = ROOT / "tools" / "js_lowercase_table.mjs"
TABLE = ROOT / "oracle" / "data" / "lowercase_unicode_differences.json"

# The probes of js_lowercase_table.mjs, in its order (see there why these five).
PROBES = (
    lambda x: x,
    lambda x: "A\u03a3" + x,
    lambda x: "A\u03a3" + x + "B",
    lambda x: "A" + x + "\u03a3",
    lambda x: x + "\u03a3",
)
PROBE_NAMES = ("X", "A\u03a3X", "A\u03a3XB", "AX\u03a3", "X\u03a3")
# What a code point without case gives (js_lowercase_table.mjs: CASELESS).
CASELESS = (
    lambda x: x,
    lambda x: "a\u03c2" + x,
    lambda x: "a\u03c2" + x + "b",
    lambda x: "a" + x + "\u03c3",
    lambda x: x + "\u03c3",
)
# Whole strings whose sigmas show Final_Sigma at work; both runtimes must agree on them.
FINAL_SIGMA_EXAMPLES = (
    "\u03a3",  # alone: no cased letter before, stays σ
    "\u039f\u0394\u039f\u03a3",  # ΟΔΟΣ: word-final, ς
    "\u039f\u0394\u039f\u03a3.",  # punctuation after is neither cased nor ignorable: ς
    "\u039f\u0394\u039f\u03a3 \u039f\u0394\u039f\u03a3",  # each word's last sigma is final
    "\u03a3\u039f\u03a3\u0391",  # sigma first and inside a word: σ
    "A\u03a3'B",  # apostrophe is case-ignorable: cased letter after it, σ
    "A'\u03a3",  # case-ignorable between a cased letter and sigma: ς
    "A\u03a3\u0301",  # combining acute after: ignorable, then end: ς
    "1\u03a3",  # digit before is not cased: σ
    "\U00010400\u03a3",  # astral cased letter (Deseret) before: ς
)


def python_probes(code_point: int) -> list[str]:
    x = chr(code_point)
    return [probe(x).lower() for probe in PROBES]


def caseless_probes(code_point: int) -> list[str]:
    x = chr(code_point)
    return [make(x) for make in CASELESS]


def python_entries() -> dict[int, list[str]]:
    """Code points where some probe differs from a caseless code point's, with Python's results."""
    entries = {}
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        results = python_probes(cp)
        if results != caseless_probes(cp):
            entries[cp] = results
    return entries


def run_node(script: Path, stdin: str = "") -> str:
    return subprocess.run(
        ["node", str(script)], input=stdin, capture_output=True, text=True, check=True, timeout=120
    ).stdout


def u_plus(cp: int) -> str:
    return f"U+{cp:04X}"


def build_table(node_output: dict) -> dict:
    python = python_entries()
    javascript = {int(cp): results for cp, results in node_output["entries"].items()}
    differences = []
    for cp in sorted(python.keys() | javascript.keys()):
        ours = python.get(cp) or caseless_probes(cp)
        theirs = javascript.get(cp) or caseless_probes(cp)
        if ours != theirs:
            differing = [name for name, a, b in zip(PROBE_NAMES, ours, theirs) if a != b]
            differences.append(
                {
                    "code_point": u_plus(cp),
                    "differing_probes": differing,
                    "python": dict(zip(PROBE_NAMES, ours)),
                    "javascript": dict(zip(PROBE_NAMES, theirs)),
                }
            )
    js_unassigned = {cp for first, last in node_output["unassigned_ranges"] for cp in range(first, last + 1)}
    newly_assigned = [
        cp
        for cp in range(0x110000)
        if not 0xD800 <= cp <= 0xDFFF and unicodedata.category(chr(cp)) == "Cn" and cp not in js_unassigned
    ]
    node_sigma = json.loads(run_node_inline_lowercase(FINAL_SIGMA_EXAMPLES))
    return {
        "description": (
            "Code points whose String.prototype.toLowerCase behaviour differs between Python str.lower "
            "(the oracle) and a JavaScript runtime: their own lowercase, or the Final_Sigma context they "
            "give a neighbouring capital sigma. Open point A5: the suite never asserts an input with "
            "lowercase true that contains one, nor any code point unassigned in Python's Unicode version."
        ),
        "generated_by": "tools/lowercase_differences.py",
        "unicode_versions": {
            "python": unicodedata.unidata_version,
            "javascript": node_output["unicode"],
            "javascript_runtime": node_output["runtime"],
        },
        "probes": (
            "each code point X is lowercased alone and in four strings beside a capital sigma: "
            + ", ".join(PROBE_NAMES[1:])
        ),
        "code_points": [u_plus(d_cp) for d_cp in (int(d["code_point"][2:], 16) for d in differences)],
        "differences": differences,
        "final_sigma_examples": [
            {"text": text, "python": text.lower(), "javascript": js}
            for text, js in zip(FINAL_SIGMA_EXAMPLES, node_sigma)
        ],
        "assigned_in_javascript_only": [[u_plus(first), u_plus(last)] for first, last in ranges(newly_assigned)],
    }


def run_node_inline_lowercase(texts) -> str:
    """toLowerCase of each text, by node."""
    program = (
        "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>"
        "process.stdout.write(JSON.stringify(JSON.parse(s).map(t=>t.toLowerCase()))))"
    )
    return subprocess.run(
        ["node", "-e", program], input=json.dumps(list(texts)), capture_output=True, text=True, check=True, timeout=60
    ).stdout


def ranges(sorted_code_points: list[int]) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    for cp in sorted_code_points:
        if out and out[-1][1] == cp - 1:
            out[-1][1] = cp
        else:
            out.append([cp, cp])
    return [(first, last) for first, last in out]


def render(table: dict) -> str:
    return json.dumps(table, ensure_ascii=True, indent=1) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed table, do not write")
    args = parser.parse_args()
    table = build_table(json.loads(run_node(NODE_SCRIPT)))
    text = render(table)
    if args.check:
        same = TABLE.is_file() and TABLE.read_text(encoding="utf-8") == text
        print("table is up to date" if same else "table differs from a fresh run", file=sys.stderr)
        return 0 if same else 1
    TABLE.write_text(text, encoding="utf-8")
    print(f"wrote {TABLE.relative_to(ROOT)}: {len(table['differences'])} code points differ", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
