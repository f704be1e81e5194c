// go-mysql-js or @solashi/go-mysql-binlog-node alone: no adapter, no harness primary. Used as
// the README shows: `await MysqlBinlog.create(config)`, then on('event') and on('error').
//
//   node go_mysql.js '{"package_dir": DIR, "config": {...}, "quiet_ms": N}'
//
// {"ready": true} once it listens, or {"error": message, "rejected": "create"} if create() is
// rejected (then it exits); one JSON line per row event ({"event": ...} as the library
// gives it), per error ({"error": message}); then {"end": "quiet" | "close"}: quiet after
// quiet_ms without any.
"use strict";
const path = require("path");

// The wrappers console.log the Go side's error messages: to stderr, stdout carries the lines.
console.log = console.error;

(async () => {
  const options = JSON.parse(process.argv[2]);
  const mod = require(path.join(options.package_dir, "dist", "binding.js"));
  const MysqlBinlog = mod.default || mod;
  const out = (line) => process.stdout.write(JSON.stringify(line) + "\n");
  let syncer;
  try {
    syncer = await MysqlBinlog.create(options.config);
  } catch (err) {
    // The Go side's connect_error (canal refusing the server), as create() rejects with it.
    out({ error: String(err.message || err), rejected: "create" });
    process.exit(0);
  }
  let timer = null;
  let ended = false;
  const end = (how) => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    out({ end: how });
    syncer.close().catch(() => {}).finally(() => process.exit(0));
  };
  const quiet = () => { clearTimeout(timer); timer = setTimeout(() => end("quiet"), options.quiet_ms || 5000); };
  syncer.on("event", (event) => { out({ event }); quiet(); });
  syncer.on("error", (err) => { out({ error: String(err.message || err) }); quiet(); });
  syncer.on("close", () => end("close"));
  out({ ready: true });
  quiet();
})();
