// go-mysql-js and its fork @solashi/go-mysql-binlog-node: a Go binary (go-mysql's canal) that
// connects as a replica and prints row changes as JSON, wrapped in a Node EventEmitter. It
// reports row events only, with column names (from the server's schema) and values as its
// JSON gives them; no header fields, no positions of the events themselves (binlogPosition is
// canal's position before the event's table map). So:
// - capabilities: the rows of the three row-event kinds, every_event false;
// - images by column name (names + values, "order": "names"), values as the library gives
//   them, compared for the types in ROW_VALUE_TYPES only (no type tags come with them);
// - the end: an event at or past the end position ends the stream, and so does canal's own log
//   line "rotate binlog to (FILE, POS)" naming a file past the end file (logged through the
//   `debug` module; most binlogs end with a Rotate) leaves 1 s for rows still in flight;
//   otherwise, since the library shows nothing between row events, a quiet period: request.idle_ms (default 3000)
//   after the last event, or first_event_ms (default 15000) when none has come yet (the Go
//   side reads table schemas over SQL before its first event, slow on a loaded machine).
//   A heuristic, the one thing these libraries leave: a stream that pauses longer is cut.
"use strict";
const path = require("path");
const { integer, text, endReached } = require("./common.js");

// canal's log lines, seen through the `debug` module instance the wrappers log with (the
// hoisted one of the install); shown on stderr only when DEBUG asks for them, as before.
let logListener = null;
let hooked = false;
function hookLibraryLog() {
  if (hooked) return;
  hooked = true;
  const debug = require(path.join(process.env.BINLOG_PEERS_MODULES, "debug"));
  const show = process.env.DEBUG ? (debug.log || console.error) : null;
  debug.enable([process.env.DEBUG, "mysql_binlog"].filter(Boolean).join(","));
  debug.log = (...args) => {
    if (logListener) logListener(args.join(" "));
    if (show) show(...args);
  };
}
// The wrapper prints rows from a goroutine of their own: rows decoded before the Rotate may
// still be on their way when the log line comes, hence a short quiet period, not a stop.
const AFTER_ROTATE_MS = 1000;
const ROTATED = /rotate binlog to \(([^,]+), (\d+)\)/;

const ROWS = ["rows"];
// The column types whose values reach Node in a form that maps back without guessing (no type
// tags come with them: DECIMAL arrives as a float, FLOAT as float32 shortest text; temporal
// types, BIT and JSON as the library's own text; BLOB as base64 or text by a charset Node never
// sees; STRING is also ENUM and SET, given as member names).
const ROW_VALUE_TYPES = ["TINY", "SHORT", "INT24", "LONG", "LONGLONG", "YEAR", "DOUBLE",
                         "VARCHAR", "VAR_STRING"].map((t) => `MYSQL_TYPE_${t}`);
const KINDS = { insert: "WRITE_ROWS_EVENT", update: "UPDATE_ROWS_EVENT", delete: "DELETE_ROWS_EVENT" };

function value(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === "number" && Number.isInteger(v)) return integer(v);
  if (typeof v === "string") return text(v);
  return v;
}

// The library's row is a JSON object sorted by column name, not in the table's order:
// matched by name only (docs/plugin-contract.md, "order": "names").
function named(row) {
  const entries = Object.entries(row);
  return { names: entries.map(([k]) => k), values: entries.map(([, v]) => value(v)), order: "names" };
}

function rowsOf(ev, kind) {
  const change = ev[kind];
  const list = Array.isArray(change) ? change : [change];  // go-mysql-js: one row per event
  return list.map((r) => (kind === "update" ? { before_image: named(r.old), after_image: named(r.new) } : named(r)));
}

function capabilities() {
  const bodies = {};
  for (const t of Object.values(KINDS)) {
    bodies[t] = ROWS;
    bodies[t.replace("_EVENT", "_EVENT_V1")] = ROWS;
  }
  return { header: [], bodies, every_event: false, partial_events: true, row_values: ROW_VALUE_TYPES };
}

function goMysqlAdapter(name, pkg) {
  return {
    name, package: pkg, capabilities: capabilities(),
    async stream(mod, request) {
      const MysqlBinlog = mod.default.default || mod.default;
      hookLibraryLog();
      const events = [];
      const idle = request.idle_ms || 3000;
      const firstEvent = request.first_event_ms || 15000;
      let syncer;
      try {
        syncer = await MysqlBinlog.create({
          hostname: request.host, port: request.port, username: request.user,
          password: request.password || "", tableRegexes: [".*\\..*"],
          binlogPosition: { name: request.file, position: request.start_position },
        });
      } catch (err) {
        return { events, error: Object.assign(err, { kind: "ConnectError" }) };
      }
      return new Promise((resolve) => {
        let done = false;
        let timer = null;
        let rotated = false;
        const finish = (error) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          logListener = null;
          syncer.close().catch(() => {}).finally(() => resolve({ events, error }));
        };
        const quiet = (ms) => { clearTimeout(timer); timer = setTimeout(() => finish(), ms); };
        logListener = (line) => {
          const m = ROTATED.exec(line);
          if (m && !done && endReached(request, m[1], Number(m[2]))) {
            rotated = true;
            quiet(AFTER_ROTATE_MS);
          }
        };
        syncer.on("event", (ev) => {
          if (done) return;
          const where = ev.binlogPosition || {};
          if (endReached(request, where.name, where.position)) return finish();
          const kind = Object.keys(KINDS).find((k) => ev[k] !== undefined);
          if (kind) events.push({ library_event: kind, body: { schema: text(ev.table.schema), table: text(ev.table.name), rows: rowsOf(ev, kind) } });
          quiet(rotated ? AFTER_ROTATE_MS : idle);
        });
        syncer.on("error", (err) => finish(Object.assign(err, { offset: err.binlogPosition ? err.binlogPosition.position : null })));
        syncer.on("close", () => finish());
        quiet(firstEvent);
      });
    },
  };
}

module.exports = { goMysqlAdapter };
