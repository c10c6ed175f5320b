// An MCP server written the natural way on the official TypeScript SDK (McpServer, zod, the
// Streamable HTTP transport), whose tool `execute` {id, version, input} answers with the oracle:
// `python -m conformance.jsonl_oracle` is started once and each call is forwarded to it over the
// line protocol. The MCP target is judged against it (tests/test_target_mcp_node_server.py).
//
//   node server.mjs [--port 0] [--python python3] [--input object|any] [--shape both|text]
//                   [--response sse|json] [--stateful] [--bug brevity-off-by-one]
//
// --input     how `input` is declared: a zod record (JSON Schema type object: the SDK refuses an
//             array, a string or null before the tool runs, with isError and plain text) or z.any()
// --shape     both: the envelope as structuredContent and as text; text: as text only
// --response  the transport's answers as server-sent events (the SDK's default) or JSON bodies
// --stateful  session ids (initialize, then Mcp-Session-Id); default: stateless
// --bug       brevity-off-by-one: bleu-brevity-penalty's candidate_length one too many (a wrong server)
//
// It prints "listening on http://127.0.0.1:PORT/mcp" once it listens.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

const { values: flags } = parseArgs({ options: {
  port: { type: "string", default: "0" },
  python: { type: "string", default: "python3" },
  input: { type: "string", default: "object" },
  shape: { type: "string", default: "both" },
  response: { type: "string", default: "sse" },
  stateful: { type: "boolean", default: false },
  bug: { type: "string", default: "" },
} });
const MAX_BODY_BYTES = 16 * 1024 * 1024;  // above the suite's largest input (the SDK's own limit is 4 MB)

// --- the oracle behind the line protocol ------------------------------------------------------
const oracle = spawn(flags.python, ["-m", "conformance.jsonl_oracle"], { stdio: ["pipe", "pipe", "inherit"] });
oracle.on("exit", (code) => { console.error(`the oracle exited (${code})`); process.exit(1); });
const pending = new Map();
let nextId = 0;
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

// --- the MCP tool -----------------------------------------------------------------------------
const inputSchema = {
  id: z.string(),
  version: z.string(),
  input: flags.input === "any" ? z.any() : z.record(z.any()),
};

function toolResult(envelope, isError) {
  const content = [{ type: "text", text: JSON.stringify(envelope) }];
  return flags.shape === "text" ? { content, isError } : { content, structuredContent: envelope, isError };
}

function withBug(tool, result) {
  if (flags.bug === "brevity-off-by-one" && tool === "bleu-brevity-penalty") {
    return { ...result, candidate_length: result.candidate_length + 1 };
  }
  return result;
}

// zod's parsed arguments drop a "__proto__" key (an input the contract rejects as an unknown key),
// so the arguments as sent are forwarded: the schema only decides what the SDK refuses.
function buildServer(sentArguments) {
  const server = new McpServer({ name: "conformance-node-probe", version: "1.0.0" });
  server.registerTool("execute", {
    description: "Run one metric tool of the contracts: {id, version, input} -> {result} or an error body",
    inputSchema,
  }, async ({ id, version }, extra) => {
    const answer = await askOracle(id, version, sentArguments.get(extra.requestId)?.input);
    sentArguments.delete(extra.requestId);
    return answer.error ? toolResult({ error: answer.error }, true)
      : toolResult({ result: withBug(id, answer.result) }, false);
  });
  return server;
}

function rememberArguments(sentArguments, message) {
  for (const one of Array.isArray(message) ? message : [message]) {
    if (one?.method === "tools/call") sentArguments.set(one.id, one.params?.arguments);
  }
}

// --- HTTP -------------------------------------------------------------------------------------
async function readJson(request) {
  const chunks = [];
  let size = 0;
  for await (const chunk of request) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error("body too large");
    chunks.push(chunk);
  }
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
}

const sessions = new Map();  // --stateful: session id -> {transport, sentArguments}

async function connected(sentArguments, sessionIdGenerator) {
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator, enableJsonResponse: flags.response === "json",
    onsessioninitialized: (sessionId) => sessions.set(sessionId, { transport, sentArguments }),
  });
  transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
  await buildServer(sentArguments).connect(transport);
  return transport;
}

async function handle(request, response) {
  const body = request.method === "POST" ? await readJson(request) : undefined;
  if (!flags.stateful) {  // a server and a transport per request, as the SDK's stateless example does
    const sentArguments = new Map();
    rememberArguments(sentArguments, body);
    const transport = await connected(sentArguments, undefined);
    response.on("close", () => transport.close());
    return transport.handleRequest(request, response, body);
  }
  const session = sessions.get(request.headers["mcp-session-id"]);
  if (session) {
    rememberArguments(session.sentArguments, body);
    return session.transport.handleRequest(request, response, body);
  }
  if (request.method === "POST" && isInitializeRequest(body)) {
    const transport = await connected(new Map(), () => randomUUID());
    return transport.handleRequest(request, response, body);
  }
  response.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify(
    { jsonrpc: "2.0", error: { code: -32000, message: "no valid session id" }, id: null }));
}

const http = createServer((request, response) => {
  if (new URL(request.url, "http://x").pathname !== "/mcp") return response.writeHead(404).end();
  handle(request, response).catch((error) => {
    if (!response.headersSent) response.writeHead(400, { "content-type": "text/plain" });
    response.end(String(error?.message ?? error));
  });
});
http.listen(Number(flags.port), "127.0.0.1", () => {
  process.stdout.write(`listening on http://127.0.0.1:${http.address().port}/mcp\n`);
});
