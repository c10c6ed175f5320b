// A jsonl: target in Node.js: bleu-brevity-penalty@1.0.0, and not_found for every other tool.
// conformance run --target "jsonl:node jsonl-example.mjs"   (the other tools: not served, skipped)
import { createInterface } from "node:readline";

const fail = (code, message) => { throw { code, message }; };
const lengths = (list, name) => (Array.isArray(list) && list.length > 0 && list.every((n) => Number.isInteger(n) && n >= 0))
  || fail("invalid_input", `${name}: expected a non-empty array of integers >= 0`);
const KEYS = ["candidate_lengths", "reference_lengths", "decimals"];

function brevityPenalty(input) {  // the contract's validation order, then its semantics
  if (typeof input !== "object" || input === null || Array.isArray(input)) fail("invalid_input", "not an object");
  const unknown = Object.keys(input).find((key) => !KEYS.includes(key));
  if (unknown !== undefined) fail("invalid_input", `${unknown}: unknown key`);
  const { candidate_lengths: cs, reference_lengths: rs, decimals } = input;
  if (cs === undefined || rs === undefined) fail("invalid_input", "candidate_lengths or reference_lengths missing");
  lengths(cs, "candidate_lengths");
  (Array.isArray(rs) && rs.length > 0) || fail("invalid_input", "reference_lengths: expected a non-empty array");
  rs.forEach((refs, i) => lengths(refs, `reference_lengths[${i}]`));
  if (decimals !== undefined && !(Number.isInteger(decimals) && decimals >= 0 && decimals <= 15))
    fail("invalid_input", "decimals: expected an integer 0..15");
  if (cs.length !== rs.length) fail("invalid_input", "candidate_lengths and reference_lengths differ in length");
  if (cs.length > 1000 || rs.some((refs) => refs.length > 8) || [cs, ...rs].flat().some((n) => n > 1048576))
    fail("limit_exceeded", "more than 1000 segments, 8 references or 1048576 tokens");
  const closer = (c) => (best, r) => Math.abs(r - c) < Math.abs(best - c)
    || (Math.abs(r - c) === Math.abs(best - c) && r < best) ? r : best;  // ties go to the shorter
  const closest = cs.map((c, i) => rs[i].reduce(closer(c)));
  const c = cs.reduce((sum, n) => sum + n, 0), r = closest.reduce((sum, n) => sum + n, 0);
  const bp = c > r ? 1 : c === 0 ? 0 : Math.exp(1 - r / c);
  return { brevity_penalty: decimals === undefined ? bp : Number(bp.toFixed(decimals)),
    candidate_length: c, reference_length: r, closest_reference_lengths: closest };
}

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  const { id, tool, version, input } = JSON.parse(line);
  try {
    if (tool !== "bleu-brevity-penalty" || version !== "1.0.0") fail("not_found", `${tool}@${version}: not here`);
    process.stdout.write(JSON.stringify({ id, result: brevityPenalty(input) }) + "\n");
  } catch (error) {
    process.stdout.write(JSON.stringify({ id, error }) + "\n");
  }
}
