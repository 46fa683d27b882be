// The Linux ledger: the binary under strace instead of the exit stop, when holdwatch names one.
package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A `?` lets an architecture without the old calls (arm64: no open, fork, rename...) run it too.
const ledgerCalls = "?open,openat,?openat2,?creat,close,dup,?dup2,dup3,fcntl,clone,?clone3,?fork,?vfork,execve," +
	"exit_group,?unlink,unlinkat,?rmdir,?rename,renameat,?renameat2,chdir,fchdir"

// runTraced runs the binary under strace and ends this program as the binary ended, when holdwatch
// named a strace and a place for its ledger; it returns when strace never ran the binary (ptrace not
// allowed, an old strace), and the binary then runs as without it.
func runTraced(program string, args []string) {
	strace, logDir := os.Getenv("HOLDWATCH_STRACE"), os.Getenv("HOLDWATCH_PROBE_LOG")
	if strace == "" || logDir == "" || os.Getenv("HOLDWATCH_PROBE_DISABLED") == "1" || !isTestBinary(program, args) {
		return
	}
	ledger := filepath.Join(logDir, fmt.Sprintf("strace-%d-%d.ledger", os.Getpid(), time.Now().UnixNano()/int64(time.Millisecond)))
	calls := ledgerCalls
	// Its writes are read for its test lines (`=== RUN`, `--- PASS`) alone, which it prints only when
	// verbose; each traced call stops the binary twice, so a quiet binary's writes are not traced.
	if isVerbose(args) {
		calls += ",write"
	}
	// -y names each fd's file; -s keeps a write's test lines whole. strace reports a process killed by a
	// signal (`+++ killed by SIGKILL +++`, where its holdings end) only for a signal it prints, so every
	// signal is printed but those Go's runtime gets all the time (SIGURG preempts, SIGPROF profiles).
	// -qq leaves out exits (exit_group is traced) and attach messages.
	flags := []string{"-f", "--seccomp-bpf", "-ttt", "-y", "-qq", "-s", "4096", "-e", "signal=!URG,CHLD,PROF,WINCH", "-e", "trace=" + calls, "-o", ledger, "--", program}
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

// isVerbose: -test.v as go test -v (`=true`) and -json (`=test2json`) pass it, and bare; not `=false`.
func isVerbose(args []string) bool {
	verbose := false
	for _, arg := range args {
		flag := strings.TrimPrefix(strings.TrimPrefix(arg, "-"), "-")
		if flag == "test.v" {
			verbose = true
		} else if strings.HasPrefix(flag, "test.v=") {
			value := flag[len("test.v="):]
			verbose = value != "false" && value != "0" && value != "f" && value != "F" && value != "FALSE" && value != "False"
		}
	}
	return verbose
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
