"""How many generated examples had each aimed feature: the collector a run (or a test) opens.

A strategy records a feature with ``base.aimed(feature)`` while it draws an example (a Hypothesis
``event``, which Hypothesis's statistics show). Hypothesis's own statistics are not a stable API
to read back, so ``aimed`` also notes the feature here, in the collector that the code running the
strategy opened with ``counting()`` (a context variable: nothing is noted when none is open). The
test body calls ``example_done()`` once per example it receives, which counts the features noted
while that example was drawn. Features are kept per Hypothesis test case (its build context), so
a draw that Hypothesis abandons before the test body runs never adds to the next example's.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections import Counter
from collections.abc import Iterator

from hypothesis.control import current_build_context


class AimCounter:
    """The aimed features of the examples of one property (or one test's draw)."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()  # feature -> examples that had it
        self.examples = 0
        self._drawing: object | None = None  # the Hypothesis test case whose features are pending
        self._pending: set[str] = set()

    def note(self, feature: str) -> None:
        context = current_build_context()
        if context is not self._drawing:  # a new test case: what an abandoned draw noted is dropped
            self._drawing, self._pending = context, set()
        self._pending.add(feature)

    def example_done(self) -> frozenset[str]:
        """Count the example the test body just received; its features."""
        try:
            context = current_build_context()
        except Exception:  # outside a Hypothesis test case: nothing was drawn for it
            context = None
        features = frozenset(self._pending) if context is not None and context is self._drawing else frozenset()
        self._drawing, self._pending = None, set()
        self.examples += 1
        self.counts.update(features)
        return features

    def summary(self, aims: tuple[str, ...]) -> dict:
        """The report's view: every declared aim with its count (0 when never reached), every other
        recorded feature too, and the declared aims not reached."""
        features = {aim: self.counts.get(aim, 0) for aim in aims}
        features.update({name: count for name, count in sorted(self.counts.items()) if name not in features})
        return {"aimed_features": features, "aims_not_reached": [aim for aim in aims if not self.counts.get(aim)]}


_active: contextvars.ContextVar[AimCounter | None] = contextvars.ContextVar("aim_counter", default=None)


@contextlib.contextmanager
def counting(counter: AimCounter | None = None) -> Iterator[AimCounter]:
    """Count the aimed features of the examples drawn inside the block (into ``counter``, or a new one)."""
    counter = counter if counter is not None else AimCounter()
    token = start(counter)
    try:
        yield counter
    finally:
        stop(token)


def start(counter: AimCounter) -> contextvars.Token:
    """Open ``counter`` (where a ``with counting()`` block does not fit); ``stop(token)`` closes it."""
    return _active.set(counter)


def stop(token: contextvars.Token) -> None:
    _active.reset(token)


def note(feature: str) -> None:
    """``aimed``'s half that counts: into the open collector, if any."""
    counter = _active.get()
    if counter is not None:
        counter.note(feature)


def example_done() -> frozenset[str]:
    """Called by a test body once per example; the example's features (empty when nothing counts)."""
    counter = _active.get()
    return counter.example_done() if counter is not None else frozenset()
