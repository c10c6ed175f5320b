"""``cmd:`` with ``{input}``: a client that reads its input from a file is tested as published.

The client below has the command line of a published file-based client (``run TOOL VERSION
--input FILE --base-url URL``) and ignores its stdin: it answers only if the harness gave
it a file holding the case's input. It logs the path it was given, so the tests can check
that the file is gone after the call, whatever the call ended in.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import tempfile
import textwrap

import pytest

from conformance.cli import main
from conformance.targets import make_target

PYTHON = shlex.quote(sys.executable)
BLEU, VERSION = "bleu-corpus-compute", "1.0.0"
# The contract's first example: a perfect match, bleu 1.
EXAMPLE = {"hypotheses": [["this", "is", "a", "test"]], "references": [[["this", "is", "a", "test"]]]}

FILE_CLIENT = """
    import argparse, json, sys, time

    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["run"])
    parser.add_argument("tool")
    parser.add_argument("version")
    parser.add_argument("--input", required=True)
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--log")
    parser.add_argument("--hang", action="store_true")
    args = parser.parse_args()
    if args.log:
        with open(args.log, "a") as log:
            log.write(args.input + "\\n")
    if args.hang:
        time.sleep(300)
    import oracle  # after the log line: a slow import must not look like a client that never started
    with open(args.input, "rb") as file:
        payload = json.load(file)
    try:
        print(json.dumps({"result": oracle.execute(args.tool, args.version, payload)}))
    except oracle.ContractError as exc:
        print(json.dumps(exc.body()))
"""


@pytest.fixture
def client(tmp_path, monkeypatch):
    """The cmd: value running the file client (extra arguments appended); temporary files go to a
    directory whose name holds a space and a quote, so the path must be shell-quoted to arrive."""
    (tmp_path / "client.py").write_text(textwrap.dedent(FILE_CLIENT), encoding="utf-8")
    temp = tmp_path / "temp dir's"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))

    def spec(*extra: str) -> str:
        line = (
            f"{PYTHON} {shlex.quote(str(tmp_path / 'client.py'))} run {{tool}} {{version}} --input {{input}} "
            f"--base-url http://127.0.0.1:9/unused"
        )
        return "cmd:" + " ".join([line, *extra])

    return spec


def logged_paths(tmp_path) -> list[str]:
    return (tmp_path / "paths.log").read_text(encoding="utf-8").splitlines()


def test_the_client_reads_the_input_from_a_file_that_is_removed_afterwards(client, tmp_path):
    target = make_target(client("--log", shlex.quote(str(tmp_path / "paths.log"))))
    answer = target.call(BLEU, VERSION, EXAMPLE)
    assert answer.kind == "result" and answer.result["matches"] == [4, 3, 2, 1], answer
    rejection = target.call(BLEU, VERSION, {"hypotheses": [["a"]]})
    assert (rejection.kind, rejection.error_code) == ("rejection", "invalid_input")
    paths = logged_paths(tmp_path)
    assert len(paths) == 2 and all(path.startswith(str(tmp_path / "temp dir's")) for path in paths)
    assert not any((tmp_path / "temp dir's").iterdir()), "each input file is removed after its call"


def test_the_input_file_is_removed_after_a_timeout_too(client, tmp_path):
    target = make_target(client("--log", shlex.quote(str(tmp_path / "paths.log")), "--hang"), timeout=1)
    response = target.call(BLEU, VERSION, EXAMPLE)
    assert response.kind == "transport_error" and "timed out" in response.detail
    assert len(logged_paths(tmp_path)) == 1, "the client was started with its file"
    assert not any((tmp_path / "temp dir's").iterdir())


def test_the_reproduce_line_writes_the_file_and_runs_the_client(client, tmp_path):
    line = make_target(client()).reproduce_hint(BLEU, VERSION, EXAMPLE)
    out = subprocess.run(line, shell=True, capture_output=True, text=True, timeout=60).stdout
    assert json.loads(out)["result"]["bleu"] == 1


def test_a_run_of_the_file_client_passes(client, tmp_path, monkeypatch, capfd):
    monkeypatch.chdir(tmp_path)
    code = main(
        [
            "run",
            "--target",
            client(),
            "--tools",
            BLEU,
            "--fixtures-only",
            "-k",
            "contract-example-2",
            "--report-dir",
            "out",
        ]
    )
    out, err = capfd.readouterr()
    assert code == 0, out + err
    record = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert record["totals"]["passed"] == len(record["results"]) == 1
