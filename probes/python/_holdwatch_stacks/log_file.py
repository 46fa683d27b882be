# The probe's log: one file per process, written through a shared memory map. A write(2) per
# record costs a large share of an open/close pair (bench/probe-overhead.ts); a copy into
# a MAP_SHARED page costs almost nothing, is visible to holdwatch at once (same page cache) and
# survives the process being killed. The file is grown in reserved chunks (posix_fallocate first:
# a page of a sparse file that the disk cannot back would kill the process with SIGBUS), and cut
# to its real length at exit. A reader ignores the NUL tail a killed process leaves behind.
import mmap
import os
import _thread

_FIRST_SIZE = 256 * 1024


class MappedLog:
    def __init__(self, path):
        # O_CLOEXEC: the log must never leak into the processes the test starts.
        flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
        self._fd = os.open(path, flags, 0o644)
        self._lock = _thread.allocate_lock()
        self._size = 0
        self._closed = False
        self._map = None
        try:
            self._reserve(_FIRST_SIZE)
            self._map = mmap.mmap(self._fd, self._size)
        except BaseException:
            os.close(self._fd)
            raise

    def _reserve(self, size):
        if hasattr(os, "posix_fallocate"):
            os.posix_fallocate(self._fd, 0, size)
        else:
            os.ftruncate(self._fd, size)
        self._size = size

    def fileno(self):
        return self._fd

    def write(self, data):
        # mmap.write copies at the map's position and moves it on, in one C call that holds the GIL
        # throughout: records from two threads never interleave, with no lock taken per record (the
        # lock and the offset were 1.9k of the 11.7k instructions a record cost, callgrind).
        try:
            self._map.write(data)
        except ValueError:  # past the end of the reserved space, or closed
            self._grow_and_write(data)

    def _grow_and_write(self, data):
        with self._lock:
            if self._closed:
                return  # closed at exit while another thread still opened files: dropped, not an error
            end = self._map.tell() + len(data)
            if end > self._size:
                size = max(self._size * 2, end)
                self._reserve(size)
                self._map.resize(size)
            self._map.write(data)

    def close(self):
        """Unmaps and cuts the file to what was written. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            end = self._map.tell()
            self._map.close()  # kept: a late write() gets ValueError from it, and _grow_and_write drops it
            try:
                os.ftruncate(self._fd, end)
            finally:
                os.close(self._fd)

    def abandon(self):
        """In a forked child: the map and fd are the parent's; drop them without touching the file."""
        self._closed = True
        self._map = None
        try:
            os.close(self._fd)
        except OSError:
            pass
