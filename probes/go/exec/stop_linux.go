// The Linux stop: ptrace's PTRACE_EVENT_EXIT on the binary's main thread (its fd table lives until
// that thread goes on).
package main

import (
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"
)

const (
	ptraceOTraceExit = 0x40
	ptraceOExitKill  = 0x100000
	ptraceEventExit  = 6
)

// runStopped runs the binary traced, stops it at its exit for holdwatch's scan, and ends as it ended.
func runStopped(program string, args []string, channel *channel) {
	cmd := start(program, args, &syscall.SysProcAttr{Ptrace: true}, channel)
	pid := cmd.Process.Pid
	forwardSignals(pid)
	var status syscall.WaitStatus
	// The tracee stops once at its exec (SIGTRAP): then it is told to stop at its exit too.
	if _, err := syscall.Wait4(pid, &status, 0, nil); err != nil || !status.Stopped() {
		missed("no stop at its exec (%v, status %#x)", err, uint32(status))
	} else {
		if err := syscall.PtraceSetOptions(pid, ptraceOTraceExit|ptraceOExitKill); err != nil {
			missed("the stop at its exit was refused (%v)", err)
		}
		_ = syscall.PtraceCont(pid, 0)
	}
	said := channel.hello(pid)
	if !said {
		missed("it could not say hello to holdwatch")
	}
	stopped := false
	for {
		if _, err := syscall.Wait4(pid, &status, 0, nil); err != nil {
			if err == syscall.EINTR {
				continue
			}
			os.Exit(1)
		}
		switch {
		case status.Exited():
			if !stopped {
				missed("it exited (status %d) without stopping at its exit", status.ExitStatus())
			}
			os.Exit(status.ExitStatus())
		case status.Signaled():
			if !stopped {
				missed("it was ended by %v without stopping at its exit", status.Signal())
			}
			dieLike(status.Signal())
		case status.Stopped() && status.StopSignal() == syscall.SIGTRAP && status.TrapCause() == ptraceEventExit:
			stopped = true
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
