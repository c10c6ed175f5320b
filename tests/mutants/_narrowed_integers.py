"""Shared by the mutants whose only bug is narrowing integer inputs into a fixed-width type: not a mutant itself."""

import copy

from independent import Implementation
from independent.contract import contract

ITEMS = None  # a path step into an array's items


def integer_paths(schema, path=()):
    """Every path (property names, ITEMS for an array's items) the input schema types as an integer."""
    if not isinstance(schema, dict):
        return []
    found = [path] if schema.get("type") == "integer" else []
    for name, prop in schema.get("properties", {}).items():
        found += integer_paths(prop, (*path, name))
    if isinstance(schema.get("items"), dict):
        found += integer_paths(schema["items"], (*path, ITEMS))
    return found


def narrowed(payload, paths, narrow):
    """A copy of the payload with every integer (not a bool, not a float) at ``paths`` replaced by ``narrow(it)``."""

    def at(value, path):
        if not path:
            return narrow(value) if isinstance(value, int) and not isinstance(value, bool) else value
        step, rest = path[0], path[1:]
        if step is ITEMS:
            return [at(item, rest) for item in value] if isinstance(value, list) else value
        if isinstance(value, dict) and step in value:
            return {**value, step: at(value[step], rest)}
        return value

    result = copy.deepcopy(payload)
    for path in paths:
        result = at(result, path)
    return result


def narrowing(narrow, doc):
    """The independent implementation, every tool reading its integer inputs through ``narrow`` first."""
    implementation = Implementation()
    for (tool_id, version), tool in list(implementation.tools.items()):
        paths = integer_paths(contract(tool_id, version)["input_schema"])
        parent = type(tool)

        def execute(self, payload, _paths=paths, _parent=parent):
            return _parent.execute(self, narrowed(payload, _paths, narrow))

        variant = copy.copy(tool)
        variant.__class__ = type(f"Narrowing{parent.__name__}", (parent,), {"execute": execute, "__doc__": doc})
        implementation.tools[(tool_id, version)] = variant
    return implementation.execute
