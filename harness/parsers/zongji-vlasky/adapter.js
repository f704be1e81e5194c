// @vlasky/zongji: the maintained ZongJi fork (mysql2 client, GTIDs, MySQL 8+ metadata).
"use strict";
const { serve, integer, text } = require("./common.js");
const { zongjiAdapter } = require("./zongji-family.js");

// It decodes MariaDB's compressed Query and rows events (log_bin_compress=ON) and MySQL's tagged
// Gtid through the plain classes, so those types are claimed with the plain ones.
const { BODIES } = require("./zongji-family.js");
const also = (kind, types) => [[...BODIES[kind][0], ...types], BODIES[kind][1], BODIES[kind][2]];

serve(zongjiAdapter("zongji-vlasky", "@vlasky/zongji", { extra: {
  gtid: [["GTID_LOG_EVENT", "GTID_TAGGED_LOG_EVENT"], ["sid", "gno"], (e) => ({ sid: text(e.sid), gno: integer(e.gno) })],
  query: also("query", ["QUERY_COMPRESSED_EVENT"]),
  writerows: also("writerows", ["WRITE_ROWS_COMPRESSED_EVENT_V1", "WRITE_ROWS_COMPRESSED_EVENT"]),
  updaterows: also("updaterows", ["UPDATE_ROWS_COMPRESSED_EVENT_V1", "UPDATE_ROWS_COMPRESSED_EVENT"]),
  deleterows: also("deleterows", ["DELETE_ROWS_COMPRESSED_EVENT_V1", "DELETE_ROWS_COMPRESSED_EVENT"]),
} }));
