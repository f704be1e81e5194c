package main

// A partial JSON update as the library returns it: an SQL expression that applies the diffs to
// the column, JSON_REPLACE(JSON_INSERT(`col`, '$.a', <value>), ...) (ParseBinaryJSONDiff).
// Until that text is mapped to the canonical json_diff list, it is reported as it is, tagged
// json_diff_sql, and so compared as a difference.

func jsonDiffValue(sql string) any {
	return Tagged{"json_diff_sql", sql}
}
