// Shared by the Node adapters (harness/parsers/node-shared/, copied beside each adapter by
// harness/runtimes/node.py): the persistent JSON-lines protocol of the harness
// (docs/plugin-contract.md) with the stream fields of a parse request, loading a pinned npm
// package from the build's node_modules, and the canonical value rules of oracle/values.py.
"use strict";
// Row values are read in UTC (before any library loads); the packages sit in node_modules beside
// this file, in the build directory `python -m harness peers install` made.
process.env.TZ = "UTC";
process.env.BINLOG_PEERS_MODULES = process.env.BINLOG_PEERS_MODULES || require("path").join(__dirname, "node_modules");
const fs = require("fs");
const path = require("path");
const readline = require("readline");
const { pathToFileURL } = require("url");

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

// stdout carries the protocol only; libraries that log with console.log (go-mysql-js prints
// its error messages so) go to stderr with everything else.
console.log = console.info = console.debug = console.error;

// ---- values (oracle/values.py) -------------------------------------------------------------
function integer(v) {
  if (typeof v === "number") return v;
  const big = BigInt(v);
  return big <= MAX_SAFE && big >= -MAX_SAFE ? Number(big) : { type: "int", value: big.toString() };
}

function hex(buf) {
  return Buffer.from(buf).toString("hex");
}

function text(v) {
  if (typeof v === "string") return v;
  const buf = Buffer.from(v);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(buf);
  } catch {
    return { type: "bytes", value: hex(buf) };
  }
}

// MySQL's rendering of a JSON document (JSON_PRETTY aside): ", " and ": " separators.
function mysqlJson(v) {
  if (v === null || v === undefined) return "null";
  if (Array.isArray(v)) return "[" + v.map(mysqlJson).join(", ") + "]";
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") return JSON.stringify(v).replace("e+", "e");
  if (typeof v === "object" && !(v instanceof Date)) {
    return "{" + Object.entries(v).map(([k, x]) => JSON.stringify(k) + ": " + mysqlJson(x)).join(", ") + "}";
  }
  return JSON.stringify(v);
}

// ---- event naming (docs/plugin-contract.md, "type") -----------------------------------------
// Every rows event type of the canonical model (oracle.events.ROWS_TYPES): each adapter claims
// them all, so rows a library does not deliver are a failed check, never excused.
const ROWS_TYPES = ["PRE_GA_WRITE_ROWS_EVENT", "PRE_GA_UPDATE_ROWS_EVENT", "PRE_GA_DELETE_ROWS_EVENT",
  "WRITE_ROWS_EVENT_V1", "UPDATE_ROWS_EVENT_V1", "DELETE_ROWS_EVENT_V1",
  "WRITE_ROWS_EVENT", "UPDATE_ROWS_EVENT", "DELETE_ROWS_EVENT", "PARTIAL_UPDATE_ROWS_EVENT",
  "WRITE_ROWS_COMPRESSED_EVENT_V1", "UPDATE_ROWS_COMPRESSED_EVENT_V1", "DELETE_ROWS_COMPRESSED_EVENT_V1",
  "WRITE_ROWS_COMPRESSED_EVENT", "UPDATE_ROWS_COMPRESSED_EVENT", "DELETE_ROWS_COMPRESSED_EVENT"];

// ---- loading the npm package ---------------------------------------------------------------
function packageDir(name) {
  const root = process.env.BINLOG_PEERS_MODULES;
  if (!root) throw new Error("BINLOG_PEERS_MODULES is not set");
  const dir = path.join(root, ...name.split("/"));
  if (!fs.existsSync(path.join(dir, "package.json"))) {
    throw new Error(`npm package ${name} is not installed in ${root}`);
  }
  return dir;
}

async function loadPackage(name) {
  const dir = packageDir(name);
  const meta = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  const exp = meta.exports && (meta.exports["."] || meta.exports);
  const entry = (exp && (exp.import || exp.require || exp.default)) || meta.main || "index.js";
  const mod = await import(pathToFileURL(path.join(dir, typeof entry === "string" ? entry : entry.default)).href);
  return { lib: mod, version: meta.version };  // an ES module namespace (CommonJS: .default)
}

// ---- the end of a stream -------------------------------------------------------------------
// A request names where to start (file, start_position) and where the stream ends (end_file,
// end_position): the adapter stops there even though the library only knows blocking mode.
// Binlog files sort by their numeric extension (binlog.000009 < binlog.000010).
function fileOrder(a, b) {
  const num = (name) => Number(String(name).slice(String(name).lastIndexOf(".") + 1));
  const [x, y] = [num(a), num(b)];
  return Number.isNaN(x) || Number.isNaN(y) ? String(a).localeCompare(String(b)) : Math.sign(x - y);
}

function endReached(request, file, nextPosition) {
  if (!request.end_position) return false;  // 0: the end is unknown; the primary's ERR or EOF ends it
  const order = fileOrder(file, request.end_file);
  return order > 0 || (order === 0 && nextPosition >= request.end_position);
}

// ---- the protocol ---------------------------------------------------------------------------
class StreamError extends Error {
  constructor(kind, message, offset) {
    super(message);
    this.kind = kind;
    this.offset = offset === undefined ? null : offset;
  }
}

// The stream fields of docs/plugin-contract.md (StreamSource); idle_ms and first_event_ms are
// optional extras of the go-mysql adapters.
const REQUIRED = ["host", "port", "user", "file", "start_position", "end_file", "end_position"];

function validate(request) {
  const missing = REQUIRED.filter((k) => request[k] === undefined || request[k] === null);
  if (missing.length) throw new StreamError("BadRequest", `parse request lacks ${missing.join(", ")} (a stream parser reads from a primary, not a file)`);
}

// adapter: {name, package, capabilities, stream(lib, request) -> Promise<{events, error?, crash?}>}
// (crash: {signature, stack}, the library died: a crash, never a rejection)
// One-shot form (`--parser-stream "node NAME.js"`): the stream fields as flags, canonical
// events as JSON lines on stdout, a clean client error as `error: <Kind> at offset <N>: <message>`
// on stderr with exit status 1; `--hello` prints the hello line.
const FLAGS = { "--host": "host", "--port": "port", "--user": "user", "--password": "password",
                "--file": "file", "--start-position": "start_position", "--end-file": "end_file",
                "--end-position": "end_position", "--idle-ms": "idle_ms",
                "--first-event-ms": "first_event_ms" };
const NUMERIC = new Set(["port", "start_position", "end_position", "idle_ms", "first_event_ms"]);

function requestFromFlags(argv) {
  const request = { id: 1 };
  for (let i = 0; i < argv.length; i += 2) {
    const key = FLAGS[argv[i]];
    if (!key || i + 1 >= argv.length) throw new StreamError("BadRequest", `unknown or incomplete flag ${argv[i]}`);
    request[key] = NUMERIC.has(key) ? Number(argv[i + 1]) : argv[i + 1];
  }
  return request;
}

async function oneShot(adapter, loaded, hello, argv, out) {
  if (argv[0] === "--hello") {
    await out(hello);
    return 0;
  }
  if (!loaded) {
    process.stderr.write(`unavailable: ${hello.unavailable}\n`);
    return 2;
  }
  const reply = await answer(adapter, loaded, requestFromFlags(argv));
  for (const event of reply.events || []) await out(event);
  if (reply.type === "events") return 0;
  if (reply.type === "crashed") return dieOf(reply);
  const where = reply.offset === null || reply.offset === undefined ? "" : ` at offset ${reply.offset}`;
  process.stderr.write(`error: ${reply.kind || "BadRequest"}${where}: ${reply.message || reply.reason}\n`);
  return 1;
}

async function serve(adapter) {
  // Resolves once the line is handed to the OS: exiting earlier would cut a long reply short
  // (stdout to a pipe is asynchronous in Node).
  const out = (msg) => new Promise((resolve) => process.stdout.write(JSON.stringify(msg) + "\n", resolve));
  let loaded = null;
  let unavailable = null;
  try {
    loaded = await loadPackage(adapter.package);
  } catch (err) {
    unavailable = `${err.message}; provide it with: python -m harness peers install`;
  }
  const hello = { type: "hello", protocol: 1, name: adapter.name, version: loaded ? loaded.version : "not installed",
                  capabilities: adapter.capabilities, unavailable, transport: "stream",
                  modes: adapter.modes || ["position"], modes_unsupported: adapter.modesUnsupported || {} };
  // `node adapter.js stream`: the launcher names the transport (the only one these have).
  const argv = process.argv.slice(process.argv[2] === "stream" ? 3 : 2);
  if (argv.length) {
    process.exit(await oneShot(adapter, loaded, hello, argv, out));
  }
  await out(hello);
  let chain = Promise.resolve();
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on("line", (line) => {
    if (!line.trim()) return;
    chain = chain.then(() => answer(adapter, loaded, JSON.parse(line))).then(async (reply) => {
      if (reply.type !== "crashed") return out(reply);
      const { stack, ...sent } = reply;
      await out(sent);
      process.exit(dieOf(reply));
    });
  });
  rl.on("close", () => chain.then(() => process.exit(0)));
}

// A library that crashed (docs/plugin-contract.md, `crashed`): its stack, then its signature as
// the last line of stderr, and the exit status of an unrecovered Go panic, as the Go adapters do.
const CRASH_STATUS = 2;
function dieOf(reply) {
  process.stderr.write(`${reply.stack || ""}\n${reply.message}\n`);
  return CRASH_STATUS;
}

async function answer(adapter, loaded, message) {
  // The harness's persistent contract nests the fields under "stream"; the plugins send them flat.
  const request = message.stream ? { ...message, ...message.stream } : message;
  const id = request.id;
  if (!loaded) return { type: "skipped", id, reason: "package not installed" };
  try {
    validate(request);
  } catch (err) {
    return { type: "skipped", id, reason: err.message };
  }
  const { events, error, crash } = await adapter.stream(loaded.lib, request);
  if (crash) return { type: "crashed", id, message: crash.signature, stack: crash.stack, events };
  if (!error) return { type: "events", id, events };
  return { type: "error", id, kind: error.kind || error.code || error.name || "ClientError",
           offset: Number.isInteger(error.offset) ? error.offset : null,
           message: String(error.message || error), events };
}

module.exports = { integer, text, hex, mysqlJson, endReached, packageDir, StreamError, serve, ROWS_TYPES };
