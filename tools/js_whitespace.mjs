// The code points JavaScript's regular expression \s matches (with the u flag), as a JSON array.
// Usage: node tools/js_whitespace.mjs
const whitespace = /^\s$/u;
const matches = [];
for (let cp = 0; cp <= 0x10ffff; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue;
  if (whitespace.test(String.fromCodePoint(cp))) matches.push(cp);
}
process.stdout.write(JSON.stringify(matches));
