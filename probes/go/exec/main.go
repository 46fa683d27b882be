// holdwatch's `go test -exec` program: it runs the test binary it is given and stops it at its exit,
// before the kernel closes its files, until holdwatch has scanned what it still holds. A Go test binary
// runs no probe and exits a moment after its last test: without this stop, a file a test left open is
// gone before any scan. The stop is ptrace's PTRACE_EVENT_EXIT on the binary's main thread (its fd
// table lives until that thread goes on). `holdwatch run` puts this program in GOFLAGS (-exec) and
// names its listener in HOLDWATCH_BOUNDARY (contract/boundary.ts); the exit is told as
//
//	{"type":"exit","seq":1,"atMs":N}  and holdwatch answers  {"type":"ack","seq":1}.
//
// Whatever fails here (no listener, ptrace not allowed, holdwatch gone), the binary runs as it would
// have: the program never changes a test's outcome, its output or its exit status.
package main

import (
	"bufio"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// As long as a scan may take; the test binary never waits longer, and not at all without holdwatch.
const boundaryWait = 2 * time.Second

const (
	ptraceOTraceExit = 0x40
	ptraceOExitKill  = 0x100000
	ptraceEventExit  = 6
)

func init() {
	// ptrace requests must come from the thread that started the tracee: main stays on this one.
	runtime.LockOSThread()
}

func main() {
	if len(os.Args) < 2 {
		os.Stderr.WriteString("holdwatch-go-exec: no program to run\n")
		os.Exit(2)
	}
	program, args := os.Args[1], os.Args[2:]
	channel := dial(os.Getenv("HOLDWATCH_BOUNDARY"))
	if channel == nil {
		runPlain(program, args)
	}
	defer channel.Close()
	cmd := exec.Command(program, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Ptrace: true}
	if err := cmd.Start(); err != nil {
		channel.Close()
		runPlain(program, args) // ptrace not allowed here (a seccomp profile): run as if we were not here
	}
	pid := cmd.Process.Pid
	forwardSignals(pid)
	var status syscall.WaitStatus
	// The tracee stops once at its exec (SIGTRAP): then it is told to stop at its exit too.
	if _, err := syscall.Wait4(pid, &status, 0, nil); err == nil && status.Stopped() {
		_ = syscall.PtraceSetOptions(pid, ptraceOTraceExit|ptraceOExitKill)
		_ = syscall.PtraceCont(pid, 0)
	}
	said := channel.hello(pid)
	for {
		if _, err := syscall.Wait4(pid, &status, 0, nil); err != nil {
			if err == syscall.EINTR {
				continue
			}
			os.Exit(1)
		}
		switch {
		case status.Exited():
			os.Exit(status.ExitStatus())
		case status.Signaled():
			dieLike(status.Signal())
		case status.Stopped() && status.StopSignal() == syscall.SIGTRAP && status.TrapCause() == ptraceEventExit:
			if said {
				channel.exit()
			}
			_ = syscall.PtraceCont(pid, 0)
		case status.Stopped():
			// A signal on its way to the binary (Go's own SIGURG among them): delivered as it was sent.
			_ = syscall.PtraceCont(pid, int(status.StopSignal()))
		}
	}
}

// runPlain becomes the program: same pid, same everything, no stop at its exit.
func runPlain(program string, args []string) {
	path, err := exec.LookPath(program)
	if err == nil {
		err = syscall.Exec(path, append([]string{program}, args...), os.Environ())
	}
	os.Stderr.WriteString("holdwatch-go-exec: " + err.Error() + "\n")
	os.Exit(2)
}

// forwardSignals hands the signals meant for the test (go test's interrupt, a timeout's SIGQUIT) on.
func forwardSignals(pid int) {
	signals := make(chan os.Signal, 4)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM, syscall.SIGQUIT, syscall.SIGHUP)
	go func() {
		for s := range signals {
			_ = syscall.Kill(pid, s.(syscall.Signal))
		}
	}()
}

// dieLike ends this program by the signal that ended the binary, so go test reports it the same way.
func dieLike(sig syscall.Signal) {
	signal.Reset(sig)
	_ = syscall.Kill(os.Getpid(), sig)
	time.Sleep(time.Second)
	os.Exit(128 + int(sig))
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
