// node bridge.mjs: the npm package bleu-score, one JSON request line in, one answer line out.
// Request: {"reference": STRING, "candidate": STRING, "maxN": N}; answer: {"score": X} as the package
// computes it (JSON.stringify writes NaN and Infinity as null), or {"error": MESSAGE} if it throws.
// Used by conformance/implementations/npm_bleu_score.py; the package itself is called unchanged.
import { createRequire } from "node:module";
import { createInterface } from "node:readline";

const { bleu } = createRequire(import.meta.url)("bleu-score");

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  let answer;
  try {
    const { reference, candidate, maxN } = JSON.parse(line);
    answer = { score: bleu(reference, candidate, maxN) };
  } catch (error) {
    answer = { error: String(error) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
