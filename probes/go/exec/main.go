// holdwatch's `go test -exec` program: it runs the test binary it is given and stops it at its exit,
// before the OS closes its files, until holdwatch has scanned what it still holds. A Go test binary
// runs no probe and exits a moment after its last test: without this stop, a file a test left open is
// gone before any scan. The stop is per OS (stop_linux.go: ptrace; stop_windows.go: the debug API).
// `holdwatch run` puts this program in GOFLAGS (-exec) and names its listener in HOLDWATCH_BOUNDARY
// (contract/boundary.ts); the exit is told as
//
//	{"type":"exit","seq":1,"atMs":N}  and holdwatch answers  {"type":"ack","seq":1}.
//
// Whatever fails here (no listener, the stop not allowed, holdwatch gone), the binary runs as it would
// have: the program never changes a test's outcome, its output or its exit status. Under holdwatch it
// says why beside the probes' logs (missed), and holdwatch tells the user at the run's end.
//
// Where holdwatch names a strace (HOLDWATCH_STRACE), the binary runs under it instead, and strace's
// syscall ledger goes beside the probes' logs (HOLDWATCH_PROBE_LOG, outside every watched dir): the
// binary's own writes of `=== RUN` and `--- PASS` in one order with its opens and closes say which
// test opened each file and whether it was still open at that test's end and at the exit. A process
// has one tracer, so there is no stop at the exit then: the ledger tells what was open at it.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// As long as a scan may take; the test binary never waits longer, and not at all without holdwatch.
const boundaryWait = 2 * time.Second

func init() {
	// ptrace and the debug API both answer only the thread that started the binary: main stays on this one.
	runtime.LockOSThread()
}

func main() {
	if len(os.Args) < 2 {
		os.Stderr.WriteString("holdwatch-go-exec: no program to run\n")
		os.Exit(2)
	}
	program, args := os.Args[1], os.Args[2:]
	runTraced(program, args)
	channel, err := dial(os.Getenv("HOLDWATCH_BOUNDARY"))
	if err != nil {
		missed("no answer from holdwatch's boundary channel (%v)", err)
	}
	if channel == nil {
		runPlain(program, args)
	}
	defer channel.Close()
	runStopped(program, args, channel)
}

// start starts the binary with the OS's stop attributes; when they are refused (ptrace barred by a
// seccomp profile, debugging by a policy), the binary runs as if this program were not here.
func start(program string, args []string, attr *syscall.SysProcAttr, channel *channel) *exec.Cmd {
	cmd := exec.Command(program, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = attr
	if err := cmd.Start(); err != nil {
		missed("it could not be started stopped at its exit (%v)", err)
		channel.Close()
		runPlain(program, args)
	}
	return cmd
}

type channel struct {
	conn   net.Conn
	reader *bufio.Reader
	token  string
}

// dial connects to `<host>:<port>:<token>`; nil when not under holdwatch (no address), or with the
// error when its listener did not answer.
func dial(address string) (*channel, error) {
	at := strings.LastIndex(address, ":")
	if at <= 0 {
		return nil, nil
	}
	conn, err := net.DialTimeout("tcp", address[:at], boundaryWait)
	if err != nil {
		return nil, err
	}
	return &channel{conn: conn, reader: bufio.NewReader(conn), token: address[at+1:]}, nil
}

func (c *channel) Close() { _ = c.conn.Close() }

func (c *channel) send(message map[string]interface{}) bool {
	line, _ := json.Marshal(message)
	_ = c.conn.SetDeadline(time.Now().Add(boundaryWait))
	_, err := c.conn.Write(append(line, '\n'))
	return err == nil
}

// hello names the test binary, whose holdings the exit scan is for.
func (c *channel) hello(pid int) bool {
	return c.send(map[string]interface{}{"type": "hello", "token": c.token, "pid": pid})
}

// exit says the binary is stopped at its exit and waits, bounded, for holdwatch's answer; it says why
// when none came.
func (c *channel) exit() {
	atMs := time.Now().UnixNano() / int64(time.Millisecond)
	if !c.send(map[string]interface{}{"type": "exit", "seq": 1, "atMs": atMs}) {
		missed("its exit could not be told to holdwatch")
		return
	}
	for {
		line, err := c.reader.ReadBytes('\n')
		if err != nil {
			// holdwatch gone, or past the deadline: the binary goes on
			missed("holdwatch did not answer its exit within %v (%v)", boundaryWait, err)
			return
		}
		var ack struct {
			Type string `json:"type"`
			Seq  int    `json:"seq"`
		}
		if json.Unmarshal(line, &ack) == nil && ack.Type == "ack" && ack.Seq == 1 {
			return
		}
	}
}

// missed writes, beside the probes' logs (outside every watched dir), why the test binary ran without
// the stop at its exit: what it held at its end then rests on holdwatch's scans alone, which a binary
// that exits a moment after its last test outruns. Nothing when not under holdwatch run (no log dir),
// nor for a program `go run` started (no tests to speak of).
func missed(format string, args ...interface{}) {
	program := os.Args[1]
	dir := os.Getenv("HOLDWATCH_PROBE_LOG")
	if dir == "" || !isTestBinary(program, os.Args[2:]) {
		return
	}
	name := filepath.Join(dir, fmt.Sprintf("go-exit-stop-%d.missed", os.Getpid()))
	file, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer file.Close()
	_, _ = fmt.Fprintf(file, "%s: "+format+"\n", append([]interface{}{filepath.Base(program)}, args...)...)
}

// isTestBinary: go test passes its binary -test.* flags (-test.paniconexit0 at least), and `go test -c`
// names it pkg.test; `go run`, which honours GOFLAGS' -exec too, does neither, and a program with no
// tests has nothing for a ledger to tell.
func isTestBinary(program string, args []string) bool {
	name := strings.ToLower(filepath.Base(program))
	if strings.HasSuffix(name, ".test") || strings.HasSuffix(name, ".test.exe") {
		return true
	}
	for _, arg := range args {
		if strings.HasPrefix(arg, "-test.") {
			return true
		}
	}
	return false
}
