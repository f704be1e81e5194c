// go-mysql-js or @solashi/go-mysql-binlog-node alone: no adapter, no harness primary. Used as
// the README shows: `await MysqlBinlog.create(config)`, then on('event') and on('error').
//
//   node go_mysql.js '{"package_dir": DIR, "config": {...}, "quiet_ms": N}'
//
// {"ready": true} once it listens; one JSON line per row event ({"event": ...} as the library
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
  const syncer = await MysqlBinlog.create(options.config);
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
