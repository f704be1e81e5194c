// zongji: the original ZongJi (mysqljs/mysql client).
"use strict";
const { serve } = require("./common.js");
const { zongjiAdapter, decodedWith, BLOBS } = require("./zongji-family.js");

// It decodes TEXT/BLOB columns by their charset (lib/common.js, iconv-lite) and CHAR/VARCHAR as
// UTF-8 whatever their charset; it follows the client's documented dateStrings option.
serve(zongjiAdapter("zongji", "zongji", { charsetOf: decodedWith(BLOBS, { utf8mb4: "utf8" }) }));
