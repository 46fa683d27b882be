package history

import (
	"os"
	"syscall"
	"unsafe"
)

// As bbolt maps on Windows: a read-only file mapping and one view of it; the view holds the file too.
func mapFile(f *os.File, size int) ([]byte, func() error, error) {
	mapping, err := syscall.CreateFileMapping(syscall.Handle(f.Fd()), nil, syscall.PAGE_READONLY, 0, uint32(size), nil)
	if err != nil {
		return nil, nil, os.NewSyscallError("CreateFileMapping", err)
	}
	addr, err := syscall.MapViewOfFile(mapping, syscall.FILE_MAP_READ, 0, 0, uintptr(size))
	if err != nil {
		syscall.CloseHandle(mapping)
		return nil, nil, os.NewSyscallError("MapViewOfFile", err)
	}
	data := unsafe.Slice((*byte)(unsafe.Pointer(addr)), size)
	return data, func() error {
		err := syscall.UnmapViewOfFile(addr)
		if cerr := syscall.CloseHandle(mapping); err == nil {
			err = cerr
		}
		return err
	}, nil
}
