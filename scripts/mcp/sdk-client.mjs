// Black-box check of alice's MCP listeners with the official MCP TypeScript
// SDK client. Run from a directory whose node_modules has
// @modelcontextprotocol/sdk (blackbox.sh arranges that).
//
//   node sdk-client.mjs demo  <mainURL> <askURL>   full assertions against bench/mcp/server
//   node sdk-client.mjs probe <url> [tool] [argsJSON]   list (and call) on any server, e.g. `alice serve`
//   node sdk-client.mjs trading <mainURL>               OpenAlice's trading surface on `alice serve` (sim-paper)
//   node sdk-client.mjs research <mainURL>              ETF/index/estimate/short-interest tools in tools/list
//
// Env ALICE_MCP_TOKEN adds "Authorization: Bearer <token>".
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const token = process.env.ALICE_MCP_TOKEN;
let failures = 0;

function check(cond, what, detail) {
  if (cond) {
    console.log(`  ok   ${what}`);
  } else {
    failures++;
    console.log(`  FAIL ${what}${detail === undefined ? "" : ": " + JSON.stringify(detail)}`);
  }
}

async function open(url) {
  const opts = token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {};
  const transport = new StreamableHTTPClientTransport(new URL(url), opts);
  const client = new Client({ name: "alice-blackbox", version: "0.0.1" });
  await client.connect(transport);
  const info = client.getServerVersion();
  console.log(`connected ${url} server=${info?.name}@${info?.version} protocol=${transport.protocolVersion} session=${transport.sessionId ?? "-"}`);
  return {
    client,
    async close() {
      await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}

const text = (res) => (res.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
const names = async (client) => (await client.listTools()).tools.map((t) => t.name).sort();

async function demo(mainURL, askURL) {
  console.log("# main /mcp");
  let s = await open(mainURL);
  const tools = await names(s.client);
  check(JSON.stringify(tools) === JSON.stringify(["add", "echo", "fail"]), "tools/list shows the catalogue", tools);
  let res = await s.client.callTool({ name: "echo", arguments: { message: "hi from the ts sdk" } });
  check(!res.isError && JSON.parse(text(res)).echo === "hi from the ts sdk", "echo round-trips", res);
  res = await s.client.callTool({ name: "add", arguments: { a: "1.5", b: 2 } });
  check(!res.isError && JSON.parse(text(res)).sum === 3.5, "numeric strings are coerced", res);
  res = await s.client.callTool({ name: "echo", arguments: { nope: 1 } });
  check(res.isError === true && /unknown parameter/.test(text(res)), "bad arguments become a tool error", res);
  res = await s.client.callTool({ name: "fail", arguments: {} });
  check(res.isError === true && text(res) === "Error: this tool always fails", "handler error is isError text", res);
  let threw = false;
  try {
    await s.client.callTool({ name: "does_not_exist", arguments: {} });
  } catch {
    threw = true;
  }
  check(threw, "unknown tool is a protocol error");
  await s.close();

  console.log("# workspace /mcp/demo-ws");
  s = await open(mainURL + "/demo-ws");
  check(JSON.stringify(await names(s.client)) === JSON.stringify(["inbox_push"]), "workspace endpoint lists inbox_push only");
  res = await s.client.callTool({ name: "inbox_push", arguments: { title: "from ts" } });
  const pushed = JSON.parse(text(res));
  check(pushed.workspace === "demo-ws" && pushed.label === "Demo", "identity comes from the URL", pushed);
  await s.close();

  threw = false;
  try {
    await (await open(mainURL + "/no-such-ws")).close();
  } catch (e) {
    threw = e?.code === 404 || /404/.test(String(e));
  }
  check(threw, "unknown workspace is refused with 404");

  console.log("# ask connector");
  s = await open(askURL);
  check(JSON.stringify(await names(s.client)) === JSON.stringify(["askWithSession", "getSessionHistory", "listSessions"]), "ask tools listed");
  const sid = `bb-${Date.now()}`;
  res = await s.client.callTool({ name: "askWithSession", arguments: { message: "BTC outlook?", sessionId: sid } });
  let reply = JSON.parse(text(res));
  check(reply.sessionId === sid && /turn 1/.test(reply.text), "askWithSession answers", reply);
  res = await s.client.callTool({ name: "askWithSession", arguments: { message: "and ETH?", sessionId: sid } });
  reply = JSON.parse(text(res));
  check(/turn 2/.test(reply.text), "the session resumes", reply);
  res = await s.client.callTool({ name: "listSessions", arguments: {} });
  check(JSON.parse(text(res)).sessions.some((x) => x.sessionId === sid), "listSessions includes it", text(res));
  res = await s.client.callTool({ name: "getSessionHistory", arguments: { sessionId: sid, limit: 3 } });
  const msgs = JSON.parse(text(res)).messages;
  check(msgs.length === 3 && msgs[2].role === "assistant", "getSessionHistory honours limit", msgs);
  res = await s.client.callTool({ name: "askWithSession", arguments: { message: "x", sessionId: "../../etc/passwd" } });
  check(res.isError === true && /invalid sessionId/.test(text(res)), "escaping sessionId refused", res);
  await s.close();
}

// trading checks OpenAlice's current (v0.89) trading surface on a live
// `alice serve`: the tool names and parameter names as the SDK sees them in
// tools/list, then stage-and-commit, the hash-less reject and the history
// views.
async function trading(url) {
  const s = await open(url);
  const { tools } = await s.client.listTools();
  const byName = Object.fromEntries(tools.map((t) => [t.name, t.inputSchema ?? {}]));
  const has = (tool, param) => Object.hasOwn(byName[tool]?.properties ?? {}, param);
  for (const [tool, params] of Object.entries({
    orderHistory: ["source", "limit"],
    tradeHistory: ["source", "limit"],
    placeOrder: ["source", "aliceId", "action", "orderType", "totalQuantity", "commitMessage", "subAccountId"],
    modifyOrder: ["source", "orderId", "commitMessage"],
    closePosition: ["source", "aliceId", "qty", "commitMessage"],
    cancelOrder: ["source", "orderId", "commitMessage"],
    tradingReject: ["source", "reason"],
  })) {
    const missing = params.filter((p) => !has(tool, p));
    check(missing.length === 0, `${tool}(${params.join(", ")})`, missing);
  }
  check(JSON.stringify(byName.tradingReject?.required) === JSON.stringify(["source"]), "tradingReject needs only source", byName.tradingReject?.required);
  check(!(byName.placeOrder?.required ?? []).includes("source"), "placeOrder's source is optional", byName.placeOrder?.required);

  let res = await s.client.callTool({ name: "placeOrder", arguments: { aliceId: "sim-paper|AAPL", action: "BUY", orderType: "MKT", totalQuantity: "1", commitMessage: "sdk: entry" } });
  const staged = JSON.parse(text(res));
  check(!res.isError && staged.committed?.message === "sdk: entry" && staged.source === "sim-paper", "placeOrder with commitMessage stages and commits", staged);
  check(staged.operation?.stagedBy?.agent === "alice-blackbox" && staged.operation?.stagedBy?.channel === "mcp", "the staging MCP client is recorded", staged.operation?.stagedBy);
  res = await s.client.callTool({ name: "tradingReject", arguments: { source: "sim-paper", reason: "sdk: changed my mind" } });
  check(!res.isError && /\[rejected\] sdk: entry/.test(JSON.parse(text(res)).message ?? ""), "tradingReject without a hash", text(res));
  res = await s.client.callTool({ name: "orderHistory", arguments: { source: "sim-paper", limit: 5 } });
  const rows = JSON.parse(text(res));
  check(!res.isError && Array.isArray(rows) && rows[0]?.status === "user-rejected" && rows[0]?.source === "alice", "orderHistory shows the rejected order", rows);
  res = await s.client.callTool({ name: "tradeHistory", arguments: {} });
  check(!res.isError && Array.isArray(JSON.parse(text(res)).trades), "tradeHistory answers (no fills yet)", text(res));
  res = await s.client.callTool({ name: "orderHistory", arguments: { limit: 1000 } });
  check(res.isError === true && /between 1 and 200/.test(text(res)), "orderHistory limit is checked", text(res));
  await s.close();
}

// research checks OpenAlice's ETF, index, estimate and short-interest
// tools (plus alice's etfGetCountries and indexGetConstituents) in
// tools/list with their parameter names, and that a missing argument is a
// tool error (no network is needed for either).
async function research(url) {
  const s = await open(url);
  const { tools } = await s.client.listTools();
  const byName = Object.fromEntries(tools.map((t) => [t.name, t.inputSchema ?? {}]));
  for (const [tool, params] of Object.entries({
    etfSearch: ["query", "limit"],
    etfGetInfo: ["symbol"],
    etfGetHoldings: ["symbol"],
    etfGetSectors: ["symbol"],
    etfGetCountries: ["symbol"],
    indexSearch: ["query"],
    indexGetConstituents: ["symbol"],
    equityGetEstimates: ["symbol"],
    equityGetShortInterest: ["symbol"],
  })) {
    const props = Object.keys(byName[tool]?.properties ?? {}).sort();
    check(JSON.stringify(props) === JSON.stringify([...params].sort()), `${tool}(${params.join(", ")})`, props);
    console.log(`       ${tool} required=${JSON.stringify(byName[tool]?.required)}`);
  }
  const res = await s.client.callTool({ name: "etfGetHoldings", arguments: {} });
  check(res.isError === true && /symbol/.test(text(res)), "etfGetHoldings without symbol is a tool error", text(res));
  await s.close();
}

async function probe(url, tool, args) {
  const s = await open(url);
  const tools = await names(s.client);
  console.log(`tools (${tools.length}): ${tools.join(",")}`);
  check(tools.length > 0, "tools/list is not empty");
  if (tool) {
    const res = await s.client.callTool({ name: tool, arguments: JSON.parse(args || "{}") });
    console.log("call:", JSON.stringify(res).slice(0, 400));
    check(Array.isArray(res.content), `${tool} returned content`);
  }
  await s.close();
}

const [mode, ...rest] = process.argv.slice(2);
try {
  if (mode === "demo") await demo(rest[0], rest[1]);
  else if (mode === "probe") await probe(rest[0], rest[1], rest[2]);
  else if (mode === "trading") await trading(rest[0]);
  else if (mode === "research") await research(rest[0]);
  else {
    console.error("usage: sdk-client.mjs demo <mainURL> <askURL> | probe <url> [tool] [argsJSON] | trading <mainURL> | research <mainURL>");
    process.exit(2);
  }
} catch (e) {
  failures++;
  console.log("  FAIL unexpected error:", e?.stack ?? e);
}
console.log(failures === 0 ? "sdk-client: all checks passed" : `sdk-client: ${failures} check(s) failed`);
process.exit(failures === 0 ? 0 : 1);
