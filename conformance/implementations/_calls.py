"""Writing a library's minimal call as a user would: a short program printing its answer as one JSON object
(``Library.call``). Not a library module (its name starts with "_")."""

from __future__ import annotations

import json


def literal(value) -> str:
    """A JSON value as a Python literal (None, True, False written as Python writes them)."""
    return repr(value)


def python(imports: list[str], lines: list[str], answer: str) -> str:
    """A program: its imports, its lines, then ``print(json.dumps(ANSWER))``."""
    return "\n".join(["import json", *imports, "", *lines, f"print(json.dumps({answer}))"]) + "\n"


def js_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)
