// zongji: the original ZongJi (mysqljs/mysql client).
"use strict";
const { serve } = require("./common.js");
const { zongjiAdapter } = require("./zongji-family.js");

serve(zongjiAdapter("zongji", "zongji"));
