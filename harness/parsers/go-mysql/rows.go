package main

// Row images as the oracle reports them: per row {"values": [...]} (update rows: before_image
// and after_image), the values of the columns present in the image, in column order, each by
// the conventions of docs/plugin-contract.md ("Row values").

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/go-mysql-org/go-mysql/mysql"
	"github.com/go-mysql-org/go-mysql/replication"
	"github.com/shopspring/decimal"
)

// Rows event type codes whose images come in before/after pairs.
var pairedImages = map[uint8]bool{
	uint8(replication.UPDATE_ROWS_EVENTv0): true, uint8(replication.UPDATE_ROWS_EVENTv1): true,
	uint8(replication.UPDATE_ROWS_EVENTv2):                     true,
	uint8(replication.MARIADB_UPDATE_ROWS_COMPRESSED_EVENT_V1): true,
	uint8(replication.PARTIAL_UPDATE_ROWS_EVENT):               true,
}

func rowImages(ev *replication.RowsEvent, typeCode uint8) []any {
	images := make([]map[string]any, len(ev.Rows))
	for i, row := range ev.Rows {
		images[i] = map[string]any{"values": presentValues(ev, row, ev.SkippedColumns[i])}
	}
	rows := make([]any, 0, len(images))
	if !pairedImages[typeCode] {
		for _, img := range images {
			rows = append(rows, img)
		}
		return rows
	}
	for i := 0; i+1 < len(images); i += 2 {
		rows = append(rows, map[string]any{"before_image": images[i], "after_image": images[i+1]})
	}
	return rows
}

// presentValues: the library fills a column absent from the image with nil and lists it in
// SkippedColumns; the canonical image holds only the present ones.
func presentValues(ev *replication.RowsEvent, row []any, skipped []int) []any {
	absent := make(map[int]bool, len(skipped))
	for _, c := range skipped {
		absent[c] = true
	}
	values := make([]any, 0, len(row))
	for c, v := range row {
		if !absent[c] {
			values = append(values, cellValue(ev.Table, c, v))
		}
	}
	return values
}

// cellValue maps what decodeValue returned for column c, by its Go type, and for strings by the
// column's type (the library returns temporals, JSON and text all as Go strings).
func cellValue(t *replication.TableMapEvent, c int, v any) any {
	if v == nil {
		return nil
	}
	switch rv := reflect.ValueOf(v); {
	case rv.CanInt() && bitsColumn[realType(t, c)]:
		return unsigned(uint64(rv.Int())) // the library's int64 holds the bits; BIT(64)/SET of 64 read negative
	case rv.CanInt():
		return signed(rv.Int())
	case rv.CanUint():
		return unsigned(rv.Uint())
	case rv.CanFloat():
		return rv.Float() // a FLOAT widened to double exactly
	}
	switch x := v.(type) {
	case decimal.Decimal:
		return Tagged{"decimal", x.StringFixed(int32(t.ColumnMeta[c] & 0xFF))}
	case []byte:
		return bytesValue(t.ColumnType[c], x)
	case string:
		return stringValue(t.ColumnType[c], t.ColumnMeta[c], x)
	case *replication.JsonDiff:
		return Tagged{"json_diff", []any{jsonDiff(x)}}
	}
	return Tagged{"unmapped", fmt.Sprintf("%T %v", v, v)}
}

// BLOB/TEXT bytes are text when valid UTF-8; GEOMETRY and VECTOR always bytes; JSON the empty
// document the library returns as an empty slice.
func bytesValue(columnType byte, b []byte) any {
	switch columnType {
	case mysql.MYSQL_TYPE_GEOMETRY, mysql.MYSQL_TYPE_VECTOR:
		return bytesTag(b)
	case mysql.MYSQL_TYPE_JSON:
		return Tagged{"json", mysqlSpacing(string(b))}
	}
	return text(b)
}

// stringFormats: column type -> the canonical tag of the library's string for it, with the
// column's fsp (from its metadata) where the type has one.
var stringFormats = map[byte]func(s string, meta uint16) any{
	mysql.MYSQL_TYPE_DATE:       func(s string, _ uint16) any { return Tagged{"date", s} },
	mysql.MYSQL_TYPE_DATETIME:   func(s string, _ uint16) any { return Tagged{"datetime", s} },
	mysql.MYSQL_TYPE_DATETIME2:  func(s string, m uint16) any { return Tagged{"datetime", withFsp(s, m)} },
	mysql.MYSQL_TYPE_TIME:       func(s string, _ uint16) any { return Tagged{"time", s} },
	mysql.MYSQL_TYPE_TIME2:      func(s string, m uint16) any { return Tagged{"time", withFsp(s, m)} },
	mysql.MYSQL_TYPE_TIMESTAMP:  func(s string, _ uint16) any { return Tagged{"timestamp", epoch(s)} },
	mysql.MYSQL_TYPE_TIMESTAMP2: func(s string, m uint16) any { return Tagged{"timestamp", epoch(withFsp(s, m))} },
	mysql.MYSQL_TYPE_JSON:       func(s string, _ uint16) any { return Tagged{"json", mysqlSpacing(s)} },
}

// Columns whose value is a bit pattern that the library returns in an int64.
var bitsColumn = map[byte]bool{mysql.MYSQL_TYPE_BIT: true, mysql.MYSQL_TYPE_SET: true}

// realType: ENUM and SET columns are MYSQL_TYPE_STRING in the Table_map, their real type in the
// metadata's first byte (as decodeValue reads it).
func realType(t *replication.TableMapEvent, c int) byte {
	tp, meta := t.ColumnType[c], t.ColumnMeta[c]
	if tp != mysql.MYSQL_TYPE_STRING || meta < 256 {
		return tp
	}
	if b0 := byte(meta >> 8); b0&0x30 != 0x30 {
		return b0 | 0x30
	} else {
		return b0
	}
}

// mysqlSpacing puts MySQL's separators (", " and ": ") into the compact JSON text the library
// renders; nothing else changes (the text inside strings is kept as it is).
func mysqlSpacing(s string) string {
	var b strings.Builder
	inString, escaped := false, false
	for _, r := range s {
		b.WriteRune(r)
		switch {
		case escaped:
			escaped = false
		case inString && r == '\\':
			escaped = true
		case r == '"':
			inString = !inString
		case !inString && (r == ',' || r == ':'):
			b.WriteByte(' ')
		}
	}
	return b.String()
}

func stringValue(columnType byte, meta uint16, s string) any {
	if format, ok := stringFormats[columnType]; ok {
		return format(s, meta)
	}
	return text([]byte(s)) // CHAR, VARCHAR: the stored bytes, never transcoded
}

// withFsp gives the text exactly fsp fraction digits: the library leaves the fraction out of a
// TIME whose fraction is zero (timeFormat), at any fsp; the value is the same.
func withFsp(s string, fsp uint16) string {
	if fsp == 0 || strings.Contains(s, ".") {
		return s
	}
	return s + "." + strings.Repeat("0", int(fsp))
}

func jsonDiff(d *replication.JsonDiff) map[string]any {
	out := map[string]any{"operation": strings.ToUpper(d.Op.String()), "path": d.Path, "value": nil}
	if d.Op != replication.JsonDiffOperationRemove {
		out["value"] = Tagged{"json", mysqlSpacing(d.Value)}
	}
	return out
}
