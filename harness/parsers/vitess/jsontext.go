package main

// JSON text: the library renders a JSON document's object members in its own order
// (alphabetical), MySQL in the order of its binary format (shorter key first, then by bytes).
// Members are reordered, nothing else: every key and value keeps the library's exact text.

import (
	"encoding/json"
	"sort"
	"strings"
)

type member struct {
	key  string // decoded, for the order
	text string // `"key": value` as rendered
}

// mysqlOrder returns the document with MySQL's member order, or the text unchanged if it does
// not scan as JSON.
func mysqlOrder(doc string) string {
	out, end, ok := reorder(doc, skipSpace(doc, 0))
	if !ok || skipSpace(doc, end) != len(doc) {
		return doc
	}
	return out
}

func skipSpace(s string, i int) int {
	for i < len(s) && strings.IndexByte(" \t\n\r", s[i]) >= 0 {
		i++
	}
	return i
}

// reorder scans one value at i: its text with objects reordered, and where it ends.
func reorder(s string, i int) (string, int, bool) {
	if i >= len(s) {
		return "", i, false
	}
	switch s[i] {
	case '{':
		return container(s, i, '}', true)
	case '[':
		return container(s, i, ']', false)
	case '"':
		end, ok := stringEnd(s, i)
		return s[i:end], end, ok
	}
	end := i
	for end < len(s) && strings.IndexByte(",]} \t\n\r", s[end]) < 0 {
		end++
	}
	return s[i:end], end, end > i
}

func stringEnd(s string, i int) (int, bool) {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return len(s), false
}

func container(s string, i int, closer byte, object bool) (string, int, bool) {
	var items []member
	i = skipSpace(s, i+1)
	for i < len(s) && s[i] != closer {
		var key, prefix string
		if object {
			end, ok := stringEnd(s, i)
			if !ok || json.Unmarshal([]byte(s[i:end]), &key) != nil {
				return "", i, false
			}
			prefix = s[i:end] + ": "
			i = skipSpace(s, end)
			if i >= len(s) || s[i] != ':' {
				return "", i, false
			}
			i = skipSpace(s, i+1)
		}
		text, end, ok := reorder(s, i)
		if !ok {
			return "", end, false
		}
		items = append(items, member{key, prefix + text})
		i = skipSpace(s, end)
		if i < len(s) && s[i] == ',' {
			i = skipSpace(s, i+1)
		}
	}
	if i >= len(s) {
		return "", i, false
	}
	if object {
		sort.SliceStable(items, func(a, b int) bool {
			ka, kb := items[a].key, items[b].key
			return len(ka) < len(kb) || (len(ka) == len(kb) && ka < kb)
		})
	}
	texts := make([]string, len(items))
	for k, m := range items {
		texts[k] = m.text
	}
	open := "["
	if object {
		open = "{"
	}
	return open + strings.Join(texts, ", ") + string(closer), i + 1, true
}
