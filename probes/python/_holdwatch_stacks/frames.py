# Cheap stack capture: walk the frames, keep (file, line, function, is-user) and format no text.
# The result is already the JSON array the record carries: each code object's file and name are
# JSON-encoded once and cached, so a frame costs a dict lookup and a line number.
# The stdlib, installed packages and the probe itself are not "user" code; the probe's frames are
# dropped, and of the library frames above the first user frame only the nearest ones are kept
# (`pathlib.Path.open`, `subprocess.Popen.__init__`: the API the user called).
import os
from .wire import json_str as _json_str

_LEADING_LIBRARY_FRAMES = 2
_MAX_FRAMES = 14
_MAX_WALK = 200

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


def capture(frame, code=None, _codes=_codes, _id=id, _classify=_classify, _PROBE=_PROBE):
    """Frames from `frame` outwards, innermost first, as the JSON text of [[file, line, null, function, user]...].

    `code` is `frame.f_code` when the caller already has it: on 3.11 every read of f_code raises an
    `object.__getattr__` audit event, which re-enters the audit hook (the probe's biggest cost).
    """
    # The hot loop of the probe (every open): locals only, no per-frame allocation but one string.
    out = []
    seen_user = False
    walked = 0
    while frame is not None:
        if code is None:
            code = frame.f_code
        info = _codes.get(_id(code))
        if info is None:
            info = _classify(code)
        user = info[1]
        if user is not _PROBE:
            out.append(info[2] + str(frame.f_lineno or 0) + info[3])
            if seen_user:
                if len(out) >= _MAX_FRAMES:
                    break
            elif user:
                seen_user = True
                if len(out) > _LEADING_LIBRARY_FRAMES + 1:
                    del out[:-_LEADING_LIBRARY_FRAMES - 1]
            else:
                walked += 1
                if walked >= _MAX_WALK:
                    break
        frame = frame.f_back
        code = None
    if not seen_user:  # no user frame at all (interpreter startup, a library's own thread)
        del out[_MAX_FRAMES:]
    return "[" + ",".join(out) + "]"
