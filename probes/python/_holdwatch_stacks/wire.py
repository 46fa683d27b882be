# JSON for the probe's records without importing `json` (json pulls in re and enum, paid at the start
# of every Python process). The C escaper is all we need: the
# records hold only str, int, float, bool, None and lists of those.
try:
    from _json import encode_basestring_ascii as json_str
except ImportError:  # an interpreter without the C accelerator
    from json.encoder import encode_basestring_ascii as json_str


def encode(value):
    # Strings first, and a dict's string values without a call of their own: the records and the
    # runner probes' events are mostly flat dicts of strings.
    kind = type(value)
    if kind is str:
        return json_str(value)
    if kind is dict:
        return "{" + ",".join([json_str(k) + ":" + (json_str(v) if type(v) is str else encode(v)) for k, v in value.items()]) + "}"
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if kind is int:
        return str(value)
    if kind is float:
        return "%.3f" % value
    if kind in (list, tuple):
        return "[" + ",".join([encode(v) for v in value]) + "]"
    return json_str(str(value))
