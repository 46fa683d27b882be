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
// have: the program never changes a test's outcome, its output or its exit status.
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
	"net"
	"os"
	"os/exec"
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
	channel := dial(os.Getenv("HOLDWATCH_BOUNDARY"))
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

// dial connects to `<host>:<port>:<token>`; nil when there is no listener.
func dial(address string) *channel {
	at := strings.LastIndex(address, ":")
	if at <= 0 {
		return nil
	}
	conn, err := net.DialTimeout("tcp", address[:at], boundaryWait)
	if err != nil {
		return nil
	}
	return &channel{conn: conn, reader: bufio.NewReader(conn), token: address[at+1:]}
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

// exit says the binary is stopped at its exit and waits, bounded, for holdwatch's answer.
func (c *channel) exit() {
	atMs := time.Now().UnixNano() / int64(time.Millisecond)
	if !c.send(map[string]interface{}{"type": "exit", "seq": 1, "atMs": atMs}) {
		return
	}
	for {
		line, err := c.reader.ReadBytes('\n')
		if err != nil {
			return // holdwatch gone, or past the deadline: the binary goes on
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
