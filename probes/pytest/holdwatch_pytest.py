"""holdwatch's pytest plugin: writes the run's test timeline as JSON lines for holdwatch.

Load it with ``-p holdwatch_pytest`` (holdwatch puts this folder on PYTHONPATH). Under
``holdwatch run`` the environment names the events file in ``HOLDWATCH_EVENTS``. Added by hand (an
IDE's test button, a plain terminal), it announces the run to a running ``holdwatch attach`` instead:
it writes to ``<data dir>/inbox/<pid>-<random>.jsonl``, the first line naming this process, but only
when that inbox exists (holdwatch creates it), so without holdwatch it costs one stat and writes
nothing. The data dir is found as host/data-dir.ts finds it; keep the two in step. Each event is one line,
appended and written through at once (a crash loses nothing), in the shape of
core/runners/events.ts: ``{"type", "name", "phase"?, "outcome"?, "atMs", "detail"?}``.

Teardown is first-class: a test whose body passed and whose fixture teardown raised is reported
as ``phase teardown error``, not folded into one "failed". Phase starts are reported too (a
``phase`` event without an outcome), so a failure line printed during teardown can be placed there.

At each test's end (after its teardown) the process that ran it waits, bounded, for holdwatch to scan
the run's processes (``HOLDWATCH_BOUNDARY``, the test-boundary channel of contract/boundary.ts): what
is still open then has outlived its test, however short the test was.

The plugin must never break the test run: every hook swallows its own errors, and after the first
write error it stops writing.
"""

import json
import os
import socket
import sys
import time

import pytest

_ENV = "HOLDWATCH_EVENTS"
_BOUNDARY_ENV = "HOLDWATCH_BOUNDARY"
# How long a test's end waits for holdwatch's scan (a focused scan takes milliseconds). Past it,
# holdwatch is stalled or gone: this process stops waiting for the rest of the run, so a stalled
# holdwatch costs the suite one wait, never one per test.
_BOUNDARY_WAIT_S = 2.0


def _inbox_dir():
    env = os.environ
    if env.get("HOLDWATCH_DATA_DIR"):
        return os.path.join(env["HOLDWATCH_DATA_DIR"], "inbox")
    home = os.path.expanduser("~")
    if sys.platform == "win32":
        return os.path.join(env.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local"), "holdwatch", "inbox")
    return os.path.join(env.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share"), "holdwatch", "inbox")


def _announce_path():
    """A new file in holdwatch's inbox, or None when no holdwatch listens (no inbox)."""
    inbox = _inbox_dir()
    if not os.path.isdir(inbox):
        return None
    return os.path.join(inbox, "%d-%s.jsonl" % (os.getpid(), os.urandom(4).hex()))


def _announce_header():
    # orig_argv (3.10+) is the whole command, interpreter included: what the user would rerun.
    argv = list(getattr(sys, "orig_argv", None) or [sys.executable] + sys.argv)
    return {"type": "announce", "pid": os.getpid(), "cwd": os.getcwd(), "argv": argv, "runner": "pytest"}


class _EventsFile:
    """The one owner of the events file descriptor; closed at pytest_unconfigure."""

    def __init__(self, path, header=None):
        self._fd = None
        self._broken = False
        try:
            # O_APPEND: xdist workers share the file; each event is a single write() of one line.
            flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | (os.O_EXCL if header else 0)
            self._fd = os.open(path, flags, 0o644)
        except OSError:
            self._broken = True
        if header:
            # The header first, in one write: holdwatch reads which process to follow from it.
            self.emit(header)

    def emit(self, event):
        """Writes one event, stamped now; returns the stamp."""
        at_ms = time.time() * 1000.0
        if self._broken or self._fd is None:
            return at_ms
        try:
            event["atMs"] = at_ms
            line = json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n"
            os.write(self._fd, line.encode("utf-8"))
        except Exception:  # noqa: BLE001 - a probe must never raise into the test process
            self._broken = True
        return at_ms

    def close(self):
        fd, self._fd = self._fd, None
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass


class _Boundary:
    """The one owner of the test-boundary connection: at a test's end, says so and waits for the ack.

    Connects at the first test's end; after any failure (no listener, a timeout, a bad reply) it stays
    closed for the rest of the run. Never raises into the test process.
    """

    def __init__(self, spec):
        self._sock = None
        self._reader = None
        self._seq = 0
        self._broken = False
        try:
            host, port, token = spec.rsplit(":", 2)
            self._address = (host, int(port))
            self._token = token
        except ValueError:
            self._broken = True

    def test_ended(self, name, at_ms):
        if self._broken:
            return
        try:
            if self._sock is None:
                self._connect()
            self._seq += 1
            self._send({"type": "test-end", "seq": self._seq, "name": name, "atMs": at_ms})
            reply = json.loads(self._reader.readline() or "null")
            if not isinstance(reply, dict) or reply.get("type") != "ack" or reply.get("seq") != self._seq:
                raise ValueError("not an ack")
        except Exception:  # noqa: BLE001 - holdwatch is gone or stalled: the suite goes on unobserved
            self.close()
            self._broken = True

    def _connect(self):
        self._sock = socket.create_connection(self._address, timeout=_BOUNDARY_WAIT_S)
        self._sock.settimeout(_BOUNDARY_WAIT_S)
        self._reader = self._sock.makefile("r", encoding="utf-8", newline="\n")
        self._send({"type": "hello", "token": self._token, "pid": os.getpid()})

    def _send(self, message):
        self._sock.sendall((json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8"))

    def close(self):
        sock, reader, self._sock, self._reader = self._sock, self._reader, None, None
        for closable in (reader, sock):
            if closable is not None:
                try:
                    closable.close()
                except OSError:
                    pass


_OUTCOME_RANK = {"passed": 0, "skipped": 1, "failed": 2, "error": 3}


def _phase_outcome(report):
    if report.passed:
        return "passed"
    if report.skipped:
        return "skipped"
    # pytest itself calls a failing setup or teardown an ERROR, a failing body a FAILURE.
    return "failed" if report.when == "call" else "error"


def _detail(report):
    try:
        crash = getattr(report.longrepr, "reprcrash", None)
        text = crash.message if crash is not None else str(report.longrepr or "")
        for line in text.splitlines():
            if line.strip():
                return line.strip()[:500]
    except Exception:  # noqa: BLE001
        pass
    return None


class HoldwatchPlugin:
    def __init__(self, events, boundary=None):
        self._events = events
        self._boundary = boundary
        self._outcomes = {}
        # Tests run in this process (with xdist, the controller only relays its workers' reports).
        self._ran_here = set()

    def _safe_emit(self, **event):
        try:
            return self._events.emit({k: v for k, v in event.items() if v is not None})
        except Exception:  # noqa: BLE001
            return time.time() * 1000.0

    def pytest_sessionstart(self, session):
        self._safe_emit(type="run-start", name="pytest")

    def pytest_runtest_logstart(self, nodeid, location):
        self._outcomes[nodeid] = "passed"
        self._safe_emit(type="test-start", name=nodeid)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item):
        self._ran_here.add(item.nodeid)
        self._safe_emit(type="phase", name=item.nodeid, phase="setup")

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_call(self, item):
        self._safe_emit(type="phase", name=item.nodeid, phase="call")

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_teardown(self, item, nextitem):
        self._safe_emit(type="phase", name=item.nodeid, phase="teardown")

    def pytest_runtest_logreport(self, report):
        try:
            outcome = _phase_outcome(report)
            worst = self._outcomes.get(report.nodeid, "passed")
            if _OUTCOME_RANK[outcome] > _OUTCOME_RANK[worst]:
                self._outcomes[report.nodeid] = outcome
            detail = _detail(report) if outcome in ("failed", "error") else None
            self._safe_emit(type="phase", name=report.nodeid, phase=report.when, outcome=outcome, detail=detail)
        except Exception:  # noqa: BLE001
            pass

    def pytest_runtest_logfinish(self, nodeid, location):
        at_ms = self._safe_emit(type="test-end", name=nodeid, outcome=self._outcomes.pop(nodeid, "passed"))
        if self._boundary is not None and nodeid in self._ran_here:
            self._ran_here.discard(nodeid)
            self._boundary.test_ended(nodeid, at_ms)

    def pytest_sessionfinish(self, session, exitstatus):
        self._safe_emit(type="run-end", name="pytest", outcome="passed" if int(exitstatus) == 0 else "failed")


_plugin = None


def pytest_configure(config):
    global _plugin
    if _plugin is not None:
        return
    try:
        path, header = os.environ.get(_ENV), None
        # xdist workers report through their controller, which announces the run once.
        if not path and not os.environ.get("PYTEST_XDIST_WORKER"):
            path = _announce_path()
            header = _announce_header() if path else None
        if not path:
            return
        boundary = os.environ.get(_BOUNDARY_ENV)
        _plugin = HoldwatchPlugin(_EventsFile(path, header), _Boundary(boundary) if boundary else None)
        config.pluginmanager.register(_plugin, "holdwatch-events")
    except Exception:  # noqa: BLE001
        _plugin = None


def pytest_unconfigure(config):
    global _plugin
    plugin, _plugin = _plugin, None
    if plugin is not None:
        try:
            config.pluginmanager.unregister(plugin)
        except Exception:  # noqa: BLE001
            pass
        plugin._events.close()
        if plugin._boundary is not None:
            plugin._boundary.close()
