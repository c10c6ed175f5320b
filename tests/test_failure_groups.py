"""Failures explained by cause (issue 13): grouped, tied to the contract clause, known divergences named.

Expected values come from the contracts (their semantics lines, read from the contract files), hand
computation written out here, or the libraries themselves (NLTK, sacreBLEU): never from the code
under test. The end-to-end tests run ``conformance run`` against faulty implementations with two
causes each (tests/faulty_causes/) and check one group per cause, as a user would read the reports.
"""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
import warnings
from pathlib import Path

import pytest

import oracle
from conformance.compare import check
from conformance.compare.clause import output_clause, rejection_clause
from conformance.compare.verdict import compare_output
from conformance.crosscheck.catalogue import explaining_failure
from conformance.model import Case, CaseResult, Expectation, TargetResponse
from conformance.reports.failures import result_text
from oracle.value_clauses import ValueClause

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent
CORPUS = "bleu-corpus-compute"
V = "1.0.0"


def contract_line(tool_id: str, number: int) -> str:
    """Semantics line ``number`` (1-based), read from the contract file itself."""
    return json.loads((ROOT / "contracts" / tool_id / f"{V}.json").read_text(encoding="utf-8"))["semantics"][number - 1]


def corpus_output(**fields) -> dict:
    return {"max_order": 4, **fields}


# ---------------------------------------------------------------- the telling difference first (item 3)

# hypothesis "a b" against reference "a b", max_order 4 (hand computation): unigrams 2/2, bigrams 1/1,
# no trigram or 4-gram (l_3 = l_4 = 0, so m_3 = m_4 = 0): bleu exactly 0 by semantics 5; c = r = 2, bp 1.
TWO_TOKENS = {"hypotheses": [["a", "b"]], "references": [[["a", "b"]]]}
TWO_TOKENS_OUTPUT = corpus_output(
    bleu=0.0, brevity_penalty=1.0, candidate_length=2, reference_length=2, matches=[2, 1, 0, 0], totals=[2, 1, 0, 0]
)


def test_a_score_that_does_not_follow_from_the_targets_own_statistics_is_named_first():
    """NLTK: totals floored at 1 AND a tiny positive bleu. With the target's own totals [2, 1, 1, 1] and
    matches [2, 1, 0, 0] the contract's bleu is still exactly 0 (m_3 = 0): the bleu is wrong by itself."""
    actual = {**TWO_TOKENS_OUTPUT, "totals": [2, 1, 1, 1], "bleu": 1.2e-77}
    first = compare_output(oracle.tool(CORPUS, V), TWO_TOKENS, TWO_TOKENS_OUTPUT, actual)
    assert first.pointer == "/bleu" and first.expected == 0.0 and first.actual == 1.2e-77


def test_a_score_made_from_wrong_statistics_yields_to_them():
    """4 tokens copied from the reference: m = l = [4, 3, 2, 1], bleu 1. A target counting l_1 = 5 and
    computing bleu = exp(ln(4/5) / 4) from it is consistent: the wrong count is the telling difference."""
    payload = {"hypotheses": [["a", "b", "c", "d"]], "references": [[["a", "b", "c", "d"]]]}
    expected = corpus_output(
        bleu=1.0, brevity_penalty=1.0, candidate_length=4, reference_length=4, matches=[4, 3, 2, 1], totals=[4, 3, 2, 1]
    )
    actual = {**expected, "totals": [5, 3, 2, 1], "bleu": math.exp(math.log(4 / 5) / 4)}
    assert compare_output(oracle.tool(CORPUS, V), payload, expected, actual).pointer == "/totals/0"


def test_a_wrong_brevity_penalty_comes_before_the_bleu_made_from_it():
    """c = 1, r = 2, max_order 1, the token matches: bp = exp(1 - 2/1) = e^-1, bleu = bp * 1/1 = e^-1.
    A target with exp(1 - c/r) = e^0.5 (and bleu = e^0.5) is wrong in bp first."""
    payload = {"hypotheses": [["a"]], "references": [[["a", "b"]]], "max_order": 1}
    expected = {
        "bleu": math.exp(-1),
        "brevity_penalty": math.exp(-1),
        "candidate_length": 1,
        "reference_length": 2,
        "max_order": 1,
        "matches": [1],
        "totals": [1],
    }
    actual = {**expected, "bleu": math.exp(0.5), "brevity_penalty": math.exp(0.5)}
    assert compare_output(oracle.tool(CORPUS, V), payload, expected, actual).pointer == "/brevity_penalty"


# ---------------------------------------------------------------- the clause a failure breaks (item 2)


def test_a_differing_count_names_the_semantics_line_defining_it():
    clause = output_clause(oracle.tool(CORPUS, V), TWO_TOKENS, "/totals/2")
    assert (clause.kind, clause.number, clause.text) == ("semantics", 2, contract_line(CORPUS, 2))


@pytest.mark.parametrize("tool", oracle.tools(), ids=lambda tool: tool.label)
def test_every_clause_a_tool_lists_names_its_field(tool):
    """Tool.clauses is written by hand: each line it lists must name the field it defines (a key of the
    pointer, underscores read as spaces, any case), and a (line, option) pair its option."""
    for pointer, entry in tool.clauses.items():
        keys = [key.replace("_", " ") for key in pointer.split("/") if key and key != "*"]
        entry = entry.lines if isinstance(entry, ValueClause) else entry  # every line it may choose
        for item in entry if isinstance(entry, tuple) else (entry,):
            number, option = (item, None) if isinstance(item, int) else item
            line = contract_line(tool.id, number).replace("_", " ").lower()
            assert any(key in line for key in keys), (pointer, number)
            assert option is None or option in line, (pointer, number, option)


def test_decimals_name_a_line_only_where_the_value_settles_which():
    tool = oracle.tool(CORPUS, V)
    rounded = {**TWO_TOKENS, "decimals": 4}
    assert output_clause(tool, TWO_TOKENS, "/bleu").number == 5  # no decimals: the formula alone
    assert output_clause(tool, rounded, "/bleu").kind == "unattributed"  # the formula or the rounding
    assert output_clause(tool, rounded, "/bleu", option_settled=True).number == 6
    assert output_clause(tool, rounded, "/bleu", option_settled=False).number == 5


def test_a_chrf_score_is_unattributed():
    """A chrF score depends on every semantics line (n-grams, whitespace, averaging, rounding)."""
    assert (
        output_clause(oracle.tool("chrf-compute", V), {"hypotheses": ["a"], "references": ["a"]}, "/score").kind
        == "unattributed"
    )


@pytest.mark.parametrize(
    "payload, kind, name",
    [
        # 129 bytes in 65 code points (two-byte é): under the schema's maxLength 128, over max_token_bytes 128
        ({"hypotheses": [["é" * 64 + "a"]], "references": [[["a"]]]}, "limit", "max_token_bytes"),
        ({"hypotheses": [["a"]], "references": [[["a"]]], "max_order": 9}, "schema", "input_schema /max_order maximum"),
        (
            {"hypotheses": [["a"]], "references": [[["a"]]], "smoothing": "none"},
            "schema",
            "input_schema / additionalProperties",
        ),
        ({"hypotheses": [["a"], ["b"]], "references": [[["a"]]]}, "semantics", "equal segment counts"),
    ],
)
def test_a_rejection_names_the_rule_that_rejects(payload, kind, name):
    clause = rejection_clause(oracle.tool(CORPUS, V), payload)
    assert (clause.kind, clause.name) == (kind, name)


def test_an_over_rejection_names_the_clause_its_fixture_was_written_for():
    """fixtures/bleu-corpus-compute/1.0.0/closest-reference.json#tie-goes-to-shorter has the source
    "semantics 3: reference_length r sums ..."; a generated case has no such source."""
    from conformance.compare.signature import explain

    def rejected(case_id: str, origin: str) -> dict:
        case = Case(CORPUS, V, case_id, origin, "valid", TWO_TOKENS, Expectation("output"))
        response = TargetResponse("rejection", error_code="invalid_input")
        return json.loads(json.dumps(CaseResult(case, "failed", "rejected", None, response).to_dict()))

    fixture = explain(rejected(f"{CORPUS}/{V}/closest-reference#tie-goes-to-shorter", "fixture"))
    assert (fixture.kind, fixture.clause.number, fixture.clause.text) == (
        "rejected a valid input",
        3,
        contract_line(CORPUS, 3),
    )
    assert explain(rejected(f"generated/{CORPUS}/valid/x/1", "generated")).clause.kind == "unattributed"


def test_a_pathological_input_still_gets_a_signature():
    """The keep-going run asks for the signature of every failure: a deeply nested input must not break it."""
    from conformance.compare.signature import failure_signature

    deep: list = []
    for _ in range(3_000):
        deep = [deep]
    case = Case(
        CORPUS,
        V,
        f"generated/{CORPUS}/invalid/x/1",
        "generated",
        "invalid",
        {"hypotheses": deep, "references": [[["a"]]]},
        Expectation("error", "invalid_input"),
    )
    signature = failure_signature(CaseResult(case, "failed", "answered", None, TargetResponse("result", result={})))
    assert signature[0] == CORPUS


# ---------------------------------------------------------------- divergences: one catalogue, two uses


def nltk_corpus_bleu(payload: dict) -> float:
    from nltk.translate.bleu_score import corpus_bleu

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return corpus_bleu(payload["references"], payload["hypotheses"])


def test_a_divergence_is_named_only_where_the_library_answers_what_the_target_did():
    nltk = nltk_corpus_bleu(TWO_TOKENS)  # NLTK itself: (2/2 * 1/1 * 2.2e-308 * 2.2e-308) ** (1/4) > 0
    assert nltk > 0
    # a target answering the score alone: NLTK's orders 3 and 4 are 0/1 (its denominators), floored
    named = explaining_failure(CORPUS, TWO_TOKENS, "/bleu", {"bleu": nltk})
    assert named is not None and named.id == "missing-order-denominator-one + zero-precision-floor"
    # another tiny positive score (an epsilon smoothing, say) is not NLTK's: no "looks like"
    assert explaining_failure(CORPUS, TWO_TOKENS, "/bleu", {"bleu": nltk * 1.5}) is None
    # NLTK's score beside the contract's totals: the denominators it needs would change the totals, which the
    # answer does not show, so no model reproduces the whole answer
    assert explaining_failure(CORPUS, TWO_TOKENS, "/bleu", {**TWO_TOKENS_OUTPUT, "bleu": nltk}) is None
    # NLTK's denominators are max(1, count): totals [2, 1, 1, 1] for "a b", and its bleu made from them
    nltk_answer = {**TWO_TOKENS_OUTPUT, "totals": [2, 1, 1, 1], "bleu": nltk}
    # NLTK's whole answer shows two mechanisms at once: the denominators 1 and the floor of its zero precisions
    floored = explaining_failure(CORPUS, TWO_TOKENS, "/totals/2", nltk_answer)
    assert floored is not None and floored.id == "missing-order-denominator-one + zero-precision-floor"
    assert floored.fields == ("bleu", "totals")
    assert explaining_failure(CORPUS, TWO_TOKENS, "/totals/2", {**nltk_answer, "totals": [2, 1, 1, 2]}) is None
    # the denominators alone leave the unsmoothed score 0 (an order has no match): totals [2, 1, 1, 1] beside the
    # contract's bleu 0 is that one mechanism
    alone = explaining_failure(CORPUS, TWO_TOKENS, "/totals/2", {**TWO_TOKENS_OUTPUT, "totals": [2, 1, 1, 1]})
    assert alone is not None and alone.id == "missing-order-denominator-one" and alone.fields == ("totals",)


def test_sacrebleus_brevity_penalty_of_empty_lengths_is_recognised():
    """c = r = 0: the contract's bp is 0 (semantics 4); sacreBLEU keeps its initial 1.0."""
    from sacrebleu.metrics import BLEU

    empty = {"hypotheses": [[]], "references": [[[]]]}
    library = BLEU(tokenize="none", smooth_method="none").corpus_score([""], [[""]]).bp
    output = corpus_output(
        bleu=0.0,
        brevity_penalty=library,
        candidate_length=0,
        reference_length=0,
        matches=[0, 0, 0, 0],
        totals=[0, 0, 0, 0],
    )
    assert explaining_failure(CORPUS, empty, "/brevity_penalty", output).id == "brevity-penalty-one-when-both-empty"
    assert explaining_failure(CORPUS, empty, "/brevity_penalty", {**output, "brevity_penalty": 0.5}) is None


def test_sentence_divergences_are_recognised_by_the_libraries_own_answers():
    """bleu-sentence-compute, hypothesis "a b c" against "a b d" (hand computation): unigrams 2/3,
    bigrams 1/2 ("a b"), no trigram match (0/1), no 4-gram (l_4 = 0). NLTK's method0 gives a tiny
    positive score; sacreBLEU's add-k reports m_n + 1 and l_n + 1 for n >= 2."""
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
    from sacrebleu.metrics import BLEU

    tool = "bleu-sentence-compute"
    unsmoothed = {"hypothesis": ["a", "b", "c"], "references": [["a", "b", "d"]], "smoothing": "none"}
    expected = oracle.execute(tool, V, unsmoothed)
    assert (expected["matches"], expected["totals"], expected["bleu"]) == ([2, 1, 0, 0], [3, 2, 1, 0], 0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nltk = sentence_bleu(
            unsmoothed["references"], unsmoothed["hypothesis"], smoothing_function=SmoothingFunction().method0
        )
    # NLTK's whole answer: its totals max(1, l_n) = [3, 2, 1, 1] and the floor of p_3 = 0/1 and p_4 = 0/1
    nltk_answer = {**expected, "totals": [3, 2, 1, 1], "bleu": nltk}
    assert explaining_failure(tool, unsmoothed, "/totals/3", nltk_answer).id == (
        "missing-order-denominator-one + zero-precision-floor"
    )
    # where every order has n-grams, the floor alone: "a b c d" against "a b c e", p_4 = 0/1 floored
    four = {"hypothesis": ["a", "b", "c", "d"], "references": [["a", "b", "c", "e"]], "smoothing": "none"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        floored = sentence_bleu(four["references"], four["hypothesis"], smoothing_function=SmoothingFunction().method0)
    assert explaining_failure(tool, four, "/bleu", {**oracle.execute(tool, V, four), "bleu": floored}).id == (
        "zero-precision-floor"
    )
    add_k = {**unsmoothed, "smoothing": "chen-cherry-2"}
    score = BLEU(tokenize="none", smooth_method="add-k", smooth_value=1, effective_order=False).sentence_score(
        "a b c", ["a b d"]
    )
    smoothed = {**oracle.execute(tool, V, add_k), "matches": list(score.counts), "totals": list(score.totals)}
    assert (smoothed["matches"], smoothed["totals"]) == ([2, 2, 1, 1], [3, 3, 2, 1])
    assert explaining_failure(tool, add_k, "/matches/1", smoothed).id == "add-k-reported-in-counts"
    # a field the entry cannot change is never explained by it, whatever the library answers there
    empty = {"hypothesis": [], "references": [[]], "smoothing": "none"}
    assert explaining_failure(tool, empty, "/bleu", {**oracle.execute(tool, V, empty), "bleu": 0.0}) is None


# ---------------------------------------------------------------- rendering defects (item 6)


def judged(payload: dict, result, tool_id: str = CORPUS) -> CaseResult:
    case = Case(tool_id, V, f"{tool_id}/{V}/t#x", "fixture", "valid", payload, Expectation("output"))
    response = TargetResponse("result", result=result)
    verdict = check(case, response)
    return CaseResult(case, verdict.outcome, verdict.message, verdict.mismatch, response)


def test_a_schema_violation_names_keyword_and_value_in_plain_words():
    text = result_text(judged(TWO_TOKENS, {**TWO_TOKENS_OUTPUT, "bleu": 1.5}))
    assert "/bleu is 1.5, more than the maximum 1" in text
    assert 'expected: {"maximum":1}' in text and "maximum:␣" not in text


def test_json_null_is_shown_as_null():
    """A null where the schema wants a number: the text speaks JSON, never Python's None."""
    text = result_text(judged(TWO_TOKENS, {**TWO_TOKENS_OUTPUT, "bleu": None}))
    assert "must be a number, got null" in text and "None" not in text


def test_a_command_reproduce_line_is_not_labelled_curl():
    from conformance.reports.failures import failure_view

    result = judged(TWO_TOKENS, {**TWO_TOKENS_OUTPUT, "bleu": 0.5})
    result.curl = "printf '%s' '{}' | my-tool bleu-corpus-compute 1.0.0"
    entry = json.loads(json.dumps(result.to_dict()))
    labels = [block.label for block in failure_view(1, entry, {}).blocks]
    assert "curl" not in labels and "shell" in labels


def test_an_in_process_traceback_keeps_the_frame_that_raised():
    from conformance.targets.inprocess import InProcessTarget

    def raising():
        raise ZeroDivisionError("the frame that raised")

    def handling(*_):
        try:
            raise ValueError("a long first exception " + "x" * 5_000)
        except ValueError:
            raising()  # "During handling of the above exception": the traceback ends with this frame

    response = InProcessTarget("python:t", handling).call(CORPUS, V, TWO_TOKENS)
    assert response.raw.rstrip().endswith("ZeroDivisionError: the frame that raised")
    assert 'raise ZeroDivisionError("the frame that raised")' in response.raw
    assert len(response.raw) <= 2_100 and "chars cut" in response.raw  # bounded: the middle frames are cut


def frames(depth: int, then):
    """``then()`` called under ``depth`` distinct frames (a traceback shows each; a recursion it would fold)."""
    scope: dict = {"then": then}
    for level in range(depth):
        exec(
            f"def frame_{level}_of_a_long_call_chain():\n    return {f'frame_{level - 1}_of_a_long_call_chain' if level else 'then'}()",
            scope,
        )
    return scope[f"frame_{depth - 1}_of_a_long_call_chain"]()


def test_an_in_process_traceback_keeps_the_end_of_its_cause_too():
    """A library run in another process raises there; here its traceback is the cause of the exception raised
    (conformance/implementations/_bridge.py). Both ends stay: the library's frame that raised, under deep frames
    of its own, and this side's last frame, under deep frames too (a long checkout path makes them long)."""
    from conformance.targets.inprocess import InProcessTarget

    def library():
        raise IndexError("the library's own frame")

    def raising_here(cause):
        raise RuntimeError("raised here") from cause

    def here(*_):
        try:
            frames(25, library)
        except IndexError as cause:
            frames(25, lambda cause=cause: raising_here(cause))

    response = InProcessTarget("python:t", here).call(CORPUS, V, TWO_TOKENS)
    assert 'raise IndexError("the library\'s own frame")' in response.raw
    assert "IndexError: the library's own frame" in response.raw
    assert "The above exception was the direct cause of the following exception" in response.raw
    assert response.raw.rstrip().endswith("RuntimeError: raised here")
    assert len(response.raw) <= 2_100 and "chars cut" in response.raw


# ---------------------------------------------------------------- checked like a user would (item 7)


def run_against(tmp_path: Path, module: str, *options: str) -> dict:
    """``conformance run`` against tests/faulty_causes/<module>; the report.json it writes."""
    import sys

    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "conformance",
            "run",
            "--target",
            f"python:faulty_causes.{module}",
            "--tools",
            CORPUS,
            "--seed",
            "1",
            "--report-dir",
            "out",
            *options,
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env={**__import__("os").environ, "PYTHONPATH": f"{TESTS}{__import__('os').pathsep}{ROOT}"},
    )
    assert completed.returncode == 1, completed.stdout[-3000:] + completed.stderr[-3000:]
    return json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8")) | {"_console": completed.stdout}


@pytest.fixture(scope="module")
def nltk_run(tmp_path_factory) -> tuple[Path, dict]:
    directory = tmp_path_factory.mktemp("nltk-like")
    return directory, run_against(directory, "nltk_like", "--profile", "quick")


def by_cause(groups: list[dict]) -> dict[tuple[str, str], dict]:
    """The groups by (pointer class, divergence id): each cause once."""
    found = {(group["pointer_class"], (group["divergence"] or {}).get("id", "")): group for group in groups}
    assert len(found) == len(groups), [group["title"] for group in groups]
    return found


FLOOR, DENOMINATOR = "zero-precision-floor", "missing-order-denominator-one"


@pytest.mark.slow  # a whole run of a library-like target (nltk_run)
def test_an_nltk_like_implementation_shows_one_group_per_cause(nltk_run):
    """NLTK's two mechanisms: the denominators max(1, l_n) (totals of 1 for a missing order) and the floor of a
    zero precision. A score on an input with a missing order shows both at once (the floor of 0 / 1): that case
    names both, a group of its own beside each mechanism alone."""
    _, document = nltk_run
    groups = by_cause(document["failure_groups"])
    assert set(groups) == {("/bleu", FLOOR), ("/bleu", f"{DENOMINATOR} + {FLOOR}"), ("/totals/*", DENOMINATOR)}
    floor, both, totals = (
        groups["/bleu", FLOOR],
        groups["/bleu", f"{DENOMINATOR} + {FLOOR}"],
        groups["/totals/*", DENOMINATOR],
    )
    for group in (floor, both):
        assert (group["clause"]["number"], group["clause"]["text"]) == (5, contract_line(CORPUS, 5))
    assert floor["divergence"]["explanation"].endswith("(as in NLTK)")
    # ["a"] against ["a"]: orders 2..4 missing, totals 1 each, precisions 0 / 1 floored: a tiny score, not 0
    assert both["smallest"] == {"hypotheses": [["a"]], "references": [[["a"]]]}
    assert (totals["clause"]["number"], totals["clause"]["text"]) == (2, contract_line(CORPUS, 2))
    failing = [r for r in document["results"] if r["outcome"] == "failed"]
    assert sum(group["count"] for group in document["failure_groups"]) == len(failing)
    assert sorted(m for group in document["failure_groups"] for m in group["members"]) == sorted(
        r["case"]["case_id"] for r in failing
    )
    # several generated properties shrink to the same empty input: one group, not one card each
    generated = [m for m in totals["members"] if m.startswith("generated/")]
    assert len({m.rsplit("/", 1)[0] for m in generated}) >= 2
    assert totals["smallest"] == {"hypotheses": [[]], "references": [[[]]]}
    counts = [group["count"] for group in document["failure_groups"]]
    assert counts == sorted(counts, reverse=True)


@pytest.mark.slow  # a whole run of a library-like target (nltk_run)
def test_the_reports_lead_with_the_groups(nltk_run):
    directory, document = nltk_run
    markdown = (directory / "out" / "report.md").read_text(encoding="utf-8")
    assert markdown.index("## Failure groups: 3 causes") < markdown.index("## Run") < markdown.index("## Failures")
    console = document["_console"]
    assert console.index("Failure groups: 3 causes") < console.index("\nfailed · ")
    assert "(as in NLTK) (zero-precision-floor)" in console


def test_an_implementation_with_two_unrelated_bugs_shows_two_groups(tmp_path):
    document = run_against(tmp_path, "two_bugs", "--fixtures-only")
    groups = {
        (group["pointer_class"], group["kind"], (group["divergence"] or {}).get("id")): group
        for group in document["failure_groups"]
    }
    ties, first_listed = ("/reference_length", "wrong value", None), ("/reference_length", "wrong value", FIRST_LISTED)
    assert set(groups) == {ties, first_listed, ("", "answered an invalid input", None)}
    assert (groups[ties]["clause"]["number"], groups[ties]["clause"]["text"]) == (3, contract_line(CORPUS, 3))
    zipped = groups[("", "answered an invalid input", None)]
    assert (zipped["clause"]["kind"], zipped["clause"]["name"]) == ("semantics", "equal segment counts")
    # ties to the longer reference: where the longer is listed first, the answer is exactly what taking the
    # first-listed closest reference gives (that mechanism's model reproduces it); where it is listed second,
    # no catalogued mechanism does
    assert groups[first_listed]["smallest"]["references"] == [[["a", "b", "c", "d"], ["a", "b"]]]
    assert groups[ties]["smallest"]["references"] == [[["a", "b"], ["a", "b", "c", "d"]]]
    # the console explains each cause once: each group's smallest failure in full, the others one line each
    console = document["_console"]
    in_full = re.findall(r"^failed · \S+ · (\S+)$", console, flags=re.MULTILINE)
    assert sorted(in_full) == sorted(group["smallest_case"] for group in document["failure_groups"])
    failing = sum(group["count"] for group in document["failure_groups"])
    assert failing > len(in_full), "a run where some cause has several failures"
    rest = f"{failing - len(in_full)} more failure{'s' if failing - len(in_full) != 1 else ''}, one line each"
    assert rest in console
    after = console.split(rest, 1)[1]
    listed = [line for line in after.splitlines() if line.startswith("  failed: ")]
    assert len(listed) == failing - len(in_full) and not set(in_full) & {line.split(": ")[1] for line in listed}


FIRST_LISTED = "first-listed-closest-reference"


CHROMIUM = next(
    (shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome") if shutil.which(name)), None
)
VIEWPORT = (1400, 900)


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH (apt-get install chromium)")
@pytest.mark.slow  # a whole run of a library-like target (nltk_run)
def test_the_first_screen_of_report_html_shows_the_groups(nltk_run):
    """The browser lays the page out in a 1400x900 window and reports where the first group's title
    is. report.html forbids scripts (its Content-Security-Policy), so the measurement runs on a copy
    without that one meta tag and with a probe script appended: neither changes the layout. The
    title's box must lie inside the first screen (the viewport the browser reports)."""
    directory, _ = nltk_run
    page = (directory / "out" / "report.html").read_text(encoding="utf-8")
    page = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", page, count=1)
    probe = (
        "<script>const t = document.querySelector('.group-title'), b = t.getBoundingClientRect();"
        "document.body.dataset.probe = JSON.stringify({top: b.top, bottom: b.bottom, right: b.right,"
        " width: innerWidth, height: innerHeight, title: t.textContent});</script></body>"
    )
    probed = directory / "probe.html"
    probed.write_text(page.replace("</body>", probe), encoding="utf-8")
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--no-first-run",
        "--hide-scrollbars",
        f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}",
    ]
    dumped = subprocess.run(
        [CHROMIUM, *flags, "--dump-dom", probed.as_uri()], capture_output=True, text=True, timeout=120
    )
    found = re.search(r'data-probe="([^"]*)"', dumped.stdout)
    assert found, dumped.stderr[-2000:]
    box = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    assert box["title"].startswith("G1. ") and "bleu-corpus-compute@1.0.0" in box["title"]
    assert 0 <= box["top"] and box["bottom"] <= box["height"] <= VIEWPORT[1] and box["right"] <= box["width"]
