// Five short tests (1-3 ms each); the second leaves a file under the watched dir open. The binary exits
// a moment after the last test, long before a 100 ms poll: only its own order of writes and opens says
// which test opened the file and that it was still open when that test ended.
package short

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

var leaked *os.File

func watched(t *testing.T, name string) string {
	dir := os.Getenv("HW_WATCHED")
	if dir == "" {
		t.Fatal("HW_WATCHED is not set")
	}
	return filepath.Join(dir, name)
}

// closedAfter writes a file, keeps it open for `hold`, and closes it: a well-behaved test.
func closedAfter(t *testing.T, name string, hold time.Duration) {
	f, err := os.Create(watched(t, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(name); err != nil {
		t.Fatal(err)
	}
	time.Sleep(hold)
}

func TestFirst(t *testing.T) { closedAfter(t, "first.txt", time.Millisecond) }

func TestSecond(t *testing.T) {
	f, err := os.Create(watched(t, "second.txt"))
	if err != nil {
		t.Fatal(err)
	}
	leaked = f // never closed
	time.Sleep(2 * time.Millisecond)
}

func TestThird(t *testing.T) { closedAfter(t, "third.txt", 3*time.Millisecond) }

func TestFourth(t *testing.T) {
	f, err := os.Open(watched(t, "first.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	time.Sleep(time.Millisecond)
}

func TestFifth(t *testing.T) { closedAfter(t, "fifth.txt", 2*time.Millisecond) }
