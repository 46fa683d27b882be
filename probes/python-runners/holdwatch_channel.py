"""What holdwatch's Python runner probes (the pytest plugin, the unittest hook) share: the events file
they write the test timeline to, and the test-boundary channel.

Events are JSON lines in the shape of core/runners/events.ts: ``{"type", "name", "phase"?, "outcome"?,
"atMs", "detail"?}``. Under ``holdwatch run`` the environment names the file in ``HOLDWATCH_EVENTS``.
Added by hand, a probe announces the run to a running ``holdwatch attach`` instead: it writes to
``<data dir>/inbox/<pid>-<random>.jsonl``, the first line naming this process, but only when that inbox
exists (holdwatch creates it), so without holdwatch it costs one stat. The data dir is found as
host/data-dir.ts finds it; keep the two in step.

The test-boundary channel (contract/boundary.ts, ``HOLDWATCH_BOUNDARY``): at each test's end the process
that ran it tells holdwatch what it holds under the watched dirs (``HOLDWATCH_WATCHED``), read from its
own /proc/self, and goes on at once; only while a child of it lives (which it cannot list for) does it
wait, bounded, until holdwatch has scanned the run's processes.

Nothing here may raise into the test process: every failure stops that part quietly.
"""

import os
import select
import stat
import sys
import time

# `json` and `socket` cost a short unittest run more at import than its tests do (socket.py builds
# enums of every constant): the stack probe's encoder and _socket's plain socket do, when they are
# there. Acks are decoded with json, imported when the first one comes.
try:
    from _holdwatch_stacks.wire import encode as _to_json, json_str as _json_str
except ImportError:  # the runner probes added by hand, without the stack probe
    import json
    from json.encoder import encode_basestring_ascii as _json_str

    # Made once: json.dumps with any option builds a new encoder at each call.
    _to_json = json.JSONEncoder(separators=(",", ":")).encode

EVENTS_ENV = "HOLDWATCH_EVENTS"
BOUNDARY_ENV = "HOLDWATCH_BOUNDARY"
# How long a test's end waits for holdwatch's scan (a focused scan takes milliseconds), and more per
# child of this process alive then: the scan walks each one, a few milliseconds apiece on a loaded
# machine, so a test that forked thousands is not given up on the moment it ends. Past it this process
# says it went on, and waits again only once every owed ack has come: a stalled holdwatch costs the
# suite one wait, never one per test. HOLDWATCH_BOUNDARY_WAIT_MS sets the whole wait instead.
BOUNDARY_WAIT_S = 2.0
BOUNDARY_WAIT_PER_CHILD_S = 0.003
BOUNDARY_WAIT_MAX_S = 20.0
BOUNDARY_WAIT_ENV = "HOLDWATCH_BOUNDARY_WAIT_MS"


def boundary_wait_s():
    """HOLDWATCH_BOUNDARY_WAIT_MS in seconds when set to a positive number of milliseconds, else None."""
    try:
        value = float(os.environ.get(BOUNDARY_WAIT_ENV) or 0) / 1000.0
    except ValueError:
        value = 0.0
    return value if 0 < value < 3600 else None


def scaled_wait_s(children):
    """The wait for a scan of this process and its ``children`` (a count; None when unknown)."""
    return min(BOUNDARY_WAIT_MAX_S, BOUNDARY_WAIT_S + BOUNDARY_WAIT_PER_CHILD_S * (children or 0))


def tell_stack_probe(test):
    """The stack probe in this process (probes/python) stamps opens with the test running: None between tests."""
    recorder = sys.modules.get("_holdwatch_stacks.recorder")
    if recorder is not None:
        try:
            recorder.set_test(test)
        except Exception:  # noqa: BLE001 - an older probe, or a broken one: opens go without their test
            pass


def tell_stack_probe_scope(kind, name=None):
    """The stack probe stamps opens with the wider scope whose setup runs now (kind None: none)."""
    recorder = sys.modules.get("_holdwatch_stacks.recorder")
    if recorder is not None:
        try:
            recorder.set_scope(kind, name)
        except Exception:  # noqa: BLE001 - an older probe: opens go without their scope
            pass


def inbox_dir():
    env = os.environ
    if env.get("HOLDWATCH_DATA_DIR"):
        return os.path.join(env["HOLDWATCH_DATA_DIR"], "inbox")
    home = os.path.expanduser("~")
    if sys.platform == "win32":
        return os.path.join(env.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local"), "holdwatch", "inbox")
    return os.path.join(env.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share"), "holdwatch", "inbox")


def announce_path():
    """A new file in holdwatch's inbox, or None when no holdwatch listens (no inbox)."""
    inbox = inbox_dir()
    if not os.path.isdir(inbox):
        return None
    return os.path.join(inbox, "%d-%s.jsonl" % (os.getpid(), os.urandom(4).hex()))


def announce_header(runner):
    # orig_argv (3.10+) is the whole command, interpreter included: what the user would rerun.
    argv = list(getattr(sys, "orig_argv", None) or [sys.executable] + sys.argv)
    return {"type": "announce", "pid": os.getpid(), "cwd": os.getcwd(), "argv": argv, "runner": runner}


# The events files' descriptors: never under a watched dir (holdwatch's data dir is refused there), so
# a boundary's inventory does not look at them; each write moves the file's ctime, which would have it
# read the link again at every boundary.
_EVENTS_FDS = set()


def _own_fds(more):
    """The probes' own descriptors: the events files', the stack probe's log's, and ``more``."""
    own = set(_EVENTS_FDS)
    own.update(more)
    recorder = sys.modules.get("_holdwatch_stacks.recorder")
    if recorder is not None:
        try:
            own.update(recorder.own_fds())
        except Exception:  # noqa: BLE001 - an older probe: its log is looked at like any file
            pass
    return own


class EventsFile:
    """The one owner of the events file descriptor."""

    def __init__(self, path, header=None):
        self._fd = None
        self._broken = False
        # Lines held back (emit's ``defer``): written with the next line that is not, in one write.
        self._pending = []
        try:
            # O_APPEND: xdist workers share the file; each event is a single write() of one line.
            flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | (os.O_EXCL if header else 0)
            self._fd = os.open(path, flags, 0o644)
            _EVENTS_FDS.add(self._fd)
        except OSError:
            self._broken = True
        if header:
            # The header first, in one write: holdwatch reads which process to follow from it.
            self.emit(header)

    def emit(self, event, defer=False, at_ms=None, tail=None):
        """Writes one event, stamped now (or ``at_ms``, when it happened earlier); returns the stamp.
        ``defer``: an event nothing reacts to live (a phase that did not fail) waits for the next one
        written, so each write, which wakes holdwatch, carries a test's whole story. ``tail``: more
        fields, already JSON (``,"key":value...``), for the caller that formats them cheaper."""
        if at_ms is None:
            at_ms = time.time() * 1000.0
        if self._broken or self._fd is None:
            return at_ms
        try:
            event["atMs"] = at_ms
            event["inTestProcess"] = True  # stamped here, in the test's process: no reading delay
            line = _to_json(event)
            self._pending.append(line + "\n" if tail is None else line[:-1] + tail + "}\n")
            if not defer:
                self._flush()
        except Exception:  # noqa: BLE001 - a probe must never raise into the test process
            self._broken = True
        return at_ms

    def emit_test(self, kind, name, outcome=None, tail=None):
        """emit() of a test's start or end (``kind``), formatted as one line: it runs twice per test,
        and a dict built and encoded field by field cost the test process more than the test. Returns
        the stamp."""
        at_ms = time.time() * 1000.0
        if self._broken or self._fd is None:
            return at_ms
        try:
            # The stamp as _to_json writes it: the boundary's line for this test carries the same text.
            self._pending.append('{"type":"%s","name":%s%s,"atMs":%s,"inTestProcess":true%s}\n' % (
                kind, _json_str(name), "" if outcome is None else ',"outcome":"%s"' % outcome, _to_json(at_ms), tail or ""))
            self._flush()
        except Exception:  # noqa: BLE001 - a probe must never raise into the test process
            self._broken = True
        return at_ms

    def _flush(self):
        lines, self._pending = self._pending, []
        if lines:
            os.write(self._fd, "".join(lines).encode("utf-8"))

    def close(self):
        if not self._broken and self._fd is not None:
            try:
                self._flush()
            except Exception:  # noqa: BLE001 - a probe must never raise into the test process
                pass
        fd, self._fd = self._fd, None
        if fd is not None:
            _EVENTS_FDS.discard(fd)
            try:
                os.close(fd)
            except OSError:
                pass


def open_events(runner):
    """The run's events file (HOLDWATCH_EVENTS), else an announce file when holdwatch listens, else None."""
    path, header = os.environ.get(EVENTS_ENV), None
    if not path:
        path = announce_path()
        header = announce_header(runner) if path else None
    return EventsFile(path, header) if path else None


# Test ends that list nothing held, after one that listed nothing either, wait to go with a later line
# (Boundary._hold_back): at most this many, for at most this long by the runner's clock.
HOLD_BACK_LINES = 64
HOLD_BACK_MS = 250.0
# An inventory longer than this goes by the scan instead: the channel's lines are bounded (64 KiB).
MAX_LISTED = 256
_DELETED = " (deleted)"


def _same_name(info, seen):
    """Whether a descriptor's file (its fstat) is still the one ``seen`` (dev, inode, ctime, links, named)
    met outside the dirs, by the same name."""
    if (info.st_dev, info.st_ino) != seen[:2]:
        return False
    if not seen[4]:
        return True  # a pipe, a socket, an anonymous inode: no name to move
    if info.st_nlink == 0:
        return seen[3] == 0  # unlinked (a capture file): no name to move, though each write moves its ctime
    # A rename moves the file's ctime (as a write does); a second link could be another path.
    return (info.st_ctime_ns, info.st_nlink) == seen[2:4] and (info.st_nlink == 1 or stat.S_ISDIR(info.st_mode))


class SelfInventory:
    """The one owner of the /proc/self files read at each boundary: what this process holds under the
    watched dirs, and whether a child of it lives. Read with pread on descriptors opened once, so a
    boundary opens no file (the stack probe would record each open).

    /proc/self/maps is the dear part (the kernel writes out every mapping at each read): it is read
    again only when the address space may have gained or lost a file mapping since the last read
    (statm's size or data moved, or the stack probe saw an mmap.mmap), or when the last read found a
    mapping under the dirs.

    The descriptors are listed again only when they may have changed: after a listing that found
    nothing under the dirs, a boundary at which the process holds as many descriptors (the size Linux
    6.2+ gives /proc/self/fd) and the stack probe saw no audited event that could open one or move the
    cwd (recorder.fd_events) holds nothing there still. What that cannot see is a descriptor opened
    where no audit event fires (a C library's own open) in the same test as one closed: the count stays,
    and that test's holding is left to holdwatch's scans.

    Where the only such events since that listing were opens (a test that writes a file and closes it),
    the stack probe noted the descriptor each took (recorder.track_opens), and only those, the ones not
    listed then, and 0-2 (a dup2 redirects them) are looked at: a descriptor listed then and outside
    the dirs stays so unless something no audit event sees reuses its number (a C library's open, a
    dup2 onto it) in a test that also opened a file; that holding, too, is left to the scans."""

    def __init__(self, prefixes):
        self._prefixes = prefixes
        # The dirs as /proc/self/maps spells them (bytes, no trailing separator): a maps text that
        # contains none of them maps nothing under them, and is not parsed line by line.
        self._maps_needles = [os.fsencode(p.rstrip("/")) for p in prefixes]
        self._maps = self._children = self._statm = self._stat = self._task = self._fd_dir = None
        # (fd_events, descriptor count) after the last listing, when it found nothing under the dirs.
        self._unchanged_since = None
        # How many descriptors the last boundary looked at (fstat), for the probe's tests.
        self.examined = 0
        # fd -> what the last boundary found outside the dirs by it (_same_name): the same file by the
        # same descriptor is not readlink'ed again (a readlink through /proc costs four times an fstat,
        # and a test process keeps a score of descriptors open from test to test).
        self._outside = {}
        self._maps_key = None
        # The last read of the maps found a mapping under the dirs: the next boundary reads them again.
        self._mapped_any = False
        if prefixes and sys.platform.startswith("linux"):
            try:
                self._maps = os.open("/proc/self/maps", os.O_RDONLY | os.O_CLOEXEC)
                self._children = os.open("/proc/self/task/%d/children" % os.getpid(), os.O_RDONLY | os.O_CLOEXEC)
                self._statm = os.open("/proc/self/statm", os.O_RDONLY | os.O_CLOEXEC)
                self._stat = os.open("/proc/self/stat", os.O_RDONLY | os.O_CLOEXEC)
                self._task = os.open("/proc/self/task", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
                self._fd_dir = os.open("/proc/self/fd", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            except OSError:
                self.close()

    @classmethod
    def from_environment(cls):
        value = os.environ.get("HOLDWATCH_WATCHED") or ""
        return cls([d if d.endswith("/") else d + "/" for d in value.split(os.pathsep) if d.startswith("/")])

    def _under(self, path):
        return any(path.startswith(p) or path + "/" == p for p in self._prefixes)

    def held(self, own_fds=()):
        """What this process holds under the watched dirs, or None when a scan must say it: no /proc,
        a child alive (its holdings are not ours to list), another thread (its children file is its own),
        or more than MAX_LISTED entries. ``own_fds``: the probes' own descriptors, not looked at."""
        if self._stat is None:
            return None
        try:
            self.examined = 0
            if os.pread(self._children, 64, 0).strip() or self._threads() > 1:
                return None
            if self._unchanged_since is not None and self._unchanged_since == self._descriptors_key():
                mapped = self._mapped_under()
                return mapped if len(mapped) <= MAX_LISTED else None
            self._unchanged_since = None
            own = _own_fds(own_fds)
            own.update((self._maps, self._children, self._statm, self._stat, self._task, self._fd_dir))
            names = os.listdir("/proc/self/fd")
            recorder = sys.modules.get("_holdwatch_stacks.recorder")
            look_at = recorder.may_have_moved(names) if hasattr(recorder, "may_have_moved") else None
            held = self._examine(names, own, look_at)
            held.extend(self._mapped_under())
            if look_at is None:
                cwd = os.readlink("/proc/self/cwd")
                if self._under(cwd):
                    held.append({"kind": "cwd", "path": cwd, "fd": None, "deleted": False})
            clean = not any(entry["kind"] != "mmap" for entry in held)
            if clean:
                self._unchanged_since = self._descriptors_key()
            if hasattr(recorder, "track_opens"):
                recorder.track_opens(names if clean else None)
            return held if len(held) <= MAX_LISTED else None
        except (OSError, ValueError, IndexError):
            recorder = sys.modules.get("_holdwatch_stacks.recorder")
            if hasattr(recorder, "track_opens"):
                recorder.track_opens(None)
            return None

    def _examine(self, names, own, look_at):
        """The descriptors among ``names`` (all, or only those in ``look_at``) that are under the dirs."""
        held = []
        outside, self._outside = self._outside, {}
        for name in names:
            fd = int(name)
            if fd in own:
                continue
            seen = outside.get(fd)
            if look_at is not None and name not in look_at:
                if seen is not None:
                    self._outside[fd] = seen
                continue
            self.examined += 1
            try:
                info = os.fstat(fd)
            except OSError:
                continue  # the listing's own descriptor, or one closed since
            if seen is not None and _same_name(info, seen):
                self._outside[fd] = seen
                continue
            try:
                target = os.readlink("/proc/self/fd/" + name)
            except OSError:
                continue  # closed since
            deleted = target.endswith(_DELETED)
            path = target[: -len(_DELETED)] if deleted else target
            if not self._under(path):
                self._outside[fd] = (info.st_dev, info.st_ino, info.st_ctime_ns, info.st_nlink, target.startswith("/"))
                continue
            held.append({"kind": "dir" if stat.S_ISDIR(info.st_mode) else "file", "path": path, "fd": fd, "deleted": deleted})
        return held

    def children(self):
        """How many children of this process live now (its main thread's), or None when unknown."""
        if self._children is None:
            return None
        try:
            listed, offset = [], 0
            while True:
                chunk = os.pread(self._children, 1 << 16, offset)
                if not chunk:
                    return len(b"".join(listed).split())
                listed.append(chunk)
                offset += len(chunk)
        except OSError:
            return None

    def _descriptors_key(self):
        """(the stack probe's fd_events, how many descriptors are open), or None where either is unknown
        (no stack probe, a kernel before 6.2, whose /proc/self/fd has size 0)."""
        recorder = sys.modules.get("_holdwatch_stacks.recorder")
        events = getattr(recorder, "fd_events", None)
        events = events() if events is not None else None
        if events is None:
            return None
        count = os.fstat(self._fd_dir).st_size
        return (events, count) if count > 0 else None

    def _threads(self):
        # Linux gives /proc/<pid>/task two links plus one per thread: one fstat, where a read of stat has
        # the kernel write out every field (and sum every thread's times).
        links = os.fstat(self._task).st_nlink
        if links >= 3:
            return links - 2
        # A kernel that counts no links there: num_threads, the 20th field of stat, the 18th after the
        # command name, which may hold spaces.
        return int(os.pread(self._stat, 1024, 0).rsplit(b")", 1)[1].split()[17])

    def _mapped_under(self):
        # Asked before the maps are read: a mapping made in between is in this read and moves the key.
        size, _resident, _shared, _text, _lib, data = os.pread(self._statm, 128, 0).split()[:6]
        recorder = sys.modules.get("_holdwatch_stacks.recorder")
        key = (size, data, recorder.file_maps_made() if recorder is not None else None)
        if key == self._maps_key and not self._mapped_any:
            return []
        self._maps_key = key
        self._mapped_any = False
        maps = self._read_maps()
        if not any(needle in maps for needle in self._maps_needles):
            return []
        mapped, seen = [], set()
        for line in maps.decode("utf-8", "surrogateescape").splitlines():
            fields = line.split(None, 5)
            if len(fields) < 6 or not fields[5].startswith("/"):
                continue
            deleted = fields[5].endswith(_DELETED)
            path = fields[5][: -len(_DELETED)] if deleted else fields[5]
            if path not in seen and self._under(path):
                seen.add(path)
                mapped.append({"kind": "mmap", "path": path, "fd": None, "deleted": deleted})
        self._mapped_any = bool(mapped)
        return mapped

    def _read_maps(self):
        # /proc's seq files give about a page per read: read on from where the last read ended.
        chunks, offset = [], 0
        while offset < 1 << 24:
            chunk = os.pread(self._maps, 1 << 16, offset)
            if not chunk:
                break
            chunks.append(chunk)
            offset += len(chunk)
        return b"".join(chunks)

    def close(self):
        for name in ("_maps", "_children", "_statm", "_stat", "_task", "_fd_dir"):
            fd = getattr(self, name)
            setattr(self, name, None)
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass


class Boundary:
    """The one owner of the test-boundary connection: at a test's end, says so and waits for the ack.

    Connects when made, before the first test: holdwatch reads what this process is when it says
    hello, while it surely runs (its boundaries may be handled after it exited). A wait that passes
    its bound says so (``went-on``) and goes on; while that ack or any later one is still owed, test
    ends are sent without waiting (``waits: false``), and holdwatch scans them when it can: one slow
    scan costs the suite one wait, and the rest of the run is still observed. After a failure (no
    listener, a closed connection, a bad reply) it stays closed for the rest of the run. Never raises
    into the test process.
    """

    def __init__(self, spec, inventory=None):
        self._sock = None
        self._seq = 0
        # Acks owed by holdwatch (test ends it scans, answered in order), and the bytes of a line begun.
        self._owed = 0
        self._pending = b""
        self._broken = False
        self._inventory = inventory
        # Listed ends held back (_hold_back), and whether the last listed end named anything.
        self._unsent = []
        self._unsent_since_ms = 0.0
        self._listed_some = False
        self._flush_at_exit = False
        self._pid = os.getpid()
        self._wait_s = boundary_wait_s()
        try:
            host, port, token = spec.rsplit(":", 2)
            self._address = (host, int(port))
            self._token = token
        except ValueError:
            self._broken = True
            return
        try:
            self._connect()
        except Exception:  # noqa: BLE001 - no listener: the suite goes on unobserved
            self.close()
            self._broken = True

    @classmethod
    def from_environment(cls):
        spec = os.environ.get(BOUNDARY_ENV)
        return cls(spec, SelfInventory.from_environment()) if spec else None

    def test_ended(self, name, at_ms, scope=None):
        """Test ``name`` ended (or, with ``scope``, that wider scope: a module's, a class's, the session's)."""
        if self._broken:
            return
        try:
            self._seq += 1
            held = self._inventory.held((self._sock.fileno(),)) if self._inventory is not None else None
            if held is not None and not held and not self._listed_some:
                # Formatted, not encoded: most test ends, and the scope is one of a few plain words.
                self._hold_back('{"type":"test-end","seq":%d,"name":%s,"atMs":%s%s,"held":[]}\n' % (
                    self._seq, _json_str(name), _to_json(at_ms), "" if scope is None else ',"scope":"%s"' % scope), at_ms)
                return
            message = {"type": "test-end", "seq": self._seq, "name": name, "atMs": at_ms}
            if scope is not None:
                message["scope"] = scope
            if held is not None:
                # Listed here: holdwatch journals it without scanning, and nothing waits.
                message["held"] = held
                self._listed_some = bool(held)
                self._send(message)
                return
            if self._owed > 0:
                self._read_acks(0)
            if self._owed > 0:
                # Still behind on an earlier scan: waiting now would wait for that one too.
                message["waits"] = False
                self._send(message)
                self._owed += 1
                return
            self._send(message)
            self._owed += 1
            wait_s = self._wait_s
            if wait_s is None:
                wait_s = scaled_wait_s(self._inventory.children() if self._inventory is not None else None)
            if not self._read_acks(wait_s):
                self._send({"type": "went-on", "seq": self._seq, "atMs": time.time() * 1000.0})
        except Exception:  # noqa: BLE001 - holdwatch is gone or answered nonsense: the suite goes on unobserved
            self.close()
            self._broken = True

    def _hold_back(self, line, at_ms):
        # "Still nothing held" changes nothing holdwatch knows until the run's record is made, but each
        # line sent on its own wakes holdwatch once per test, which on a loaded machine costs the test
        # process as much CPU again. Such lines go with the next line sent, or once HOLD_BACK_LINES wait
        # or the first waits HOLD_BACK_MS, or at exit; a process killed first loses only them.
        self._unsent.append(line)
        if len(self._unsent) == 1:
            self._unsent_since_ms = at_ms
            if not self._flush_at_exit:
                self._flush_at_exit = True
                import atexit

                atexit.register(self.flush)
        if len(self._unsent) >= HOLD_BACK_LINES or at_ms - self._unsent_since_ms >= HOLD_BACK_MS:
            self.flush()

    def flush(self):
        """Sends the lines held back. Never raises."""
        if not self._unsent or self._broken or self._sock is None:
            return
        try:
            if os.getpid() != self._pid:
                self._unsent = []  # a forked child: the lines are its parent's to send
                return
            self._send_text("")
        except Exception:  # noqa: BLE001 - holdwatch is gone: the suite goes on unobserved
            self._broken = True
            self.close()

    def _read_acks(self, within_s):
        """Reads the acks that come within ``within_s`` (0: those already here); True once none is owed."""
        deadline = time.monotonic() + within_s
        while self._owed > 0:
            while b"\n" in self._pending:
                import json

                line, self._pending = self._pending.split(b"\n", 1)
                reply = json.loads(line.decode("utf-8"))
                if not isinstance(reply, dict) or reply.get("type") != "ack" or not isinstance(reply.get("seq"), int):
                    raise ValueError("not an ack")
                self._owed -= 1
            if self._owed == 0:
                break
            left = deadline - time.monotonic()
            if not select.select([self._sock], [], [], max(0.0, left))[0]:
                return False
            chunk = self._sock.recv(4096)
            if not chunk:
                raise ConnectionError("holdwatch closed the boundary channel")
            self._pending += chunk
            if len(self._pending) > 1 << 16:
                raise ValueError("not an ack")
        return True

    def _connect(self):
        self._sock = _connected(self._address, self._wait_s or BOUNDARY_WAIT_S)
        # Blocking from here: every wait for an ack is bounded by select, not by a socket timeout (a
        # timed-out socket file cannot be read again).
        self._sock.settimeout(None)
        self._send({"type": "hello", "token": self._token, "pid": os.getpid()})

    def _send(self, message):
        self._send_text(_to_json(message) + "\n")

    def _send_text(self, text):
        # The lines held back go first, in the same write: holdwatch reads every line in the order made.
        if self._unsent:
            text, self._unsent = "".join(self._unsent) + text, []
        self._sock.sendall(text.encode("utf-8"))

    def close(self):
        self.flush()
        if self._inventory is not None:
            self._inventory.close()
        sock, self._sock = self._sock, None
        if sock is not None:
            try:
                sock.close()
            except OSError:
                pass


def _connected(address, timeout_s):
    """A TCP connection to holdwatch's listener (an IPv4 literal: _socket's own socket, without socket.py)."""
    try:
        import _socket

        _socket.inet_aton(address[0])
    except (ImportError, OSError):
        import socket

        return socket.create_connection(address, timeout=timeout_s)
    sock = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout_s)
        sock.connect(address)
    except BaseException:
        sock.close()
        raise
    return sock
