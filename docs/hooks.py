"""MkDocs hooks: the reference pages, generated from the code when the site is built.

Nothing generated here is committed, so the reference cannot drift from the code:
- reference/cli.md: every option of every command, read from the argparse parser (conformance/cli.py
  and each command's module);
- reference/exit-codes.md: what each command's exit status means, from its help or its module's docstring;
- reference/report.md, reference/matrix.md, reference/schemas.md: every field of report.json, matrix.json
  and the project's own files (the line and command protocols, reproducers, known failures), from their
  JSON Schemas;
- reference/divergences.md: every divergence mechanism a report may name, from conformance/divergences.py;
- the headline table of docs/matrix.md, from the committed reports/compatibility/matrix.json.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "conformance"
MATRIX_MARKER = "<!-- matrix headline table: generated from reports/compatibility/matrix.json by docs/hooks.py -->"

# (page, title, schema files) for the schema reference pages
SCHEMA_PAGES = [
    ("reference/report.md", "report.json", ["report.schema.json"]),
    ("reference/matrix.md", "matrix.json", ["matrix.schema.json"]),
    (
        "reference/schemas.md",
        "Protocols and project files",
        [
            "schemas/jsonl-protocol.schema.json",
            "schemas/command-protocol.schema.json",
            "schemas/reproducer.schema.json",
            "schemas/known-failures.schema.json",
        ],
    ),
]


# ---------------------------------------------------------------- markdown helpers


def inline(text: str) -> str:
    """Text for one markdown table cell: one line, pipes escaped, angle brackets shown outside code spans."""
    text = " ".join(text.split())
    parts = text.split("`")
    for index in range(0, len(parts), 2):  # outside code spans
        parts[index] = parts[index].replace("<", "&lt;").replace(">", "&gt;").replace("*", "\\*")
    return "`".join(parts).replace("|", "\\|")


def code(text: str) -> str:
    """``text`` as a code span (a backtick inside widens the fence; a table cell's pipes may stay in it)."""
    return f"`` {text} ``" if "`" in text else f"`{text}`"


# ---------------------------------------------------------------- the command line


def command_parsers() -> list[tuple[str, argparse.ArgumentParser, str]]:
    """(full command, its parser, the module implementing it) for every command and sub-command."""
    from conformance.cli import COMMANDS, build_parser

    found: list[tuple[str, argparse.ArgumentParser, str]] = []

    def visit(prefix: str, parser: argparse.ArgumentParser, module: str) -> None:
        found.append((prefix, parser, module))
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    visit(f"{prefix} {name}", sub, module)

    for name, module, _help in COMMANDS:
        top = build_parser(name)
        subparsers = next(a for a in top._actions if isinstance(a, argparse._SubParsersAction))
        visit(f"conformance {name}", subparsers.choices[name], module)
    return found


def one_line_helps() -> dict[str, str]:
    """Each (sub-)command's one-line help, as its parent parser lists it."""
    from conformance.cli import COMMANDS, build_parser

    helps = {f"conformance {name}": text for name, _module, text in COMMANDS}
    for name, parser, _module in command_parsers():
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    helps[f"{name} {choice.dest}"] = choice.help or ""
    del build_parser
    return helps


def option_row(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    if action.option_strings:
        names = ", ".join(code(option) for option in action.option_strings)
    else:
        names = code(action.metavar if isinstance(action.metavar, str) else action.dest)
    if action.nargs == 0:
        value = ""
    elif action.choices is not None and not isinstance(action, argparse._SubParsersAction):
        value = " \\| ".join(code(str(choice)) for choice in action.choices)
    elif action.option_strings:
        metavar = action.metavar if isinstance(action.metavar, str) else action.dest.upper()
        value = code(metavar)
    else:
        value = {"?": "optional", "*": "any number", "+": "one or more"}.get(str(action.nargs), "")
    help_text = action.help or ""
    if "%" in help_text:
        help_text = parser._get_formatter()._expand_help(action)
    facts = []
    if action.required and action.option_strings:
        facts.append("required")
    if action.default not in (None, False, "", argparse.SUPPRESS) and action.nargs != 0 and action.option_strings:
        facts.append(f"default {code(str(action.default))}")
    return f"| {names} | {value} | {inline(help_text)} | {', '.join(facts)} |"


def cli_page() -> str:
    from conformance.cli import build_parser

    top = build_parser()
    helps = one_line_helps()
    lines = [
        "# Command-line reference",
        "",
        "Generated from the parser when the site is built: every command, every option, as `--help` gives them.",
        "",
        "```text",
        top.format_usage().strip(),
        "```",
        "",
        inline(top.description or ""),
        "",
        "Options of `conformance` itself: `-h`, `--help` (the commands) and `--version` (the suite's version).",
        "",
    ]
    for name, parser, _module in command_parsers():
        level = "##" if name.count(" ") == 1 else "###"
        lines += [f"{level} `{name}`", ""]
        if helps.get(name):
            lines += [inline(helps[name][0].upper() + helps[name][1:]) + ".", ""]
        lines += ["```text", parser.format_usage().strip(), "```", ""]
        if parser.description:
            lines += [inline(parser.description), ""]
        actions = [
            a
            for a in parser._actions
            if a.help != argparse.SUPPRESS and not isinstance(a, (argparse._HelpAction, argparse._SubParsersAction))
        ]
        subcommands = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if actions:
            lines += ["| option or argument | value | what it does | notes |", "|---|---|---|---|"]
            lines += [option_row(parser, action) for action in actions]
            lines.append("")
        if subcommands:
            names = ", ".join(f"`{choice}`" for choice in subcommands[0].choices)
            lines += [f"Sub-commands: {names} (below).", ""]
        if parser.epilog:
            lines += [inline(parser.epilog), ""]
        lines += ["Exit codes: [by command](exit-codes.md).", ""]
    return "\n".join(lines)


# ---------------------------------------------------------------- exit codes


EXIT_SENTENCE = re.compile(r"\bExit(?: codes)?\b.*?\.(?=\s|$)", re.S)


def module_docstring(module: str) -> str:
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return ""
    return ast.get_docstring(ast.parse(Path(spec.origin).read_text(encoding="utf-8"))) or ""


def exit_sentences(docstring: str) -> list[str]:
    """The sentences of a docstring that say how it exits, each paragraph read on its own."""
    found = []
    for paragraph in docstring.split("\n\n"):
        text = " ".join(paragraph.split()).replace("``", "`")
        found += [s for s in re.split(r"(?<=\.)\s+(?=[A-Z`])", text) if re.search(r"\bexits?\b[^.]*\d", s, re.I)]
    return found


def exit_codes_page() -> str:
    from conformance import cli

    lines = [
        "# Exit codes",
        "",
        "Generated when the site is built: each command's exit codes as its `--help` states them, or else as "
        "the docstring of the module implementing it does.",
        "",
        "Every command: " + inline(" ".join(exit_sentences(cli.__doc__ or ""))),
        "",
        "| command | exit codes | stated in |",
        "|---|---|---|",
    ]
    for name, parser, module in command_parsers():
        text = " ".join(part for part in (parser.description, parser.epilog) if part)
        found = EXIT_SENTENCE.findall(" ".join(text.split()))
        source = "`--help`"
        if not found and " " not in name.removeprefix("conformance ").strip():
            found = exit_sentences(module_docstring(module))
            source = f"`{module}`"
        if not found:
            if any(isinstance(a, argparse._SubParsersAction) for a in parser._actions):
                found, source = ["those of the sub-command (below)"], ""
            else:
                parent = name.rsplit(" ", 1)[0]
                found, source = (
                    [f"as for `{parent}`" if parent != "conformance" else "none stated: 2 on a usage error"],
                    "",
                )
        lines.append(f"| `{name}` | {inline(' '.join(found))} | {source} |")
    lines.append("")
    return "\n".join(lines)


# ---------------------------------------------------------------- JSON Schemas


def anchor(prefix: str, name: str) -> str:
    """The id of a definition's section: the schema file's stem and the definition's name."""
    return re.sub(r"[^a-z0-9_-]+", "-", f"{prefix}-{name}".lower())


def type_of(schema: Any, prefix: str) -> str:
    """A schema's type in words, with $refs as links to their definitions' sections."""
    if not isinstance(schema, dict):
        return "any"
    if "$ref" in schema:
        ref = schema["$ref"]
        name = ref.rsplit("/", 1)[-1]
        return f"[{name}](#{anchor(prefix, name)})" if ref.startswith("#/$defs/") else code(ref)
    if "const" in schema:
        return code(json.dumps(schema["const"]))
    if "enum" in schema:
        return "one of " + ", ".join(code(json.dumps(value)) for value in schema["enum"])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return " or ".join(type_of(option, prefix) for option in schema[key])
    kind = schema.get("type")
    if kind == "array" or (kind is None and "items" in schema):
        return f"array of {type_of(schema.get('items'), prefix)}" if "items" in schema else "array"
    if isinstance(kind, list):
        return " or ".join(kind)
    if kind == "object" and "additionalProperties" in schema and isinstance(schema["additionalProperties"], dict):
        return f"object: name → {type_of(schema['additionalProperties'], prefix)}"
    return kind or "any"


CONSTRAINTS = ("minimum", "maximum", "exclusiveMinimum", "minLength", "maxLength", "minItems", "maxItems", "pattern")


def literal(value: Any) -> str:
    """A keyword's value: a string (a pattern) as it is, anything else as JSON."""
    return code(value if isinstance(value, str) else json.dumps(value))


def constraints(schema: Any) -> str:
    if not isinstance(schema, dict):
        return ""
    found = [f"{key} {literal(schema[key])}" for key in CONSTRAINTS if key in schema]
    items = schema.get("items")
    if isinstance(items, dict):
        found += [f"items: {key} {literal(items[key])}" for key in CONSTRAINTS if key in items]
    return ", ".join(found)


def field_rows(schema: dict, prefix: str, path_prefix: str) -> list[str]:
    """One row per property, nested inline objects (and arrays of them) flattened into dotted paths."""
    rows: list[str] = []
    required = set(schema.get("required", ()))
    for name, sub in schema.get("properties", {}).items():
        path = f"{path_prefix}{name}"
        sub = sub if isinstance(sub, dict) else {}
        facts = ", ".join(part for part in ("required" if name in required else "", constraints(sub)) if part)
        rows.append(f"| {code(path)} | {type_of(sub, prefix)} | {facts} | {inline(sub.get('description', ''))} |")
        if "properties" in sub:
            rows += field_rows(sub, prefix, f"{path}.")
        items = sub.get("items")
        if isinstance(items, dict) and "properties" in items:
            rows += field_rows(items, prefix, f"{path}[].")
    return rows


def schema_section(schema: dict, level: str, prefix: str) -> list[str]:
    lines = []
    if schema.get("description"):
        lines += [inline(schema["description"]), ""]
    kind = type_of(schema, prefix)
    if "properties" in schema:
        lines += [
            "| field | type | required, limits | what it holds |",
            "|---|---|---|---|",
            *field_rows(schema, prefix, ""),
            "",
        ]
        if schema.get("additionalProperties") is False:
            lines += ["No other field.", ""]
    elif kind not in ("object", "any"):
        lines += [f"Type: {kind}" + (f" ({constraints(schema)})" if constraints(schema) else "") + ".", ""]
    for name, definition in schema.get("$defs", {}).items():
        lines += [f"{level} `{name}` {{: #{anchor(prefix, name)} }}", ""]
        lines += schema_section(definition, level + "#", prefix)
    return lines


def schema_page(title: str, files: list[str]) -> str:
    lines = [f"# {title}", "", "Generated from the JSON Schema when the site is built.", ""]
    for file in files:
        schema = json.loads((PACKAGE / file).read_text(encoding="utf-8"))
        if len(files) > 1:
            lines += [f"## {inline(schema.get('title', file))}", ""]
        lines += [f"Schema: `conformance/{file}`" + (f" ({inline(schema['title'])})" if len(files) == 1 else "."), ""]
        prefix = Path(file).name.removesuffix(".schema.json")
        lines += schema_section(schema, "###" if len(files) > 1 else "##", prefix)
    return "\n".join(lines)


# ---------------------------------------------------------------- the matrix's headline table


def matrix_table() -> str:
    from conformance.matrix.views import headline_table

    document = json.loads((ROOT / "reports" / "compatibility" / "matrix.json").read_text(encoding="utf-8"))
    return "\n".join(headline_table(document))


# ---------------------------------------------------------------- the catalogue of mechanisms


def mechanisms_page() -> str:
    """Every mechanism a failure group or a matrix cell may name (conformance/divergences.py), in the
    catalogue's order: what a reader sees, how the computation departs, the contract text, the libraries."""
    from conformance.divergences import MECHANISMS

    lines = [
        "# Divergence mechanisms",
        "",
        "A failure group's `divergence.id` (report.json) and a matrix cell name the mechanisms below: each is",
        "a known way of computing something other than the contract, named by what it does, whichever",
        "libraries show it. Several joined by ` + ` were all shown by one answer. Generated from",
        "`conformance/divergences.py`.",
        "",
    ]
    for mechanism in MECHANISMS:
        libraries = ", ".join(mechanism.libraries) or "none of the matrix's libraries (an implementer's mistake)"
        lines += [
            f"## {mechanism.id}",
            "",
            f"- **what differs**: {inline(mechanism.what_differs)}",
            f"- **how**: {inline(mechanism.description)}",
            f"- **the contract**: {inline(mechanism.clause)}",
            f"- **tools**: the {'chrF' if mechanism.family == 'chrf' else 'BLEU'} tools",
            f"- **shown by**: {inline(libraries)}",
        ]
        if mechanism.raises:
            lines.append(f"- **raises**: {code(mechanism.raises)}")
        lines.append("")
    return "\n".join(lines)


# ---------------------------------------------------------------- MkDocs events


def pages() -> dict[str, str]:
    generated = {
        "reference/cli.md": cli_page(),
        "reference/exit-codes.md": exit_codes_page(),
        "reference/divergences.md": mechanisms_page(),
    }
    for path, title, files in SCHEMA_PAGES:
        generated[path] = schema_page(title, files)
    return generated


def on_files(files: Files, config: Any) -> Files:
    for path, content in pages().items():
        files.append(File.generated(config, path, content=content))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    if MATRIX_MARKER in markdown:
        markdown = markdown.replace(MATRIX_MARKER, matrix_table())
    return markdown
