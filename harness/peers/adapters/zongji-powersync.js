// @powersync/mysql-zongji: PowerSync's ZongJi fork for MySQL 8+.
"use strict";
const { serve } = require("./common.js");
const { zongjiAdapter } = require("./zongji-family.js");

serve(zongjiAdapter("zongji-powersync", "@powersync/mysql-zongji"));
