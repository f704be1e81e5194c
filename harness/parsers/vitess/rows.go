package main

// Rows events as vstreamer reads them (processRowEvent, getValues): Rows(format, tableMap)
// splits the event into row images; each present column's cell is decoded with
// binlog.CellValue, given the Table_map's type and metadata and a querypb.Field built from the
// Table_map alone (buildTableColumns without a schema: sqltypes.MySQLToType(type, 0), so
// integers read signed: the binlog carries no signedness the library reads). NULLs come from
// the image's null bitmap; a column absent from a MINIMAL image is left out (vstreamer with
// VReplicationExperimentalFlagAllowNoBlobBinlogRowImage); a partial JSON column of a
// PARTIAL_UPDATE_ROWS_EVENT is decoded as a diff (CellValue's partialJSON).

import (
	"fmt"

	"vitess.io/vitess/go/mysql"
	mysqlbinlog "vitess.io/vitess/go/mysql/binlog"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
)

func (d *decoder) rows(ev mysql.BinlogEvent) (map[string]any, error) {
	id := ev.TableID(d.format)
	body := map[string]any{"table_id": unsigned(id)}
	tm := d.tables[id]
	if tm == nil { // vstreamer has no plan for the id and drops the event
		return body, nil
	}
	rows, err := ev.Rows(d.format, tm)
	if err != nil {
		return body, err
	}
	fields, err := tableFields(tm)
	if err != nil {
		return body, err
	}
	body["flags"] = map[string]any{"value": rows.Flags}
	body["width"] = len(tm.Types)
	paired := ev.IsUpdateRows() || ev.IsPartialUpdateRows()
	out := make([]any, 0, len(rows.Rows))
	for _, row := range rows.Rows {
		before, err := image(tm, fields, row.Identify, rows.IdentifyColumns, row.NullIdentifyColumns, mysql.Bitmap{})
		if err != nil {
			return body, err
		}
		after, err := image(tm, fields, row.Data, rows.DataColumns, row.NullColumns, row.JSONPartialValues)
		if err != nil {
			return body, err
		}
		switch {
		case paired:
			out = append(out, pairedImages(before, after))
		case ev.IsDeleteRows():
			out = append(out, before)
		default:
			out = append(out, after)
		}
	}
	body["rows"] = out
	return body, nil
}

// tableFields: the fields vstreamer builds from a Table_map when its schema engine has no table.
func tableFields(tm *mysql.TableMap) ([]*querypb.Field, error) {
	fields := make([]*querypb.Field, len(tm.Types))
	for i, typ := range tm.Types {
		t, err := sqltypes.MySQLToType(typ, 0)
		if err != nil {
			return nil, fmt.Errorf("unsupported type: %d, position: %d", typ, i)
		}
		fields[i] = &querypb.Field{Name: fmt.Sprintf("@%d", i+1), Type: t}
	}
	return fields, nil
}

// image decodes one row image as vstreamer's getValues walks it; like getValues, an image whose
// data is empty (no column, or every present column NULL) has no values, and vstreamer then sets
// no Before/After for it: the image is reported missing.
func image(tm *mysql.TableMap, fields []*querypb.Field, data []byte, present, nulls, partialJSON mysql.Bitmap) (map[string]any, error) {
	if len(data) == 0 {
		return nil, nil
	}
	values := []any{}
	pos, valueIndex, jsonIndex := 0, 0, 0
	for col := 0; col < present.Count(); col++ {
		if !present.Bit(col) {
			continue
		}
		isJSON := fields[col].Type == querypb.Type_JSON
		if nulls.Bit(valueIndex) {
			valueIndex++
			if isJSON {
				jsonIndex++
			}
			values = append(values, nil)
			continue
		}
		partial := false
		if partialJSON.Count() > 0 && isJSON {
			partial = partialJSON.Bit(jsonIndex)
			jsonIndex++
		}
		value, l, err := mysqlbinlog.CellValue(data, pos, tm.Types[col], tm.Metadata[col], fields[col], partial)
		if err != nil {
			return nil, fmt.Errorf("failed to extract row's value for column %s: %v", fields[col].Name, err)
		}
		pos += l
		values = append(values, cellValue(tm.Types[col], tm.Metadata[col], value, partial))
		valueIndex++
	}
	return map[string]any{"values": values}, nil
}

func pairedImages(before, after map[string]any) map[string]any {
	row := map[string]any{}
	if before != nil {
		row["before_image"] = before
	}
	if after != nil {
		row["after_image"] = after
	}
	return row
}
