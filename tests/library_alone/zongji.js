// A ZongJi fork alone (zongji, @vlasky/zongji, @powersync/mysql-zongji): no adapter, no harness
// primary. Used as the README shows: new ZongJi(connection), on('binlog'), start(options).
//
//   node zongji.js '{"package_dir": DIR, "connection": {...}, "start": {"filename", "position"},
//                    "end_position": N, "quiet_ms": N}'
//
// One JSON line per event the library emits: {name, next_position, query?, rows?}, row values
// as the library gives them (Buffer -> {"hex"}, Date -> {"date": ISO or "Invalid Date"},
// BigInt -> {"bigint"}); then one last line {"end": "reached" | "quiet" | "error", "error"?}:
// reached when an event ends at or past end_position, quiet after quiet_ms without an event.
"use strict";
const fs = require("fs");
const path = require("path");
const { pathToFileURL } = require("url");

function plain(v) {
  if (v === null || v === undefined) return null;
  if (Buffer.isBuffer(v)) return { hex: v.toString("hex") };
  if (v instanceof Date) return { date: Number.isNaN(v.getTime()) ? "Invalid Date" : v.toISOString() };
  if (typeof v === "bigint") return { bigint: v.toString() };
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

async function load(dir) {
  const meta = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  const exp = meta.exports && (meta.exports["."] || meta.exports);
  const entry = (exp && (exp.import || exp.default || exp.require)) || meta.main || "index.js";
  const mod = await import(pathToFileURL(path.join(dir, typeof entry === "string" ? entry : entry.default)).href);
  return mod.default || mod;
}

(async () => {
  const config = JSON.parse(process.argv[2]);
  const ZongJi = await load(config.package_dir);
  const out = (line) => process.stdout.write(JSON.stringify(line) + "\n");
  const zongji = new ZongJi(config.connection);
  let timer = null;
  let ended = false;
  const end = (how, error) => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    out({ end: how, ...(error ? { error: `${error.code || error.name}: ${error.message}` } : {}) });
    try { zongji.stop(); } catch { /* closed */ }
    setTimeout(() => process.exit(0), 200);
  };
  const quiet = () => { clearTimeout(timer); timer = setTimeout(() => end("quiet"), config.quiet_ms || 5000); };
  zongji.on("binlog", (ev) => {
    const line = { name: ev.getEventName(), next_position: ev.nextPosition };
    if (ev.query !== undefined) line.query = ev.query;
    if (ev.rows !== undefined) line.rows = plain(ev.rows);
    out(line);
    if (ev.nextPosition >= config.end_position && ev.getEventName() !== "rotate") return end("reached");
    quiet();
  });
  zongji.on("error", (err) => end("error", err));
  zongji.start({ serverId: 1000 + Math.floor(Math.random() * 100000), ...config.start });
  quiet();
})();
