// go-mysql-js: go-mysql's canal in a prebuilt Go binary, driven from Node.
"use strict";
const { serve } = require("./common.js");
const { goMysqlAdapter } = require("./go-mysql-family.js");

serve(goMysqlAdapter("go-mysql-js", "go-mysql-js"));
