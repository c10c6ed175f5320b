// Number.prototype.toFixed as this JavaScript runtime computes it.
// stdin: a JSON array of [x, digits] pairs; stdout: a JSON array of x.toFixed(digits).
// Usage: echo '[[0.125, 2]]' | node tools/js_to_fixed.mjs
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const pairs = JSON.parse(input);
  process.stdout.write(JSON.stringify(pairs.map(([x, digits]) => x.toFixed(digits))));
});
