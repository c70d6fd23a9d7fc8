"""Canonical URLs: the key that decides when two sources are one footnote."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21}
_TRACKING_KEYS = frozenset({"fbclid", "gclid", "dclid", "msclkid", "mc_eid"})
# Most source URLs are canonical already, or lack only the root path: http(s),
# a lowercase host with no port or user, no query, no fragment. Those skip the
# parse; group 1 is the path.
_PLAIN = re.compile(r"https?://[a-z0-9.-]+(/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*)?")


def _is_tracking(key: str) -> bool:
    lowered = key.lower()
    return lowered.startswith("utm_") or lowered in _TRACKING_KEYS


def canonical_url(url: str, *, merge_fragments: bool = False) -> str:
    """Normalise ``url`` so that equal places compare equal.

    Lowercases scheme and host, drops default ports, tracking parameters
    (``utm_*``, ``fbclid``, ``gclid``) and a text-fragment directive (``:~:``,
    a highlight rather than a place), sorts the query and treats ``/docs/`` and
    ``/docs`` as one path. The fragment is kept, because ``a.html#chap1`` and
    ``a.html#chap2`` are different places, unless ``merge_fragments`` is set.
    Relative references keep their path as written.
    """
    plain = _PLAIN.fullmatch(url)
    if plain is not None:
        path = plain.group(1)
        if path is None:
            return f"{url}/"
        if len(path) == 1 or path[-1] != "/":
            return url
    url = url.strip()
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return url
    if not parts.scheme and not parts.netloc:
        base, hash_, fragment = url.partition("#")
        fragment = fragment.split(":~:", 1)[0]
        return base if merge_fragments or not fragment else f"{base}{hash_}{fragment}"
    scheme = parts.scheme.lower()
    netloc = parts.netloc
    if parts.hostname is not None:
        host = parts.hostname.lower()
        if ":" in host:
            host = f"[{host}]"
        userinfo = netloc.rpartition("@")[0] if "@" in netloc else ""
        netloc = f"{userinfo}@{host}" if userinfo else host
        if port is not None and _DEFAULT_PORTS.get(scheme) != port:
            netloc = f"{netloc}:{port}"
    path = parts.path
    if netloc and path in ("", "/"):
        path = "/"
    elif len(path) > 1 and path.endswith("/"):
        path = path.rstrip("/") or "/"
    query = ""
    if parts.query:
        pairs = [
            (k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not _is_tracking(k)
        ]
        query = urlencode(sorted(pairs), doseq=False)
    fragment = "" if merge_fragments else parts.fragment.split(":~:", 1)[0]
    return urlunsplit((scheme, netloc, path, query, fragment))
