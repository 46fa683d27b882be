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
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
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
	runTraced(program, args)
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

// The calls the ledger keeps, and why each: opens and the fd copies (dup*, fcntl F_DUPFD) make holdings;
// close and execve (close-on-exec) end them; clone/fork/vfork tell a thread from a child process (its fd
// table a copy); unlink, rmdir and rename of a held path are what fails on Windows; exit_group dates
// the exit; write carries the binary's own test lines. Not chdir (-y prints the cwd with every
// AT_FDCWD) and not mmap (the Go runtime maps memory all the time and maps no files the tests open).
// A `?` lets an architecture without the old calls (arm64: no open, fork, rename...) run it too.
const ledgerCalls = "?open,openat,?openat2,?creat,close,dup,?dup2,dup3,fcntl,clone,?clone3,?fork,?vfork,execve," +
	"exit_group,?unlink,unlinkat,?rmdir,?rename,renameat,?renameat2,write"

// runTraced runs the binary under strace and ends this program as the binary ended, when holdwatch
// named a strace and a place for its ledger; it returns when strace never ran the binary (ptrace not
// allowed, an old strace), and the binary then runs as without it.
func runTraced(program string, args []string) {
	strace, logDir := os.Getenv("HOLDWATCH_STRACE"), os.Getenv("HOLDWATCH_PROBE_LOG")
	if strace == "" || logDir == "" || os.Getenv("HOLDWATCH_PROBE_DISABLED") == "1" || !isTestBinary(args) {
		return
	}
	ledger := filepath.Join(logDir, fmt.Sprintf("strace-%d-%d.ledger", os.Getpid(), time.Now().UnixNano()/int64(time.Millisecond)))
	// -y names each fd's file; -s keeps a write's test lines whole; signals (Go's SIGURG) are not kept.
	flags := []string{"-f", "--seccomp-bpf", "-ttt", "-y", "-qq", "-s", "4096", "-e", "signal=none", "-e", "trace=" + ledgerCalls, "-o", ledger, "--", program}
	cmd := exec.Command(strace, append(flags, args...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		return
	}
	forwardSignalsToChildrenOf(cmd.Process.Pid)
	err := cmd.Wait()
	if !ranProgram(ledger) {
		_ = os.Remove(ledger)
		return
	}
	if exit, ok := err.(*exec.ExitError); ok {
		if status, ok := exit.Sys().(syscall.WaitStatus); ok && status.Signaled() {
			dieLike(status.Signal())
		}
		os.Exit(exit.ExitCode())
	}
	if err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// isTestBinary: go test passes its binary -test.* flags (-test.paniconexit0 at least); `go run`, which
// honours GOFLAGS' -exec too, does not, and a program with no tests has nothing for a ledger to tell.
func isTestBinary(args []string) bool {
	for _, arg := range args {
		if strings.HasPrefix(arg, "-test.") {
			return true
		}
	}
	return false
}

// ranProgram: the ledger begins with the binary's own successful execve, so strace did run it.
func ranProgram(ledger string) bool {
	file, err := os.Open(ledger)
	if err != nil {
		return false
	}
	defer file.Close()
	line, _ := bufio.NewReader(file).ReadString('\n')
	return strings.Contains(line, " execve(") && strings.HasSuffix(strings.TrimSpace(line), "= 0")
}

// forwardSignalsToChildrenOf hands the test's signals to the binary: strace holds fatal signals back
// while it writes to a file, so they go to its child, the binary, directly.
func forwardSignalsToChildrenOf(tracer int) {
	signals := make(chan os.Signal, 4)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM, syscall.SIGQUIT, syscall.SIGHUP)
	go func() {
		for s := range signals {
			children, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", tracer, tracer))
			for _, field := range strings.Fields(string(children)) {
				if pid, err := strconv.Atoi(field); err == nil {
					_ = syscall.Kill(pid, s.(syscall.Signal))
				}
			}
		}
	}()
}
