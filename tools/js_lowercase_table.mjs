// Lowercase behaviour of this JavaScript runtime, for tools/lowercase_differences.py.
//
// For every code point X (surrogates excluded) it applies String.prototype.toLowerCase to
// five probes: X alone, and four strings that put X beside a capital sigma, whose
// Final_Sigma context reads the Cased and Case_Ignorable properties of its neighbours:
//   "AΣX"   σ when X is cased                 (ς otherwise)
//   "AΣXB"  σ when X is cased or case-ignorable (ς otherwise)
//   "AXΣ"   ς when X is cased or case-ignorable (σ otherwise)
//   "XΣ"    ς when X is cased                 (σ otherwise)
// Only code points where some probe differs from the result of a code point without case
// (X unchanged, Σ as for a neighbour that is neither cased nor case-ignorable) are
// printed, so the output stays small. Also printed: the runtime's Unicode version and
// which code points it has unassigned (General_Category Cn).
//
// Usage: node tools/js_lowercase_table.mjs > probes.json

export const PROBES = [
  (x) => x,
  (x) => "A\u03A3" + x,
  (x) => "A\u03A3" + x + "B",
  (x) => "A" + x + "\u03A3",
  (x) => x + "\u03A3",
];

// What a code point without case gives: the probes lowercased around it, it unchanged.
export const CASELESS = [
  (x) => x,
  (x) => "a\u03C2" + x,
  (x) => "a\u03C2" + x + "b",
  (x) => "a" + x + "\u03C3",
  (x) => x + "\u03C3",
];

const entries = {};
const unassigned = [];
const isUnassigned = /^\p{Cn}$/u;
for (let cp = 0; cp <= 0x10ffff; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue;
  const x = String.fromCodePoint(cp);
  if (isUnassigned.test(x)) unassigned.push(cp);
  const results = PROBES.map((probe) => probe(x).toLowerCase());
  if (results.some((result, i) => result !== CASELESS[i](x))) entries[cp] = results;
}

// unassigned code points as [first, last] ranges
const ranges = [];
for (const cp of unassigned) {
  const last = ranges[ranges.length - 1];
  if (last && last[1] === cp - 1) last[1] = cp;
  else ranges.push([cp, cp]);
}

process.stdout.write(
  JSON.stringify({
    runtime: `node ${process.version}`,
    unicode: process.versions.unicode,
    entries,
    unassigned_ranges: ranges,
  }),
);
