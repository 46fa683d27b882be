# Finalizer-closed detection: a file the code never closed, closed by its finalizer instead (its last
# reference dropped, or the cyclic GC found it). CPython closes it at once, so the suite passes; an
# interpreter that defers finalisation (PyPy), or a collection that comes late, keeps it open, and on
# Windows the teardown's delete fails (WinError 32). Each such close is queued as a "gc-close" record
# with the open's stack and test, written at the next test boundary or at exit.
#
# How the close is seen without changing behaviour: CPython's io finalizers look two methods up on
# the raw FileIO by name, only when finalizing an object still open:
#   - a BufferedReader/Writer or TextIOWrapper's finalizer calls `raw._dealloc_warn(source)` (the
#     ResourceWarning "unclosed file"), then closes;
#   - a FileIO finalized itself (unbuffered, or first of a cycle) sets `_finalizing` and calls `close()`.
# FileIO's type dict gets a descriptor for each whose __get__ notes the raw file and returns the
# original C method. The C code then calls it as before, so the warning, its filters and the line it
# names (the frame on top, not ours: __get__ has returned) are exactly as without holdwatch. Nothing
# here enables warnings or prints; an explicit close() costs one Python __get__ (bench/probe-overhead.ts).
# The type is immutable (`io.FileIO.x = ...` raises), so the dict is reached through gc.get_referents
# of its mappingproxy, and the type cache cleared after.
import gc
import io
import os
import sys

from .wire import json_str as _json_str

# fd or path -> (path, sites, test, atMs, api) of the open that is about to take it or took it: by fd
# when a path is opened from a second site (two handles on one file told apart), by path otherwise
# (Windows always). A file finalized while open was opened by the latest audited open of its fd, or of
# its path. Bounded by the fd numbers and the paths opened (an entry reused overwrites its own).
opened = {}
_queued = []


def install(state, now):
    """Puts the two descriptors on io.FileIO. False (and nothing changed) where the layout is unknown."""
    file_io = io.FileIO
    try:
        namespace = next(r for r in gc.get_referents(file_io.__dict__) if type(r) is dict)
    except StopIteration:
        return False
    warn, close = namespace.get("_dealloc_warn"), namespace.get("close")
    if warn is None or close is None or not hasattr(warn, "__get__"):
        return False

    def on_finalizing(raw):
        try:
            if raw.closed or not raw.closefd:
                return
            fd = raw.fileno()
            name = raw.name
            path = os.path.abspath(name) if type(name) is str else None
            entry = opened.get(fd)
            # An fd entry is written only for a path's second open site (recorder.py), so one may be
            # left from an earlier file that had this number: it counts only for the same path.
            if entry is not None and (path is None or entry[0] == path):
                del opened[fd]
            else:
                entry = None if path is None else opened.pop(path, None)
            if entry is None:
                return  # opened before the probe, or not through an audited open
            path, sites, test, opened_at_ms, api = entry
            _queue(state, now, "file", api, path, fd, opened_at_ms, test, sites)
        except Exception:  # inside a finalizer: nothing may escape, and there is nobody to tell
            pass

    class DeallocWarn:
        __slots__ = ()

        def __get__(self, raw, owner=None):
            if raw is not None:
                on_finalizing(raw)
            return warn.__get__(raw, owner)

    class Close:
        __slots__ = ()

        def __get__(self, raw, owner=None):
            if raw is not None and raw._finalizing:
                on_finalizing(raw)
            return close.__get__(raw, owner)

    namespace["_dealloc_warn"] = DeallocWarn()
    namespace["close"] = Close()
    # The type's method cache may hold the C methods already; 3.13 deprecates _clear_type_cache.
    clear = getattr(sys, "_clear_internal_caches", None) or getattr(sys, "_clear_type_cache")
    clear()
    return True


def _queue(state, now, resource, api, path, fd, opened_at_ms, test, sites):
    closed_during = state.get("test")
    _queued.append("".join((
        '{"v":1,"kind":"gc-close","pid":', str(state["pid"]), ',"atMs":', str(int(now() * 1000)),
        ',"resource":"', resource, '","api":', _json_str(api), ',"path":', _json_str(path),
        ',"fd":', "null" if fd is None else str(fd), ',"openedAtMs":', str(opened_at_ms),
        "" if test is None else ',"test":' + _json_str(test),
        "" if closed_during is None else ',"closedDuring":' + _json_str(closed_during),
        ',"frames":[', ",".join(sites), "]}\n",
    )))


def take_queued():
    """The gc-close lines made since the last call (finalizers only queue: a write may be under way)."""
    if not _queued:
        return ""
    lines = []
    while _queued:
        lines.append(_queued.pop(0))
    return "".join(lines)
