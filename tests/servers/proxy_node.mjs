// A stdio JSON-RPC server in Node that frames and parses its stdin as the TypeScript MCP SDK
// does (ReadBuffer: split on "\n" only, decode UTF-8 with replacement, drop one trailing "\r",
// JSON.parse), so the proxy's tests meet a JavaScript parser: it reads a 5,000-digit integer as
// Infinity and follows nesting far deeper than Python's parser.
// Tools come from PROXY_TOOLS_FILE; every call run is appended to PROXY_RAN_FILE.
import { appendFileSync, readFileSync } from "node:fs";

const tools = JSON.parse(readFileSync(process.env.PROXY_TOOLS_FILE, "utf8"));
const ranFile = process.env.PROXY_RAN_FILE;
let buffer = Buffer.alloc(0);

function send(msg) {
  process.stdout.write(JSON.stringify(msg) + "\n");
}

function handle(msg) {
  if (typeof msg !== "object" || msg === null || !("id" in msg)) return;
  const { id, method, params } = msg;
  if (method === "initialize") {
    send({
      jsonrpc: "2.0",
      id,
      result: {
        protocolVersion: params?.protocolVersion ?? "2025-11-25",
        capabilities: { tools: {} },
        serverInfo: { name: "proxy_node", version: "1.0" },
      },
    });
  } else if (method === "tools/list") {
    send({ jsonrpc: "2.0", id, result: { tools } });
  } else if (method === "tools/call") {
    const text = JSON.stringify({ tool: params.name, arguments: params.arguments ?? {} });
    if (ranFile) appendFileSync(ranFile, text + "\n");
    send({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } });
  } else {
    send({ jsonrpc: "2.0", id, result: {} });
  }
}

process.stdin.on("data", (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const i = buffer.indexOf("\n");
    if (i < 0) break;
    const line = buffer.toString("utf8", 0, i).replace(/\r$/, "");
    buffer = buffer.subarray(i + 1);
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
      continue;
    }
    for (const m of Array.isArray(msg) ? msg : [msg]) handle(m);
  }
});
process.stdin.on("end", () => process.exit(0));
