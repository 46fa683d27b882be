# Cheap stack capture: walk the frames, keep (file, line, function, is-user) and format no text.
# The result is already the JSON array the record carries: each code object's file and name are
# JSON-encoded once and cached, so a frame costs a dict lookup and a line number.
# The stdlib, installed packages and the probe itself are not "user" code; the probe's frames are
# dropped, and of the library frames above the first user frame only the nearest ones are kept
# (`pathlib.Path.open`, `subprocess.Popen.__init__`: the API the user called). Above the user's
# frames the walk stops at the test runner's call of the test (pytest, unittest), or after a few
# library frames in a row: the runner is a dozen frames deep (pluggy), useless to the reader and the
# main cost of a deep stack; a single library frame between user frames (contextlib's `__enter__`,
# a decorator) is kept.
import os
from .wire import json_str as _json_str

_LEADING_LIBRARY_FRAMES = 2
_MAX_FRAMES = 14
_MAX_WALK = 200
_TRAILING_LIBRARY_FRAMES = 3

_PROBE = object()
_RUNNER = object()  # kind of a test runner's frame: above the user's frames, the walk ends at it
_here = os.path.dirname(os.path.abspath(__file__)) + os.sep
_probe_prefixes = (_here, os.path.join(os.path.dirname(_here.rstrip(os.sep)), "sitecustomize.py"))
_stdlib = os.path.dirname(os.__file__) + os.sep
_installed = (os.sep + "site-packages" + os.sep, os.sep + "dist-packages" + os.sep)
# unittest's case.py, not its mock.py: a `@patch` wrapper sits between the user's frames.
_runners = (os.sep + "_pytest" + os.sep, os.sep + "pluggy" + os.sep,
            _stdlib + os.path.join("unittest", "case.py"), _stdlib + os.path.join("unittest", "async_case.py"))

# id(code) -> (code, kind, JSON before the line number, JSON after it). kind: True (user), False
# (library), _RUNNER or _PROBE. id() is audited, but this cache is only read once per call site.
# Keyed by id: a code object's own hash digests its bytecode, too slow for every frame; the entry
# keeps the code alive, so an id is never reused under us. Bounded: generated code can be endless.
_codes = {}


def _classify(code):
    if len(_codes) > 20000:
        _codes.clear()
    name = code.co_filename
    if name.startswith(_probe_prefixes):
        info = _PROBE
    else:
        # `<string>` (python -c) and `<stdin>` are the user's code; `<frozen importlib...>` is not.
        library = name.startswith("<frozen") or name.startswith(_stdlib) or any(p in name for p in _installed)
        kind = _RUNNER if library and any(r in name for r in _runners) else not library
        function = getattr(code, "co_qualname", code.co_name)
        info = (code, kind, "[" + _json_str(name) + ",", ",null," + _json_str(function) + (",true]" if kind is True else ",false]"))
    if info is _PROBE:
        info = (code, _PROBE, "", "")
    _codes[id(code)] = info
    return info


# Call sites, in two dicts. Reading `frame.f_code` raises an `object.__getattr__` audit event, and
# id() a `builtins.id` one: each re-enters the audit hook, the probe's biggest cost when paid per
# frame per open. `f_globals`, `f_lineno`, `f_lasti` and `f_back`
# raise nothing, and a module's globals plus a line and an instruction offset name one code object,
# so f_code is read once per call site, not per open.
# _sites: (f_lineno, f_lasti) -> (globals, kind, JSON of the frame), the one read per frame: a hit
# is confirmed by `site[0] is frame.f_globals`, cheaper than hashing the globals for the key.
# _sites_by_module: (identity hash of f_globals, f_lineno, f_lasti) -> the same, for the modules
# whose call sites share a line and an offset. Entries keep the globals dict alive, so its identity
# hash is never reused under us.
_sites = {}
_sites_by_module = {}
_FROZEN = object()


def _site_of(frame, _hash=object.__hash__):
    key = (_hash(frame.f_globals), frame.f_lineno, frame.f_lasti)
    site = _sites_by_module.get(key)
    if site is None:
        if len(_sites_by_module) > 20000:
            _sites_by_module.clear()
            _sites.clear()
        code = frame.f_code
        info = _codes.get(id(code)) or _classify(code)
        kind = info[1]
        if kind is not _PROBE and code.co_filename.startswith("<frozen"):
            kind = _FROZEN  # importlib reading .pyc and source files: never the test's open
        text = "" if kind is _PROBE else info[2] + str(key[1] or 0) + info[3]
        site = _sites_by_module[key] = (frame.f_globals, kind, text)
    _sites[key[1:]] = site
    return site


def capture_sites(frame, _sites=_sites, _site_of=_site_of, _PROBE=_PROBE, _FROZEN=_FROZEN,
                  _RUNNER=_RUNNER, _MAX_FRAMES=_MAX_FRAMES, _KEEP_LIBRARY=_LEADING_LIBRARY_FRAMES, _TRAILING=_TRAILING_LIBRARY_FRAMES):
    """Frames from `frame` outwards, innermost first, as a list of each frame's JSON text.

    The texts are the cache's own objects, so two captures from the same place compare equal by
    identity, element by element. None when `frame` is importlib's own (an import reading files).
    """
    # The hot loop of the probe (every open): locals only, no allocation but the keys and one list.
    if frame is None:
        return []
    site = _sites.get((frame.f_lineno, frame.f_lasti))
    if site is None or site[0] is not frame.f_globals:
        site = _site_of(frame)
    kind = site[1]
    if kind is True:
        out = [site[2]]  # the common case: the test's own line called open()
    elif kind is _FROZEN:
        return None
    else:
        out = []
        walked = 0
        # Up to the first user frame: the library API the user called (pathlib's open, Popen.__init__).
        while kind is not True:
            if kind is not _PROBE:
                out.append(site[2])
            frame = frame.f_back
            walked += 1
            if frame is None or walked >= _MAX_WALK:
                del out[_MAX_FRAMES:]  # no user frame at all (interpreter startup, a library's thread)
                return out
            site = _sites.get((frame.f_lineno, frame.f_lasti))
            if site is None or site[0] is not frame.f_globals:
                site = _site_of(frame)
            kind = site[1]
        if len(out) > _KEEP_LIBRARY:
            del out[:-_KEEP_LIBRARY]
        out.append(site[2])
    # Then the user's frames outwards, through the odd library frame between them, until the
    # test runner's entry frame or a few library frames in a row.
    trailing = 0
    while len(out) < _MAX_FRAMES:
        frame = frame.f_back
        if frame is None:
            break
        site = _sites.get((frame.f_lineno, frame.f_lasti))
        if site is None or site[0] is not frame.f_globals:
            site = _site_of(frame)
        kind = site[1]
        if kind is True:
            trailing = 0
        elif kind is _RUNNER:
            out.append(site[2])  # pytest's or unittest's call of the test: all above it is theirs
            break
        elif kind is not _PROBE:
            trailing += 1
            if trailing >= _TRAILING:
                del out[len(out) - trailing + 2:]  # the library's entry frame says enough
                break
        else:
            continue
        out.append(site[2])
    return out


def as_json(sites):
    return "[" + ",".join(sites) + "]"


def capture(frame):
    """capture_sites() as the JSON text of [[file, line, null, function, user]...]; None as there."""
    sites = capture_sites(frame)
    return None if sites is None else as_json(sites)
