# A delete or rename, by this process, of a path it holds open itself: on Windows the call fails
# (WinError 32); on Linux it succeeds, and a file closed again before the test ends (a C library's
# handle dropped at the function's return) is gone before any scan or test-boundary listing sees it.
# The audit event fires before the call, so /proc/self/fd still names every descriptor on the path,
# whoever opened it: HDF5, netCDF or GDAL open in C, with no audit event and no open record. Each such
# descriptor is written as a `listed` open (found, not seen made: no stack) and the delete record names
# it, with the call's own stack. Linux only; only paths under the watched dirs (HOLDWATCH_WATCHED).
import os
import sys

_DELETED = " (deleted)"
_FD_DIR = "/proc/self/fd"


def watched_prefixes(environ):
    """The watched dirs, each ending in a separator; none off Linux, where there is no /proc to ask."""
    if not sys.platform.startswith("linux"):
        return ()
    value = environ.get("HOLDWATCH_WATCHED") or ""
    return tuple(d if d.endswith("/") else d + "/" for d in value.split(os.pathsep) if d.startswith("/"))


def is_under(prefixes, path):
    return any(path.startswith(p) or path + "/" == p for p in prefixes)


def held_at(path, skip, names, look_at=None):
    """This process's descriptors on `path` or under it (a dir's rmtree), of `names` (/proc/self/fd's
    entries; only those in `look_at` where it is given): (fd, file, identity) each. The identity is
    (dev, ino, file): an inode number freed by one test's file is often the next one's."""
    inside = path.rstrip("/") + "/"
    found = []
    for name in names:
        if look_at is not None and name not in look_at:
            continue
        fd = int(name)
        if fd in skip:
            continue
        try:
            target = os.readlink(_FD_DIR + "/" + name)
            info = os.fstat(fd)
        except OSError:
            continue  # the listing's own descriptor, or one closed since
        # Unlinked already: the delete that unlinked it met it (rmtree's event comes before its own
        # unlinks, and its last rmdir of the top would name every file of the tree again).
        if target.endswith(_DELETED):
            continue
        if target == path or target.startswith(inside):
            found.append((fd, target, (info.st_dev, info.st_ino, target)))
    return found


class Listed:
    """Ids for the descriptors the deletes found, so one handle met by two deletes is one open."""

    def __init__(self):
        self._by_fd = {}
        self._next = 1

    def id_of(self, fd, identity):
        """(id, new): the id of the open on `fd`, new when the fd is not the file seen there before."""
        known = self._by_fd.get(fd)
        if known is not None and known[0] == identity:
            return known[1], False
        self._by_fd[fd] = (identity, self._next)
        self._next += 1
        return self._by_fd[fd][1], True
