package history

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
)

func TestNewInstance(t *testing.T) {
	tests := []struct {
		name             string
		initialInstances []*Instance
		wantNumInstances int
	}{
		{name: "zero_value", wantNumInstances: 1},
		{name: "existing_instances", initialInstances: []*Instance{{StartTime: "first_start_time", ExitTime: "first_exit_time"}, {StartTime: "second_start_time", ExitTime: "second_exit_time"}}, wantNumInstances: 3},
		{name: "max_instances_reached", initialInstances: []*Instance{{}, {}, {}, {}, {}, {}, {}, {}, {}, {ExitTime: "last_exit_time"}}, wantNumInstances: 10},
	}
	for _, tt := range tests {
		tt := tt
		t.Run(tt.name, func(t *testing.T) {
			t.Cleanup(func() { currentHistory = &History{} })

			if err := InitHistory(newTestBoltDb(t, tt.initialInstances...)); err != nil {
				t.Fatal(err)
			}
			if _, err := NewInstance(); err != nil {
				t.Fatal(err)
			}
			if got := len(currentHistory.instances); got != tt.wantNumInstances {
				t.Errorf("history length %d, want %d", got, tt.wantNumInstances)
			}
		})
	}
}

func TestNoDbError(t *testing.T) {
	if err := InitHistory(nil); !errors.Is(err, NoDbError) {
		t.Errorf("InitHistory(nil) = %v, want NoDbError", err)
	}
}

// newTestBoltDb creates a new bolt db in the test's temp dir and seeds it with the given instances.
// Nothing closes it: the TempDir cleanup removes the file while it is open and mapped.
func newTestBoltDb(t *testing.T, seedInstances ...*Instance) *DB {
	dir := t.TempDir()

	db, err := Open(filepath.Join(dir, "osquery_instance_history_test.db"))
	if err != nil {
		t.Fatalf("expect no error opening bolt db: %v", err)
	}

	raw, err := json.Marshal(seedInstances)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Put(raw); err != nil {
		t.Fatal(err)
	}
	return db
}
