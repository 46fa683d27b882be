package history

// The osquery instance history in the shape of kolide/launcher's pkg/osquery/runtime/history: a
// package-level history kept in a bolt db that InitHistory is handed, at most ten instances.

import (
	"encoding/json"
	"errors"
	"os"
	"time"
)

const maxInstances = 10

type Instance struct {
	StartTime string
	ExitTime  string
	Hostname  string
}

type History struct {
	instances []*Instance
	db        *DB
}

var currentHistory = &History{}

var NoDbError = errors.New("no db provided")

// InitHistory loads the history the db holds and keeps the db for later saves; it never closes it.
func InitHistory(db *DB) error {
	if db == nil {
		return NoDbError
	}
	var instances []*Instance
	if raw := db.Get(); raw != nil {
		if err := json.Unmarshal(raw, &instances); err != nil {
			return err
		}
	}
	currentHistory = &History{instances: instances, db: db}
	return nil
}

// NewInstance records an instance starting now and saves the history.
func NewInstance() (*Instance, error) {
	hostname, err := os.Hostname()
	if err != nil {
		return nil, err
	}
	instance := &Instance{StartTime: time.Now().UTC().Format(time.RFC3339), Hostname: hostname}
	currentHistory.instances = append(currentHistory.instances, instance)
	if len(currentHistory.instances) > maxInstances {
		currentHistory.instances = currentHistory.instances[len(currentHistory.instances)-maxInstances:]
	}
	raw, err := json.Marshal(currentHistory.instances)
	if err != nil {
		return nil, err
	}
	return instance, currentHistory.db.Put(raw)
}
