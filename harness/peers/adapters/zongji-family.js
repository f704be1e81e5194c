// The ZongJi family (zongji, @vlasky/zongji, @powersync/mysql-zongji): a binlog client that
// connects as a replica and emits one 'binlog' event per decoded event. Mapped to the canonical
// model as far as the library exposes it:
// - header: timestamp (ms / 1000), nextPosition; event_size from the library's `size` (body
//   length) plus the header and checksum it stripped; position = next_position - event_size;
// - bodies of the event classes it decodes; row images positional, in the table map's column
//   order, values converted per column type below.
// The artificial Rotate a primary sends first (timestamp 0, next_position 0), and the
// Format_description it resends with next_position 0 when a dump starts inside a file, are not
// in the binlog and are not reported. MariaDB 11 writes next_position 0 on the events inside a
// transaction: their position is taken to be where the previous event ended, and marked
// undetermined (a server leaves out events a client did not ask for, e.g. Annotate_rows).
"use strict";
const { integer, text, mysqlJson, endReached } = require("./common.js");

const HEADER_LEN = 19;
const ROWS = ["rows", "table_id"];

// ---- column values: type code -> conversion of the library's value ---------------------------
const pad = (n, w) => String(n).padStart(w, "0");
const ymd = (d) => `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
const hms = (d) => `${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`;
const fraction = (ms, fsp) => (fsp ? "." + pad(ms * 1000, 6).slice(0, fsp) : "");
const fspOf = (col) => (col.metadata && col.metadata.decimals) || 0;

function enumList(schema) {
  const m = /^(?:enum|set)\((.*)\)$/i.exec((schema && schema.COLUMN_TYPE) || "");
  return m ? [...m[1].matchAll(/'((?:[^']|'')*)'/g)].map((x) => x[1].replace(/''/g, "'")) : null;
}

function bitsValue(v) {
  if (!Buffer.isBuffer(v)) return integer(v);
  return integer(BigInt("0x" + (v.toString("hex") || "0")));
}

const asInt = integer;  // number, or the exact text/BigInt of a 64-bit value
const asText = (v) => (typeof v === "string" || Buffer.isBuffer(v) ? text(v) : unmapped(v));
const asDecimal = (v, col) => ({ type: "decimal", value: typeof v === "number" ? v.toFixed(col.metadata.decimals) : String(v) });
// An invalid Date (what the library makes of a zero date) is shown as such, never as digits.
const isDate = (v) => v instanceof Date && !Number.isNaN(v.getTime());
const asDate = (v) => ({ type: "date", value: isDate(v) ? ymd(v) : String(v) });
const asDatetime = (v, col) => ({ type: "datetime", value: isDate(v)
  ? `${ymd(v)} ${hms(v)}${fraction(v.getUTCMilliseconds(), fspOf(col))}` : String(v) });
const asTimestamp = (v, col) => ({ type: "timestamp", value: isDate(v)
  ? `${Math.floor(v.getTime() / 1000)}${fraction(((v.getTime() % 1000) + 1000) % 1000, fspOf(col))}` : String(v) });
const asTime = (v) => ({ type: "time", value: String(v) });
const asJson = (v) => ({ type: "json", value: mysqlJson(typeof v === "string" ? JSON.parse(v) : v) });
const asEnum = (v, col, schema) => { const i = (enumList(schema) || []).indexOf(v); return i < 0 ? v : i + 1; };
const asSet = (v, col, schema) => {
  const names = enumList(schema) || [];
  const members = Array.isArray(v) ? v : String(v).split(",").filter(Boolean);
  return integer(members.reduce((m, s) => m | (1n << BigInt(names.indexOf(s))), 0n));
};

const VALUE = {
  1: asInt, 2: asInt, 3: asInt, 8: asInt, 9: asInt, 13: asInt,        // TINY..LONGLONG, INT24, YEAR
  0: asDecimal, 246: asDecimal,                                        // DECIMAL, NEWDECIMAL
  4: (v) => v, 5: (v) => v,                                            // FLOAT, DOUBLE
  15: asText, 253: asText, 254: asText, 249: asText, 250: asText, 251: asText, 252: asText,
  16: bitsValue,                                                       // BIT
  10: asDate, 14: asDate,
  12: asDatetime, 18: asDatetime,
  7: asTimestamp, 17: asTimestamp,
  11: asTime, 19: asTime,
  245: asJson,
  247: asEnum, 248: asSet,
};

// A value the library gives in a form the canonical model has no rule for (a parsed GEOMETRY
// object, ...) is tagged "unmapped" with the library's own JSON: reported, never guessed.
function unmapped(v) {
  return { type: "unmapped", value: JSON.stringify(v, (k, x) => (typeof x === "bigint" ? x.toString() : x)) };
}

function columnValue(col, schema, v) {
  if (v === null || v === undefined) return null;
  const convert = VALUE[col.type];
  if (!convert) return Buffer.isBuffer(v) ? text(v) : unmapped(v);
  try {
    return convert(v, col, schema);
  } catch {
    return unmapped(v);
  }
}

// The columns present in an image (binlog_row_image=MINIMAL/NOBLOB leave some out), from the
// library's own parse of the columns-present bitmap; every column when it has none.
function present(bitmap, n) {
  const all = [...Array(n).keys()];
  return bitmap ? all.filter((i) => (bitmap[i >> 3] >> (i & 7)) & 1) : all;
}

function image(table, row, bitmap) {
  const schemas = table.columnSchemas || [];
  const columns = present(bitmap, table.columns.length);
  return { values: columns.map((i) => columnValue(table.columns[i], schemas[i], row[table.columns[i].name])) };
}

function rowsBody(ev) {
  const table = ev.tableMap[ev.tableId];
  const before = ev.columns_present_bitmap;
  const after = ev.columns_present_bitmap2 || before;
  const rows = (ev.rows || []).map((r) => (r.before !== undefined && r.after !== undefined
    ? { before_image: image(table, r.before, before), after_image: image(table, r.after, after) }
    : image(table, r, before)));
  return { table_id: ev.tableId, rows };
}

// ---- event classes: library event name -> [canonical type names, body] ---------------------
const BODIES = {
  format: [["FORMAT_DESCRIPTION_EVENT"], [], () => ({})],
  rotate: [["ROTATE_EVENT"], ["pos", "new_log_ident"], (e) => ({ pos: integer(e.position), new_log_ident: text(e.binlogName) })],
  query: [["QUERY_EVENT"], ["thread_id", "query_exec_time", "error_code", "db", "query"],
    (e) => ({ thread_id: e.slaveProxyId, query_exec_time: e.executionTime, error_code: e.errorCode,
              db: text(e.schema), query: text(e.query) })],
  xid: [["XID_EVENT"], ["xid"], (e) => ({ xid: integer(e.xid) })],
  tablemap: [["TABLE_MAP_EVENT"], ["table_id", "schema", "table", "column_count"],
    (e) => ({ table_id: e.tableId, schema: text(e.schemaName), table: text(e.tableName), column_count: e.columnCount })],
  writerows: [["WRITE_ROWS_EVENT_V1", "WRITE_ROWS_EVENT"], ROWS, rowsBody],
  updaterows: [["UPDATE_ROWS_EVENT_V1", "UPDATE_ROWS_EVENT"], ROWS, rowsBody],
  deleterows: [["DELETE_ROWS_EVENT_V1", "DELETE_ROWS_EVENT"], ROWS, rowsBody],
};

function capabilities(table) {
  const bodies = {};
  for (const [types, fields] of Object.values(table)) for (const t of types) bodies[t] = fields;
  return { header: ["position", "event_size", "next_position", "timestamp"], bodies,
           every_event: false, partial_events: true,
           schema_lookups: true };  // ZongJi names columns from information_schema.columns
}

// extra: more library event names -> [types, fields, body] (forks decode more classes);
// omit: event names the fork does not report every time (so they are not claimed).
function zongjiAdapter(name, pkg, { extra = {}, omit = [] } = {}) {
  const table = { ...BODIES, ...extra };
  for (const kind of omit) delete table[kind];
  return {
    name, package: pkg, capabilities: capabilities(table),
    stream(mod, request) {
      const ZongJi = mod.default || mod;
      return new Promise((resolve) => {
        const events = [];
        let file = request.file;
        let end = request.start_position;  // where the last event of the binlog ended
        let done = false;
        const z = new ZongJi({ host: request.host, port: request.port, user: request.user,
                               password: request.password || "" });
        const finish = (error) => {
          if (done) return;
          done = true;
          try { z.stop(); } catch { /* already closed */ }
          resolve({ events, error });
        };
        z.on("binlog", (ev) => {
          if (done) return;  // events already in flight when the end was reached
          const kind = ev.getEventName();
          const np = ev.nextPosition;
          // Sender-made: the Rotate a dump starts with, and the Format_description it resends
          // (log_pos 0) when the dump starts inside a file.
          if (np === 0 && (kind === "rotate" || kind === "format" || ev.timestamp === 0)) return;
          const size = ev.size + HEADER_LEN + (z.useChecksum ? 4 : 0);
          const position = np !== 0 ? np - size : end;
          end = position + size;
          if (table[kind]) {
            const event = { position, event_size: size, next_position: np,
                            timestamp: Math.floor(ev.timestamp / 1000), body: table[kind][2](ev) };
            // Derived, not given: right only if the server sent every event before it.
            if (np === 0) event._undetermined = ["position"];
            events.push(event);
          }
          if (endReached(request, file, end)) finish();
          if (kind === "rotate") file = ev.binlogName;
        });
        z.on("error", (err) => finish(Object.assign(err, { offset: events.length ? events[events.length - 1].next_position : null })));
        z.start({ serverId: 0x10000 + Math.floor(Math.random() * 0xffff), filename: request.file,
                  position: request.start_position });
        if (endReached(request, request.file, request.start_position)) finish();  // an empty range
      });
    },
  };
}

module.exports = { zongjiAdapter, BODIES };
