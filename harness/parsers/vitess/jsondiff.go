package main

// A partial JSON update as the library returns it: one SQL expression that applies the diffs
// in order, innermost first, JSON_REPLACE(JSON_INSERT(%s, _utf8mb4'$.a', <value>), ...)
// (ParseBinaryJSONDiff), each value CAST(<scalar> as JSON) or
// CAST(JSON_QUOTE(_utf8mb4'<text>') as JSON) for a string (JSON_OBJECT(...)/JSON_ARRAY(...) for
// a container). It is mapped back to the canonical list of {operation, path, value}; an
// expression with a container value, which this mapping does not read, stays as the library's
// text, tagged json_diff_sql (a difference, never a pass).

import (
	"encoding/json"
	"strings"
)

func jsonDiffValue(sql string) any {
	if diffs, ok := parseDiffSQL(sql); ok {
		return Tagged{"json_diff", diffs}
	}
	return Tagged{"json_diff_sql", sql}
}

func parseDiffSQL(sql string) ([]any, bool) {
	var ops []string
	rest := sql
	for strings.HasPrefix(rest, "JSON_") {
		open := strings.IndexByte(rest, '(')
		if open < 0 {
			return nil, false
		}
		ops = append(ops, strings.TrimPrefix(rest[:open], "JSON_"))
		rest = rest[open+1:]
	}
	if !strings.HasPrefix(rest, "%s") || len(ops) == 0 {
		return nil, false
	}
	rest = rest[2:]
	diffs := make([]any, 0, len(ops))
	for k := len(ops) - 1; k >= 0; k-- { // the innermost call is the first diff
		path, after, ok := sqlString(strings.TrimPrefix(rest, ", _utf8mb4"))
		if !ok {
			return nil, false
		}
		diff := map[string]any{"operation": ops[k], "path": path, "value": nil}
		rest = after
		if ops[k] != "REMOVE" {
			value, after, ok := castValue(strings.TrimPrefix(rest, ", "))
			if !ok {
				return nil, false
			}
			diff["value"] = Tagged{"json", value}
			rest = after
		}
		if !strings.HasPrefix(rest, ")") {
			return nil, false
		}
		rest = rest[1:]
		diffs = append(diffs, diff)
	}
	return diffs, rest == ""
}

// castValue reads CAST(JSON_QUOTE(_utf8mb4'...') as JSON) or CAST(<scalar> as JSON): the
// value's JSON text, and what follows it.
func castValue(s string) (string, string, bool) {
	const quoted, cast, tail = "CAST(JSON_QUOTE(_utf8mb4", "CAST(", " as JSON)"
	if strings.HasPrefix(s, quoted) {
		text, after, ok := sqlString(s[len(quoted):])
		if !ok || !strings.HasPrefix(after, ")"+tail) {
			return "", "", false
		}
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if enc.Encode(text) != nil {
			return "", "", false
		}
		return strings.TrimSuffix(b.String(), "\n"), after[1+len(tail):], true
	}
	if !strings.HasPrefix(s, cast) {
		return "", "", false
	}
	end := strings.Index(s, tail)
	scalar := s[len(cast):max(end, len(cast))]
	if end < 0 || strings.ContainsAny(scalar, "(),'") {
		return "", "", false
	}
	return scalar, s[end+len(tail):], true
}

// sqlString reads a single-quoted SQL string as sqltypes.EncodeStringSQL writes it.
func sqlString(s string) (string, string, bool) {
	if !strings.HasPrefix(s, "'") {
		return "", "", false
	}
	unescape := map[byte]byte{'0': 0, 'b': '\b', 'n': '\n', 'r': '\r', 't': '\t', 'Z': 26}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			i++
			if u, ok := unescape[s[i]]; ok {
				b.WriteByte(u)
			} else {
				b.WriteByte(s[i])
			}
		case c == '\'' && i+1 < len(s) && s[i+1] == '\'':
			b.WriteByte('\'')
			i++
		case c == '\'':
			return b.String(), s[i+1:], true
		default:
			b.WriteByte(c)
		}
	}
	return "", "", false
}
