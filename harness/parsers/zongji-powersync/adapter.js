// @powersync/mysql-zongji: PowerSync's ZongJi fork for MySQL 8+. It emits a Table_map only
// when it (re)fetches the table's columns, not for every one in the binlog: claimed all the same
// (a user's Table_map is missing; docs/findings), as every event the library can name.
"use strict";
const { serve } = require("./common.js");
const { zongjiAdapter, decodedWith, BLOBS } = require("./zongji-family.js");

// It decodes TEXT/BLOB columns by their charset (lib/common.js, iconv-lite) and CHAR/VARCHAR as
// UTF-8 whatever their charset; it follows the client's documented dateStrings option.
serve(zongjiAdapter("zongji-powersync", "@powersync/mysql-zongji", {
  charsetOf: decodedWith(BLOBS, { utf8mb3: "utf8", utf8mb4: "utf8" }) }));
