// chrf-plus-plus-compute@1.0.0 written from its contract, as a jsonl: target in Node.js, with four typical
// shortcuts that can be switched on one by one (the arguments; none: the contract's own rules):
//
//   utf16       character n-grams over UTF-16 code units (string.length, slice): an astral code point
//               counts as two characters (semantics 2 says code points)
//   whitespace  the whitespace set is JavaScript's /\s/ (U+FEFF in, U+001C-U+001F and U+0085 out) for
//               both the character n-grams and the word split (semantics 2 and 3 list the set)
//   control     word tokens drop the control characters (\p{Cc}) that are not whitespace, as a
//               "sanitising" step would (semantics 3 keeps every other code point in its word)
//   surrogates  lone surrogates are not rejected (semantics 7: a JavaScript string holds them happily)
//
// node chrf_plus_plus.mjs utf16 whitespace    # two shortcuts at once
import { createInterface } from "node:readline";

const SHORTCUTS = new Set(process.argv.slice(2));
const fail = (code, message) => { throw { code, message }; };

const WHITESPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680,
  0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
  0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);
const isSpace = SHORTCUTS.has("whitespace")
  ? (ch) => /\s/.test(ch)
  : (ch) => WHITESPACE.has(ch.codePointAt(0));
const PUNCTUATION = new Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~");

// ---------------------------------------------------------------- validation, in the contract's order

const KEYS = ["hypotheses", "references", "beta", "lowercase"];
function texts(list, name) {
  if (!Array.isArray(list)) fail("invalid_input", `${name}: expected an array`);
  if (list.length > 256) fail("limit_exceeded", `${name}: more than max_segments 256`);
  if (list.length < 1) fail("invalid_input", `${name}: expected at least one segment`);
  if (!list.every((t) => typeof t === "string")) fail("invalid_input", `${name}: expected strings`);
}
const utf8Bytes = (text) => Buffer.byteLength(text, "utf8");
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function validate(input) {
  if (typeof input !== "object" || input === null || Array.isArray(input)) fail("invalid_input", "not an object");
  const unknown = Object.keys(input).find((key) => !KEYS.includes(key));
  if (unknown !== undefined) fail("invalid_input", `${unknown}: unknown key`);
  if (input.hypotheses === undefined || input.references === undefined) fail("invalid_input", "missing key");
  texts(input.hypotheses, "hypotheses");
  texts(input.references, "references");
  if (input.hypotheses.length !== input.references.length) fail("invalid_input", "segment counts differ");
  const all = [...input.hypotheses, ...input.references];
  if (all.reduce((sum, t) => sum + utf8Bytes(t), 0) > 65536) fail("limit_exceeded", "more than max_text_bytes");
  if (!SHORTCUTS.has("surrogates") && all.some((t) => loneSurrogate.test(t)))
    fail("invalid_input", "a text contains a lone surrogate");
  const { beta, lowercase } = input;
  if (beta !== undefined && !(Number.isInteger(beta) && beta >= 1 && beta <= 16))
    fail("invalid_input", "beta: expected an integer 1..16");
  if (lowercase !== undefined && typeof lowercase !== "boolean") fail("invalid_input", "lowercase: expected a boolean");
}

// ---------------------------------------------------------------- exact fractions (BigInt)

const gcd = (a, b) => { a = a < 0n ? -a : a; b = b < 0n ? -b : b; while (b) [a, b] = [b, a % b]; return a; };
const frac = (n, d = 1n) => { const g = gcd(n, d) || 1n; return [n / g, d / g]; };
const add = ([a, b], [c, d]) => frac(a * d + c * b, b * d);
const mul = ([a, b], [c, d]) => frac(a * c, b * d);
const div = ([a, b], [c, d]) => frac(a * d, b * c);

function sixDecimals([n, d]) {  // ties to even
  const scaled = n * 1000000n, q = scaled / d, r = scaled % d;
  const micro = 2n * r > d || (2n * r === d && q % 2n === 1n) ? q + 1n : q;
  return `${micro / 1000000n}.${String(micro % 1000000n).padStart(6, "0")}`;
}

// ---------------------------------------------------------------- the semantics

function characters(text) {
  const kept = [...text].filter((ch) => !isSpace(ch)).join("");
  return SHORTCUTS.has("utf16") ? kept.split("") : [...kept];
}

function wordTokens(text) {
  const words = [];
  let word = "";
  for (const ch of text) {
    if (isSpace(ch)) { if (word) words.push(word); word = ""; } else word += ch;
  }
  if (word) words.push(word);
  const tokens = [];
  for (let w of words) {
    if (SHORTCUTS.has("control")) { w = w.replace(/\p{Cc}/gu, ""); if (!w) continue; }
    const points = [...w];
    if (points.length === 1) tokens.push(w);
    else if (PUNCTUATION.has(points.at(-1))) tokens.push(points.slice(0, -1).join(""), points.at(-1));
    else if (PUNCTUATION.has(points[0])) tokens.push(points[0], points.slice(1).join(""));
    else tokens.push(w);
  }
  return tokens;
}

function ngrams(units, n) {
  const counts = new Map();
  for (let i = 0; i + n <= units.length; i++) {
    const key = JSON.stringify(units.slice(i, i + n));
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function orderStatistics(hyp, ref) {
  let matches = 0, h = 0, r = 0;
  for (const count of hyp.values()) h += count;
  for (const [gram, count] of ref) { r += count; matches += Math.min(count, hyp.get(gram) ?? 0); }
  return [h, r, matches];
}

function segmentStatistics(hypothesis, reference) {
  const hc = characters(hypothesis), rc = characters(reference);
  const hw = wordTokens(hypothesis), rw = wordTokens(reference);
  const stats = [];
  for (let n = 1; n <= 6; n++) stats.push(orderStatistics(ngrams(hc, n), ngrams(rc, n)));
  for (let n = 1; n <= 2; n++) stats.push(orderStatistics(ngrams(hw, n), ngrams(rw, n)));
  return stats;
}

function fScore(stats, beta) {  // on the 0..100 scale, exact
  const effective = stats.filter(([h, r]) => h > 0 && r > 0);
  if (effective.length === 0) return frac(0n);
  const k = BigInt(effective.length);
  let p = frac(0n), r = frac(0n);
  for (const [h, ref, m] of effective) {
    p = add(p, frac(BigInt(m), BigInt(h)));
    r = add(r, frac(BigInt(m), BigInt(ref)));
  }
  p = div(p, [k, 1n]); r = div(r, [k, 1n]);
  if (p[0] === 0n && r[0] === 0n) return frac(0n);
  const b2 = BigInt(beta * beta);
  return mul([100n, 1n], div(mul([1n + b2, 1n], mul(p, r)), add(mul([b2, 1n], p), r)));
}

function chrfPlusPlus(input) {
  validate(input);
  const beta = input.beta ?? 2, lowercase = input.lowercase ?? false;
  const prepare = (text) => (lowercase ? text.toLowerCase() : text);
  const hyps = input.hypotheses.map(prepare), refs = input.references.map(prepare);
  const perSegment = hyps.map((h, i) => segmentStatistics(h, refs[i]));
  const corpus = perSegment.reduce((sum, stats) => sum.map((row, o) => row.map((v, j) => v + stats[o][j])));
  const score = fScore(corpus, beta);
  return {
    metric: "chrF++", char_order: 6, word_order: 2, beta, lowercase, segment_count: hyps.length,
    score: sixDecimals(score), score_fraction: `${score[0]}/${score[1]}`,
    segment_scores: perSegment.map((stats) => sixDecimals(fScore(stats, beta))),
    word_tokens: hyps.map((h, i) => ({ hypothesis: wordTokens(h), reference: wordTokens(refs[i]) })),
  };
}

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  const { id, tool, version, input } = JSON.parse(line);
  try {
    if (tool !== "chrf-plus-plus-compute" || version !== "1.0.0") fail("not_found", `${tool}@${version}: not here`);
    process.stdout.write(JSON.stringify({ id, result: chrfPlusPlus(input) }) + "\n");
  } catch (error) {
    if (error instanceof Error) throw error;
    process.stdout.write(JSON.stringify({ id, error }) + "\n");
  }
}
