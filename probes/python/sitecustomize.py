# holdwatch stack probe: `holdwatch run` puts this folder first on PYTHONPATH (keeping the user's
# entries after it), so Python imports this module at startup. It starts the recorder when
# HOLDWATCH_PROBE_LOG is set, installs the unittest hook when HOLDWATCH_EVENTS is (the runner probe
# in probes/python-runners), then runs the sitecustomize that would have run without us (Debian
# ships one in the stdlib folder; projects and virtualenvs ship theirs), so nothing of the user's
# startup is lost.
import os as _os
import sys as _sys

_HERE = _os.path.dirname(_os.path.realpath(__file__))


def _cache_probe_bytecode():
    # Under PYTHONDONTWRITEBYTECODE (CI images, containers) or in a read-only install, every Python
    # process of the run would compile the probes from source, a large part of what they cost at
    # start. Their bytecode goes to holdwatch's data dir instead (the dir above the run's probe log):
    # the user's own files are never touched, and Python's checks of the source's mtime and size
    # still decide when it is stale.
    log = _os.environ.get("HOLDWATCH_PROBE_LOG")
    if not log or not _os.environ.get("HOLDWATCH_RUN") or not hasattr(_sys, "pycache_prefix"):
        return  # not under holdwatch run, or a Python before 3.8: compiled from source as before
    from importlib.machinery import SOURCE_SUFFIXES, FileFinder, SourceFileLoader

    cache = _os.path.join(_os.path.dirname(_os.path.dirname(_os.path.abspath(log))), "python-cache")

    class ProbeLoader(SourceFileLoader):
        def get_code(self, fullname):
            # Only while our own module is read or compiled: what it imports is found as usual.
            saved = _sys.pycache_prefix, _sys.dont_write_bytecode
            _sys.pycache_prefix, _sys.dont_write_bytecode = cache, False
            try:
                return super().get_code(fullname)
            finally:
                _sys.pycache_prefix, _sys.dont_write_bytecode = saved

    # Our folders as sys.path spells them (PYTHONPATH), and the package's as its __path__ will.
    folders = (_HERE, _os.path.join(_os.path.dirname(_HERE), "python-runners"))
    ours = {entry for entry in _sys.path if entry and _os.path.realpath(entry) in folders}
    ours.update([_os.path.join(entry, "_holdwatch_stacks") for entry in ours])

    def probe_finder(path):
        if path not in ours:
            raise ImportError("not a holdwatch probe folder")
        return FileFinder(path, (ProbeLoader, SOURCE_SUFFIXES))

    _sys.path_hooks.insert(0, probe_finder)
    # The folders already looked in (this module was found in ours) have their finder cached.
    for entry in ours:
        _sys.path_importer_cache.pop(entry, None)


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

    rest = [p for p in _sys.path if _os.path.realpath(p or _os.curdir) != _HERE]
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


try:
    _cache_probe_bytecode()
except Exception:  # an importlib unlike CPython's: the probes compile from source, as before
    pass
_start_recorder()
_install_unittest_hook()
_chain_next_sitecustomize()
