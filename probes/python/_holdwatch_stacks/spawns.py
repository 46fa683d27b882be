# subprocess.Popen's audit event fires before the fork, when the child's pid is not known yet.
# Wrapping Popen._execute_child lets the record wait for `self.pid`, so the matcher can pair a
# process with the line that started it by pid instead of by argv and time. subprocess is
# slow to import (re, locale, threading), so the wrapper goes in when the test imports it.
import sys
import _thread

_pending = _thread._local()
_write_spawn = None


def install(write_spawn):
    global _write_spawn
    _write_spawn = write_spawn
    module = sys.modules.get("subprocess")
    if module is not None:
        _wrap(module)
    else:
        sys.meta_path.insert(0, _WrapOnImport())


class _WrapOnImport:
    """A one-shot meta path finder: finds subprocess through the others, wraps it once executed."""

    def find_spec(self, name, path=None, target=None):
        if name != "subprocess":
            return None
        try:
            sys.meta_path.remove(self)
        except ValueError:
            pass
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            spec = find(name, path, target) if find is not None else None
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        original = getattr(loader, "exec_module", None)
        if original is None:
            return spec

        def exec_module(module):
            original(module)
            _wrap(module)

        try:
            loader.exec_module = exec_module
        except AttributeError:
            pass  # a loader that refuses attributes: spawn records go without the child's pid
        return spec


def _wrap(subprocess):
    try:
        original = subprocess.Popen._execute_child
    except AttributeError:
        return
    if getattr(original, "_holdwatch_wrapped", False):
        return

    def _execute_child(self, *args, **kwargs):
        _pending.record = None
        _pending.active = True
        try:
            return original(self, *args, **kwargs)
        finally:
            _pending.active = False
            record = _pending.record
            _pending.record = None
            if record is not None and getattr(self, "pid", None):
                _write_spawn(record[0], record[1], record[2], record[3], self.pid, record[4])

    _execute_child._holdwatch_wrapped = True
    _execute_child.__wrapped__ = original
    subprocess.Popen._execute_child = _execute_child


def hold_for_pid(api, executable, argv, cwd, frames):
    """Keeps the record for the wrapper to write once the pid is known; False when no wrapper is active."""
    if not getattr(_pending, "active", False):
        return False
    _pending.record = (api, executable, argv, cwd, frames)
    return True
