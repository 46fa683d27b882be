# sqlite3 connections the code never closed. A Connection left open is freed with its last reference
# or, in 3.11 where it sits in a cycle with its statement cache, by the cyclic collector; either way
# sqlite closes the database file then, and on Windows a teardown that deletes it first fails.
#
# How it is seen without changing behaviour: a Connection takes no weak reference and its type has
# no finalizer to hook, so the watch follows the file instead. At the connect (the audit event
# "sqlite3.connect/handle", which carries the connection) the descriptor sqlite opened for the
# database is found in /proc/self/fd; `close` on the type is a descriptor that notes an explicit
# close and returns the C method, as gc_watch does for io.FileIO. At each test boundary and at exit
# a watched connection whose descriptor no longer is its database (by device and inode: a database
# deleted while open is still open, its link then reads "<path> (deleted)") was freed, not closed, and is
# queued as a gc-close record (resource "sqlite") dated at that check, its closedDuring the test that
# was running. Linux only (/proc/self/fd); elsewhere connections are recorded as opens, not watched.
import gc
import os
import sys

from . import gc_watch as _gc_watch

_FD_DIR = "/proc/self/fd"
# fd of the database file -> (id of the connection, (st_dev, st_ino), the path connected to, sites, test, atMs)
_watched = {}
_fd_by_connection = {}
_installed = []


def available():
    return os.path.isdir(_FD_DIR)


def _install(connection_type):
    """A descriptor for `close` on sqlite3.Connection; False (nothing changed) where unknown."""
    try:
        namespace = next(r for r in gc.get_referents(connection_type.__dict__) if type(r) is dict)
    except StopIteration:
        return False
    close = namespace.get("close")
    if close is None or not hasattr(close, "__get__"):
        return False

    class Close:
        __slots__ = ()

        def __get__(self, connection, owner=None):
            if connection is not None:
                fd = _fd_by_connection.pop(id(connection), None)
                if fd is not None:
                    _watched.pop(fd, None)
            return close.__get__(connection, owner)

    namespace["close"] = Close()
    clear = getattr(sys, "_clear_internal_caches", None) or getattr(sys, "_clear_type_cache")
    clear()
    return True


def _names(fd, real_path):
    try:
        return os.readlink("%s/%d" % (_FD_DIR, fd)) == real_path
    except OSError:
        return False


def _file_of(fd):
    """(st_dev, st_ino) of what fd is open on; None once it is closed."""
    try:
        st = os.fstat(fd)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def watch(connection, path, sites, test, opened_at_ms):
    """Follows one new connection's database file; the fd it found, or None."""
    if not _installed:
        _installed.append(_install(type(connection)))
    if not _installed[0]:
        return None
    real_path = os.path.realpath(path)
    for name in os.listdir(_FD_DIR):
        fd = int(name)
        if fd in _watched or not _names(fd, real_path):
            continue
        file = _file_of(fd)
        if file is None:
            return None
        _watched[fd] = (id(connection), file, path, sites, test, opened_at_ms)
        _fd_by_connection[id(connection)] = fd
        return fd
    return None


def check(state, now):
    """Queues a gc-close for each watched connection whose file is closed though close() never ran."""
    for fd, (connection_id, file, path, sites, test, opened_at_ms) in list(_watched.items()):
        if _file_of(fd) == file:
            continue
        del _watched[fd]
        if _fd_by_connection.get(connection_id) == fd:
            del _fd_by_connection[connection_id]
        _gc_watch._queue(state, now, "sqlite", "sqlite3.connect", path, fd, opened_at_ms, test, sites)
