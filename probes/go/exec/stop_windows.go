// The Windows stop: the binary runs under this program as its debugger, with a breakpoint on the first
// instruction of ExitProcess, which Go's runtime calls to end (os.Exit, a test run's end, a panic's exit
// too). Stopped there, every thread of it frozen while the debugger holds the event, every handle it had
// is still open for holdwatch's scan; then the instruction is put back and the binary goes on exiting.
// The exit event itself comes too late: Wine has closed the handles by then. Only this binary is debugged
// (DEBUG_ONLY_THIS_PROCESS): its children run as they would.
package main

import (
	"encoding/binary"
	"os"
	"os/exec"
	"syscall"
	"unsafe"
)

const (
	debugOnlyThisProcess   = 0x00000002
	dbgContinue            = 0x00010002
	dbgExceptionNotHandled = 0x80010001
	exceptionBreakpoint    = 0x80000003
	infinite               = 0xFFFFFFFF

	pageExecuteReadWrite = 0x40
	threadGetSetContext  = 0x0008 | 0x0010
	contextControl       = 0x00100001 // CONTEXT_AMD64 | CONTEXT_CONTROL
	contextSize          = 1232       // CONTEXT on x64, 16-byte aligned
	contextFlagsOffset   = 0x30
	contextRipOffset     = 0xF8

	exceptionDebugEvent     = 1
	createProcessDebugEvent = 3
	exitProcessDebugEvent   = 5
	loadDllDebugEvent       = 6
)

var (
	kernel32                  = syscall.NewLazyDLL("kernel32.dll")
	waitForDebugEvent         = kernel32.NewProc("WaitForDebugEvent")
	continueDebugEvent        = kernel32.NewProc("ContinueDebugEvent")
	debugSetProcessKillOnExit = kernel32.NewProc("DebugSetProcessKillOnExit")
	readProcessMemory         = kernel32.NewProc("ReadProcessMemory")
	writeProcessMemory        = kernel32.NewProc("WriteProcessMemory")
	virtualProtectEx          = kernel32.NewProc("VirtualProtectEx")
	flushInstructionCache     = kernel32.NewProc("FlushInstructionCache")
	openThread                = kernel32.NewProc("OpenThread")
	getThreadContext          = kernel32.NewProc("GetThreadContext")
	setThreadContext          = kernel32.NewProc("SetThreadContext")
)

// debugEvent is DEBUG_EVENT on x64 (176 bytes): code, pid and tid, then the union at offset 16.
type debugEvent [176]byte

func (e *debugEvent) code() uint32    { return binary.LittleEndian.Uint32(e[0:]) }
func (e *debugEvent) pid() uint32     { return binary.LittleEndian.Uint32(e[4:]) }
func (e *debugEvent) tid() uint32     { return binary.LittleEndian.Uint32(e[8:]) }
func (e *debugEvent) union32() uint32 { return binary.LittleEndian.Uint32(e[16:]) }

// union64 is the union's first pointer-sized field: the file handle of CREATE_PROCESS and LOAD_DLL.
func (e *debugEvent) union64() uintptr { return uintptr(binary.LittleEndian.Uint64(e[16:])) }

// processHandle is CREATE_PROCESS_DEBUG_INFO's hProcess (the system closes it).
func (e *debugEvent) processHandle() uintptr { return uintptr(binary.LittleEndian.Uint64(e[24:])) }

// exceptionAddress is EXCEPTION_RECORD.ExceptionAddress.
func (e *debugEvent) exceptionAddress() uintptr { return uintptr(binary.LittleEndian.Uint64(e[32:])) }

// runStopped runs the binary under the debug API, stops it at its exit for holdwatch's scan, and ends
// with its exit code.
func runStopped(program string, args []string, channel *channel) {
	cmd := start(program, args, &syscall.SysProcAttr{CreationFlags: debugOnlyThisProcess}, channel)
	// As ptrace's EXITKILL on Linux: go test's -timeout kills this program, and with it the binary.
	_, _, _ = debugSetProcessKillOnExit.Call(1)
	said := channel.hello(cmd.Process.Pid)
	exitAt := exitProcessAddress()
	var process uintptr
	var trap *breakpoint
	loaderBreak := true
	var event debugEvent
	for {
		if ok, _, _ := waitForDebugEvent.Call(uintptr(unsafe.Pointer(&event[0])), infinite); ok == 0 {
			os.Exit(1)
		}
		status := uintptr(dbgContinue)
		switch event.code() {
		case exceptionDebugEvent:
			switch {
			case trap != nil && event.union32() == exceptionBreakpoint && event.exceptionAddress() == trap.at:
				// The binary called ExitProcess: stopped before anything of it ran.
				if said {
					channel.exit()
					said = false
				}
				trap.remove(process, event.tid())
				trap = nil
			case loaderBreak && event.union32() == exceptionBreakpoint:
				// The loader's breakpoint, the debugger's own: kernel32 is mapped by now.
				loaderBreak = false
				trap = setBreakpoint(process, exitAt)
			default:
				status = dbgExceptionNotHandled // the binary's own exception, for it to handle
			}
		case createProcessDebugEvent:
			process = event.processHandle()
			closeImageHandle(&event)
		case loadDllDebugEvent:
			closeImageHandle(&event)
		case exitProcessDebugEvent:
			exitCode := int(event.union32())
			if said {
				channel.exit() // no breakpoint could be set: the latest moment there is
			}
			_, _, _ = continueDebugEvent.Call(uintptr(event.pid()), uintptr(event.tid()), status)
			_ = cmd.Wait()
			os.Exit(exitCode)
		}
		_, _, _ = continueDebugEvent.Call(uintptr(event.pid()), uintptr(event.tid()), status)
	}
}

// closeImageHandle closes the handle on the image the debugger is given, or this program holds the file.
func closeImageHandle(event *debugEvent) {
	if h := event.union64(); h != 0 {
		_ = syscall.CloseHandle(syscall.Handle(h))
	}
}

// exitProcessAddress is kernel32's ExitProcess here; system DLLs sit at the same address in every
// process of a boot (and of a Wine prefix), so it is the binary's too. 0 when not found.
func exitProcessAddress() uintptr {
	module, err := syscall.LoadLibrary("kernel32.dll")
	if err != nil {
		return 0
	}
	at, err := syscall.GetProcAddress(module, "ExitProcess")
	if err != nil {
		return 0
	}
	return at
}

// breakpoint is an int3 written over the first byte of a function in the binary.
type breakpoint struct {
	at       uintptr
	original byte
}

// setBreakpoint writes the int3; nil when it cannot (then the exit event is the stop).
func setBreakpoint(process, at uintptr) *breakpoint {
	if process == 0 || at == 0 {
		return nil
	}
	b := &breakpoint{at: at}
	if !patch(process, at, &b.original, 0xCC) {
		return nil
	}
	return b
}

// remove puts the original byte back and the thread's instruction pointer on it, so the function runs whole.
func (b *breakpoint) remove(process uintptr, tid uint32) {
	var int3 byte
	patch(process, b.at, &int3, b.original)
	thread, _, _ := openThread.Call(threadGetSetContext, 0, uintptr(tid))
	if thread == 0 {
		return
	}
	defer syscall.CloseHandle(syscall.Handle(thread))
	var buffer [contextSize + 16]byte
	start := int((16 - uintptr(unsafe.Pointer(&buffer[0]))%16) % 16)
	context := buffer[start : start+contextSize]
	binary.LittleEndian.PutUint32(context[contextFlagsOffset:], contextControl)
	if ok, _, _ := getThreadContext.Call(thread, uintptr(unsafe.Pointer(&context[0]))); ok == 0 {
		return
	}
	binary.LittleEndian.PutUint64(context[contextRipOffset:], uint64(b.at))
	_, _, _ = setThreadContext.Call(thread, uintptr(unsafe.Pointer(&context[0])))
}

// patch reads the byte at `at` into `old` and writes `value` there, code pages made writable for it.
func patch(process, at uintptr, old *byte, value byte) bool {
	var protect uint32
	if ok, _, _ := virtualProtectEx.Call(process, at, 1, pageExecuteReadWrite, uintptr(unsafe.Pointer(&protect))); ok == 0 {
		return false
	}
	defer virtualProtectEx.Call(process, at, 1, uintptr(protect), uintptr(unsafe.Pointer(&protect)))
	if ok, _, _ := readProcessMemory.Call(process, at, uintptr(unsafe.Pointer(old)), 1, 0); ok == 0 {
		return false
	}
	if ok, _, _ := writeProcessMemory.Call(process, at, uintptr(unsafe.Pointer(&value)), 1, 0); ok == 0 {
		return false
	}
	_, _, _ = flushInstructionCache.Call(process, at, 1)
	return true
}

// runPlain runs the binary as a plain child and ends with its exit code (Windows has no exec).
func runPlain(program string, args []string) {
	cmd := exec.Command(program, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		if exit, ok := err.(*exec.ExitError); ok {
			os.Exit(exit.ExitCode())
		}
		os.Stderr.WriteString("holdwatch-go-exec: " + err.Error() + "\n")
		os.Exit(2)
	}
	os.Exit(0)
}
