// A hostile agent against a live `alice serve`, through the official MCP
// TypeScript SDK client: what the guards check must be what executes.
// hostile.sh sets up the accounts and runs the phases:
//
//   node hostile.mjs attack <url> <configDir>   bypasses, bad numbers, hashes, read-only, AI switch, splits
//   node hostile.mjs stage  <url> <what>        stage (staged), stage+commit (committed), or stage+commit+push on
//                                               sim-manual (awaiting); print the hash
//   node hostile.mjs after  <url> <what> <hash> after a kill -9 and restart: the work survived, executes once
//
// Accounts: sim-auto (autoApprove; max-order-value 5000, max-position-size
// 25 %), sim-manual (needs a person; max-order-value 5000), sim-ro
// (readOnly). Every check prints one line; the exit status is the count
// of failures (0 = all passed).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import fs from "node:fs";
import path from "node:path";

let failures = 0;
function check(cond, what, detail) {
  if (cond) console.log(`  ok   ${what}`);
  else {
    failures++;
    console.log(`  FAIL ${what}${detail === undefined ? "" : ": " + String(typeof detail === "string" ? detail : JSON.stringify(detail)).slice(0, 600)}`);
  }
}

// Raw JSON the SDK cannot express (a 3,000,000-digit number, 1e400) is
// spliced into the request body: arguments carry "__RAW:<literal>".
const HUGE = "1" + "0".repeat(2_999_999);
function rawFetch(u, init) {
  if (typeof init?.body === "string" && init.body.includes('"__RAW:')) {
    init = { ...init, body: init.body.replace(/"__RAW:([^"]*)"/g, (_, lit) => (lit === "HUGE" ? HUGE : lit)) };
  }
  return fetch(u, init);
}

async function open(url) {
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: rawFetch });
  const client = new Client({ name: "h22-hostile", version: "0.0.1" });
  await client.connect(transport);
  return {
    async call(name, args) {
      const t0 = performance.now();
      try {
        const r = await client.callTool({ name, arguments: args });
        const text = (r.content ?? []).map((c) => c.text ?? "").join("\n");
        let json;
        try {
          json = JSON.parse(text);
        } catch {}
        return { isError: !!r.isError, text, json, ms: performance.now() - t0 };
      } catch (e) {
        const m = String(e?.message ?? e);
        return { protocol: true, code: e?.code, isError: true, text: m, ms: performance.now() - t0 };
      }
    },
    async close() {
      await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}

const place = (acct, sym, o) => ({ aliceId: `${acct}|${sym}`, action: "BUY", orderType: "MKT", ...o });
const count = (s, sub) => s.split(sub).length - 1;

async function positions(s, acct) {
  const r = await s.call("getPortfolio", { source: acct });
  return r.json?.[acct]?.positions ?? [];
}
async function held(s, acct, sym) {
  const p = (await positions(s, acct)).find((x) => x.contract.symbol === sym);
  return p ? Number(p.quantity) : 0;
}

async function attack(url, configDir) {
  const s = await open(url);

  console.log("# listUTAs says where an agent may trade");
  let r = await s.call("listUTAs", {});
  const byId = Object.fromEntries((r.json ?? []).map((a) => [a.id, a]));
  check(byId["sim-ro"]?.readOnly === true && byId["sim-ro"]?.agentsMayStage === false && /read-only/.test(byId["sim-ro"]?.stagingNote ?? ""), "sim-ro: readOnly, agentsMayStage false, says why", byId["sim-ro"]);
  check(byId["sim-auto"]?.readOnly === false && byId["sim-auto"]?.aiTrading === true && byId["sim-auto"]?.agentsMayStage === true, "sim-auto: agents may stage", byId["sim-auto"]);

  console.log("# the old cashQty bypass");
  r = await s.call("placeOrder", place("sim-auto", "MSFT", { totalQuantity: "100", cashQty: "1", commitMessage: "bypass" }));
  check(r.isError && !r.protocol && /exactly one of totalQuantity/.test(r.text), "totalQuantity 100 + cashQty 1 is refused at staging", r.text);
  r = await s.call("placeOrder", place("sim-auto", "MSFT", { cashQty: "37000", commitMessage: "cash 37000" }));
  check(!r.isError, "cashQty 37000 alone stages (valued at its cash)", r.text);
  r = await s.call("tradingPush", { source: "sim-auto" });
  let rej = r.json?.[0]?.result?.rejected ?? [];
  check(rej.length === 1 && /max-order-value/.test(rej[0].error) && /cashQty of at most 5000/.test(rej[0].error), "...and max-order-value stops it at push, saying what fits", r.text);
  r = await s.call("placeOrder", place("sim-auto", "MSFT", { totalQuantity: "100", commitMessage: "qty 100" }));
  r = await s.call("tradingPush", { source: "sim-auto" });
  rej = r.json?.[0]?.result?.rejected ?? [];
  check(rej.length === 1 && /Order value 3\d{4}\.\d\d for MSFT exceeds the limit 5000; at this price at most 13 MSFT fit/.test(rej[0].error), "100 MSFT (≈ 36,700) is stopped by max-order-value with the largest part that fits", rej[0]?.error);
  check((await held(s, "sim-auto", "MSFT")) === 0, "nothing of MSFT executed");

  console.log("# numbers a careless or hostile agent sends");
  const bad = [
    ["-1", /must be > 0/], ["0", /must be > 0/], ["NaN", /not a decimal number/], ["Infinity", /not a decimal number/],
    ["1e400", /plain decimal notation/], ["1e-30", /plain decimal notation/], ["0.000000000000000000000000000001", /too long|decimal places/],
    ["0.00001", /lot size 0.0001/], ["1000000000000.5", /significant digits|above the limit|too long/], ["0x10", /not a decimal number/],
    ["1_000", /not a decimal number/], ["１", /not a decimal number/], ["1e3", /plain decimal notation/], ["9".repeat(40), /too long/],
    ["9".repeat(3_000_000), /3000000 characters is too long/],
    ["__RAW:-5", /must be string/], ["__RAW:0", /must be string/], ["__RAW:1.5", /must be string/],
    ["__RAW:1e400", /1e400 is out of range/], ["__RAW:-1e400", /out of range/], ["__RAW:HUGE", /3000000 characters is too long/],
  ];
  for (const [q, want] of bad) {
    const label = q.length > 40 ? `${q.startsWith("__RAW:") ? "raw number" : "string"} of ${q === "__RAW:HUGE" ? 3_000_000 : q.length} digits` : JSON.stringify(q);
    r = await s.call("placeOrder", place("sim-auto", "AAPL", { totalQuantity: q }));
    check(r.isError && !r.protocol && want.test(r.text) && r.text.length < 500, `totalQuantity ${label}: tool error in ${r.ms.toFixed(0)} ms, ${r.text.length} chars`, r.text);
  }
  for (const [p, want] of [["-150", /must be > 0/], ["0", /must be > 0/], ["NaN", /not a decimal/], ["1e400", /plain decimal/], ["150.001", /tick size/], ["__RAW:1e400", /out of range/]]) {
    r = await s.call("placeOrder", place("sim-auto", "AAPL", { orderType: "LMT", totalQuantity: "1", lmtPrice: p, tif: "GTC" }));
    check(r.isError && !r.protocol && want.test(r.text), `lmtPrice ${JSON.stringify(p)}: tool error`, r.text);
  }
  for (const [q, want] of [["1e400", /plain decimal/], ["-3", /must be > 0/], ["__RAW:1e400", /out of range/], ["5", /more than the 0 held/]]) {
    r = await s.call("closePosition", { aliceId: "sim-auto|AAPL", qty: q });
    check(r.isError && !r.protocol && want.test(r.text), `closePosition qty ${JSON.stringify(q)}: tool error`, r.text);
  }
  r = await s.call("modifyOrder", { source: "sim-auto", orderId: "nope", totalQuantity: "5" });
  check(r.isError && /order "nope": the simulator has no such order/.test(r.text), "modifyOrder of an unknown order is refused at staging", r.text);
  r = await s.call("cancelOrder", { source: "sim-auto", orderId: "../../etc/passwd" });
  check(r.isError && /no such order/.test(r.text), "cancelOrder of a path-like id is refused", r.text);
  r = await s.call("tradingStatus", { source: "sim-auto" });
  check((r.json?.["sim-auto"]?.staged ?? []).length === 0, "none of them was staged", r.text);

  console.log("# read-only account and the AI-trading switch");
  r = await s.call("placeOrder", place("sim-ro", "AAPL", { totalQuantity: "1" }));
  check(r.isError && /read-only/.test(r.text), "placeOrder on sim-ro is refused", r.text);
  r = await s.call("closePosition", { aliceId: "sim-ro|AAPL" });
  check(r.isError && /read-only/.test(r.text), "closePosition on sim-ro is refused", r.text);
  const agentFile = path.join(configDir, "agent.json");
  const hadAgent = fs.existsSync(agentFile);
  const before = hadAgent ? fs.readFileSync(agentFile, "utf8") : null;
  fs.writeFileSync(agentFile, JSON.stringify({ ...(before ? JSON.parse(before) : {}), aiTrading: false }));
  r = await s.call("placeOrder", place("sim-auto", "AAPL", { totalQuantity: "1" }));
  check(r.isError && /AI trading is off/.test(r.text), "aiTrading false: an agent's placeOrder is refused", r.text);
  r = await s.call("listUTAs", {});
  const auto = (r.json ?? []).find((a) => a.id === "sim-auto");
  check(auto?.aiTrading === false && auto?.agentsMayStage === false && /aiTrading: false/.test(auto?.stagingNote ?? ""), "listUTAs shows aiTrading off", auto);
  if (hadAgent) fs.writeFileSync(agentFile, before);
  else fs.rmSync(agentFile);
  r = await s.call("placeOrder", place("sim-auto", "AAPL", { totalQuantity: "1" }));
  check(!r.isError, "switched back on: staging works again", r.text);
  await s.call("tradingReject", { source: "sim-auto", reason: "cleanup" });

  console.log("# stale and foreign hashes, pushing twice");
  r = await s.call("placeOrder", place("sim-manual", "AAPL", { totalQuantity: "5", commitMessage: "manual 5" }));
  const mh = r.json?.committed?.hash;
  r = await s.call("tradingPush", { source: "sim-manual" });
  check(r.json?.[0]?.status === "pending" && r.json?.[0]?.pending?.hash === mh, `sim-manual push waits for a person (hash ${mh})`, r.text);
  r = await s.call("tradingPush", { source: "sim-manual" });
  check(r.json?.[0]?.status === "pending" && r.json?.[0]?.pending?.hash === mh, "pushing again: still the same pending commit, nothing executed", r.text);
  r = await s.call("placeOrder", place("sim-manual", "AAPL", { totalQuantity: "1" }));
  check(r.isError && /waiting for a person's approval/.test(r.text), "staging on the frozen account is refused", r.text);
  r = await s.call("tradingReject", { source: "sim-manual", hash: "deadbeef", reason: "x" });
  check(r.isError && new RegExp(`no longer the prepared commit \\(now ${mh}\\); nothing was executed`).test(r.text), "tradingReject with a stale hash is refused", r.text);
  r = await s.call("tradingReject", { source: "sim-auto", hash: mh, reason: "x" });
  check(r.isError && /no longer waiting/.test(r.text), "tradingReject with another account's hash is refused", r.text);
  r = await s.call("tradingShow", { hash: mh });
  check(!r.isError && r.json?.evidence && /max-order-value/.test(r.json?.summary ?? ""), "tradingShow shows the pending commit with its evidence", r.text.slice(0, 200));
  r = await s.call("tradingReject", { source: "sim-manual", hash: mh, reason: "hostile: no" });
  check(!r.isError && r.json?.message === "[rejected] manual 5 — hostile: no", "reject with the right hash: reason once", r.json?.message);
  r = await s.call("placeOrder", place("sim-manual", "AAPL", { totalQuantity: "2" }));
  r = await s.call("tradingReject", { source: "sim-manual", reason: "changed my mind" });
  check(!r.isError && count(r.json?.message ?? "", "changed my mind") === 1, `hash-less reject of a bare staging area: reason once (${r.json?.message})`, r.text);
  check((await held(s, "sim-manual", "AAPL")) === 0, "sim-manual executed nothing");

  r = await s.call("placeOrder", place("sim-auto", "AAPL", { totalQuantity: "10", commitMessage: "buy 10 once" }));
  const ah = r.json?.committed?.hash;
  r = await s.call("tradingPush", { source: "sim-auto" });
  const sub = r.json?.[0]?.result?.submitted ?? [];
  check(r.json?.[0]?.status === "pushed" && sub.length === 1 && sub[0].filledQty === "10", `push ${ah}: 10 AAPL filled at ${sub[0]?.filledPrice}`, r.text);
  r = await s.call("tradingPush", { source: "sim-auto" });
  check(r.isError && /no pending commit/.test(r.text), "pushing again executes nothing", r.text);
  r = await s.call("orderHistory", { source: "sim-auto", limit: 50 });
  const rows = (Array.isArray(r.json) ? r.json : []).filter((x) => x.commitHash === ah);
  check(rows.length === 1 && rows[0].status === "filled", "orderHistory: the commit executed once", rows);
  r = await s.call("cancelOrder", { source: "sim-auto", orderId: rows[0]?.orderId ?? "-" });
  check(r.isError && /is already filled/i.test(r.text), "cancelling the filled order is refused at staging", r.text);
  check((await held(s, "sim-auto", "AAPL")) === 10, "position: 10 AAPL");

  console.log("# five clients push the same commit at once");
  r = await s.call("placeOrder", place("sim-auto", "AAPL", { totalQuantity: "3", commitMessage: "race 3" }));
  const rh = r.json?.committed?.hash;
  const racers = await Promise.all([...Array(5)].map(() => open(url)));
  const outs = await Promise.all(racers.map((c) => c.call("tradingPush", { source: "sim-auto" })));
  await Promise.all(racers.map((c) => c.close()));
  const pushed = outs.filter((o) => !o.isError && o.json?.[0]?.status === "pushed");
  check(pushed.length === 1 && outs.filter((o) => o.isError).every((o) => /no pending commit|no longer|nothing was executed/.test(o.text)),
    `exactly one of 5 concurrent pushes executed ${rh}; the others: ${[...new Set(outs.filter((o) => o.isError).map((o) => o.text.slice(0, 60)))].join(" | ")}`, outs.map((o) => o.text.slice(0, 120)));
  r = await s.call("orderHistory", { source: "sim-auto", limit: 50 });
  check((Array.isArray(r.json) ? r.json : []).filter((x) => x.commitHash === rh).length === 1, "orderHistory: once");
  check((await held(s, "sim-auto", "AAPL")) === 13, "position: 13 AAPL");

  console.log("# a modify the guards refuse leaves the order as it was");
  r = await s.call("placeOrder", place("sim-auto", "AAPL", { orderType: "LMT", totalQuantity: "20", lmtPrice: "150", tif: "GTC", commitMessage: "rest 20 @150" }));
  r = await s.call("tradingPush", { source: "sim-auto" });
  const oid = r.json?.[0]?.result?.submitted?.[0]?.orderId;
  check(!!oid, `resting order ${oid}`, r.text);
  r = await s.call("modifyOrder", { source: "sim-auto", orderId: oid, totalQuantity: "40", commitMessage: "raise to 40" });
  r = await s.call("tradingPush", { source: "sim-auto" });
  rej = r.json?.[0]?.result?.rejected ?? [];
  check(rej.length === 1 && rej[0].error.includes(`nothing was sent to the broker: order ${oid} is unchanged (BUY 20 AAPL LMT 150 GTC, still resting)`), "modify to 40 (6,000) refused, and says the order is unchanged", rej[0]?.error);
  r = await s.call("getOrders", { source: "sim-auto", orderIds: [oid] });
  const o = r.json?.["sim-auto"]?.[0];
  check(o?.order?.totalQuantity === "20" && o?.order?.lmtPrice === "150" && /Submitted|submitted|PreSubmitted/i.test(o?.status ?? ""), "the broker's order is still 20 @ 150, resting", o);

  console.log("# a close larger than max-order-value");
  for (let i = 0; i < 3; i++) {
    await s.call("placeOrder", place("sim-auto", "AAPL", { totalQuantity: "24", commitMessage: `add 24 #${i}` }));
    r = await s.call("tradingPush", { source: "sim-auto" });
    check((r.json?.[0]?.result?.submitted ?? []).length === 1, `add 24 AAPL #${i}`, r.text);
  }
  const pos = await held(s, "sim-auto", "AAPL");
  r = await s.call("closePosition", { aliceId: "sim-auto|AAPL", commitMessage: "close all" });
  const m = /at most ([0-9.]+) AAPL per order at this price: close it in (\d+) parts/.exec(r.text);
  check(r.isError && /above max-order-value 5000: nothing was staged/.test(r.text) && m, `close of ${pos} AAPL refused at staging: ${m ? `parts of ${m[1]}, ${m[2]} parts` : ""}`, r.text);
  r = await s.call("tradingStatus", { source: "sim-auto" });
  check((r.json?.["sim-auto"]?.staged ?? []).length === 0, "nothing staged");
  if (m) {
    const part = Number(m[1]);
    const n = Math.floor(pos / part);
    const rest = +(pos - n * part).toFixed(4);
    const sizes = [...Array(n).fill(m[1]), ...(rest > 0 ? [String(rest)] : [])];
    for (const [i, q] of sizes.entries()) {
      r = await s.call("closePosition", { aliceId: "sim-auto|AAPL", qty: q, ...(i === sizes.length - 1 ? { commitMessage: "close in parts" } : {}) });
      check(!r.isError, `stage part ${i + 1}/${sizes.length}: ${q}`, r.text);
    }
    r = await s.call("tradingPush", { source: "sim-auto" });
    const parts = r.json?.[0]?.result?.submitted ?? [];
    const values = parts.map((p) => Number(p.filledQty) * Number(p.filledPrice));
    check(parts.length === sizes.length && values.every((v) => v <= 5000), `each part executed within 5000: ${values.map((v) => v.toFixed(2)).join(", ")}`, r.text);
    check((await held(s, "sim-auto", "AAPL")) === 0, "position closed");
  }
  await s.close();
}

async function stage(url, what) {
  const s = await open(url);
  const acct = what === "awaiting" ? "sim-manual" : "sim-auto";
  const args = place(acct, "MSFT", { totalQuantity: "5", ...(what !== "staged" ? { commitMessage: "crash test 5 MSFT" } : {}) });
  let r = await s.call("placeOrder", args);
  check(!r.isError, `staged${what !== "staged" ? " and committed " + r.json?.committed?.hash : ""}`, r.text);
  const hash = r.json?.committed?.hash ?? "";
  if (what === "awaiting") {
    r = await s.call("tradingPush", { source: acct });
    check(r.json?.[0]?.status === "pending" && r.json?.[0]?.pending?.hash === hash, `pushed: ${hash} awaits a person`, r.text);
  }
  console.log(`HASH=${hash}`);
  console.log(`HELD=${await held(s, acct, "MSFT")}`);
  await s.close();
}

async function after(url, what, hash, heldBefore) {
  const s = await open(url);
  if (what === "awaiting") {
    let r = await s.call("tradingStatus", { source: "sim-manual" });
    const st = r.json?.["sim-manual"] ?? {};
    check(st.pendingHash === hash && st.awaitingApproval === true, `after kill -9 and restart: ${hash} still awaits a person`, st);
    r = await s.call("placeOrder", place("sim-manual", "AAPL", { totalQuantity: "1" }));
    check(r.isError && new RegExp(`commit ${hash}`).test(r.text), "staging is still frozen", r.text);
    r = await s.call("tradingPush", { source: "sim-manual" });
    check(r.json?.[0]?.status === "pending" && r.json?.[0]?.pending?.hash === hash, "an agent's push still only asks a person", r.text);
    r = await s.call("tradingReject", { source: "sim-manual", hash, reason: "after the crash" });
    check(!r.isError && r.json?.message === "[rejected] crash test 5 MSFT — after the crash", "withdrawn with its hash", r.text);
    check((await held(s, "sim-manual", "MSFT")) === Number(heldBefore), "nothing executed");
    await s.close();
    return;
  }
  let r = await s.call("tradingStatus", { source: "sim-auto" });
  const st = r.json?.["sim-auto"] ?? {};
  check((await held(s, "sim-auto", "MSFT")) === Number(heldBefore), `after kill -9 and restart: nothing executed (MSFT held ${heldBefore})`);
  if (what === "committed") {
    check(st.pendingHash === hash && (st.staged ?? []).length === 1, `the commit ${hash} survived`, st);
    r = await s.call("tradingPush", { source: "sim-auto" });
    const sub = r.json?.[0]?.result?.submitted ?? [];
    check(r.json?.[0]?.result?.hash === hash && sub.length === 1 && sub[0].filledQty === "5", `push executes ${hash}: 5 MSFT`, r.text);
    r = await s.call("tradingPush", { source: "sim-auto" });
    check(r.isError && /no pending commit/.test(r.text), "a second push executes nothing", r.text);
    r = await s.call("orderHistory", { source: "sim-auto", limit: 200 });
    const rows = (Array.isArray(r.json) ? r.json : []).filter((x) => x.commitHash === hash);
    check(rows.length === 1 && rows[0].filledQty === "5", "executed = approved, once", rows);
    check((await held(s, "sim-auto", "MSFT")) === Number(heldBefore) + 5, "position +5 MSFT");
  } else {
    check(!st.pendingHash && (st.staged ?? []).length === 1, "the staged order survived, uncommitted", st);
    r = await s.call("tradingReject", { source: "sim-auto", reason: "after the crash" });
    check(!r.isError && r.json?.message === "[rejected] staged operations (never committed) — after the crash", "discarded; nothing executed", r.text);
  }
  await s.close();
}

const [mode, ...rest] = process.argv.slice(2);
try {
  if (mode === "attack") await attack(rest[0], rest[1]);
  else if (mode === "stage") await stage(rest[0], rest[1]);
  else if (mode === "after") await after(rest[0], rest[1], rest[2], rest[3]);
  else {
    console.error("usage: hostile.mjs attack <url> <configDir> | stage <url> staged|committed|awaiting | after <url> staged|committed|awaiting <hash> <heldBefore>");
    process.exit(2);
  }
} catch (e) {
  failures++;
  console.log("  FAIL unexpected error:", e?.stack ?? e);
}
console.log(failures === 0 ? `hostile ${mode}: all checks passed` : `hostile ${mode}: ${failures} check(s) failed`);
process.exit(failures);
