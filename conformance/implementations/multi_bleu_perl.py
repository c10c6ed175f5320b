"""multi-bleu.perl (Perl, the Moses script, as shipped inside the PyPI package ``nmtpytorch``:
``nmtpytorch/lib/multi-bleu.perl``): ``perl multi-bleu.perl REFERENCE... < HYPOTHESES``.

It reads one segment per line, splits each line on whitespace (Perl's ``split``: on bytes, the ASCII space,
tab, line feed, carriage return, form feed and vertical tab), reference k of every segment from the k-th
reference file, counts clipped n-grams of orders 1 to 4 as the contract does and takes the closest reference
length, ties going to the shorter. It prints one line, ``BLEU = xx.xx, p1/p2/p3/p4 (BP=b.bbb, ratio=x.xxx,
hyp_len=c, ref_len=r)``: BLEU on the percent scale with two decimals, the brevity penalty with three. So it
expresses bleu-corpus-compute (and bleu-sentence-compute, one line, smoothing "none", no effective order)
for max_order 4, every segment with the same number of references and tokens holding none of those
whitespace characters. Its answer is partial: candidate_length and reference_length always (exact
integers); bleu only where the input's ``decimals`` is 4 (its two percent decimals are four on 0..1, rounded
from the exact binary value as toFixed is, so either side of a boundary passes as the judge allows) and
brevity_penalty only where ``decimals`` is 3; any other rounding of its printed digits would be a second
rounding, failing correct answers. The counts are not expressed (it prints percentages with one decimal).

Where it departs: a summed reference length of 0 prints a fixed line of zeros and exits 1, whatever the
hypotheses (zero-reference-length-answers-zeros: hyp_len=0 and BP=0 where the contract's c is the token
count and its brevity penalty 1); and all hypotheses empty against references of some length divides by zero
in exp(1 - r/c) (Perl dies with "Illegal division by zero", raised here as ZeroDivisionError:
empty-candidate-division-by-zero). Its search for the closest reference starts from (distance 9999, length
9999), so a segment whose references all lie more than 9999 tokens from its hypothesis's length counts
r = 9999 (closest-reference-search-seeded-at-9999).

It runs in Perl, one process per call, from a temporary directory holding the files it reads; the script
is found in the installed distribution, never copied. The ``nmtpytorch`` pin is installed without its
dependencies (``pip install --no-deps nmtpytorch==4.0.0``: the script is a file in it, torch is not needed).
"""

from __future__ import annotations

import importlib.metadata
import re
import shutil
import subprocess
import tempfile
from decimal import Decimal
from pathlib import Path

from conformance.crosscheck.adapters.bleu import max_order
from conformance.implementations import Implementation, NotApplicable, Partial
from conformance.implementations._shared import no_chrf, no_effective_order

DISTRIBUTION = "nmtpytorch"
SCRIPT = "nmtpytorch/lib/multi-bleu.perl"  # the script's path inside the distribution
INSTALL = "perl, and pip install --no-deps nmtpytorch==4.0.0 (multi-bleu.perl is a file inside it)"
CALL_SECONDS = 60.0  # one Perl process on at most 50,000 tokens
PERL_WHITESPACE = frozenset(" \t\n\r\f\v")  # what Perl's split skips on a byte string
SCORE_LINE = re.compile(
    r"^BLEU = (?P<bleu>[0-9.]+), [0-9.]+/[0-9.]+/[0-9.]+/[0-9.]+ "
    r"\(BP=(?P<bp>[0-9.]+), ratio=[0-9.]+, hyp_len=(?P<c>[0-9]+), ref_len=(?P<r>[0-9]+)\)$"
)
BLEU_DECIMALS = 4  # its %.2f of 100 * BLEU: four decimals on the 0..1 scale
BP_DECIMALS = 3  # its %.3f of the brevity penalty

IMPLEMENTATION = Implementation(
    name="multi-bleu.perl",
    language="Perl",
    distribution=DISTRIBUTION,
    counterpart="perl multi-bleu.perl reference < hypotheses",
    extra="multi-bleu",
    install=INSTALL,
)

# the mechanisms of conformance/divergences.py it shows (what names its failures)
SHOWS = (
    "zero-reference-length-answers-zeros",
    "empty-candidate-division-by-zero",
    "closest-reference-search-seeded-at-9999",
)

NOT_EXPRESSIBLE_OTHERWISE = (
    "multi-bleu.perl prints the corpus BLEU, its four precisions, the brevity penalty, the length ratio and the "
    "two lengths: no counts, no per-segment answer"
)
NOT_EXPRESSIBLE = no_chrf("multi-bleu.perl")


def script() -> Path | None:
    """multi-bleu.perl in the installed distribution (None when it is not installed)."""
    try:
        distribution = importlib.metadata.distribution(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return None
    path = Path(str(distribution.locate_file(SCRIPT)))
    return path if path.is_file() else None


def library_missing() -> str:
    """What is not installed ("" when Perl and the script are there)."""
    if shutil.which("perl") is None:
        return "not installed: perl"
    return "" if script() is not None else f"not installed: {INSTALL}"


def inexpressible(payload: dict, hypotheses: list, references: list) -> str:
    """Why the script cannot be given this input ("" when it can)."""
    if max_order(payload) != 4:
        return "max_order other than 4: multi-bleu.perl counts the orders 1 to 4"
    if len({len(refs) for refs in references}) > 1:
        return (
            "segments with different numbers of references: multi-bleu.perl reads reference k of every segment "
            "from the k-th reference file"
        )
    tokens = [token for segment in hypotheses for token in segment]
    tokens += [token for refs in references for reference in refs for token in reference]
    if any(PERL_WHITESPACE.intersection(token) for token in tokens):
        return "a token holding ASCII whitespace: multi-bleu.perl splits lines on whitespace"
    return ""


def lines(segments: list) -> bytes:
    """One line per segment, its tokens joined with spaces (UTF-8; a lone surrogate kept as its bytes)."""
    return "".join(" ".join(tokens) + "\n" for tokens in segments).encode("utf-8", "surrogatepass")


def run(hypotheses: list, references: list) -> dict:
    """The script's score line on the files of these segments, read: {"bleu", "bp"} as printed, "c" and "r" as
    integers. ZeroDivisionError where Perl dies dividing by zero, RuntimeError on any other failure."""
    path = script()
    if path is None:
        raise RuntimeError(f"multi-bleu.perl is not installed: {INSTALL}")
    with tempfile.TemporaryDirectory() as directory:
        where = Path(directory)
        (where / "hypotheses.txt").write_bytes(lines(hypotheses))
        names = [f"r{k + 1}.txt" for k in range(len(references[0]))]
        for k, name in enumerate(names):
            (where / name).write_bytes(lines([refs[k] for refs in references]))
        with open(where / "hypotheses.txt", "rb") as stdin:
            finished = subprocess.run(
                ["perl", str(path), *names], stdin=stdin, capture_output=True, cwd=where, timeout=CALL_SECONDS
            )
    stdout = finished.stdout.decode("utf-8", "replace").strip()
    stderr = finished.stderr.decode("utf-8", "replace").strip().replace(str(path), "multi-bleu.perl")
    found = SCORE_LINE.match(stdout)
    if found is None or finished.returncode not in (0, 1):  # 1: its line of zeros for a reference length 0
        if "Illegal division by zero" in stderr:
            raise ZeroDivisionError(f"multi-bleu.perl died: {stderr[-300:]}")
        raise RuntimeError(f"multi-bleu.perl exited {finished.returncode}: {(stderr or stdout)[-300:]}")
    return {"bleu": found["bleu"], "bp": found["bp"], "c": int(found["c"]), "r": int(found["r"])}


def answer(payload: dict, printed: dict) -> Partial:
    """The fields the printed line expresses for this input's ``decimals``."""
    output: dict = {"candidate_length": printed["c"], "reference_length": printed["r"]}
    decimals = payload.get("decimals")
    if decimals == BLEU_DECIMALS:
        output["bleu"] = float(Decimal(printed["bleu"]).scaleb(-2))
    if decimals == BP_DECIMALS:
        output["brevity_penalty"] = float(Decimal(printed["bp"]))
    return Partial(output)


def computed(payload: dict, hypotheses: list, references: list) -> Partial:
    reason = inexpressible(payload, hypotheses, references)
    if reason:
        raise NotApplicable(reason)
    return answer(payload, run(hypotheses, references))


def bleu_corpus_compute(payload: dict) -> Partial:
    return computed(payload, payload["hypotheses"], payload["references"])


def bleu_sentence_compute(payload: dict) -> Partial:
    if payload["smoothing"] != "none":
        raise NotApplicable("smoothing other than none: multi-bleu.perl does not smooth")
    no_effective_order(payload, "multi-bleu.perl")
    return computed(payload, [payload["hypothesis"]], [payload["references"]])


# --- the call a user would write (Library.call; `conformance matrix audit` runs it) -------------------------


CALL_LANGUAGE = "shell"
LOCATE = (
    "python3 -c 'import importlib.metadata as m; "
    'print(m.distribution("nmtpytorch").locate_file("nmtpytorch/lib/multi-bleu.perl"))\''
)
# its score line as JSON: BLEU on the 0..1 scale (its percent / 100), the brevity penalty and the two lengths
AS_JSON = (
    'perl -ne \'printf qq({"bleu": %s, "brevity_penalty": %s, "candidate_length": %d, '
    '"reference_length": %d}\\n), $1 / 100, $2, $3, $4 '
    "if /^BLEU = ([0-9.]+), .*BP=([0-9.]+), .*hyp_len=([0-9]+), ref_len=([0-9]+)\\)/'"
)


def compute_call(payload: dict) -> str:
    """A shell script: the segments written to files in a temporary directory, the script run on them, its line
    printed as JSON; where Perl dies dividing by zero, that said on stderr as the adapter raises it
    (ZeroDivisionError) and exit 1."""
    import shlex

    sentence = "hypothesis" in payload
    hypotheses = [payload["hypothesis"]] if sentence else payload["hypotheses"]
    references = [payload["references"]] if sentence else payload["references"]

    def written(segments: list, name: str) -> str:
        return "printf '%s\\n' " + " ".join(shlex.quote(" ".join(tokens)) for tokens in segments) + f" > {name}"

    names = [f"r{k + 1}.txt" for k in range(len(references[0]))]
    lines = [
        f'script="$({LOCATE})"',
        'directory="$(mktemp -d)" && cd "$directory" || exit 1',
        written(hypotheses, "hypotheses.txt"),
        *(written([refs[k] for refs in references], name) for k, name in enumerate(names)),
        f'perl "$script" {" ".join(names)} < hypotheses.txt > printed.txt 2> said.txt  # exit 1 after a line of zeros',
        "if grep -q '^BLEU = ' printed.txt; then",
        f"  {AS_JSON} printed.txt; status=0",
        "elif grep -q 'Illegal division by zero' said.txt; then",
        "  cat said.txt >&2; echo 'ZeroDivisionError: multi-bleu.perl died dividing by zero' >&2; status=1",
        "else",
        "  cat said.txt >&2; status=1",
        "fi",
        'cd / && rm -r "$directory"',
        'exit "$status"',
    ]
    return "\n".join(lines) + "\n"


CALLS = {"bleu_corpus_compute": compute_call, "bleu_sentence_compute": compute_call}
