"""Libraries that run in a process of their own, asked one JSON line per call. Not a library module (its name
starts with "_").

``LineBridge``: a process started on first use, one request line in and one answer line out, one call at a
time, ended when this interpreter exits; an answer that does not come within its seconds or its bytes ends the
process (the next call starts another) and raises RuntimeError. The npm package bleu-score runs so in Node.js
(npm_bleu_score.py).

``Venv``: a Python library that cannot live in the project's own environment, because it installs a package of
the same name as one the project uses (a fork of sacreBLEU, an old sacreBLEU), runs in a virtual environment of
its own under the user's cache directory (``$XDG_CACHE_HOME``, else ``~/.cache``, then
``mt-metric-conformance/venvs/NAME``), created on demand by the one command ``Venv.create_command`` gives.
``Venv.remote()`` is its top-level module as this process sees it (``Remote``): an attribute is looked up and a
call is made in that environment's Python, which runs this file (``serve``) isolated (``python -I``: neither
the project nor its directory on its path), so that a module written for the library here (sacrebleu.py) can be
given the remote module and run unchanged. A call's arguments are JSON values; its answer comes back as the
JSON value it is, or else as a ``Remote`` holding the object's public attributes that are JSON values (a
score's ``score``, ``counts``, ...), on which a method can be called in turn. An exception the library raises
is raised here as the same built-in exception (another as ``LibraryError`` naming its type), caused by a
``RemoteTraceback`` holding the library's traceback: a crash of the library is its answer, not the bridge's.
"""

from __future__ import annotations

import atexit
import json
import os
import selectors
import shlex
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

CACHE_DIRECTORY = "mt-metric-conformance"  # under $XDG_CACHE_HOME (else ~/.cache)
SHELL_CACHE = '"${XDG_CACHE_HOME:-$HOME/.cache}"'  # the same directory, as a shell line writes it
PYTHON_ANSWER_SECONDS = 30.0  # the first call waits for the interpreter and the library's import too
PYTHON_ANSWER_BYTES = 1 << 20  # an answer is a score object's fields: lists as long as the n-gram orders
MADE_OBJECTS = 64  # objects the remote side keeps, by the path that made them (metric objects, reused)
MADE_KEY_CHARS = 10_000  # a path longer than this (a call on a whole corpus) is not kept


class LineBridge:
    """A process answering one JSON line per JSON line: started on first use, one call at a time."""

    def __init__(
        self, command: list[str], name: str, cwd: Path | None = None, seconds: float = 10.0, size: int = 4096
    ) -> None:
        self.command, self.name, self.cwd, self.seconds, self.size = command, name, cwd, seconds, size
        self._process: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        atexit.register(self.close)

    def ask(self, request: dict) -> dict:
        """The answer line to the request, as JSON (RuntimeError when none comes)."""
        with self._lock:
            process = self._process
            if process is None or process.poll() is not None:
                process = self._process = subprocess.Popen(
                    self.command,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    cwd=self.cwd,
                )
            assert process.stdin is not None and process.stdout is not None  # both piped above
            try:
                process.stdin.write(json.dumps(request).encode("utf-8") + b"\n")
                process.stdin.flush()
            except OSError:
                self.close()
                raise RuntimeError(f"{self.name} exited") from None
            return json.loads(self._read_line(process.stdout))

    def _read_line(self, stdout: IO[bytes]) -> bytes:
        """One answer line, within ``seconds`` and ``size`` (the process is ended otherwise)."""
        line = b""
        with selectors.DefaultSelector() as selector:
            selector.register(stdout, selectors.EVENT_READ)
            while not line.endswith(b"\n"):
                if not selector.select(self.seconds) or len(line) > self.size:
                    self.close()
                    raise RuntimeError(f"{self.name} gave no answer line in time")
                chunk = os.read(stdout.fileno(), self.size)
                if not chunk:
                    self.close()
                    raise RuntimeError(f"{self.name} exited")
                line += chunk
        return line

    def close(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        self._process = None


# --- a Python library in a virtual environment of its own -----------------------------------------------------


def cache_directory() -> Path:
    """Where the virtual environments are: $XDG_CACHE_HOME (else ~/.cache)/mt-metric-conformance/venvs."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / CACHE_DIRECTORY / "venvs"


class Venv:
    """A virtual environment holding one library (``requirement``, a pinned pip requirement), whose top-level
    module ``module`` is asked through ``remote()``."""

    def __init__(self, name: str, requirement: str, module: str) -> None:
        self.name, self.requirement, self.module = name, requirement, module
        self.distribution = requirement.partition("==")[0]
        self._remote: Remote | None = None

    @property
    def path(self) -> Path:
        return cache_directory() / self.name

    @property
    def python(self) -> Path:
        return self.path / ("Scripts/python.exe" if os.name == "nt" else "bin/python")

    def create_command(self) -> str:
        """The shell command that creates it with this interpreter, and installs the library."""
        path, python = shlex.quote(str(self.path)), shlex.quote(str(self.python))
        return f"{shlex.quote(sys.executable)} -m venv {path} && {python} -m pip install -q {self.requirement}"

    def shell_python(self) -> str:
        """Its interpreter as a shell line writes it, wherever the cache directory is."""
        return f"{SHELL_CACHE}/{CACHE_DIRECTORY}/venvs/{self.name}/bin/python"

    def shell_call(self, writer: Callable[[dict], str]) -> Callable[[dict], str]:
        """A writer of a Python program calling the library (``Library.call``) as a shell line running it with
        this environment's interpreter, isolated (the project's directory is not on its path)."""

        def write(payload: dict) -> str:
            return f"{self.shell_python()} -I -c {shlex.quote(writer(payload))}"

        return write

    def install_hint(self) -> str:
        """How to create it, as the documentation says it (the same as create_command)."""
        directory = f"{SHELL_CACHE}/{CACHE_DIRECTORY}/venvs/{self.name}"
        return f"python3 -m venv {directory} && {directory}/bin/python -m pip install {self.requirement}"

    def create(self) -> subprocess.CompletedProcess:
        """Create it (``create_command``); the pip's output is returned, not printed."""
        return subprocess.run(self.create_command(), shell=True, capture_output=True, text=True, check=False)

    def version(self) -> str:
        """The library's version installed there ("" when it is not), read from its metadata without running it."""
        import importlib.metadata

        sites = [str(site) for site in self.path.glob("lib/python*/site-packages")] + [
            str(self.path / "Lib" / "site-packages")
        ]
        for found in importlib.metadata.distributions(name=self.distribution, path=sites):
            return found.version
        return ""

    def missing(self) -> str:
        """What is not there ("" when the environment holds the library)."""
        if self.python.is_file() and self.version():
            return ""
        return f"not installed: {self.requirement} has no virtual environment at {self.path}; create it with: " + (
            self.create_command()
        )

    def remote(self) -> Remote:
        """The library's top-level module in that environment (its process started on the first call)."""
        if self._remote is None:
            bridge = LineBridge(
                [str(self.python), "-I", str(Path(__file__).resolve()), self.module],
                f"the bridge to {self.requirement}",
                seconds=PYTHON_ANSWER_SECONDS,
                size=PYTHON_ANSWER_BYTES,
            )
            self._remote = Remote(bridge, (), None, self.module)
        return self._remote


class LibraryError(Exception):
    """An exception of the remote library whose type is not a built-in one (its type's name first)."""


class RemoteTraceback(Exception):
    """The library's own traceback, in the process where it ran (the cause of the exception raised here)."""

    def __str__(self) -> str:
        return "\n" + str(self.args[0]) if self.args else ""


def raised(found: dict) -> Exception:
    """The exception the library raised, as this process raises it."""
    import builtins

    kind = getattr(builtins, found["type"], None)
    message = found.get("message", "")
    if isinstance(kind, type) and issubclass(kind, Exception) and found.get("builtin"):
        try:
            exception = kind(message)
        except Exception:  # noqa: BLE001 - a built-in that takes other arguments (UnicodeDecodeError)
            exception = LibraryError(f"{found['type']}: {message}")
    else:
        exception = LibraryError(f"{found['type']}: {message}")
    exception.__cause__ = RemoteTraceback(found.get("traceback", ""))
    return exception


class Remote:
    """An object of the library's process: its attributes looked up, its calls made there (see the module's
    docstring). ``attributes`` are the JSON-valued public attributes it had when it was made (None for a path
    not yet made, a module or a class)."""

    __slots__ = ("_bridge", "_path", "_attributes", "_type")

    def __init__(self, bridge: LineBridge, path: tuple, attributes: dict | None, type_name: str) -> None:
        self._bridge, self._path, self._attributes, self._type = bridge, path, attributes, type_name

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if self._attributes is not None and name in self._attributes:
            return self._attributes[name]
        return Remote(self._bridge, (*self._path, ("attr", name)), None, name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        path = (*self._path, ("call", list(args), kwargs))
        answer = self._bridge.ask({"path": [list(step) for step in path]})
        if "raised" in answer:
            raise raised(answer["raised"])
        if "error" in answer:
            raise RuntimeError(f"{self._bridge.name}: {answer['error']}")
        if "value" in answer:
            return answer["value"]
        return Remote(self._bridge, path, answer["attributes"], answer["object"])

    def __repr__(self) -> str:
        return f"<remote {self._type}>"


# --- the other end: run by the environment's Python as `python -I _bridge.py MODULE` ----------------------------


def _plain(value: Any) -> Any:
    """A value JSON cannot write as it is, as one it can where it is a number or array of another library."""
    for method in ("tolist", "item"):
        if callable(getattr(value, method, None)):
            return getattr(value, method)()
    raise TypeError(type(value).__name__)


def _json(value: Any) -> str | None:
    try:
        return json.dumps(value, default=_plain)
    except (TypeError, ValueError, RecursionError):
        return None


def _answer(value: Any) -> dict:
    written = _json(value)
    if written is not None:
        return {"value": json.loads(written)}
    attributes = {}
    for name in dir(value):
        if name.startswith("_"):
            continue
        try:
            attribute = getattr(value, name)
        except Exception:  # noqa: BLE001 - a property that fails is not an attribute to report
            continue
        written = None if callable(attribute) else _json(attribute)
        if written is not None:
            attributes[name] = json.loads(written)
    return {"object": type(value).__name__, "attributes": attributes}


def _evaluate(root: Any, path: list, made: dict) -> Any:
    value = root
    for k, step in enumerate(path):
        key = json.dumps(path[: k + 1])
        if k < len(path) - 1 and key in made:
            value = made[key]
            continue
        value = getattr(value, step[1]) if step[0] == "attr" else value(*step[1], **step[2])
        if k < len(path) - 1 and step[0] == "call" and len(key) <= MADE_KEY_CHARS:
            if len(made) >= MADE_OBJECTS:
                made.clear()
            made[key] = value
    return value


def serve(module_name: str) -> None:
    """Answer each request line ({"path": [["attr", NAME] | ["call", ARGS, KWARGS], ...]}) with one line: {"value":
    JSON}, {"object": TYPE, "attributes": {...}}, {"raised": {"type", "builtin", "message", "traceback"}} or
    {"error": MESSAGE} (the request or the import failed). What the library prints goes to stderr."""
    import builtins
    import importlib
    import traceback

    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        root, failure = importlib.import_module(module_name), ""
    except Exception as exc:  # noqa: BLE001 - said in every answer
        root, failure = None, f"cannot import {module_name}: {type(exc).__name__}: {exc}"
    made: dict[str, Any] = {}
    for line in sys.stdin.buffer:
        try:
            path = json.loads(line)["path"]
            answer = {"error": failure} if failure else _answer(_evaluate(root, path, made))
        except Exception as exc:  # noqa: BLE001 - the library's exception is its answer
            kind = type(exc)
            answer = {
                "raised": {
                    "type": kind.__name__,
                    "builtin": getattr(builtins, kind.__name__, None) is kind,
                    "message": str(exc),
                    "traceback": traceback.format_exc(),
                }
            }
        answers.write(json.dumps(answer).encode("utf-8") + b"\n")
        answers.flush()


if __name__ == "__main__":
    serve(sys.argv[1])
