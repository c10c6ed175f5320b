"""Print a digest of every generated family's examples at one profile and seed, to compare two trees.

    python tools/example_digests.py --profile quick --seed 11 > before.json   # in one tree
    python tools/example_digests.py --profile quick --seed 11 > after.json    # in the other
    python tools/example_digests.py --compare before.json after.json          # the families that differ

It uses the ``conformance`` package Python imports: ``PYTHONPATH=OTHER_TREE python
tools/example_digests.py ...`` digests another checkout's families with this script.

Each family's line holds how many examples ``strategies.draw_examples`` gave and a SHA-256 of
their inputs, expectations and descriptions. A change meant to leave the cases alone (recording
aimed features, say) should print the same digests. Note that Hypothesis also draws from the
literals of the project modules loaded when it generates, so a change that only adds code
elsewhere can move some examples too: compare with a tree that loads the same new modules to
tell the two apart.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

from conformance import strategies
from conformance.engine import PROFILES


def digests(profile: str, seed: int) -> dict[str, list]:
    found = {}
    for tool_id, version in strategies.supported():
        for family in strategies.families(tool_id, version):
            examples = strategies.draw_examples(family.strategy, PROFILES[profile][family.category], seed=seed)
            text = json.dumps([[e.input, repr(e.expect), e.description] for e in examples], ensure_ascii=False)
            found[f"{tool_id}/{family.name}"] = [
                len(examples),
                hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(),
            ]
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", default="quick", choices=sorted(PROFILES))
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        before, after = (json.loads(Path(path).read_text(encoding="utf-8")) for path in args.compare)
        changed = sorted(name for name in before.keys() | after.keys() if before.get(name) != after.get(name))
        print(
            f"{len(changed)} of {len(before.keys() | after.keys())} families differ"
            + "".join(f"\n  {n}" for n in changed)
        )
        return 1 if changed else 0
    print(json.dumps(digests(args.profile, args.seed), indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
