# Cheap stack capture: walk the frames, keep (file, line, function, is-user) and format no text.
# The result is already the JSON array the record carries: each code object's file and name are
# JSON-encoded once and cached, so a frame costs a dict lookup and a line number.
# The stdlib, installed packages and the probe itself are not "user" code; the probe's frames are
# dropped, and of the library frames above the first user frame only the nearest ones are kept
# (`pathlib.Path.open`, `subprocess.Popen.__init__`: the API the user called). Above the user's
# frames the walk stops after a few library frames in a row: that is the test runner (pytest and
# pluggy are a dozen frames deep), useless to the reader and the main cost of a deep stack; a
# single library frame between user frames (contextlib's `__enter__`, a decorator) is kept.
import os
from .wire import json_str as _json_str

_LEADING_LIBRARY_FRAMES = 2
_MAX_FRAMES = 14
_MAX_WALK = 200
_TRAILING_LIBRARY_FRAMES = 3

_PROBE = object()
_here = os.path.dirname(os.path.abspath(__file__)) + os.sep
_probe_prefixes = (_here, os.path.join(os.path.dirname(_here.rstrip(os.sep)), "sitecustomize.py"))
_stdlib = os.path.dirname(os.__file__) + os.sep
_installed = (os.sep + "site-packages" + os.sep, os.sep + "dist-packages" + os.sep)

# id(code) -> (code, is_user, JSON before the line number, JSON after it), or (code, _PROBE...).
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
        user = not library
        function = getattr(code, "co_qualname", code.co_name)
        info = (code, user, "[" + _json_str(name) + ",", ",null," + _json_str(function) + (",true]" if user else ",false]"))
    if info is _PROBE:
        info = (code, _PROBE, "", "")
    _codes[id(code)] = info
    return info


# (id(f_globals), f_lineno, f_lasti) -> (globals, kind, JSON of the frame). Reading `frame.f_code`
# raises an `object.__getattr__` audit event on 3.11, which re-enters the audit hook: the probe's
# biggest cost when paid per frame per open (measured: 2.5x an unprobed open). `f_globals`,
# `f_lineno`, `f_lasti` and `f_back` raise nothing, and a module's globals plus a line and an
# instruction offset name one code object, so f_code is read once per call site, not per open.
# The entry keeps the globals dict alive so its id is never reused under us.
_sites = {}
_FROZEN = object()


def _classify_site(frame, key):
    if len(_sites) > 20000:
        _sites.clear()
    code = frame.f_code
    info = _codes.get(id(code)) or _classify(code)
    kind = info[1]
    if kind is not _PROBE and code.co_filename.startswith("<frozen"):
        kind = _FROZEN  # importlib reading .pyc and source files: never the test's open
    text = "" if kind is _PROBE else info[2] + str(frame.f_lineno or 0) + info[3]
    site = (frame.f_globals, kind, text)
    _sites[key] = site
    return site


def capture_sites(frame, _sites=_sites, _id=id, _classify_site=_classify_site, _PROBE=_PROBE, _FROZEN=_FROZEN,
                  _MAX_FRAMES=_MAX_FRAMES, _KEEP_LIBRARY=_LEADING_LIBRARY_FRAMES + 1, _TRAILING=_TRAILING_LIBRARY_FRAMES):
    """Frames from `frame` outwards, innermost first, as a list of each frame's JSON text.

    The texts are the cache's own objects, so two captures from the same place compare equal by
    identity, element by element. None when `frame` is importlib's own (an import reading files).
    """
    # The hot loop of the probe (every open): locals only, no allocation but the keys and one list.
    if frame is None:
        return []
    key = (_id(frame.f_globals), frame.f_lineno, frame.f_lasti)
    site = _sites.get(key) or _classify_site(frame, key)
    if site[1] is _FROZEN:
        return None
    out = []
    seen_user = False
    walked = 0
    while True:
        kind = site[1]
        if kind is not _PROBE:
            out.append(site[2])
            if seen_user:
                if len(out) >= _MAX_FRAMES:
                    break
                if kind is True:
                    walked = 0
                else:
                    walked += 1
                    if walked >= _TRAILING:
                        del out[len(out) - walked + 1:]  # the runner's entry frame says enough
                        break
            elif kind is True:
                seen_user = True
                walked = 0
                if len(out) > _KEEP_LIBRARY:
                    del out[:-_KEEP_LIBRARY]
            else:
                walked += 1
                if walked >= _MAX_WALK:
                    break
        frame = frame.f_back
        if frame is None:
            break
        key = (_id(frame.f_globals), frame.f_lineno, frame.f_lasti)
        site = _sites.get(key) or _classify_site(frame, key)
    if not seen_user:  # no user frame at all (interpreter startup, a library's own thread)
        del out[_MAX_FRAMES:]
    return out


def as_json(sites):
    return "[" + ",".join(sites) + "]"


def capture(frame):
    """capture_sites() as the JSON text of [[file, line, null, function, user]...]; None as there."""
    sites = capture_sites(frame)
    return None if sites is None else as_json(sites)
