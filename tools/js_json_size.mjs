// UTF-8 bytes of JSON.stringify(value) (compact, as a JavaScript service writes it).
// stdin: a JSON array of values; stdout: a JSON array of byte counts.
// Usage: echo '[{"a": "\u00e9"}]' | node tools/js_json_size.mjs
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const values = JSON.parse(input);
  process.stdout.write(JSON.stringify(values.map((v) => Buffer.byteLength(JSON.stringify(v), "utf8"))));
});
