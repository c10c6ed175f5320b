// node call.mjs URL ARGUMENTS_JSON: lists the tools of the MCP server at URL (Streamable HTTP),
// calls `execute` with the arguments, and prints {"tools": [names], "result": <the tool result>}.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, argumentsJson] = process.argv.slice(2);
const client = new Client({ name: "conformance-node-probe", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
const { tools } = await client.listTools();
const result = await client.callTool({ name: "execute", arguments: JSON.parse(argumentsJson) });
await client.close();
process.stdout.write(JSON.stringify({ tools: tools.map((tool) => tool.name), result }));
