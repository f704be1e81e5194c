// @solashi/go-mysql-binlog-node: a fork of go-mysql-js that reports every row of an event.
"use strict";
const { serve } = require("./common.js");
const { goMysqlAdapter } = require("./go-mysql-family.js");

serve(goMysqlAdapter("go-mysql-binlog-node", "@solashi/go-mysql-binlog-node"));
