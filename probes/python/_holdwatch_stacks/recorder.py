# Records, inside a Python test process, where files were opened and processes were started, so
# holdwatch can show the line of code behind a handle that outlived its test.
#
# One audit hook (sys.addaudithook, PEP 578) sees `open` (builtins.open, io.open, os.open),
# `sqlite3.connect`, the process-starting events and the deletes under the watched dirs (deletes.py,
# which name what this process still held there); each record carries the caller's frames as
# (file, line, function, is-user) without formatting any text. Records are JSON lines in
# <HOLDWATCH_PROBE_LOG>/python-<pid>-<ms>.jsonl: one file per process keeps processes apart, and
# each record is in the file (a shared memory map, log_file.py) as soon as it is made, so a process
# that opens a file and then sleeps forever - the leak holdwatch exists for - has already told us.
#
# `open` fires before the file is opened, so the fd is not known yet; but POSIX gives an open the
# lowest free descriptor, and os.dup (not audited) finds it: a record of a path opened before carries
# the fd its open is about to take (another thread opening in between is the only way this is wrong,
# and the matcher checks the path too). The matcher (core/stacks) pairs holder and open by pid + fd,
# then pid + path among the records no other fd claims, so two handles on one file get their own
# stacks. (A path's first open goes without: the two syscalls that find the fd are paid only where two
# opens of one path must be told apart.) A failure to write disables the probe and says so once
# on stderr; nothing here may raise into the test process.
#
# Every open pays for the Python code here, so the hot path is inline in the hook: no audited attribute
# read per frame (frames.py), no float formatting, no lock per record (log_file.py), none of the
# runner's frames above the test, and no record that repeats the last one for its path (_last_open).
# bench/probe-overhead.ts prints what is left.
import atexit
import os
import sys
import time

from . import deletes as _deletes
from . import frames as _frames
from . import gc_watch as _gc_watch
from . import spawns as _spawns
from . import sqlite_watch as _sqlite_watch
from .log_file import MappedLog
from .wire import encode as _encode, json_str as _json_str

_WIRE_VERSION = 1
_now = time.time

_state = {"log": None, "pid": 0, "cwd": None, "test": None, "scope_json": "", "file_maps": 0, "fd_events": 0, "hooked": False, "opened_fds": None, "clean": None, "watched": ()}
# The descriptors the deletes found (deletes.py), by fd: their ids are this process's log's.
_listed = _deletes.Listed()
# Audited events that open no descriptor and move no cwd, the ones a test runner fires by the dozen
# per test. Every other event, a kind never seen before included, moves fd_events().
_NO_FD_EVENTS = frozenset((
    "object.__getattr__", "object.__setattr__", "object.__delattr__", "builtins.id", "os.putenv",
    "os.unsetenv", "sys._getframe", "sys._getframemodulename", "exec", "compile", "import",
    "marshal.loads", "code.__new__",
    # Path operations that leave no descriptor behind and move no cwd: a test's cleanup fires them by
    # the dozen. (os.rename stays out: it can move a file held outside the dirs into them.)
    "os.remove", "os.rmdir", "os.mkdir", "os.chmod", "os.utime", "os.listdir", "os.link", "os.symlink",
    "os.truncate",
))
# The most opens whose descriptors are noted between two of the inventory's listings (track_opens):
# past it the inventory lists every descriptor again, as it would without the notes.
_TRACKED_OPENS_LIMIT = 16
# fd -> the open about to take it, for finalizer-closed detection (gc_watch.py); None when it is off.
_gc_opened = None


def start():
    directory = os.environ.get("HOLDWATCH_PROBE_LOG")
    if not directory or os.environ.get("HOLDWATCH_PROBE_DISABLED"):
        return
    if not hasattr(sys, "addaudithook"):
        _disable("Python 3.8 or later is needed (sys.addaudithook); this is %d.%d" % sys.version_info[:2])
        return
    _state["dir"] = directory
    _state["watched"] = _deletes.watched_prefixes(os.environ)
    if not _open_log():
        return
    _write_process_record(parent_pid=os.getppid())
    _start_gc_watch()
    sys.addaudithook(_on_audit)
    _state["hooked"] = True
    _spawns.install(_write_spawn)
    if hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=_after_fork)
    # Registered before any of the test's own atexit hooks, so it runs after them (LIFO).
    atexit.register(_close_log)


def _start_gc_watch():
    global _gc_opened
    # On where HOLDWATCH_GC_WATCH=1: holdwatch run sets it unless the user said 0 (it adds to every
    # open's cost, bench/probe-overhead.ts). Free-threaded builds: their io objects are not this layout's; the
    # watch stays off there.
    if os.environ.get("HOLDWATCH_GC_WATCH") != "1" or getattr(sys, "_is_gil_enabled", lambda: True)() is False:
        return
    try:
        if _gc_watch.install(_state, _now):
            _gc_opened = _gc_watch.opened
    except Exception as error:  # a Python whose io differs: opens are still recorded
        _gc_opened = None
        try:
            sys.stderr.write("holdwatch: finalizer-closed detection disabled: %r\n" % (error,))
        except Exception:
            pass


def set_test(name):
    """The runner probes' word (probes/python-runners): the test now running here, None between tests."""
    _write_gc_closes()  # before the change: a connection found freed now was freed in the test ending
    _state["test"] = name


def file_maps_made():
    """How many files this process has mapped through mmap.mmap: the test-boundary inventory re-reads
    /proc/self/maps when it moved, even if the address space kept its size."""
    return _state["file_maps"]


def fd_events():
    """How many audited events that may have opened a descriptor or moved the cwd this process has seen
    (opens, sockets, maps, scandirs, spawns, chdirs, anything unknown), or None without the hook: a test
    boundary whose count and descriptor count did not move since a listing that found nothing under
    the dirs need not list again."""
    return _state["fd_events"] if _state["hooked"] else None


def track_opens(names):
    """The test-boundary inventory's word after a listing of /proc/self/fd (`names`, its entries) that
    found nothing under the watched dirs: from now on each open notes the descriptor it takes (the
    lowest free one, found as _next_fd finds it), so the next look (a boundary's, a delete's) need read
    only those, the numbers new since, and 0-2 (may_have_moved). `names` None: the last listing found
    something there, and every look reads all."""
    tracking = names is not None and _state["hooked"] and _POSIX
    _state["opened_fds"] = [] if tracking else None
    _state["clean"] = (_state["fd_events"], frozenset(names)) if tracking else None


def may_have_moved(names, counted=0):
    """Of `names` (/proc/self/fd's entries now), those that may name something under the watched dirs:
    where every audited event since the clean listing that may open a descriptor was an open that noted
    its descriptor (`counted`: the caller's own event, if it was counted), the opens' descriptors, the
    numbers not listed then, and 0-2 (a dup2 redirects them); None when all must be read. What that
    cannot see: a number listed then, reused by something no audit event sees (a C library's open, a
    dup2 onto it) while the count of events stood."""
    clean, opened = _state["clean"], _state["opened_fds"]
    if clean is None or opened is None or _state["fd_events"] - clean[0] - counted != len(opened):
        return None
    look = {name for name in names if name not in clean[1]}
    look.update(str(fd) for fd in opened)
    look.update(("0", "1", "2"))
    return look


def own_fds():
    """The descriptors of this probe's log: never under a watched dir, so a test boundary's inventory
    of this process skips them."""
    log = _state["log"]
    return () if log is None else (log.fileno(),)


def set_scope(kind, name):
    """The runner probes' word: a wider scope's setup runs now (a module or class fixture), outside any
    test; its opens carry it. ``kind`` None: that setup is over."""
    _state["scope_json"] = "" if kind is None else ',"scope":{"kind":%s,"name":%s}' % (_json_str(kind), _json_str(name))


def _write_gc_closes():
    if _gc_opened is not None and _state["log"] is not None:
        _sqlite_watch.check(_state, _now)
    lines = _gc_watch.take_queued()
    if lines:
        _write_line(lines)


def _open_log():
    pid = os.getpid()
    path = os.path.join(_state["dir"], "python-%d-%d.jsonl" % (pid, _now() * 1000))
    try:
        log = MappedLog(path)
    except (OSError, ValueError) as error:
        _disable("cannot write %s: %s" % (path, getattr(error, "strerror", None) or error))
        return False
    _state["log"] = log
    _state["pid"] = pid
    _state["open_prefix"] = '{"v":%d,"kind":"open","pid":%d,"atMs":' % (_WIRE_VERSION, pid)
    _state["cwd"] = None
    return True


def _next_fd(_dup=os.dup, _close=os.close):
    """The descriptor the open being audited is about to get; None where there are none (Windows)."""
    log = _state["log"]
    if not _POSIX or log is None:
        return None
    try:
        fd = _dup(log.fileno())
    except OSError:
        return None
    _close(fd)
    return fd


def _close_log():
    _write_gc_closes()
    log = _state["log"]
    _state["log"] = None
    if log is not None:
        try:
            log.close()
        except OSError:
            pass


def _disable(reason):
    _close_log()
    # Children inherit the environment: one line for the whole process tree, not one per process.
    os.environ["HOLDWATCH_PROBE_DISABLED"] = "1"
    try:
        sys.stderr.write("holdwatch: python stack probe disabled: %s\n" % reason)
        sys.stderr.flush()
    except Exception:
        pass


def _write(record, frames=None):
    """Appends one record; `frames` is capture()'s JSON text, spliced in without re-encoding."""
    text = _encode(record)
    if frames is not None:
        text = text[:-1] + ',"frames":' + frames + "}"
    _write_line(text + "\n")


def _write_line(line):
    log = _state["log"]
    if log is None:
        return
    try:
        log.write(line.encode("ascii"))
    except Exception as error:  # ENOSPC, EIO, a closed fd: stop recording, never raise
        _disable("cannot write the probe log: %s" % (error,))


def _write_process_record(parent_pid):
    _write({
        "v": _WIRE_VERSION, "kind": "process", "runtime": "python", "pid": _state["pid"],
        "ppid": parent_pid, "atMs": _now() * 1000, "argv": _texts(getattr(sys, "orig_argv", sys.argv)),
        "cwd": _cwd(),
    })


def _after_fork():
    # A forked child is a new process with our hook still installed: give it its own log file, and
    # record the fork's call site as its spawn stack. An at-fork hook that raises prints
    # "Exception ignored": nothing may escape.
    try:
        _reopen_after_fork()
    except Exception as error:
        _disable("internal error after fork: %r" % (error,))


def _reopen_after_fork():
    parent = _state["pid"]
    log = _state["log"]
    _state["log"] = None
    if log is not None:
        log.abandon()
    _last_open.clear()  # the records it stood for are in the parent's log
    global _listed
    _listed = _deletes.Listed()
    if not _open_log():
        return
    _write_process_record(parent_pid=parent)
    _write_spawn("os.fork", None, None, None, os.getpid(), _frames.capture(sys._getframe(2)))


def _cwd():
    cwd = _state["cwd"]
    if cwd is None:
        try:
            cwd = _state["cwd"] = os.getcwd()
        except OSError:
            return None
    return cwd


def _path_text(path):
    if type(path) is not str:
        if isinstance(path, int):
            return None  # open(fd) wraps an fd opened elsewhere
        try:
            path = os.fsdecode(os.fspath(path))
        except (TypeError, ValueError):
            return None
    if not os.path.isabs(path):
        cwd = _cwd()
        if cwd is not None:
            path = os.path.join(cwd, path)
    return path


def _texts(values):
    out = []
    for value in values or ():
        try:
            out.append(os.fsdecode(os.fspath(value)))
        except (TypeError, ValueError):
            out.append(str(value))
    return out


def _caller(depth=3):
    # Frame 0 is the handler's helper, 1 the handler, 2 the audit hook, 3 the code that made the
    # call. The interpreter itself opens files (the script, at startup) with no Python frame at all.
    try:
        return sys._getframe(depth)
    except ValueError:
        return None


_POSIX = os.sep == "/"

# path -> (frames, mode, flags) of the last open record written for it. A test that opens the same
# file from the same line again and again (a polling loop, a fixture per test) needs one record:
# the matcher takes the latest open of a path, and a repeat would carry the same stack. Only a
# repeat of the path's *last* record is skipped, so an open from elsewhere in between still wins.
_last_open = {}
_LAST_OPEN_LIMIT = 4096


def _on_sqlite_connect(args):
    path = _path_text(args[0]) if args and args[0] != ":memory:" else None
    if path is None:
        return
    sites = _frames.capture_sites(_caller())
    if sites is None:
        return
    at_ms = _now() * 1000
    _write({
        "v": _WIRE_VERSION, "kind": "connect", "pid": _state["pid"], "atMs": at_ms,
        "api": "sqlite3.connect", "path": path, "fd": _next_fd(),
    }, _frames.as_json(sites))
    if _gc_opened is not None and _sqlite_watch.available():
        _state["sqlite_connect"] = (path, sites, _state["test"], int(at_ms))


def _on_sqlite_handle(args):
    # Right after "sqlite3.connect", with the connection made: its database file is followed.
    pending = _state.pop("sqlite_connect", None)
    if pending is not None and args:
        _sqlite_watch.watch(args[0], *pending)


def _on_popen(args):
    executable, argv, cwd = args[0], args[1], args[2]
    argv = [argv] if isinstance(argv, (str, bytes)) else argv
    frames = _frames.capture(_caller())
    cwd_text = _path_text(cwd) if cwd is not None else _cwd()
    # With the Popen wrapper in place the record waits for the child's pid; without it, write now.
    if not _spawns.hold_for_pid("subprocess.Popen", _texts([executable])[0] if executable is not None else None, _texts(argv), cwd_text, frames):
        _write_spawn("subprocess.Popen", _texts([executable])[0] if executable is not None else None, _texts(argv), cwd_text, None, frames)


def _on_system(args):
    _write_spawn("os.system", "/bin/sh", ["/bin/sh", "-c"] + _texts(args[:1]), _cwd(), None, _frames.capture(_caller()))


def _on_posix_spawn(args):
    path = _texts(args[:1])
    _write_spawn("os.posix_spawn", path[0] if path else None, _texts(args[1]) if len(args) > 1 else [], _cwd(), None, _frames.capture(_caller()))


def _on_mmap(args):
    # mmap.mmap(fileno, ...): the map holds the file past the fd's close (a memmap, a read-only index);
    # on Windows the file cannot be deleted while any view of it is mapped. fileno -1 is anonymous.
    fileno = args[0] if args else -1
    if type(fileno) is not int or fileno < 0 or not _POSIX:
        return
    _state["file_maps"] += 1
    try:
        path = os.readlink("/proc/self/fd/%d" % fileno)
    except OSError:
        return
    if not path.startswith("/"):
        return
    record = {"v": _WIRE_VERSION, "kind": "open", "pid": _state["pid"], "atMs": int(_now() * 1000), "api": "mmap.mmap", "path": path, "fd": None, "mmap": True}
    scope = _state["scope_json"]
    text = _encode(record)[:-1] + scope + ',"frames":' + _frames.capture(_caller()) + "}"
    _write_line(text + "\n")


def _on_chdir(_args):
    _state["cwd"] = None  # fires before the change: read the new cwd lazily, on the next relative path


def _on_remove(args):
    _record_delete("os.remove", args[0], args[1] if len(args) > 1 else None)


def _on_rmdir(args):
    _record_delete("os.rmdir", args[0], args[1] if len(args) > 1 else None)


def _on_rmtree(args):
    _record_delete("shutil.rmtree", args[0], args[1] if len(args) > 1 else None)


def _on_rename(args):
    # The source is what a held handle blocks (os.rename, os.replace): the destination is new there.
    _record_delete("os.rename", args[0], args[2] if len(args) > 2 else None)


def _record_delete(api, path, dir_fd):
    # The event itself moved fd_events where it is not one of the path operations that open nothing.
    counted = 0 if api in _NO_FD_EVENTS else 1
    prefixes = _state["watched"]
    # A name relative to a dir fd (rmtree's own unlinks inside the tree it removes) is not ours to place.
    if not prefixes or (dir_fd not in (None, -1) and not (type(path) is str and path[:1] == "/")):
        return
    path = _path_text(path)
    if path is None:
        return
    path = os.path.normpath(path)
    if not _deletes.is_under(prefixes, path):
        return
    names = os.listdir("/proc/self/fd")
    held = _deletes.held_at(path, set(own_fds()), names, may_have_moved(names, counted))
    if not held:
        return
    at_ms = int(_now() * 1000)
    test = _state["test"]
    ids = []
    for fd, target, identity in held:
        open_id, new = _listed.id_of(fd, identity)
        ids.append(open_id)
        if new:
            record = {"v": _WIRE_VERSION, "kind": "open", "pid": _state["pid"], "atMs": at_ms, "api": "native", "path": target, "fd": fd, "id": open_id, "listed": True}
            if test is not None:
                record["test"] = test
            _write(record, "[]")
    record = {"v": _WIRE_VERSION, "kind": "delete", "pid": _state["pid"], "atMs": at_ms, "api": api, "path": path, "held": ids, "cwd": False}
    if test is not None:
        record["test"] = test
    # Frame 0 _caller, 1 here, 2 the handler, 3 the audit hook, 4 the code that deletes.
    _write(record, _frames.capture(_caller(4)) or "[]")


def _write_spawn(api, executable, argv, cwd, child_pid, frames):
    record = {
        "v": _WIRE_VERSION, "kind": "spawn", "pid": _state["pid"], "atMs": _now() * 1000, "api": api,
        "executable": executable, "argv": argv, "cwd": cwd, "childPid": child_pid,
    }
    # The test that started the child: a detached child keeps no runner's environment hint.
    if _state["test"] is not None:
        record["test"] = _state["test"]
    _write(record, frames)


def _gc_fdopen(fd, sites):
    # os.fdopen(fd), tempfile's files: the file object is made here, on an fd an os.open made.
    entry = _gc_opened.get(fd)
    if entry is not None:
        _gc_opened[fd] = (entry[0], sites, _state["test"], int(_now() * 1000), "os.fdopen")


_HANDLERS = {
    "sqlite3.connect": _on_sqlite_connect,
    "sqlite3.connect/handle": _on_sqlite_handle,
    "subprocess.Popen": _on_popen,
    "os.system": _on_system,
    "os.posix_spawn": _on_posix_spawn,
    "os.chdir": _on_chdir,
    "mmap.__new__": _on_mmap,
    "os.remove": _on_remove,
    "os.rmdir": _on_rmdir,
    "shutil.rmtree": _on_rmtree,
    "os.rename": _on_rename,
}


def _on_audit(event, args, _getframe=sys._getframe, _capture=_frames.capture_sites, _state=_state, _last=_last_open, _no_fd=_NO_FD_EVENTS):
    # Called for every audited event in the process (imports, compiles, getattr of frames...): a set
    # lookup, a string compare and a dict lookup decide, and anything we record may never raise into
    # the caller.
    if event not in _no_fd:
        _state["fd_events"] += 1
    if event != "open":
        handler = _HANDLERS.get(event)
        if handler is None or _state["log"] is None:
            return
        try:
            handler(args)
        except Exception as error:
            _disable("internal error on %s: %r" % (event, error))
        return
    # The hot path, inline (a call is a tenth of the budget): every open of the test.
    tracked = _state["opened_fds"]
    taken = None
    if tracked is not None:
        # Noted before any return below: an import's open takes a descriptor too, however briefly.
        taken = _next_fd()
        if taken is None or len(tracked) >= _TRACKED_OPENS_LIMIT:
            _state["opened_fds"] = None
        else:
            tracked.append(taken)
    log = _state["log"]
    if log is None:
        return
    try:
        try:
            caller = _getframe(1)
        except ValueError:
            return  # the interpreter's own open (the script at startup): no Python caller
        sites = _capture(caller)
        if sites is None:
            return  # an import reading .pyc and source files through io.open_code: not the test's
        path, mode, flags = args
        if not (type(path) is str and (path[:1] == "/" if _POSIX else path[1:3] == ":\\")):
            if type(path) is int and _gc_opened is not None:
                _gc_fdopen(path, sites)
            path = _path_text(path)
            if path is None:
                return
        seen = (sites, mode, flags)
        last = _last.get(path)
        gc_opened = _gc_opened
        if last == seen:
            # The same open again (a loop): the finalizer watch keeps it by path, its stack the same;
            # an os.open by fd, which os.fdopen looks up (_gc_fdopen).
            if gc_opened is not None:
                fd = None if mode is not None else taken if taken is not None else _next_fd()
                gc_opened[path if fd is None else fd] = (path, sites, _state["test"], int(_now() * 1000), "open" if mode is not None else "os.open")
            return
        if len(_last) >= _LAST_OPEN_LIMIT:
            _last.clear()
        _last[path] = seen
        # Only a path opened before needs its fd told apart (two handles on one file); the first
        # open's record goes without, and the matcher gives it the handle no fd-carrying record claims.
        # The finalizer watch keys it the same way, by fd when there is one, else by path, and an
        # os.open always by fd (os.fdopen finds it so). Asking the kernel for the fd at every open
        # would add a dup and a close to each.
        fd = None if last is None and (gc_opened is None or mode is not None) else taken if taken is not None else _next_fd()
        if gc_opened is not None:
            gc_opened[path if fd is None else fd] = (path, sites, _state["test"], int(_now() * 1000), "open" if mode is not None else "os.open")
        # Joined from pieces, with frames.as_json inline: a seven-item "%" format with "%d" of a float
        # cost 9.8k instructions, this 6.6k. atMs in whole milliseconds: a float's "%.3f" was a sixth
        # of the probe's cost per open, and the matcher compares with whole-millisecond scan times.
        line = "".join((
            _state["open_prefix"], str(int(_now() * 1000)), ',"api":"open","path":' if mode is not None else ',"api":"os.open","path":',
            _json_str(path), ',"fd":', "null" if fd is None else str(fd), ',"mode":', _json_str(mode) if type(mode) is str else "null",
            ',"flags":', str(flags) if type(flags) is int else "0", _state["scope_json"], ',"frames":[', ",".join(sites), "]}\n",
        ))
        try:
            log.write(line.encode("ascii"))
        except Exception as error:  # ENOSPC, EIO: stop recording, never raise
            _disable("cannot write the probe log: %s" % (error,))
    except Exception as error:
        _disable("internal error on open: %r" % (error,))
