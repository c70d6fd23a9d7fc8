"""Model and document text that can never become a link or a ping, while it streams and after.

Only source metadata may become a link. Everything else in an answer (words the
model wrote, text quoted from a document) is shown with its links disarmed:

* a Markdown link ``[label](url)`` keeps only its label, unless ``allowed(url)``;
* a bare URL (``scheme://…``, ``www.…``), an angle link (``<…>``), an e-mail
  address, ``@everyone``/``@here``/``@channel`` and ``<@…>`` get an invisible
  word joiner (U+2060) where the platform's link or mention syntax needs two
  characters to touch: ``https:⁠//``, ``www⁠.``, ``@⁠here``, ``<⁠@``, ``]⁠(``;
* code is left exactly as written (``git@github.com:org/repo`` and
  ``npm install @scope/pkg@1.0`` copy intact), because no platform links or
  pings inside code.

Which text is code is decided conservatively, so that Slack's Markdown
(CommonMark) and Discord's parser both agree it is code: a code span must close
on its own line with a run of exactly its opening backticks; a fenced block opens
and closes with backtick fences on their own lines, and every other run of three
backticks inside it is broken (Discord would close the block there). After one
backtick run that does not pair up this way, or a fence that is not exactly three
backticks, nothing more in the text counts as code: those platforms would pair
the backticks differently, and disarming code is only ugly, never unsafe.

``SafeStream`` applies all of this to text that arrives in pieces: a link, a URL
or a code span split across deltas is disarmed exactly as if the text had
arrived at once. It holds back only an unfinished ``[label](url)``, a backtick
run still looking for its partner on the same line, a fence line, or a trailing
backslash; none is held past ``MAX_HOLD`` characters.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

__all__ = [
    "DEST_MAX",
    "LABEL_MAX",
    "MAX_HOLD",
    "WORD_JOINER",
    "CodeBlock",
    "Dialect",
    "SafeStream",
    "break_fence_ticks",
    "code_blocks",
    "code_regions",
    "defang",
    "escaped",
    "no_code",
    "safe_text",
]

WORD_JOINER = "\u2060"
MAX_HOLD = 2400
"""The most characters a construct is held back before it is decided as plain text."""

#: the longest label and destination a link may have to be read as one (by every renderer)
LABEL_MAX = 300
DEST_MAX = 2000
_ASCII_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")

# Positions that get a word joiner: after "@" and "<"; between ":" and "/" (or an
# escaping backslash); after any "www", before "." (or "\"): a preview that
# starts mid-word must not start with a link;
# between "]" and "(" or ":" (an inline link or a reference definition).
_BREAK = re.compile(r"(?<=[@<])|(?<=:)(?=[/\\])|(?<=[wW][wW][wW])(?=[.\\])|(?<=\])(?=[(:])")
_PROSE_STOP = re.compile(r"[`\[\\\n]")
_FENCE_STOP = re.compile(r"[`\n]")
_TICK_OR_NL = re.compile(r"[`\n]")
_TICKS = re.compile(r"`+")
_LABEL = re.compile(rf"[^\[\]\n`]{{0,{LABEL_MAX}}}")
_DEST = re.compile(rf"\([ \t]*<?([^()<>\s`]{{1,{DEST_MAX}}})>?(?:[ \t]+\"[^\"\n`]*\")?[ \t]*\)")
# no destination, or one a site's template writes ("{% link install.md %}", "{{ '/x/' |
# relative_url }}", Hugo's "{{< ref x >}}") and a document quoted as written still has, or
# had taken out: the built page shows the label, and so does an answer
TEMPLATED = rf"(?:\{{%[^\n()]{{0,{DEST_MAX}}}?%\}}|\{{\{{[^\n()]{{0,{DEST_MAX}}}?\}}\}})[^()\s]*"
_TEMPLATED_DEST = re.compile(rf"\([ \t]*({TEMPLATED})?[ \t]*\)")


def defang(text: str, before: str = "") -> str:
    """Disarm links and mentions in prose; ``before`` is the text shown just before it."""
    if not before:
        return _BREAK.sub(WORD_JOINER, text)
    joined = before + text
    cut = len(before)
    parts: list[str] = []
    pos = cut
    for m in _BREAK.finditer(joined, cut):
        parts.append(joined[pos : m.start()])
        parts.append(WORD_JOINER)
        pos = m.start()
    parts.append(joined[pos:])
    return "".join(parts)


def no_code(text: str) -> str:
    """``text`` with every backtick escaped, for a line put before an answer: none
    of its backticks may pair with one in the answer."""
    return text.replace("\\", "\\\\").replace("`", "\\`")


def _break_ticks(run: str) -> str:
    """A run of backticks with no three in a row."""
    return WORD_JOINER.join(run[i : i + 2] for i in range(0, len(run), 2))


_LONG_TICKS = re.compile(r"`{3,}")


def break_fence_ticks(block: str) -> str:
    """A closed fenced block whose inner lines hold no run of three backticks
    (Discord would end the block there)."""
    first = block.find("\n")
    last = block.rfind("\n")
    if first < 0 or last <= first:
        return block
    inner = _LONG_TICKS.sub(lambda m: _break_ticks(m.group()), block[first:last])
    return block[:first] + inner + block[last:]


class _Kind(Enum):
    PROSE = 0
    CODE = 1  # an inline code span, backticks included
    OPEN = 2  # a fence's opening line
    BODY = 3  # text inside a fenced block
    CLOSE = 4  # a fence's closing line
    LINK = 5  # [label](url)


@dataclass(frozen=True, slots=True)
class _Unit:
    kind: _Kind
    raw: str
    label: str = ""
    url: str = ""


_OPEN = 1 << 62  # the end of a fenced block that is still open
_NEED = -1  # more text is needed to decide
_NONE = -2  # decided: not this construct


class _Scanner:
    """Splits Markdown into prose, code and links, incrementally (see the module doc)."""

    def __init__(self) -> None:
        self.buf = ""
        self.fence = 0  # opening run length while inside a fenced block
        self.fence_len_ok = True
        self.tainted = False  # an unpaired backtick run: nothing more is code
        self.indent = 0  # spaces since the start of the line, or -1
        self.last = ""  # the last character scanned: "!" makes the next "[" an image's

    def scan(self, final: bool) -> list[_Unit]:
        buf = self.buf
        n = len(buf)
        i = 0
        units: list[_Unit] = []
        while i < n:
            step = (
                self._fenced(buf, i, final, units)
                if self.fence
                else self._prose(buf, i, final, units)
            )
            if step == _NEED:
                break
            i = step
        self.buf = buf[i:]
        return units

    def _text(self, kind: _Kind, text: str, units: list[_Unit]) -> None:
        units.append(_Unit(kind, text))
        self.last = text[-1:] or self.last
        newline = text.rfind("\n")
        tail = text[newline + 1 :] if newline >= 0 else text
        if newline >= 0:
            self.indent = 0
        if self.indent >= 0:
            self.indent = self.indent + len(tail) if tail.strip(" ") == "" else -1

    def _plain(
        self, buf: str, i: int, stop: re.Pattern[str], kind: _Kind, units: list[_Unit]
    ) -> int:
        """Text up to the next ``stop`` character, or a newline, as one unit; -1 at a stop."""
        m = stop.search(buf, i)
        j = len(buf) if m is None else m.start()
        if j > i:
            self._text(kind, buf[i:j], units)
            return j
        if buf[i] == "\n":
            self._text(kind, "\n", units)
            return i + 1
        return -1

    def _fenced(self, buf: str, i: int, final: bool, units: list[_Unit]) -> int:
        n = len(buf)
        step = self._plain(buf, i, _FENCE_STOP, _Kind.BODY, units)
        if step >= 0:
            return step
        k = _TICKS.match(buf, i).end()  # type: ignore[union-attr]
        if k == n and not final:
            return _NEED
        if 0 <= self.indent <= 3 and k - i >= self.fence:
            end = _line_end(buf, k, i, final)
            if end == _NEED:
                return _NEED
            if end != _NONE and buf[k:end].strip() == "":
                self._text(_Kind.CLOSE, buf[i:end], units)
                if k - i != 3 or not self.fence_len_ok:
                    self.tainted = True
                self.fence = 0
                return end
        self._text(_Kind.BODY, buf[i:k], units)
        return k

    def _prose(self, buf: str, i: int, final: bool, units: list[_Unit]) -> int:
        n = len(buf)
        step = self._plain(buf, i, _PROSE_STOP, _Kind.PROSE, units)
        if step >= 0:
            return step
        char = buf[i]
        if char == "\\":
            if i + 1 == n and not final:
                return _NEED
            end = i + 2 if i + 1 < n and buf[i + 1] in _ASCII_PUNCT else i + 1
            self._text(_Kind.PROSE, buf[i:end], units)
            return end
        if char == "[":
            # an image is not a link: shown as written, disarmed, as the final answer shows it
            link = _NONE if self.last == "!" else _link(buf, i, final)
            if link == _NEED:
                return _NEED
            if link == _NONE:
                self._text(_Kind.PROSE, "[", units)
                return i + 1
            end, label, url = link  # type: ignore[misc]
            units.append(_Unit(_Kind.LINK, buf[i:end], label, url))
            self.indent = -1
            self.last = ")"
            return end
        # a backtick run
        k = _TICKS.match(buf, i).end()  # type: ignore[union-attr]
        if k == n and not final:
            return _NEED
        run = k - i
        if self.tainted:
            self._text(_Kind.PROSE, buf[i:k], units)
            return k
        if 0 <= self.indent <= 3 and run >= 3:
            end = _line_end(buf, k, i, final)
            if end == _NEED:
                return _NEED
            if end != _NONE and "`" not in buf[k:end]:
                self._text(_Kind.OPEN, buf[i:end], units)
                self.fence = run
                self.fence_len_ok = run == 3
                return end
        close = _closer(buf, i, k, final)
        if close == _NEED:
            return _NEED
        if close == _NONE:
            self.tainted = True
            self._text(_Kind.PROSE, buf[i:k], units)
            return k
        self._text(_Kind.CODE, buf[i:close], units)
        return close


def _line_end(buf: str, k: int, start: int, final: bool) -> int:
    """Where the line holding ``buf[k]`` ends; ``_NONE`` if it runs past ``MAX_HOLD``."""
    newline = buf.find("\n", k, start + MAX_HOLD)
    if newline >= 0:
        return newline
    if start + MAX_HOLD <= len(buf):
        return _NONE
    return len(buf) if final else _NEED


def _closer(buf: str, i: int, k: int, final: bool) -> int:
    """The end of the code span opened by ``buf[i:k]``: the next run of exactly as
    many backticks on the same line (for three or more, before any other run of
    three or more); ``_NONE`` if there is none."""
    run = k - i
    n = len(buf)
    limit = min(n, i + MAX_HOLD)
    pos = k
    while True:
        m = _TICK_OR_NL.search(buf, pos, limit)
        if m is None:
            return _NONE if final or limit < n or i + MAX_HOLD <= n else _NEED
        s = m.start()
        if buf[s] == "\n":
            return _NONE
        e = _TICKS.match(buf, s).end()  # type: ignore[union-attr]
        if e == n and not final:
            return _NEED
        if e - s == run:
            return e
        if run >= 3 and e - s >= 3:
            return _NONE
        pos = e


def _link(buf: str, i: int, final: bool) -> int | tuple[int, str, str]:
    """``(end, label, url)`` for an inline link at ``buf[i] == '['``."""
    n = len(buf)
    label = _LABEL.match(buf, i + 1)
    e = label.end()  # type: ignore[union-attr]
    if e == n:
        # the label may still close: ``_LABEL`` never matches more than a label may hold
        return _NONE if final else _NEED
    if buf[e] != "]":
        return _NONE
    if e + 1 == n:
        return _NONE if final else _NEED
    if buf[e + 1] != "(":
        return _NONE
    dest = _DEST.match(buf, e + 1) or _TEMPLATED_DEST.match(buf, e + 1)
    if dest is not None:
        return dest.end(), label.group(), dest.group(1) or ""  # type: ignore[union-attr]
    rest = buf[e + 1 :]
    if not final and ")" not in rest and "\n" not in rest and n - i < MAX_HOLD:
        return _NEED
    return _NONE


class CodeBlock(NamedTuple):
    """A code span (``fenced`` false) or a fenced block, as character offsets."""

    start: int
    end: int
    fenced: bool


def code_blocks(text: str) -> list[CodeBlock]:
    """The code spans and fenced blocks of ``text`` (see the module doc); a fenced
    block that never closes runs to the end."""
    scanner = _Scanner()
    scanner.buf = text
    blocks: list[CodeBlock] = []
    pos = 0
    fence_start = -1
    for unit in scanner.scan(final=True):
        end = pos + len(unit.raw)
        if unit.kind is _Kind.CODE:
            blocks.append(CodeBlock(pos, end, fenced=False))
        elif unit.kind is _Kind.OPEN:
            fence_start = pos
        elif unit.kind is _Kind.CLOSE:
            blocks.append(CodeBlock(fence_start, end, fenced=True))
            fence_start = -1
        pos = end
    if fence_start >= 0:
        blocks.append(CodeBlock(fence_start, len(text), fenced=True))
    return blocks


def code_regions(text: str) -> list[tuple[int, int]]:
    """Character ranges of the code spans and fenced blocks of ``text``."""
    return [(block.start, block.end) for block in code_blocks(text)]


@dataclass(frozen=True, slots=True)
class Dialect:
    """How one platform's text is escaped and how an allowed link is written."""

    escape: Callable[[str], str]
    link: Callable[[str, str], str]


def _same(text: str) -> str:
    return text


def _markdown_link(label: str, url: str) -> str:
    return f"[{label}](<{url}>)"


MARKDOWN = Dialect(escape=_same, link=_markdown_link)


class SafeStream:
    """``feed(delta) -> str``, ``close() -> str``: streamed text with links and pings disarmed.

    ``allowed(url)`` says which link destinations may stay links (none by
    default). ``limit`` caps the total output: the text stops at the last point
    that fits and leaves no code span or link cut in half.
    """

    def __init__(
        self,
        dialect: Dialect = MARKDOWN,
        *,
        allowed: Callable[[str], bool] | None = None,
        limit: int | None = None,
    ) -> None:
        self._dialect = dialect
        self._allowed = allowed
        self._limit = limit
        self._scanner = _Scanner()
        self._out: list[str] = []
        self._size = 0
        self._before = ""
        # output ranges that are code (spans, fenced blocks; an open fence ends at the end)
        self._code: list[tuple[int, int]] = []
        self._full = False
        self._closed = False
        self._fenced = False  # the output so far ends inside a fenced block

    @property
    def text(self) -> str:
        """Everything returned so far."""
        if len(self._out) > 1:
            self._out = ["".join(self._out)]
        return self._out[0] if self._out else ""

    @property
    def full(self) -> bool:
        """Whether ``limit`` was reached (later text is dropped)."""
        return self._full

    @property
    def in_fence(self) -> bool:
        return self._fenced

    def feed(self, delta: str) -> str:
        if self._closed:
            raise RuntimeError("SafeStream is closed")
        if not delta or self._full:
            return ""
        self._scanner.buf += delta
        return self._render(self._scanner.scan(final=False))

    def close(self) -> str:
        if self._closed:
            return ""
        self._closed = True
        return "" if self._full else self._render(self._scanner.scan(final=True))

    def tail(self, limit: int, *, ellipsis: str = "…") -> str:
        """The newest output that fits ``limit`` characters, cut outside code, with an
        open fence closed: a preview that shows the latest text and stays safe."""
        text = self.text
        closer = "\n```" if self._fenced else ""
        if len(text) + len(closer) <= limit:
            return text + closer
        for room in (limit - len(ellipsis) - len(closer), limit - len(ellipsis) - len(closer) - 1):
            start = len(text) - room
            at = bisect_right(self._code, (start, len(text) + 1)) - 1
            if at >= 0 and self._code[at][0] < start < self._code[at][1]:
                # the cut would fall inside code: start after it, or keep the open fence open
                start = self._code[at][1]
            if start < len(text) and escaped(text, start):
                # cut off from its backslash, the character would mean something else (a
                # backtick would open code, or close it elsewhere): start past it
                start += 1
            if start >= len(text):
                break
            rest = text[start:]
            if rest[0] != "`":
                return ellipsis + rest + closer
            if len(ellipsis) + 1 + len(rest) + len(closer) <= limit:
                # a fence that started a line must still start one
                return ellipsis + "\n" + rest + closer
        # the whole window is code: show its tail as a fenced block
        opener, closer = "\n```\n", "\n```"
        room = limit - len(ellipsis) - len(opener) - len(closer)
        return ellipsis + opener + text[len(text) - room :] + closer

    def _render(self, units: list[_Unit]) -> str:
        escape = self._dialect.escape
        parts: list[str] = []
        for unit in units:
            kind = unit.kind
            if kind is _Kind.PROSE:
                shown = defang(escape(unit.raw), self._before)
            elif kind is _Kind.LINK:
                if self._allowed is not None and self._allowed(unit.url):
                    shown = self._dialect.link(unit.label, unit.url)
                else:
                    shown = defang(escape(unit.label), self._before)
            elif kind is _Kind.BODY and len(unit.raw) >= 3 and unit.raw[0] == "`":
                shown = _break_ticks(unit.raw)
            else:
                shown = escape(unit.raw)
            if not shown:
                continue
            if self._limit is not None and self._size + len(shown) > self._limit:
                if kind in (_Kind.PROSE, _Kind.BODY):
                    shown = _clip(shown, self._limit - self._size)
                    parts.append(shown)
                    self._size += len(shown)
                self._full = True
                break
            start = self._size
            parts.append(shown)
            self._size += len(shown)
            self._before = (self._before + shown)[-4:]
            if kind is _Kind.CODE:
                self._code.append((start, self._size))
            elif kind is _Kind.OPEN:
                self._fenced = True
                self._code.append((start, start))
            elif kind is _Kind.CLOSE:
                self._fenced = False
            if self._fenced or kind is _Kind.CLOSE:
                self._code[-1] = (self._code[-1][0], self._size if kind is _Kind.CLOSE else _OPEN)
        out = "".join(parts)
        if out:
            self._out.append(out)
        return out


def escaped(text: str, at: int) -> bool:
    """Whether ``text[at]`` follows an odd run of backslashes, which escapes it."""
    run = at
    while run > 0 and text[run - 1] == "\\":
        run -= 1
    return (at - run) % 2 == 1


def _clip(text: str, room: int) -> str:
    """``text[:room]``, not ending inside an ``&…;`` entity."""
    clipped = text[: max(room, 0)]
    amp = clipped.rfind("&")
    if amp >= 0 and ";" not in clipped[amp:] and len(clipped) - amp < 6:
        clipped = clipped[:amp]
    return clipped


def safe_text(text: str, dialect: Dialect = MARKDOWN) -> str:
    """``text`` as ``SafeStream`` shows it when it arrives at once."""
    stream = SafeStream(dialect)
    return stream.feed(text) + stream.close()
