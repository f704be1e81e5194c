package main

// Cell values: CellValue returns a sqltypes.Value (a querypb.Type and the value's text or
// bytes); each is mapped to the canonical convention of docs/plugin-contract.md ("Row values")
// by that type, and for text by the Table_map's column type (GEOMETRY and VECTOR are bytes
// whatever the value's type says). Only the representation changes, never the value.

import (
	"strconv"

	mysqlbinlog "vitess.io/vitess/go/mysql/binlog"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
)

func cellValue(columnType byte, meta uint16, v sqltypes.Value, partialJSON bool) any {
	raw := v.Raw()
	switch t := v.Type(); {
	case v.IsNull():
		return nil
	case t == sqltypes.Expression && partialJSON:
		return jsonDiffValue(string(raw))
	case t == sqltypes.Expression: // the library's JSON text spaces as MySQL does; members reordered
		return Tagged{"json", mysqlOrder(string(raw))}
	case sqltypes.IsSigned(t):
		return parsed(raw, func(s string) (any, error) { n, err := strconv.ParseInt(s, 10, 64); return signed(n), err })
	case sqltypes.IsUnsigned(t) || t == querypb.Type_YEAR || t == querypb.Type_ENUM:
		return parsed(raw, func(s string) (any, error) { n, err := strconv.ParseUint(s, 10, 64); return unsigned(n), err })
	case t == querypb.Type_FLOAT32:
		return parsed(raw, func(s string) (any, error) { return strconv.ParseFloat(s, 32) })
	case t == querypb.Type_FLOAT64:
		return parsed(raw, func(s string) (any, error) { return strconv.ParseFloat(s, 64) })
	case t == querypb.Type_DECIMAL:
		return Tagged{"decimal", string(raw)}
	case t == querypb.Type_DATE:
		return Tagged{"date", string(raw)}
	case t == querypb.Type_DATETIME:
		return Tagged{"datetime", string(raw)}
	case t == querypb.Type_TIME:
		return Tagged{"time", string(raw)}
	case t == querypb.Type_TIMESTAMP:
		return Tagged{"timestamp", epoch(string(raw))}
	case t == querypb.Type_BIT:
		return unsigned(bigEndian(raw))
	case t == querypb.Type_SET: // a SET's bytes as stored, little-endian
		return unsigned(littleEndian(raw))
	case t == querypb.Type_GEOMETRY || columnType == mysqlbinlog.TypeGeometry || columnType == mysqlbinlog.TypeVector:
		return bytesTag(raw)
	}
	return text(raw) // CHAR, VARCHAR, BINARY, BLOB, TEXT: the stored bytes
}

func parsed(raw []byte, parse func(string) (any, error)) any {
	v, err := parse(string(raw))
	if err != nil {
		return Tagged{"unparsed", string(raw)}
	}
	return v
}

func bigEndian(b []byte) uint64 {
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v
}
