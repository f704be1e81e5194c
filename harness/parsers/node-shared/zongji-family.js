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
const { integer, text, mysqlJson, endReached, packageDir, ROWS_TYPES } = require("./common.js");

// The libraries format TIMESTAMP strings (dateStrings) in the process's local time zone (zongji,
// @powersync/mysql-zongji) or mysql2's `timezone`, default local (@vlasky/zongji): UTC makes the
// inverse exact (no daylight-saving hour read twice).
process.env.TZ = "UTC";

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
// Text a library decoded by the column's charset is encoded back with the same charset: the
// contract asks for the stored bytes (docs/plugin-contract.md). fork.charsetOf says, per library,
// which charset it decoded a column with (null: none, or UTF-8, where the JS string is the bytes).
// BINARY(n): the binlog stores the value without its trailing zero bytes, and every fork pads it
// back to n (as a query returns it; @vlasky/zongji's README says so): the zeros are taken off again.
function asText(v, col, schema, fork) {
  if (Buffer.isBuffer(v) && /^binary\(/i.test((schema && schema.COLUMN_TYPE) || "")) {
    let end = v.length;
    while (end > 0 && v[end - 1] === 0) end -= 1;
    return text(v.subarray(0, end));
  }
  if (Buffer.isBuffer(v)) return text(v);
  if (typeof v !== "string") return unmapped(v);
  const charset = fork.charsetOf(col);
  return charset ? text(fork.iconv.encode(v, charset)) : v;
}
// DECIMAL: exact text from @vlasky/zongji; a JS number from the others, written as the number's
// shortest text padded to the column's scale (toFixed would print the double's binary expansion,
// 10.55 as 10.55000000000000071054, digits the library never gave).
const asDecimal = (v, col) => ({ type: "decimal", value: typeof v === "number" ? decimalText(v, col.metadata.decimals) : String(v) });
function decimalText(v, scale) {
  let t = String(v);
  if (/e/i.test(t)) t = Math.abs(v) >= 1e21 ? BigInt(v).toString() : v.toFixed(Math.min(scale, 100));
  const [whole, frac = ""] = t.split(".");
  return scale ? `${whole}.${(frac + "0".repeat(scale)).slice(0, scale)}` : whole;
}
// An invalid Date (what the library makes of a zero date) is shown as such, never as digits.
const isDate = (v) => v instanceof Date && !Number.isNaN(v.getTime());
// With dateStrings (how the adapters start every fork, see CONNECTION) DATE and DATETIME come as
// MySQL's own text, TIMESTAMP as that text in UTC; a Date only where a library ignores it.
const asDate = (v) => ({ type: "date", value: isDate(v) ? ymd(v) : String(v) });
const asDatetime = (v, col) => ({ type: "datetime", value: isDate(v)
  ? `${ymd(v)} ${hms(v)}${fraction(v.getUTCMilliseconds(), fspOf(col))}` : String(v) });
const STAMP = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(\.\d+)?$/;
function epochText(v) {
  const m = STAMP.exec(v);
  if (!m) return String(v);
  const seconds = m[1] === "0000" ? 0 : Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) / 1000;
  return `${seconds}${m[7] || ""}`;
}
const asTimestamp = (v, col) => ({ type: "timestamp", value: isDate(v)
  ? `${Math.floor(v.getTime() / 1000)}${fraction(((v.getTime() % 1000) + 1000) % 1000, fspOf(col))}` : epochText(v) });
const asTime = (v) => ({ type: "time", value: String(v) });
// jsonStrings (fork.jsonText): the library's JSON text as it is, 64-bit integers exact; else
// the parsed value (or the compact JSON text @powersync/mysql-zongji gives), rendered as MySQL
// renders it.
const asJson = (v, col, schema, fork) => ({ type: "json",
  value: fork.jsonText ? mysqlExponents(v) : mysqlJson(typeof v === "string" ? JSON.parse(v) : v) });

// JSON text with JavaScript's exponents (1e+300) in MySQL's form (1e300), strings untouched: the
// library's digits are kept, only the notation is MySQL's (as mysqlJson does for parsed values).
function mysqlExponents(json) {
  let out = "";
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (inString) {
      if (c === "\\") { out += c + json[++i]; continue; }
      if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (c === "+" && (json[i - 1] === "e" || json[i - 1] === "E")) {
      continue;
    }
    out += c;
  }
  return out;
}
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

function columnValue(col, schema, v, fork) {
  if (v === null || v === undefined) return null;
  const convert = VALUE[col.type];
  if (!convert) return Buffer.isBuffer(v) ? text(v) : unmapped(v);
  try {
    return convert(v, col, schema, fork);
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

function image(table, row, bitmap, fork) {
  const schemas = table.columnSchemas || [];
  const columns = present(bitmap, table.columns.length);
  return { values: columns.map((i) => columnValue(table.columns[i], schemas[i], row[table.columns[i].name], fork)) };
}

function rowsBody(ev, fork) {
  const table = ev.tableMap[ev.tableId];
  const before = ev.columns_present_bitmap;
  const after = ev.columns_present_bitmap2 || before;
  const rows = (ev.rows || []).map((r) => (r.before !== undefined && r.after !== undefined
    ? { before_image: image(table, r.before, before, fork), after_image: image(table, r.after, after, fork) }
    : image(table, r, before, fork)));
  return { table_id: ev.tableId, rows };
}

// ---- event naming: the library's event class -> canonical type ---------------------------
// Every fork names an event by its class (getTypeName(); Unknown for a code it has no class for:
// type null). A rows class is v1 and v2 alike (and, in @vlasky/zongji, compressed or not): the
// library's own extraDataLength, read for v2 events only, tells the first two apart; a
// compressed event is named as the plain one, as the library presents it. So "type" names the
// kind exactly and the version as far as the library shows it: not claimed as a header field.
const NAMES = {
  Format: "FORMAT_DESCRIPTION_EVENT", Rotate: "ROTATE_EVENT", Query: "QUERY_EVENT", Xid: "XID_EVENT",
  IntVar: "INTVAR_EVENT", TableMap: "TABLE_MAP_EVENT", Heartbeat: "HEARTBEAT_LOG_EVENT",
  Heartbeat_V2: "HEARTBEAT_LOG_EVENT_V2", Gtid: "GTID_LOG_EVENT", GtidLog: "GTID_LOG_EVENT",
  AnonymousGtid: "ANONYMOUS_GTID_LOG_EVENT", PreviousGtids: "PREVIOUS_GTIDS_LOG_EVENT",
  TransactionPayload: "TRANSACTION_PAYLOAD_EVENT", PartialUpdateRows: "PARTIAL_UPDATE_ROWS_EVENT",
  XaPrepare: "XA_PREPARE_LOG_EVENT", RowsQuery: "ROWS_QUERY_LOG_EVENT", AnnotateRows: "ANNOTATE_ROWS_EVENT",
  BinlogCheckpoint: "BINLOG_CHECKPOINT_EVENT", MariadbGtid: "GTID_EVENT", MariadbGtidList: "GTID_LIST_EVENT",
  StartEncryption: "START_ENCRYPTION_EVENT",
};
const ROWS_CLASSES = { WriteRows: "WRITE_ROWS_EVENT", UpdateRows: "UPDATE_ROWS_EVENT", DeleteRows: "DELETE_ROWS_EVENT" };

function typeName(ev) {
  const cls = ev.getTypeName();
  if (ROWS_CLASSES[cls]) return ROWS_CLASSES[cls] + (ev.extraDataLength === undefined ? "_V1" : "");
  if (cls === "Gtid" && ev.tag) return "GTID_TAGGED_LOG_EVENT";
  return NAMES[cls] || null;
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

// Every event the library emits is reported, named by its class (an Unknown one with type null),
// so every_event is true; the bodies it decodes are claimed, and the rows of every rows type.
function capabilities(table) {
  const bodies = {};
  for (const t of ROWS_TYPES) bodies[t] = ROWS;
  for (const [types, fields] of Object.values(table)) for (const t of types) bodies[t] = fields;
  return { header: ["position", "event_size", "next_position", "timestamp"], bodies,
           every_event: true, partial_events: true,
           schema_lookups: true };  // ZongJi names columns from information_schema.columns
}

// ---- how each fork is built and what it decoded -------------------------------------------
// Every fork documents that it follows the client's `dateStrings` option, and its datetime code
// says that only the strings keep microseconds and zero dates (a JS Date has milliseconds and no
// zero date): the adapters pass it. @vlasky/zongji also documents mysql2's `jsonStrings` (the
// JSON text, which keeps 64-bit integers and tells the document `null` from SQL NULL).
const BLOBS = [249, 250, 251, 252];
const TEXTS = [15, 253, 254, ...BLOBS];

// The charset a library decoded a column of these types with, under its own name mapping
// (overrides) as iconv-lite knows it; null where it gave UTF-8 (its JS string is then the bytes).
function decodedWith(types, overrides) {
  const decoded = new Set(types);
  return (col) => {
    if (!decoded.has(col.type) || !col.charset) return null;
    const name = overrides[col.charset] || col.charset;
    return /^utf-?8$/i.test(name) ? null : name;
  };
}

// extra: more library event names -> [types, fields, body] (forks decode more classes);
// connection: the client options besides the address; jsonText: it gives JSON as text;
// charsetOf: see decodedWith.
// modes: the stream modes (docs/plugin-contract.md) beyond position, each with the start()
// options its README documents (startOptions below); modesUnsupported: why not the others.
const ZONGJI_NO_GTID = "ZongJi's start() takes filename/position or startAtEnd only (README, " +
  "'ZongJi Class'): no GTID start, it never sends COM_BINLOG_DUMP_GTID nor @slave_connect_state";
const ZONGJI_NO_HEARTBEATS = "ZongJi has no heartbeat option (README, 'ZongJi Class'): it never sets " +
  "@master_heartbeat_period, so a primary sends it no heartbeats";

// Where start() begins in each mode: position, the server's current end (startAtEnd: SHOW BINARY
// LOGS, the last file and its size), or a GTID set (@vlasky/zongji's gtidSet).
function startOptions(request) {
  if (request.mode === "current") return { startAtEnd: true };
  if (request.mode === "gtid") return { gtidSet: request.gtid_set };
  return { filename: request.file, position: request.start_position };
}

function zongjiAdapter(name, pkg, { extra = {}, connection = { dateStrings: true }, jsonText = false,
                                    charsetOf = () => null, modes = ["position", "current"],
                                    modesUnsupported = { gtid: ZONGJI_NO_GTID, heartbeats: ZONGJI_NO_HEARTBEATS } } = {}) {
  const table = { ...BODIES, ...extra };
  return {
    name, package: pkg, capabilities: capabilities(table), modes, modesUnsupported,
    stream(mod, request) {
      const ZongJi = mod.default || mod;
      // the library's own iconv-lite: text is encoded back exactly as it was decoded
      const fork = { jsonText, charsetOf, iconv: require(require.resolve("iconv-lite", { paths: [packageDir(pkg)] })) };
      return new Promise((resolve) => {
        const events = [];
        let file = request.file;
        let end = request.start_position;  // where the last event of the binlog ended
        let done = false;
        const z = new ZongJi({ host: request.host, port: request.port, user: request.user,
                               password: request.password || "", ...connection });
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
          const event = { position, event_size: size, next_position: np, type: typeName(ev),
                          library_type: ev.getTypeName(), timestamp: Math.floor(ev.timestamp / 1000),
                          body: table[kind] ? table[kind][2](ev, fork) : {} };
          // Derived, not given: right only if the server sent every event before it.
          if (np === 0) event._undetermined = ["position"];
          events.push(event);
          if (endReached(request, file, end)) finish();
          if (kind === "rotate") file = ev.binlogName;
        });
        z.on("error", (err) => finish(Object.assign(err, { offset: events.length ? events[events.length - 1].next_position : null })));
        z.start({ serverId: 0x10000 + Math.floor(Math.random() * 0xffff), ...startOptions(request) });
        if (endReached(request, request.file, request.start_position)) finish();  // an empty range
      });
    },
  };
}

module.exports = { zongjiAdapter, decodedWith, typeName, BODIES, BLOBS, TEXTS, ZONGJI_NO_HEARTBEATS };
