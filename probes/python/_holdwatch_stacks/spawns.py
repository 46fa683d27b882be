# subprocess.Popen's audit event fires before the fork, when the child's pid is not known yet.
# Wrapping Popen._execute_child lets the record wait for `self.pid`, so the matcher can pair a
# process with the line that started it by pid instead of by argv and time.
import threading

_pending = threading.local()
_write_spawn = None


def install(write_spawn):
    global _write_spawn
    _write_spawn = write_spawn
    try:
        import subprocess
        original = subprocess.Popen._execute_child
    except Exception:
        return  # no wrapper: the audit hook writes spawn records without the child's pid
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
