// @vlasky/zongji: the maintained ZongJi fork (mysql2 client, GTIDs, MySQL 8+ metadata).
"use strict";
const { serve, integer, text } = require("./common.js");
const { zongjiAdapter } = require("./zongji-family.js");

serve(zongjiAdapter("zongji-vlasky", "@vlasky/zongji", { extra: {
  gtid: [["GTID_LOG_EVENT"], ["sid", "gno"], (e) => ({ sid: text(e.sid), gno: integer(e.gno) })],
} }));
