# holdwatch stack probe: `holdwatch run` puts this folder first on PYTHONPATH (keeping the user's
# entries after it), so Python imports this module at startup. It starts the recorder when
# HOLDWATCH_PROBE_LOG is set, installs the unittest hook when HOLDWATCH_EVENTS is (the runner probe
# in probes/python-runners), then runs the sitecustomize that would have run without us (Debian
# ships one in the stdlib folder; projects and virtualenvs ship theirs), so nothing of the user's
# startup is lost.
import os as _os
import sys as _sys


def _start_recorder():
    if not _os.environ.get("HOLDWATCH_PROBE_LOG"):
        return
    try:
        from _holdwatch_stacks import recorder
        recorder.start()
    except Exception as error:  # never into the test process: say it once, run on unprobed
        try:
            _sys.stderr.write("holdwatch: python stack probe disabled: %s\n" % (error,))
        except Exception:
            pass


def _install_unittest_hook():
    # The unittest runner's timeline (probes/python-runners, on PYTHONPATH under holdwatch run).
    if not _os.environ.get("HOLDWATCH_EVENTS"):
        return
    try:
        import holdwatch_unittest
        holdwatch_unittest.install()
    except Exception:  # not there (the stack probe added by hand), or broken: the run goes on without it
        pass


def _chain_next_sitecustomize():
    # Search sys.path without our folder: the next sitecustomize is the one Python would have found.
    import importlib.machinery
    try:  # importlib.util would import contextlib and friends at every start
        from importlib._bootstrap import module_from_spec
    except ImportError:
        from importlib.util import module_from_spec

    here = _os.path.dirname(_os.path.realpath(__file__))
    rest = [p for p in _sys.path if _os.path.realpath(p or _os.curdir) != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is None or spec.loader is None:
        return
    module = module_from_spec(spec)
    # The user's module takes our place in sys.modules, so `import sitecustomize` finds theirs.
    _sys.modules["sitecustomize"] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        # Same outcome as without us: site.py reports "Error in sitecustomize" and carries on.
        _sys.modules.pop("sitecustomize", None)
        raise


_start_recorder()
_install_unittest_hook()
_chain_next_sitecustomize()
