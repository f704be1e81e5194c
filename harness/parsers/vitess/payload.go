package main

// TRANSACTION_PAYLOAD_EVENT as vstreamer reads it: TransactionPayload(format), then
// GetNextEvent until io.EOF, each inner event decoded like a top-level one with the checksum
// algorithm set to OFF (the inner events carry none). The payload's size, compression type and
// uncompressed size are unexported fields of the library's TransactionPayload: not reported.
// Inner events are placed where the payload event ends (as mysqlbinlog prints them); their
// next_position is not determined: the library gives the log_pos the server stored inside the
// payload (0), the canonical model the payload event's own end_log_pos, as mysqlbinlog prints.

import (
	"errors"
	"io"

	"vitess.io/vitess/go/mysql"
)

func (d *decoder) payload(ev mysql.BinlogEvent) (map[string]any, error) {
	tp, err := ev.TransactionPayload(d.format)
	if err != nil {
		return nil, err
	}
	defer tp.Close()
	saved := d.format.ChecksumAlgorithm
	d.format.ChecksumAlgorithm = mysql.BinlogChecksumAlgOff
	defer func() { d.format.ChecksumAlgorithm = saved }()
	inner := []Event{}
	for {
		next, err := tp.GetNextEvent()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return map[string]any{"events": inner}, err
		}
		event, err := d.decode(d.eventEnd, next)
		if err != nil {
			return map[string]any{"events": inner}, err
		}
		event["_undetermined"] = []string{"next_position"}
		inner = append(inner, event)
	}
	return map[string]any{"events": inner}, nil
}
