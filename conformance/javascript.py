"""Names a JavaScript runtime treats specially, for the strategies that spell tokens and keys with them and for
the models of a library counting n-grams in a plain object (the catalogued inherited-property mechanisms)."""

from __future__ import annotations

# the own properties of Object.prototype (ECMA-262 20.1.3 and Annex B; Node.js 20 has exactly these), which every
# plain JavaScript object `{}` inherits: `name in {}` is true before the name is counted. All are methods but
# `__proto__`, an accessor.
OBJECT_PROTOTYPE_NAMES = (
    "constructor",
    "toString",
    "valueOf",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toLocaleString",
    "__defineGetter__",
    "__defineSetter__",
    "__lookupGetter__",
    "__lookupSetter__",
    "__proto__",
)
PROTO = "__proto__"  # an accessor: setting it to a number is ignored
INHERITED_METHODS = frozenset(OBJECT_PROTOTYPE_NAMES) - {PROTO}
# names a reader may suspect that a plain object does not inherit (a function's and an array's own properties, the
# maps an implementation may use instead)
NOT_INHERITED = ("prototype", "length")
