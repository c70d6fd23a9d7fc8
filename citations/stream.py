"""Resolve a model's citation markers while its tokens stream in.

The model sees each source under a short id and cites it with one of the
forms models actually write::

    [N](id=K)    [K]    [K, L]    [K-M]    [K][L]    【K†source】    [^K]    [K](url)

``CitationStream`` turns every marker into the final footnote number ``[n]``
(n = order of first citation, one number per canonical URL) as soon as the
marker is complete, and passes every other character through untouched. A
range ``[K-M]`` cites K, M and every id given between them; a bracket may hold
any number of ids. A URL destination right after a marker (``[2](#)``) goes with
it; words in parentheses (``[2](see above)``) stay.

Code and link destinations are never rewritten, and they are exactly what
every renderer shows as code or drops as a destination (``citations.render.safe``):
a code span closes on its own line, a fence is backticks on a line of their own
(Slack and Discord know no ``~~~`` fence), a backslash-escaped backtick opens
nothing, after backticks that pair with nothing no code follows, and a link is
``[label](dest)`` with no space, parenthesis or backslash in its destination.
Anywhere else a raw ``[3]`` would read as footnote 3 of the answer, so it is
resolved there.

Hold-back bound
---------------
``feed`` returns everything it has decided. It holds back only a possible
marker that is not complete yet, starting at a ``[``, ``【``, ``]`` or backslash,
or a link destination from a marker in it to its ``)``; that tail is never
longer than ``MAX_HOLDBACK`` (64) characters. A candidate that grows past the
bound is not a marker and is released as text (a destination: its markers are
footnotes), so the bound holds for any input; a bracket of ids still growing
at the bound cites the ids before its last separator and reads on. Backticks
pass through at once and only change the scanner's state.

The text after a backtick run is held until its closing backticks come, or the
end of its line shows it opened a fence, at most ``CODE_HOLDBACK`` (256)
characters: backticks that nothing closes on their line are text, and a model's
stray backtick ("Run `borg create [1]. Then prune [2].") must not turn every
marker after it into code. A span that the line's end, the end of the text or
the bound leaves open is read again as prose, from just after its opening
backticks, and no code follows it.

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
_DIGITS = frozenset("0123456789")
_DASHES = "-\u2013"  # a range: 1-3, or 1–3 (en dash)
_LABEL_MAX = 300  # the longest link label the renderers read as one (render.safe.LABEL_MAX)

# Scanner modes; plain ints because the mode is read for every character run.
_NORMAL = 0
_INLINE_CODE = 1  # after a backtick run, until it pairs up (or turns out a fence's opening line)
_FENCE = 2
_LINK_DEST = 3  # the destination of a link the renderers read as one
_ID_LIST = 4  # a bracket of ids too long to hold, read on as it comes

# Characters that may start something the scanner must look at, per mode. Only backticks make
# code: Slack's mrkdwn and Discord know no ``~~~`` fence, so what a tilde fence holds is prose.
_NORMAL_STOP = re.compile(r"[\[\]【`\\\n]")
_search_normal_stop = _NORMAL_STOP.search
_CODE_STOP = re.compile(r"[`\n]")
_STOPS = (_NORMAL_STOP, _CODE_STOP, _CODE_STOP)  # indexed by mode
# A link destination's characters (as render.safe reads one, minus the angle brackets, spaces
# and backslashes it also allows: a destination the stream does not read as one only has its
# markers resolved), without and with the marker openings that make it wait for its ")".
_DEST_PASS = re.compile(r"[^()<>\s\\`\[【]*")
_DEST_BODY = re.compile(r"[^()<>\s\\`]*")
_ID_SUFFIX = re.compile(r"\( ?id ?[=:] ?(\d{1,9}) ?\)")
# Every proper prefix of an ``(id=K)`` suffix, to know when to wait for more.
_ID_SUFFIX_PARTIAL = re.compile(r"\( ?(i(d( ?([=:]( ?(\d{1,9} ?)?)?)?)?)?)?")
# "[3](https://…)": a citation that links its source; the destination is dropped with it
_URL_DEST = re.compile(r"\(<?[^()<>\s]+>?\)")
_URL_DEST_PARTIAL = re.compile(r"\(<?[^()<>\s]*>?")
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

# How a bracket of ids ends (``_parse_ids``)
_CLOSED = 0  # at its "]"
_COMMIT = 1  # not yet, but the ids before its last separator are citations
_BROKEN = 2  # at something no bracket of ids holds


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
        self._fence_len = 0
        # 1 when the fence's line so far may close it, 2 when it may close it but ends all
        # code after it (a fence not of exactly three backticks), else 0
        self._closing = 0
        # The renderers pair backticks their own way after one that does not pair up on its
        # line, and then show no code at all (render.safe): nor does the stream.
        self._tainted = False
        # Length of the current line if it is only spaces so far, else -1.
        self._indent = 0
        # A run of backticks whose meaning is decided when it ends.
        self._run_len = 0
        self._run_at_line_start = False
        # An inline code span's text since its opening backticks, while it may yet close
        # (None when no span is held), and the line state it opened at; whether it may be a
        # fence's opening line (no backtick after a run of three at a line's start); whether a
        # backtick run showed that nothing closes it.
        self._held: list[str] | None = None
        self._held_len = 0
        self._held_indent = -1
        self._maybe_fence = False
        self._unpaired = False

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
            if buf and self._mode == _NORMAL:
                # pending ordinary prose waits at a stop character
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
            elif buf or self._mode != _NORMAL or self._run_len:
                self._buf = buf + token
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
            if self._maybe_fence and not self._unpaired:
                # a fence whose opening line ends the text: code to the end, as in render.safe
                self._release_held(parts)
                break
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
        self._tainted = True
        self._unpaired = self._maybe_fence = False
        return held

    def _release_held(self, out: list[str]) -> None:
        """The held text is code after all (a span that closed, or a fence's opening line)."""
        span = "".join(self._held or ())
        self._held, self._held_len = None, 0
        self._text.append(span)
        out.append(span)

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

    def _emit_items(self, items: Sequence[tuple[int, int]], out: list[str]) -> None:
        """Cite each id, or each range ``first-last`` of ids."""
        for first, last in items:
            if first == last:
                self._emit_cite(first, out)
                continue
            low, high = min(first, last), max(first, last)
            self._emit_cite(low, out)
            # only the ids the model was given: "[1-999999999]" must not warn a billion times
            for source_id in sorted(self._sources):
                if low < source_id < high:
                    self._emit_cite(source_id, out)
            self._emit_cite(high, out)

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
        # the answer's line has text now: a fence or a definition after it does not start it
        self._indent = -1

    # -- scanner --------------------------------------------------------------

    def _end_run(self, out: list[str]) -> None:
        """A run of backticks just ended: open, close or end code as render.safe does."""
        length, at_start = self._run_len, self._run_at_line_start
        if not length:
            return
        self._run_len = 0
        mode = self._mode
        if mode == _NORMAL:
            if not self._tainted:
                self._mode, self._inline_ticks = _INLINE_CODE, length
                self._held, self._held_len, self._held_indent = [], 0, self._indent
                self._maybe_fence = at_start and length >= 3
        elif mode == _INLINE_CODE:
            if length == self._inline_ticks:
                self._mode = _NORMAL
                self._maybe_fence = False
                self._release_held(out)
            elif length >= 3 and self._inline_ticks >= 3:
                # Discord would end a ``` span at any run of three
                self._unpaired = True
            else:
                self._maybe_fence = False
        elif mode == _FENCE:
            if at_start and length >= self._fence_len:
                self._closing = 1 if length == 3 else 2
            else:
                self._closing = 0

    def _take_run_char(self, out: list[str]) -> None:
        if not self._run_len:
            self._run_at_line_start = 0 <= self._indent <= 3
        self._run_len += 1
        self._pass("`", out)

    def _in_label(self) -> bool:
        """Whether the answer so far ends inside a link label the renderers read as one: a "["
        (not after "!" or a backslash) and at most 300 characters with no bracket, line break,
        backtick or footnote after it. Looked up only at "](", so prose is not tracked for it."""
        text = self._text
        stop = self._marks[-1][0] if self._marks else 0
        tail = ""
        p = len(text)
        while p > stop and len(tail) <= _LABEL_MAX:
            p -= 1
            tail = text[p] + tail
        at = tail.rfind("[")
        if at < 0 or len(tail) - at - 1 > _LABEL_MAX:
            return False
        label = tail[at + 1 :]
        if "]" in label or "\n" in label or "`" in label:
            return False
        return not (at and tail[at - 1] in "!\\")

    def _scan(self, *, final: bool) -> str:
        buf = self._buf
        n = len(buf)
        i = 0
        out: list[str] = []
        while True:
            if self._held_len > CODE_HOLDBACK or self._unpaired:
                # too long for a span a model writes, or a run that pairs with nothing: its
                # opening backticks were text
                buf = self._unheld() + buf[i:]
                n = len(buf)
                i = 0
            if i >= n:
                break
            mode = self._mode
            if mode == _LINK_DEST:
                j = _DEST_PASS.match(buf, i).end()  # type: ignore[union-attr]
                if j > i:
                    self._emit_text(buf[i:j], out)
                    i = j
                    continue
                char = buf[i]
                if char == "[" or char == "【":
                    # a marker here stays as written only if the link is whole (the renderers
                    # drop its destination); else it is a footnote. Held until its ")".
                    bound = i + MAX_HOLDBACK
                    j = _DEST_BODY.match(buf, i, bound).end()  # type: ignore[union-attr]
                    if j == n < bound and not final:
                        break
                    if j < n and j < bound and buf[j] == ")":
                        self._emit_text(buf[i : j + 1], out)
                        i = j + 1
                    self._mode = _NORMAL
                    continue
                self._mode = _NORMAL
                if char == ")":
                    self._emit_text(")", out)
                    i += 1
                continue
            if mode == _ID_LIST:
                kind, end, items = _parse_ids(buf, i, final, i + MAX_HOLDBACK)
                if kind == _NEED:
                    break
                self._emit_items(items, out)
                if kind != _COMMIT:
                    self._mode = _NORMAL
                i = end
                continue
            m = _STOPS[mode].search(buf, i)
            j = m.start() if m is not None else n
            if j > i:
                if self._run_len:
                    self._end_run(out)
                    continue
                if self._closing and buf[i:j].strip():
                    self._closing = 0
                self._pass(buf[i:j], out)
                i = j
                continue
            char = buf[i]
            if char == "`":
                self._take_run_char(out)
                i += 1
                continue
            if self._run_len:
                self._end_run(out)
                continue
            if char == "\n":
                if mode == _INLINE_CODE:
                    if not self._maybe_fence:
                        # a code span closes on its own line, in Slack and Discord alike
                        buf = self._unheld() + buf[i:]
                        n = len(buf)
                        i = 0
                        continue
                    self._release_held(out)
                    self._mode, self._fence_len = _FENCE, self._inline_ticks
                    self._maybe_fence = False
                    self._closing = 0
                elif mode == _FENCE and self._closing:
                    self._tainted = self._tainted or self._closing == 2
                    self._mode, self._closing = _NORMAL, 0
                self._pass("\n", out)
                i += 1
                continue
            # NORMAL mode: '[', ']', '【' or a backslash
            if char == "\\":
                if i + 1 >= n and not final:
                    break
                # an escaped backtick opens no code (render.safe reads escapes the same way)
                end = i + 2 if i + 1 < n and buf[i + 1] in "`\\" else i + 1
                self._emit_text(buf[i:end], out)
                i = end
                continue
            if char == "]":
                if i + 1 >= n and not final:
                    break
                link = i + 1 < n and buf[i + 1] == "(" and self._in_label()
                self._emit_text("]", out)
                i += 1
                if link:
                    self._emit_text("(", out)
                    self._mode = _LINK_DEST
                    i += 1
                continue
            if char == "【":
                end, ids = self._parse_lenticular(buf, i, final)
                if end >= 0:
                    self._emit_marker(ids, out)
            else:
                end, items, listing = self._parse_bracket(buf, i, final)
                if end >= 0:
                    self._emit_items(items, out)
                    if listing:
                        self._mode = _ID_LIST
            if end == _NEED:
                break
            if end == _NO:
                self._emit_text(char, out)
                i += 1
                continue
            i = end
        self._buf = buf[i:]
        if final and self._buf:
            # Only reachable if a parser asked for more at the very end.
            self._emit_text(self._buf, out)
            self._buf = ""
        return "".join(out)

    @staticmethod
    def _parse_lenticular(buf: str, i: int, final: bool) -> tuple[int, tuple[int, ...]]:
        m = _match_lenticular(buf, i)
        if m is None:  # pragma: no cover - the pattern matches any 【
            return _NO, ()
        if m.lastindex == 3:
            return (m.end(), (int(m.group(1)),)) if m.group(2) is None else (_NO, ())
        return (_NEED, ()) if not final and m.end() == len(buf) else (_NO, ())

    def _parse_bracket(
        self, buf: str, i: int, final: bool
    ) -> tuple[int, list[tuple[int, int]], bool]:
        """Parse a marker at ``buf[i] == '['``: ``(end, ids, listing)``, or ``_NEED`` or
        ``_NO`` as ``end``. ``listing`` means the bracket is longer than a marker may be held
        and ``ids`` are the ones before its last separator so far; the rest is read on in
        ``_ID_LIST`` mode. Only ``buf[i : i + MAX_HOLDBACK]`` decides, whatever has arrived."""
        n = len(buf)
        limit = i + MAX_HOLDBACK
        k = i + 1
        footnote = k < n and buf[k] == "^"
        kind, end, items = _parse_ids(buf, k + footnote, final, limit)
        if kind == _NEED:
            return _NEED, [], False
        if kind == _BROKEN:
            return _NO, [], False
        if kind == _COMMIT:
            return end, items, True
        line_start = 0 <= self._indent <= 3
        if end >= n:
            if not final and (line_start or not footnote):
                return _NEED, [], False
            return end, items, False
        after = buf[end]
        if after == ":" and line_start:
            return _NO, [], False  # a reference or footnote definition line
        if footnote or after != "(":
            return end, items, False
        m = _ID_SUFFIX.match(buf, end, limit)
        if m is not None:
            source_id = int(m.group(1))
            return m.end(), [(source_id, source_id)], False
        m = _URL_DEST.match(buf, end, limit)
        if m is not None:
            return m.end(), items, False
        if (
            not final
            and n < limit
            and (
                _ID_SUFFIX_PARTIAL.fullmatch(buf, end) is not None
                or _URL_DEST_PARTIAL.fullmatch(buf, end) is not None
            )
        ):
            return _NEED, [], False
        # "[2](see above)": a citation, then words in parentheses
        return end, items, False


def _parse_ids(buf: str, k: int, final: bool, limit: int) -> tuple[int, int, list[tuple[int, int]]]:
    """Read ids (``3``, or a range ``1-3``) separated by "," or ";" up to a "]", from ``k``
    (just after a "[", or after a separator in ``_ID_LIST`` mode), looking at nothing past
    ``limit``: ``(kind, end, items)`` with ``kind`` one of ``_CLOSED`` (``end`` just after the
    "]"), ``_COMMIT`` (the limit came first: ``items`` are those before the last separator,
    ``end`` just after it), ``_BROKEN`` (``items`` are those before ``end``, where the ids
    stop; at the end of the text, the last one too) or ``_NEED``."""
    n = len(buf)
    stop = min(n, limit)
    items: list[tuple[int, int]] = []
    item_end = k
    sep_end = sep_items = -1
    # the item read last, not known to be whole yet (its last number may go on); -1: none
    first = last = -1
    while True:
        while k < stop and buf[k] == " ":
            k += 1
        start = k
        while k < stop and buf[k] in _DIGITS:
            k += 1
        if (k == start and k < stop) or k - start > _MAX_DIGITS:
            return _BROKEN, item_end, items
        first = last = int(buf[start:k]) if k > start else -1
        while k < stop and buf[k] == " ":
            k += 1
        if k >= stop:
            break
        if buf[k] in _DASHES:
            k += 1
            while k < stop and buf[k] == " ":
                k += 1
            start = k
            while k < stop and buf[k] in _DIGITS:
                k += 1
            if (k == start and k < stop) or k - start > _MAX_DIGITS:
                return _BROKEN, item_end, items
            if k > start:
                last = int(buf[start:k])
            while k < stop and buf[k] == " ":
                k += 1
            if k >= stop:
                break
        items.append((first, last))
        first, item_end = -1, k
        char = buf[k]
        if char == "]":
            return _CLOSED, k + 1, items
        if char != "," and char != ";":
            return _BROKEN, item_end, items
        k += 1
        sep_end, sep_items = k, len(items)
    if stop == limit:
        # too long to hold: the ids before its last separator are citations, read on after it
        if sep_end >= 0:
            return _COMMIT, sep_end, items[:sep_items]
        return _BROKEN, item_end, items
    if not final:
        return _NEED, k, items
    if first >= 0:
        items.append((first, last))
        item_end = k
    return _BROKEN, item_end, items


def resolve(text: str, sources: Sequence[Source], *, merge_fragments: bool = False) -> CitedAnswer:
    """Resolve a complete answer at once (the same result as streaming it)."""
    stream = CitationStream(sources, merge_fragments=merge_fragments)
    stream.feed(text)
    stream.close()
    return stream.answer
