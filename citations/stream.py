"""Resolve a model's citation markers while its tokens stream in.

The model sees each source under a short id and cites it with one of the
forms models actually write::

    [N](id=K)    [K]    [K, L]    [K][L]    【K†source】    [^K]

``CitationStream`` turns every marker into the final footnote number ``[n]``
(n = order of first citation, one number per canonical URL) as soon as the
marker is complete, and passes every other character through untouched. Inline
code, fenced code blocks and the destination of an ordinary Markdown link
``[text](url)`` are never rewritten.

Hold-back bound
---------------
``feed`` returns everything it has decided. It holds back only a possible
marker that is not complete yet, starting at a ``[``, ``【`` or ``]``; that tail
is never longer than ``MAX_HOLDBACK`` (64) characters. A candidate that grows
past the bound is not a marker and is released as text, so the bound holds for
any input. Backticks and tildes pass through at once and only change the
scanner's state.

The text of an inline code span is held until its closing backticks come, at most
``CODE_HOLDBACK`` (256) characters: backticks that nothing closes in their
paragraph are text, as CommonMark reads them, and a model's stray backtick
("Run `borg create [1]. Then prune [2].") must not turn every marker after it
into code. A span that the paragraph's end, the end of the text or the bound
leaves open is read again as prose, from just after its opening backticks.

Because every decision depends only on the characters themselves (and on the
end of the text, which ``close`` supplies), splitting the same text into tokens
at any boundaries gives exactly the same output.

Speed
-----
Most tokens are plain prose, so ``feed`` answers those with one regex probe
and a list append. Prose with ``【K†source】`` markers (the form of OpenAI's
file search and of the langchain-references benchmark) is decided inside
``feed`` too; only brackets, code, link destinations and line starts go through
the full scanner. Source numbers are remembered per id, and segments are built
only when ``answer`` is read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citations.model import CitedAnswer, Origin, Reference, Segment, Source
from citations.refusal import is_refusal
from citations.urls import canonical_url, linkable

MAX_HOLDBACK = 64
"""The most characters ``feed`` ever keeps back while a marker may be forming."""

CODE_HOLDBACK = 256
"""The most characters of an inline code span ``feed`` keeps back until it closes."""

_MAX_DIGITS = 9
_MAX_IDS = 16

# Scanner modes; plain ints because the mode is read for every character run.
_NORMAL = 0
_INLINE_CODE = 1
_FENCE = 2
_LINK_DEST = 3

# Characters that may start something the scanner must look at, per mode.
_NORMAL_STOP = re.compile(r"[\[\]【`~\n]")
_search_normal_stop = _NORMAL_STOP.search
_CODE_STOP = re.compile(r"[`~\n]")
_DEST_STOP = re.compile(r"[()\n`~]")
_STOPS = (_NORMAL_STOP, _CODE_STOP, _CODE_STOP, _DEST_STOP)  # indexed by mode
_ID_SUFFIX = re.compile(r"\( ?id ?[=:] ?(\d{1,9}) ?\)")
# Every proper prefix of an ``(id=K)`` suffix, to know when to wait for more.
_ID_SUFFIX_PARTIAL = re.compile(r"\( ?(i(d( ?([=:]( ?(\d{1,9} ?)?)?)?)?)?)?")
# A 【K†source】 marker (also 【K:M†…】) and every proper prefix of one, in a
# single pass: group 3 (the closing 】) means complete, and then group 2 (a colon
# with no digits after it) means it is not a marker after all; a match without
# group 3 that reaches the end of the text is a marker still forming. Every
# such prefix is shorter than MAX_HOLDBACK. Every part after 【 is optional, so
# the match never backtracks; possessive quantifiers just let sre skip the
# bookkeeping for it.
_LENTICULAR = re.compile(r"【(?:(\d{1,9}+)(?::\d{1,9}+|(:))?+(?:†[^】\n]{0,40}+(】)?+)?+)?+")
_match_lenticular = _LENTICULAR.match


# Footnote labels, made once: numbers are small and cited over and over.
_LABELS = tuple(f"[{n}]" for n in range(100))

_NEED = -1  # the decision needs characters that have not arrived yet
_NO = -2  # not a marker


class CitationStream:
    """Stream resolver: ``feed(token) -> str``, ``close() -> str``, ``.answer``."""

    def __init__(self, sources: Sequence[Source], *, merge_fragments: bool = False) -> None:
        # every link a footnote makes comes from here: a ``javascript:`` one never does
        kept: list[Source] = []
        dropped: list[Source] = []
        for source in sources:
            (kept if linkable(source.url) else dropped).append(source)
        self._warnings: list[str] = [
            f"source {s.id} dropped: its URL is no link a user may click ({s.url[:40]!r})"
            for s in dropped
        ]
        sources = kept
        self._sources: dict[int, Source] = {s.id: s for s in sources}
        self._order: tuple[Source, ...] = tuple(sources)
        self._merge = merge_fragments
        self._keys: dict[int, str] = {}
        self._by_id: dict[int, int | None] = {}  # source id -> footnote number
        self._numbers: dict[str, int] = {}
        self._first: dict[str, Source] = {}

        self._buf = ""
        self._mode = _NORMAL
        # Plain prose may skip the scanner: nothing pending, not inside code or
        # a link, not at the start of a line, not closed.
        self._fast = False
        self._inline_ticks = 0
        self._fence_char = ""
        self._fence_len = 0
        self._dest_depth = 0
        # Length of the current line if it is only spaces so far, else -1.
        self._indent = 0
        # A run of backticks or tildes whose meaning is decided when it ends.
        self._run_char = ""
        self._run_len = 0
        self._run_at_line_start = False
        # An inline code span's text since its opening backticks, while it may yet close
        # (None when no span is held), and the line state it opened at.
        self._held: list[str] | None = None
        self._held_len = 0
        self._held_indent = -1

        # The text pieces in order, and each citation as (how many pieces
        # precede it, number). Citations with the same piece count close one
        # segment; ``answer`` groups them, so emitting text is a bare append.
        self._text: list[str] = []
        self._marks: list[tuple[int, int]] = []
        self._cites: list[int] = []  # the numbers of the latest group
        self._cites_at = -1  # its piece count
        self._closed = False
        self._answer: CitedAnswer | None = None

    # -- public API -----------------------------------------------------------

    def feed(self, token: str) -> str:
        """Take the next token; return the display text that is final now."""
        # One method on purpose: most tokens leave within three lines, and the
        # ones that carry a 【K†source】 marker are decided here without the
        # general scanner, which at these rates is worth the length.
        if self._fast:
            m = _search_normal_stop(token)
            if m is None:
                if token:
                    self._text.append(token)
                return token
            buf = token
            i = 0
            parts: list[str] = []
        else:
            if self._closed:
                raise RuntimeError("CitationStream is closed")
            if not token:
                return ""
            i = 0
            parts = []
            buf = self._buf
            if buf:
                # Pending text only ever waits in ordinary prose, at a stop character.
                buf += token
                marker = _match_lenticular(buf)
                if marker is not None:
                    if marker.lastindex != 3:
                        if marker.end() == len(buf):
                            self._buf = buf  # still the middle of a marker
                            return ""
                    elif marker.group(2) is None:
                        self._emit_cite(int(marker.group(1)), parts)
                        i = marker.end()
            elif self._mode != _NORMAL or self._run_len:
                self._buf = token
                out = self._scan(final=False)
                self._fast = (
                    not self._buf
                    and self._mode == _NORMAL
                    and not self._run_len
                    and self._indent < 0
                )
                return out
            else:
                buf = token
            m = _search_normal_stop(buf, i)
        # Ordinary prose: text and 【K†source】 markers, decided exactly as
        # ``_scan`` would; any other stop character hands the rest to ``_scan``.
        text = self._text
        while True:
            j = len(buf) if m is None else m.start()
            if j > i:
                piece = buf[i:j] if i or m is not None else buf
                text.append(piece)
                parts.append(piece)
                if self._indent >= 0:
                    self._indent = self._indent + len(piece) if piece.strip(" ") == "" else -1
            if m is None:
                self._buf = ""
                self._fast = self._indent < 0
                break
            marker = _match_lenticular(buf, j)  # None unless buf[j] is 【
            if marker is not None:
                if marker.lastindex == 3:
                    if marker.group(2) is None:
                        self._emit_cite(int(marker.group(1)), parts)
                        i = marker.end()
                        m = _search_normal_stop(buf, i)
                        continue
                elif marker.end() == len(buf):
                    self._buf = buf[j:] if j else buf
                    self._fast = False
                    break
            self._buf = buf[j:] if j else buf
            parts.append(self._scan(final=False))
            self._fast = (
                not self._buf and self._mode == _NORMAL and not self._run_len and self._indent < 0
            )
            break
        return "".join(parts)

    def close(self) -> str:
        """End the stream; return whatever was held back."""
        if self._closed:
            return ""
        parts = [self._scan(final=True)]
        self._end_run(parts)
        while self._held is not None:
            # the text ended before the span's closing backticks
            self._buf = self._unheld()
            parts.append(self._scan(final=True))
            self._end_run(parts)
        out = "".join(parts)
        self._closed = True
        self._fast = False
        return out

    @property
    def answer(self) -> CitedAnswer:
        """The resolved answer (so far, if the stream is still open)."""
        if self._answer is not None:
            return self._answer
        text = self._text
        segments: list[Segment] = []
        start = at = 0
        group: list[int] = []
        for count, number in self._marks:
            if group and count != at:
                segments.append(Segment("".join(text[start:at]), tuple(group)))
                start, group = at, []
            at = count
            group.append(number)
        if group:
            segments.append(Segment("".join(text[start:at]), tuple(group)))
            start = at
        if start < len(text):
            segments.append(Segment("".join(text[start:])))
        answer = CitedAnswer(
            segments=tuple(segments),
            references=self._references(),
            warnings=tuple(self._warnings),
        )
        if self._closed:
            if answer.references and is_refusal(answer.text):
                answer = CitedAnswer(
                    segments=(Segment(answer.plain_text),),
                    references=(),
                    warnings=(*answer.warnings, "the answer declines to answer; no sources listed"),
                )
            self._answer = answer
        return answer

    # -- numbering ------------------------------------------------------------

    def _key(self, source: Source) -> str:
        key = self._keys.get(source.id)
        if key is None:
            key = canonical_url(source.url, merge_fragments=self._merged(source))
            self._keys[source.id] = key
        return key

    def _merged(self, source: Source) -> bool:
        # a web result's fragment is a spot on one page, not a section of its own
        return self._merge or source.origin is Origin.WEB

    def _shown(self, source: Source) -> str:
        """The URL a footnote links to: its key, but with the trailing slash the source
        has (``/guide/install/`` and ``/guide/install`` are one footnote, and a server
        without a redirect answers only the one the page was read from)."""
        return canonical_url(source.url, merge_fragments=self._merged(source), keep_slash=True)

    def _number(self, source_id: int) -> int | None:
        """Number ``source_id`` on its first citation (None if the model made it up).

        Called once per id (``_by_id`` keeps the answer), so an invented id warns once.
        """
        source = self._sources.get(source_id)
        if source is None:
            self._warnings.append(
                f"citation of unknown source id {source_id} dropped "
                f"(the model was given {len(self._sources)} sources)"
            )
            number = None
        else:
            key = self._key(source)
            number = self._numbers.get(key)
            if number is None:
                number = len(self._numbers) + 1
                self._numbers[key] = number
                self._first[key] = source
        self._by_id[source_id] = number
        return number

    def _references(self) -> tuple[Reference, ...]:
        grouped: dict[str, list[Source]] = {key: [] for key in self._numbers}
        for source in self._order:
            key = self._key(source)
            if key in grouped:
                grouped[key].append(source)
        return tuple(
            Reference(
                number=number,
                url=self._shown(self._first[key]),
                title=self._first[key].title,
                sources=tuple(grouped[key]),
            )
            for key, number in self._numbers.items()
        )

    # -- output ---------------------------------------------------------------

    def _emit_text(self, text: str, out: list[str]) -> None:
        self._text.append(text)
        out.append(text)
        self._advance(text)

    def _pass(self, text: str, out: list[str]) -> None:
        """Text that passes through: held while an inline code span may yet be prose."""
        held = self._held
        if held is None:
            self._emit_text(text, out)
            return
        held.append(text)
        self._held_len += len(text)
        self._advance(text)

    def _unheld(self) -> str:
        """The held span's text, to be read again as prose (its opening backticks stay
        text): nothing closed it."""
        held = "".join(self._held or ())
        self._held, self._held_len = None, 0
        # a run of backticks in progress is in the held text, and is read again with it
        self._run_len = 0
        self._mode = _NORMAL
        self._indent = self._held_indent
        return held

    def _advance(self, text: str) -> None:
        """The line state after ``text``: the current line's indentation while it is only
        spaces, else -1. A line break is a stop character in every mode, so it always comes
        alone."""
        if text == "\n":
            self._indent = 0
        elif self._indent >= 0:
            self._indent = self._indent + len(text) if text.strip(" ") == "" else -1

    def _emit_marker(self, ids: Sequence[int], out: list[str]) -> None:
        for source_id in ids:
            self._emit_cite(source_id, out)

    def _emit_cite(self, source_id: int, out: list[str]) -> None:
        number = self._by_id[source_id] if source_id in self._by_id else self._number(source_id)
        if number is None:
            return
        at = len(self._text)
        if at != self._cites_at:
            self._cites_at = at
            self._cites = []
        elif number in self._cites:
            return
        self._cites.append(number)
        self._marks.append((at, number))
        out.append(_LABELS[number] if number < 100 else f"[{number}]")

    # -- scanner --------------------------------------------------------------

    def _end_run(self, out: list[str]) -> None:
        """A run of backticks or tildes just ended: open or close code."""
        char, length, at_start = self._run_char, self._run_len, self._run_at_line_start
        if not length:
            return
        self._run_char, self._run_len = "", 0
        mode = self._mode
        if mode == _NORMAL:
            if at_start and length >= 3:
                self._mode, self._fence_char, self._fence_len = _FENCE, char, length
            elif char == "`":
                self._mode, self._inline_ticks = _INLINE_CODE, length
                self._held, self._held_len, self._held_indent = [], 0, self._indent
        elif mode == _INLINE_CODE:
            if char == "`" and length == self._inline_ticks:
                self._mode = _NORMAL
                if self._held is not None:
                    span = "".join(self._held)
                    self._held = None
                    self._text.append(span)
                    out.append(span)
        elif mode == _FENCE:
            if at_start and char == self._fence_char and length >= self._fence_len:
                self._mode = _NORMAL
        elif mode == _LINK_DEST and char == "`":
            self._mode, self._inline_ticks = _INLINE_CODE, length

    def _take_run_char(self, char: str, out: list[str]) -> None:
        if self._run_len and char != self._run_char:
            self._end_run(out)
        if not self._run_len:
            self._run_char = char
            self._run_at_line_start = 0 <= self._indent <= 3
        self._run_len += 1
        self._pass(char, out)

    def _scan(self, *, final: bool) -> str:
        buf = self._buf
        n = len(buf)
        i = 0
        out: list[str] = []
        while True:
            if self._held_len > CODE_HOLDBACK:
                # too long for a span a model writes: its opening backticks were text
                buf = self._unheld() + buf[i:]
                n = len(buf)
                i = 0
            if i >= n:
                break
            mode = self._mode
            m = _STOPS[mode].search(buf, i)
            j = m.start() if m is not None else n
            if j > i:
                if self._run_len:
                    self._end_run(out)
                    continue
                self._pass(buf[i:j], out)
                i = j
                continue
            char = buf[i]
            if char == "`" or char == "~":
                self._take_run_char(char, out)
                i += 1
                continue
            if self._run_len:
                self._end_run(out)
                continue
            if char == "\n":
                if self._mode == _INLINE_CODE and self._indent >= 0:
                    # A blank line ends a paragraph, and with it any code span
                    # whose closing backticks never came: its backticks were text.
                    if self._held is not None:
                        buf = self._unheld() + buf[i:]
                        n = len(buf)
                        i = 0
                        continue
                    self._mode = _NORMAL
                elif self._mode == _LINK_DEST:
                    self._mode = _NORMAL
                self._pass("\n", out)
                i += 1
                continue
            if mode == _LINK_DEST:
                if char == "(":
                    self._dest_depth += 1
                else:
                    self._dest_depth -= 1
                    if self._dest_depth <= 0:
                        self._mode = _NORMAL
                self._emit_text(char, out)
                i += 1
                continue
            # NORMAL mode: '[', ']' or '【'
            if char == "]":
                if i + 1 >= n and not final:
                    break
                self._emit_text("]", out)
                i += 1
                if i < n and buf[i] == "(":
                    self._enter_link_dest(out)
                    i += 1
                continue
            if char == "【":
                end, ids = self._parse_lenticular(buf, i, final)
            else:
                end, ids = self._parse_bracket(buf, i, final)
            if end == _NEED:
                break
            if end == _NO:
                self._emit_text(char, out)
                i += 1
                continue
            if end < 0:  # an ordinary link "[1](url)": label as text, then the destination
                close = -end - 3
                self._emit_text(buf[i : close + 1], out)
                self._enter_link_dest(out)
                i = close + 2
                continue
            self._emit_marker(ids, out)
            i = end
        self._buf = buf[i:]
        if final and self._buf:
            # Only reachable if a parser asked for more at the very end.
            self._emit_text(self._buf, out)
            self._buf = ""
        return "".join(out)

    def _enter_link_dest(self, out: list[str]) -> None:
        self._emit_text("(", out)
        self._mode = _LINK_DEST
        self._dest_depth = 1

    @staticmethod
    def _parse_lenticular(buf: str, i: int, final: bool) -> tuple[int, tuple[int, ...]]:
        m = _match_lenticular(buf, i)
        if m is None:  # pragma: no cover - the pattern matches any 【
            return _NO, ()
        if m.lastindex == 3:
            return (m.end(), (int(m.group(1)),)) if m.group(2) is None else (_NO, ())
        return (_NEED, ()) if not final and m.end() == len(buf) else (_NO, ())

    def _parse_bracket(self, buf: str, i: int, final: bool) -> tuple[int, tuple[int, ...]]:
        """Parse a marker at ``buf[i] == '['``.

        Returns ``(end, ids)`` for a marker, ``_NEED`` or ``_NO``, or
        ``-(close + 3)`` when ``buf[i:close + 1]`` is the label of an ordinary
        link ``[1](url)``.
        """
        n = len(buf)
        limit = i + MAX_HOLDBACK
        k = i + 1
        footnote = False
        if k < n and buf[k] == "^":
            footnote = True
            k += 1
        ids: list[int] = []
        while True:
            while k < n and buf[k] == " " and k < limit:
                k += 1
            start = k
            while k < n and buf[k].isdigit() and buf[k].isascii() and k - start <= _MAX_DIGITS:
                k += 1
            if k >= n:
                return (_NO, ()) if final or k >= limit else (_NEED, ())
            if k == start or k - start > _MAX_DIGITS:
                return _NO, ()
            ids.append(int(buf[start:k]))
            while k < n and buf[k] == " " and k < limit:
                k += 1
            if k >= n:
                return (_NO, ()) if final or k >= limit else (_NEED, ())
            char = buf[k]
            if char == "]":
                break
            if footnote or char not in ",;" or len(ids) >= _MAX_IDS:
                return _NO, ()
            k += 1
            if k >= limit:
                return _NO, ()
        close = k
        k += 1
        line_start = 0 <= self._indent <= 3
        if k >= n:
            if not final and (line_start or not footnote):
                return _NEED, ()
            return k, tuple(ids)
        after = buf[k]
        if after == ":" and line_start:
            return _NO, ()  # a reference or footnote definition line
        if footnote or after != "(":
            return k, tuple(ids)
        m = _ID_SUFFIX.match(buf, k)
        if m is not None:
            return m.end(), (int(m.group(1)),)
        if not final and n < limit and _ID_SUFFIX_PARTIAL.fullmatch(buf, k) is not None:
            return _NEED, ()
        return -(close + 3), ()


def resolve(text: str, sources: Sequence[Source], *, merge_fragments: bool = False) -> CitedAnswer:
    """Resolve a complete answer at once (the same result as streaming it)."""
    stream = CitationStream(sources, merge_fragments=merge_fragments)
    stream.feed(text)
    stream.close()
    return stream.answer
