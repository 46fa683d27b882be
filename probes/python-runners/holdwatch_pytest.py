"""holdwatch's pytest plugin: writes the run's test timeline as JSON lines for holdwatch.

Load it with ``-p holdwatch_pytest`` (holdwatch puts this folder on PYTHONPATH). Where the events go,
and the test-boundary channel, are holdwatch_channel.py's: ``HOLDWATCH_EVENTS`` under ``holdwatch run``,
else an announce file in the inbox of a listening ``holdwatch attach``, else nowhere.

Teardown is first-class: a test whose body passed and whose fixture teardown raised is reported
as ``phase teardown error``, not folded into one "failed". Phase starts are reported too (a
``phase`` event without an outcome), so a failure line printed during teardown can be placed there.
A test's phases that did not fail go in its ``test-end`` line (``phases``: ``[phase, atMs]`` for a
start, ``[phase, atMs, outcome]`` for a report), each stamped when it happened: one line per test end
instead of seven, each of which costs the test process an encode and holdwatch a decode. A phase that
fails goes out at once on its own line, after the phases before it.

At each test's end (after its teardown) the process that ran it waits, bounded, for holdwatch to scan
the run's processes (``HOLDWATCH_BOUNDARY``): what is still open then has outlived its test, however
short the test was.

The plugin must never break the test run: every hook swallows its own errors, and after the first
write error it stops writing.
"""

import os
import time

import pytest

from holdwatch_channel import Boundary, EventsFile, announce_header, announce_path, tell_stack_probe, tell_stack_probe_scope


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


# pytest's fixture scopes as holdwatch's scope kinds (contract/enums.ts SCOPE_KINDS).
_SCOPE_KINDS = {"class": "suite", "module": "file", "package": "file", "session": "session"}


def _scope_of(fixturedef, request):
    """(kind, name) of a fixture wider than one test, named by the node it lives on; None for a test's own."""
    try:
        scope = getattr(fixturedef, "scope", "function")
        kind = _SCOPE_KINDS.get(scope)
        if kind is None:
            return None
        if kind == "session":
            return kind, "session"
        node = request.node
        return kind, node.nodeid or "session"
    except Exception:  # noqa: BLE001 - an unknown pytest: the open goes to the test running
        return None


_FILE_NODES = tuple(t for t in (getattr(pytest, "Module", None), getattr(pytest, "Package", None)) if t is not None)


def _scopes_left(item, nextitem):
    """The class, module and package scopes (and at the end, the session) that ``item`` is the last of."""
    try:
        if nextitem is not None and nextitem.parent is item.parent:
            return []  # a sibling runs next: every node above this test stays
        staying = set() if nextitem is None else {id(n) for n in nextitem.listchain()}
        left = []
        for node in reversed(item.listchain()[:-1]):
            kind = "suite" if isinstance(node, pytest.Class) else "file" if isinstance(node, _FILE_NODES) else None
            if kind is not None and id(node) not in staying:
                left.append((kind, node.nodeid))
        if nextitem is None:
            left.append(("session", "session"))
        return left
    except Exception:  # noqa: BLE001
        return []


def _phases_json(phases):
    # Formatted, not encoded value by value: the phases and outcomes are pytest's own few words, which
    # need no escaping, and this runs at every test's end.
    return ',"phases":[%s]' % ",".join(['["%s",%.3f]' % e if len(e) == 2 else '["%s",%.3f,"%s"]' % e for e in phases])


class HoldwatchPlugin:
    def __init__(self, events, boundary=None):
        self._events = events
        self._boundary = boundary
        self._outcomes = {}
        # Tests run in this process (with xdist, the controller only relays its workers' reports).
        self._ran_here = set()
        # nodeid -> the wider scopes its teardown ends, innermost first.
        self._scopes_ending = {}
        self._running = None
        # nodeid -> its phases not written yet, (phase, atMs) or (phase, atMs, outcome) (keyed: with
        # xdist, the controller hears its workers' tests interleaved).
        self._phases = {}

    def _phase(self, nodeid, phase, outcome=None):
        at_ms = time.time() * 1000.0
        entry = (phase, at_ms) if outcome is None else (phase, at_ms, outcome)
        phases = self._phases.get(nodeid)
        if phases is None:
            self._phases[nodeid] = [entry]
        else:
            phases.append(entry)

    def _write_phases(self, name):
        # Before a line about a failure: the phases before it go out first, as lines of their own.
        for entry in self._phases.pop(name, ()):
            event = {"type": "phase", "name": name, "phase": entry[0]}
            if len(entry) > 2:
                event["outcome"] = entry[2]
            self._events.emit(event, True, entry[1])

    def _safe_emit(self, defer=False, tail=None, **event):
        try:
            return self._events.emit({k: v for k, v in event.items() if v is not None}, defer, tail=tail)
        except Exception:  # noqa: BLE001
            return time.time() * 1000.0

    def pytest_sessionstart(self, session):
        self._safe_emit(type="run-start", name="pytest")

    def pytest_runtest_logstart(self, nodeid, location):
        self._outcomes[nodeid] = "passed"
        self._running = nodeid
        tell_stack_probe(nodeid)
        self._events.emit_test("test-start", nodeid)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item):
        self._ran_here.add(item.nodeid)
        self._phase(item.nodeid, "setup")

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_call(self, item):
        self._phase(item.nodeid, "call")

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_teardown(self, item, nextitem):
        self._phase(item.nodeid, "teardown")
        # pytest finalizes the fixtures of every scope this item leaves in its teardown: those scopes end.
        self._scopes_ending[item.nodeid] = _scopes_left(item, nextitem)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_fixture_setup(self, fixturedef, request):
        # A wider fixture's setup runs inside the first test that asks for it, but what it opens belongs
        # to its scope, which must close it by the scope's end.
        scope = _scope_of(fixturedef, request)
        if scope is None:
            yield
            return
        tell_stack_probe(None)
        tell_stack_probe_scope(*scope)
        try:
            yield
        finally:
            tell_stack_probe_scope(None)
            tell_stack_probe(self._running)

    def pytest_runtest_logreport(self, report):
        try:
            if report.outcome == "passed":
                # Most reports, three per test: the phase is folded into the test's end, nothing else moves.
                phases = self._phases.get(report.nodeid)
                if phases is not None:
                    phases.append((report.when, time.time() * 1000.0, "passed"))
                    return
            outcome = _phase_outcome(report)
            worst = self._outcomes.get(report.nodeid, "passed")
            if _OUTCOME_RANK[outcome] > _OUTCOME_RANK[worst]:
                self._outcomes[report.nodeid] = outcome
            if outcome not in ("failed", "error"):
                self._phase(report.nodeid, report.when, outcome)
                return
            self._write_phases(report.nodeid)
            self._safe_emit(type="phase", name=report.nodeid, phase=report.when, outcome=outcome, detail=_detail(report))
        except Exception:  # noqa: BLE001
            pass

    def pytest_runtest_logfinish(self, nodeid, location):
        self._running = None
        tell_stack_probe(None)
        phases = self._phases.pop(nodeid, None)
        tail = _phases_json(phases) if phases else None
        at_ms = self._events.emit_test("test-end", nodeid, self._outcomes.pop(nodeid, "passed"), tail)
        if self._boundary is not None and nodeid in self._ran_here:
            self._ran_here.discard(nodeid)
            self._boundary.test_ended(nodeid, at_ms)
            for kind, name in self._scopes_ending.pop(nodeid, ()):
                self._boundary.test_ended(name, at_ms, scope=kind)

    def pytest_sessionfinish(self, session, exitstatus):
        self._safe_emit(type="run-end", name="pytest", outcome="passed" if int(exitstatus) == 0 else "failed")


_plugin = None


def pytest_configure(config):
    global _plugin
    if _plugin is not None:
        return
    try:
        path, header = os.environ.get("HOLDWATCH_EVENTS"), None
        # xdist workers report through their controller, which announces the run once.
        if not path and not os.environ.get("PYTEST_XDIST_WORKER"):
            path = announce_path()
            header = announce_header("pytest") if path else None
        if not path:
            return
        _plugin = HoldwatchPlugin(EventsFile(path, header), Boundary.from_environment())
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
