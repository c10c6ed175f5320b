// An HTTP server written the way a typical service on Express is: `app.use(express.json())` parses
// every body, one route answers POST /v1/tools/:id/versions/:version/execute, and whatever Express
// does by itself (a body over the limit: 413; malformed JSON or a JSON text that is not an object or
// an array: 400; an unknown route, GET .../versions/:version included: 404) stays as Express does it.
// Each call is forwarded to the oracle: `python -m conformance.jsonl_oracle` is started once and
// spoken to over the line protocol (conformance/schemas/jsonl-protocol.schema.json). The HTTP target
// is judged against it (tests/test_express_server.py).
//
//   node server.mjs [--port 0] [--limit 16mb]
//
// --port   the loopback port (0: any free one); "listening on http://127.0.0.1:PORT" is printed once it listens
// --limit  express.json()'s body limit (bytes, or a string such as "16mb"); when not given, Express's own
//          default (100 kB), under which the suite's largest valid inputs are refused with 413
//
// The oracle is run by the Python of the environment variable PYTHON, else python3.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import express from "express";

const { values: flags } = parseArgs({ options: {
  port: { type: "string", default: "0" },
  limit: { type: "string" },
} });
const limitOption = flags.limit === undefined ? {} : { limit: /^\d+$/.test(flags.limit) ? Number(flags.limit) : flags.limit };

// --- the oracle behind the line protocol ------------------------------------------------------
const python = process.env.PYTHON || "python3";
const oracle = spawn(python, ["-m", "conformance.jsonl_oracle"], { stdio: ["pipe", "pipe", "inherit"] });
oracle.on("exit", (code) => { console.error(`the oracle exited (${code})`); process.exit(1); });
const pending = new Map();  // request id -> the resolver of its answer; answers come in the order asked
let nextId = 1;
createInterface({ input: oracle.stdout, crlfDelay: Infinity }).on("line", (line) => {
  const answer = JSON.parse(line);
  pending.get(answer.id)?.(answer);
  pending.delete(answer.id);
});
// A request line never holds a raw line break: JSON.stringify escapes \n, \r and lone surrogates,
// not U+0085, U+2028, U+2029 (legal in JSON strings), which are escaped here.
const requestLine = (request) => JSON.stringify(request).replace(/[\u0085\u2028\u2029]/g,
  (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) + "\n";
const askOracle = (tool, version, input) => new Promise((resolve) => {
  const id = nextId++;
  pending.set(id, resolve);
  oracle.stdin.write(requestLine({ id, tool, version, input: input === undefined ? null : input }));
});

// --- HTTP -------------------------------------------------------------------------------------
const STATUS = { invalid_input: 400, limit_exceeded: 413, not_found: 404 };

const app = express();
app.use(express.json(limitOption));
app.post("/v1/tools/:id/versions/:version/execute", async (request, response) => {
  const answer = await askOracle(request.params.id, request.params.version, request.body);
  if (answer.error) {
    response.status(STATUS[answer.error.code] ?? 400).json({ error: answer.error });
  } else {
    response.json({ result: answer.result });
  }
});

const server = app.listen(Number(flags.port), "127.0.0.1", () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
});
