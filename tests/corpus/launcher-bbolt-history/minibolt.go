package history

// A stand-in for go.etcd.io/bbolt as the history uses it: Open keeps the file open and maps it read-only,
// reads go through the map and writes through the file, and only Close lets go of both.

import (
	"encoding/binary"
	"errors"
	"os"
)

const mapSize = 64 << 10

type DB struct {
	file  *os.File
	data  []byte
	unmap func() error
}

func Open(path string) (*DB, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := f.Truncate(mapSize); err != nil {
		f.Close()
		return nil, err
	}
	data, unmap, err := mapFile(f, mapSize)
	if err != nil {
		f.Close()
		return nil, err
	}
	return &DB{file: f, data: data, unmap: unmap}, nil
}

// Get returns the value stored, nil when none.
func (db *DB) Get() []byte {
	n := binary.LittleEndian.Uint32(db.data[:4])
	if n == 0 {
		return nil
	}
	return append([]byte(nil), db.data[4:4+n]...)
}

func (db *DB) Put(value []byte) error {
	if len(value)+4 > mapSize {
		return errors.New("value too large")
	}
	page := make([]byte, 4+len(value))
	binary.LittleEndian.PutUint32(page, uint32(len(value)))
	copy(page[4:], value)
	_, err := db.file.WriteAt(page, 0)
	return err
}

func (db *DB) Close() error {
	err := db.unmap()
	if cerr := db.file.Close(); err == nil {
		err = cerr
	}
	return err
}
