// @vlasky/zongji: the maintained ZongJi fork (mysql2 client, GTIDs, MySQL 8+ metadata).
"use strict";
const { serve, integer, text } = require("./common.js");
const { zongjiAdapter, decodedWith, TEXTS, ZONGJI_NO_HEARTBEATS } = require("./zongji-family.js");

// It decodes MariaDB's compressed Query and rows events (log_bin_compress=ON) and MySQL's tagged
// Gtid through the plain classes, so those types are claimed with the plain ones.
const { BODIES } = require("./zongji-family.js");
const also = (kind, types) => [[...BODIES[kind][0], ...types], BODIES[kind][1], BODIES[kind][2]];

// Its README: "Binlog row values follow the same mysql2 connection options as query results":
// dateStrings and jsonStrings give the exact values. It decodes every text column by its charset
// (lib/common.js decodeTextColumn, with this name mapping: MySQL's latin1 is cp1252).
const ICONV_NAMES = { utf8mb3: "utf8", utf8mb4: "utf8", latin1: "cp1252", ucs2: "utf16-be", utf16: "utf16-be",
                      utf16le: "utf16-le", utf32: "utf32-be", ujis: "eucjp", eucjpms: "eucjp", macce: "maccenteuro" };

serve(zongjiAdapter("zongji-vlasky", "@vlasky/zongji", {
  connection: { dateStrings: true, jsonStrings: true }, jsonText: true, charsetOf: decodedWith(TEXTS, ICONV_NAMES),
  // start({ gtidSet }): a MySQL set or a MariaDB GTID position, '' for either (its index.js)
  modes: ["position", "gtid", "current"], modesUnsupported: { heartbeats: ZONGJI_NO_HEARTBEATS },
  extra: {
    gtid: [["GTID_LOG_EVENT", "GTID_TAGGED_LOG_EVENT"], ["sid", "gno"], (e) => ({ sid: text(e.sid), gno: integer(e.gno) })],
    query: also("query", ["QUERY_COMPRESSED_EVENT"]),
    writerows: also("writerows", ["WRITE_ROWS_COMPRESSED_EVENT_V1", "WRITE_ROWS_COMPRESSED_EVENT"]),
    updaterows: also("updaterows", ["UPDATE_ROWS_COMPRESSED_EVENT_V1", "UPDATE_ROWS_COMPRESSED_EVENT"]),
    deleterows: also("deleterows", ["DELETE_ROWS_COMPRESSED_EVENT_V1", "DELETE_ROWS_COMPRESSED_EVENT"]),
  },
}));
