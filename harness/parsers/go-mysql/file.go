package main

// go-mysql-file: replication.BinlogParser.ParseReader over the binlog file, as ParseFile runs
// it (ParseFile checks the magic, then hands the open file to ParseReader; the adapter does the
// same through a reader that counts bytes, so each event's position is where it starts).

import (
	"bufio"
	"bytes"
	"io"
	"os"

	"github.com/go-mysql-org/go-mysql/replication"
)

type FileTestee struct{}

func (FileTestee) Name() string { return "go-mysql-file" }

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (FileTestee) Parse(req request) ([]Event, error) {
	data, err := os.ReadFile(req.Path)
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(data, replication.BinLogFileHeader) {
		zero := int64(0)
		return nil, &Rejection{Kind: "BadMagic", Offset: &zero, Message: "not a binlog file (ParseFile's check)"}
	}
	parser := newFileParser(flavorOfFile(data))
	in := &countingReader{r: bufio.NewReader(bytes.NewReader(data[len(replication.BinLogFileHeader):])),
		n: int64(len(replication.BinLogFileHeader))}
	var events []Event
	delivering(&events)
	end := in.n // where the last delivered event ended
	err = parser.ParseReader(in, func(ev *replication.BinlogEvent) error {
		end = in.n
		events = append(events, canonical(in.n-int64(ev.Header.EventSize), ev))
		return nil
	})
	if err != nil {
		return events, libraryRejection(err, end)
	}
	return events, nil
}

// flavorOfFile: "mariadb" when the first event's server version says so, as a user who knows
// which server wrote the file would set it.
func flavorOfFile(data []byte) string {
	head := data[:min(len(data), 4+19+2+50)]
	if bytes.Contains(head, []byte("MariaDB")) {
		return "mariadb"
	}
	return "mysql"
}
