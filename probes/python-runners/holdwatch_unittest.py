"""holdwatch's unittest hook: the test timeline of ``python -m unittest`` (and of any runner built on
unittest's TestResult: Django's, nose2's), written where holdwatch_channel.py says.

holdwatch's sitecustomize installs it under ``holdwatch run``. It waits for ``unittest.result`` to be
imported, then wraps ``TestResult.startTest`` and ``stopTest``: a test starts, and it ends after its
``tearDown`` and cleanups, when unittest calls stopTest. There the process waits, bounded, at the
test boundary (``HOLDWATCH_BOUNDARY``), so a file a test left open is seen still open when it ended.

Under pytest the plugin reports instead (pytest runs TestCase classes with its own result object, so
this hook stays silent there). Nothing here may raise into the test process.
"""

import sys

# holdwatch_channel (json, socket) is imported when the first test starts, not here: sitecustomize
# imports this module in every Python process of the run, and most never run a unittest test.
_installed = False


class _PatchOnImport:
    """A one-shot import hook per module: lets ``unittest.result`` and ``unittest.suite`` load as usual,
    then wraps TestResult and TestSuite."""

    def __init__(self):
        self._waiting = {"unittest.result": lambda module: _patch(module.TestResult), "unittest.suite": lambda module: _patch_suite(module.TestSuite)}

    def find_spec(self, name, path=None, target=None):
        patch = self._waiting.pop(name, None)
        if patch is None:
            return None
        if not self._waiting:
            try:
                sys.meta_path.remove(self)
            except ValueError:
                pass
        import importlib.machinery

        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        load = spec.loader.exec_module

        def exec_and_patch(module):
            load(module)
            try:
                patch(module)
            except Exception:  # noqa: BLE001 - never into the test process
                pass

        spec.loader.exec_module = exec_and_patch
        return spec


def install():
    """Wraps TestResult now if unittest is loaded, else when it is imported. Idempotent."""
    global _installed
    if _installed:
        return
    _installed = True
    loaded, suite = sys.modules.get("unittest.result"), sys.modules.get("unittest.suite")
    if loaded is not None and suite is not None:
        _patch(loaded.TestResult)
        _patch_suite(suite.TestSuite)
    else:
        sys.meta_path.insert(0, _PatchOnImport())


class _Reporter:
    def __init__(self):
        self._events = None
        self._boundary = None
        self._opened = False
        # test id -> (errors, failures, skipped) before it ran: what it added is its outcome.
        self._before = {}

    def _open(self):
        if not self._opened:
            self._opened = True
            from holdwatch_channel import Boundary, open_events

            global tell_stack_probe
            from holdwatch_channel import tell_stack_probe

            self._events = open_events("unittest")
            self._boundary = Boundary.from_environment() if self._events is not None else None
        return self._events

    def started(self, result, test):
        if _pytest_reports():
            return
        events = self._open()
        if events is None:
            return
        name = _name_of(test)
        self._before[name] = _counts(result)
        tell_stack_probe(name)
        events.emit_test("test-start", name)

    def stopped(self, result, test):
        name = _name_of(test)
        before = self._before.pop(name, None)
        if before is None or self._events is None:
            return
        tell_stack_probe(None)
        outcome, detail = _outcome(result, before)
        if detail:
            at_ms = self._events.emit({"type": "test-end", "name": name, "outcome": outcome, "detail": detail})
        else:
            at_ms = self._events.emit_test("test-end", name, outcome)
        if self._boundary is not None:
            self._boundary.test_ended(name, at_ms)


    def scope_setup(self, kind, name):
        """A class's or module's setUp runs now (kind None: it is over): its opens carry that scope."""
        if _pytest_reports():
            return
        from holdwatch_channel import tell_stack_probe_scope

        tell_stack_probe_scope(kind, name)

    def scope_ended(self, kind, name):
        """A class's tearDownClass or a module's tearDownModule has run: what that scope opened should be closed."""
        if self._events is None or self._boundary is None or _pytest_reports():
            return
        import time

        self._boundary.test_ended(name, time.time() * 1000.0, scope=kind)


_reporter = _Reporter()


def tell_stack_probe(_test):
    """Replaced by holdwatch_channel's when the first test starts (its imports wait till then)."""


def _patch(result_class):
    start, stop = result_class.startTest, result_class.stopTest
    if getattr(start, "_holdwatch", False):
        return

    def startTest(self, test):
        try:
            _reporter.started(self, test)
        except Exception:  # noqa: BLE001
            pass
        return start(self, test)

    def stopTest(self, test):
        try:
            return stop(self, test)
        finally:
            try:
                _reporter.stopped(self, test)
            except Exception:  # noqa: BLE001
                pass

    startTest._holdwatch = stopTest._holdwatch = True
    result_class.startTest, result_class.stopTest = startTest, stopTest


def _patch_suite(suite_class):
    """Wraps the TestSuite steps that run setUpClass/setUpModule and their teardowns: the class and
    module scopes (unittest.suite calls them around each test, tearing down when the class or module changes)."""
    if getattr(suite_class._handleClassSetUp, "_holdwatch", False):
        return
    class_setup, module_setup = suite_class._handleClassSetUp, suite_class._handleModuleFixture
    class_teardown, module_teardown = suite_class._tearDownPreviousClass, suite_class._handleModuleTearDown

    def in_scope(kind, name, run):
        _guarded(_reporter.scope_setup, kind, name)
        try:
            return run()
        finally:
            _guarded(_reporter.scope_setup, None, None)

    # unittest calls both before every test and sets a scope up only when the test's class (module)
    # differs from the last test's: the rest go straight through, with no word to the stack probe.
    def _handleClassSetUp(self, test, result):
        cls = test.__class__
        if getattr(result, "_previousTestClass", None) is cls:
            return class_setup(self, test, result)
        return in_scope("suite", "%s.%s" % (cls.__module__, cls.__qualname__), lambda: class_setup(self, test, result))

    def _handleModuleFixture(self, test, result):
        module = test.__class__.__module__
        if getattr(getattr(result, "_previousTestClass", None), "__module__", None) == module:
            return module_setup(self, test, result)
        return in_scope("file", module, lambda: module_setup(self, test, result))

    def _tearDownPreviousClass(self, test, result):
        previous = getattr(result, "_previousTestClass", None)
        try:
            return class_teardown(self, test, result)
        finally:
            if previous is not None and previous is not getattr(test, "__class__", None):
                _guarded(_reporter.scope_ended, "suite", "%s.%s" % (previous.__module__, previous.__qualname__))

    def _handleModuleTearDown(self, result):
        previous = getattr(result, "_previousTestClass", None)
        try:
            return module_teardown(self, result)
        finally:
            if previous is not None:
                _guarded(_reporter.scope_ended, "file", previous.__module__)

    for method in (_handleClassSetUp, _handleModuleFixture, _tearDownPreviousClass, _handleModuleTearDown):
        method._holdwatch = True
        setattr(suite_class, method.__name__, method)


def _guarded(fn, *args):
    try:
        fn(*args)
    except Exception:  # noqa: BLE001 - never into the test process
        pass


def _pytest_reports():
    """The pytest plugin reports this process's tests (and pytest's result objects are not TestResults)."""
    plugin = sys.modules.get("holdwatch_pytest")
    return plugin is not None and getattr(plugin, "_plugin", None) is not None


def _name_of(test):
    try:
        return test.id()
    except Exception:  # noqa: BLE001
        return repr(test)


def _counts(result):
    return tuple(len(getattr(result, kind, None) or ()) for kind in ("errors", "failures", "skipped"))


def _outcome(result, before):
    errors, failures, skipped = _counts(result)
    if errors > before[0]:
        return "error", _first_line(result.errors[-1])
    if failures > before[1]:
        return "failed", _first_line(result.failures[-1])
    if skipped > before[2]:
        return "skipped", None
    return "passed", None


def _first_line(entry):
    """The exception line of an (test, formatted traceback) pair: what the runner prints last."""
    try:
        lines = [line.strip() for line in entry[1].splitlines() if line.strip()]
        return lines[-1][:500] if lines else None
    except Exception:  # noqa: BLE001
        return None


