// @powersync/mysql-zongji: PowerSync's ZongJi fork for MySQL 8+. It emits a Table_map only
// when it (re)fetches the table's columns, not for every one in the binlog: not claimed.
"use strict";
const { serve } = require("./common.js");
const { zongjiAdapter } = require("./zongji-family.js");

serve(zongjiAdapter("zongji-powersync", "@powersync/mysql-zongji", { omit: ["tablemap"] }));
