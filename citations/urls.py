"""Canonical URLs: the key that decides when two sources are one footnote.

citebot's own policy, on the standard library (``citations`` stays free of
dependencies, and the crawler uses this same function for page identity):
scheme and host lowercase, an internationalised host in its ASCII (IDNA) form,
default ports dropped, percent-encoding normalised (unreserved characters
decoded, other escapes upper-case, everything outside ASCII encoded as UTF-8,
so ``/café`` and ``/caf%C3%A9`` are one place), dot segments removed (``/a/../b``
is ``/b``), tracking parameters dropped and the query sorted.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21}
_TRACKING_KEYS = frozenset({"fbclid", "gclid", "dclid", "msclkid", "mc_eid"})
# Most source URLs are canonical already, or lack only the root path: http(s),
# a lowercase host with no port or user, a path of plain characters (no escape,
# checked below for dot segments), no query, no fragment. Those skip the parse;
# group 1 is the path.
_PLAIN = re.compile(r"https?://[a-z0-9.-]+(/[A-Za-z0-9._~!$&'()*+,;=:@/-]*)?")
_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
# What a path or fragment may hold as it is (RFC 3986 pchar, "/" and "?"), plus
# "%" so that escapes survive quoting.
_SAFE = "/?:@!$&'()*+,;=-._~%"


def _is_tracking(key: str) -> bool:
    lowered = key.lower()
    return lowered.startswith("utm_") or lowered in _TRACKING_KEYS


def _escape(match: re.Match[str]) -> str:
    char = chr(int(match.group(1), 16))
    return char if char in _UNRESERVED else "%" + match.group(1).upper()


def _encoded(text: str) -> str:
    """``text`` with normalised percent-encoding (RFC 3986 section 6.2.2.2)."""
    return quote(_ESCAPE.sub(_escape, text), safe=_SAFE)


def _without_dots(path: str) -> str:
    """``path`` with its ``.`` and ``..`` segments resolved (RFC 3986 section 5.2.4)."""
    segments = path.split("/")
    out: list[str] = []
    for segment in segments[1:]:
        if segment == "..":
            if out:
                out.pop()
        elif segment != ".":
            out.append(segment)
    if segments[-1] in (".", ".."):
        out.append("")
    return "/" + "/".join(out)


def _host(hostname: str) -> str:
    host = hostname.lower()
    if host.isascii():
        return host
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return host


#: what a footnote may link to: a web page, or a file on the operator's own disk; never
#: ``javascript:`` or ``data:``, which a browser runs instead of opening
LINKABLE_SCHEMES = frozenset({"http", "https", "file"})


def linkable(url: str) -> bool:
    """Whether ``url`` may become a link a user clicks: one of ``LINKABLE_SCHEMES`` or
    relative. A browser drops control characters before it reads the scheme."""
    if any(ord(c) < 0x20 or c == "\x7f" for c in url):
        return False
    scheme = urlsplit(url.strip()).scheme.lower()
    return not scheme or scheme in LINKABLE_SCHEMES


def canonical_url(url: str, *, merge_fragments: bool = False, keep_slash: bool = False) -> str:
    """Normalise ``url`` so that equal places compare equal (see the module doc).

    ``/docs/`` and ``/docs`` are one path unless ``keep_slash`` is set (a
    crawler must fetch the path it was given). The fragment is kept, because
    ``a.html#chap1`` and ``a.html#chap2`` are different places, unless
    ``merge_fragments`` is set; a text-fragment directive (``:~:``) is a
    highlight rather than a place and always goes. Relative references keep
    their path as written.
    """
    plain = _PLAIN.fullmatch(url)
    if plain is not None:
        path = plain.group(1)
        if path is None:
            return f"{url}/"
        if "/." not in path and (keep_slash or len(path) == 1 or path[-1] != "/"):
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
        host = _host(parts.hostname)
        if ":" in host:
            host = f"[{host}]"
        userinfo = netloc.rpartition("@")[0] if "@" in netloc else ""
        netloc = f"{userinfo}@{host}" if userinfo else host
        if port is not None and _DEFAULT_PORTS.get(scheme) != port:
            netloc = f"{netloc}:{port}"
    path = _encoded(parts.path)
    if path.startswith("/"):
        path = _without_dots(path)
    if netloc and path in ("", "/"):
        path = "/"
    elif len(path) > 1 and path.endswith("/") and not keep_slash:
        path = path.rstrip("/") or "/"
    query = ""
    if parts.query:
        pairs = [
            (k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not _is_tracking(k)
        ]
        query = urlencode(sorted(pairs), doseq=False)
    fragment = "" if merge_fragments else _encoded(parts.fragment.split(":~:", 1)[0])
    return urlunsplit((scheme, netloc, path, query, fragment))
