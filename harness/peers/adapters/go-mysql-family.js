// go-mysql-js and its fork @solashi/go-mysql-binlog-node: a Go binary (go-mysql's canal) that
// connects as a replica and prints row changes as JSON, wrapped in a Node EventEmitter. It
// reports row events only, with column names (from the server's schema) and values as its
// JSON gives them; no header fields, no positions of the events themselves (binlogPosition is
// canal's position before the event's table map). So:
// - capabilities: the rows of the three row-event kinds, every_event false;
// - images by column name ("values_by_name"), values as the library gives them (no type tags:
//   the library does not say which column is a DECIMAL or a DATETIME);
// - the end: an event at or past the end position ends the stream; otherwise, since the
//   library shows nothing between row events, a quiet period: request.idle_ms (default 3000)
//   after the last event, or first_event_ms (default 15000) when none has come yet (the Go
//   side reads table schemas over SQL before its first event, slow on a loaded machine).
//   A heuristic, the one thing these libraries leave: a stream that pauses longer is cut.
"use strict";
const { integer, text, endReached } = require("./common.js");

const ROWS = ["rows"];
const KINDS = { insert: "WRITE_ROWS_EVENT", update: "UPDATE_ROWS_EVENT", delete: "DELETE_ROWS_EVENT" };

function value(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === "number" && Number.isInteger(v)) return integer(v);
  if (typeof v === "string") return text(v);
  return v;
}

function named(row) {
  return { values_by_name: Object.fromEntries(Object.entries(row).map(([k, v]) => [k, value(v)])) };
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
  return { header: [], bodies, every_event: false, partial_events: true };
}

function goMysqlAdapter(name, pkg) {
  return {
    name, package: pkg, capabilities: capabilities(),
    async stream(mod, request) {
      const MysqlBinlog = mod.default.default || mod.default;
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
        const finish = (error) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          syncer.close().catch(() => {}).finally(() => resolve({ events, error }));
        };
        const quiet = (ms) => { clearTimeout(timer); timer = setTimeout(() => finish(), ms); };
        syncer.on("event", (ev) => {
          if (done) return;
          const where = ev.binlogPosition || {};
          if (endReached(request, where.name, where.position)) return finish();
          const kind = Object.keys(KINDS).find((k) => ev[k] !== undefined);
          if (kind) events.push({ library_event: kind, body: { schema: text(ev.table.schema), table: text(ev.table.name), rows: rowsOf(ev, kind) } });
          quiet(idle);
        });
        syncer.on("error", (err) => finish(Object.assign(err, { offset: err.binlogPosition ? err.binlogPosition.position : null })));
        syncer.on("close", () => finish());
        quiet(firstEvent);
      });
    },
  };
}

module.exports = { goMysqlAdapter };
