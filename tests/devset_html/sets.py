"""Which Markdown set each HTML site was built from, and where its pages' URLs point.

``python -m tests.devset_html [NAME ...]`` prints the eval table of each set's Markdown
and of its built HTML, in the same run (the gap between the two rows is what the HTML
reader loses).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bs4 import BeautifulSoup
from bs4.element import Tag

from connectors.knowledge.ingest import Ingestor
from connectors.knowledge.parsing.html import heading_anchor
from connectors.knowledge.parsing.html_blocks import HEADINGS
from connectors.knowledge.parsing.slugs import Slugger
from connectors.knowledge.settings import StoreSettings
from connectors.knowledge.sources.folder import read_folder
from connectors.knowledge.store import KnowledgeStore
from connectors.knowledge.store.lancedb import open_lancedb
from connectors.providers.embeddings import MiniLMEmbedding

HERE = Path(__file__).parent
TESTS = HERE.parent
_PAGE = re.compile(r"^(?P<base>.*/)?(?P<page>[^/#]+)\.md(?P<anchor>#.*)?$")


@dataclass(frozen=True, slots=True)
class HtmlSet:
    name: str
    url_base: str
    #: how the site generator names a page's file: ``page`` → ``page.html`` or ``page/index.html``
    page_file: Callable[[str], str]

    @property
    def markdown(self) -> Path:
        return TESTS / self.name

    @property
    def html(self) -> Path:
        return HERE / self.name

    def url(self, markdown_url: str) -> str:
        """The built page's URL for an expected ``<page>.md#<anchor>``: the page's file, and
        the anchor the HTML reader gives the heading that the page's element of that id
        names (Sphinx puts a label's id on the section and the heading's slug on a span). A
        page's top (a Markdown page with no title heading) is the title heading that the
        site generator adds."""
        found = _PAGE.match(markdown_url)
        if found is None:
            return markdown_url
        page = self.page_file(found["page"])
        anchors = _anchors(self.html / "docs" / page)
        anchor = (found["anchor"] or "#")[1:]
        anchor = anchors.get(anchor, anchor)
        if anchor:
            anchor = "#" + anchor
        return (found["base"] or "") + page + anchor


@functools.cache
def _anchors(page: Path) -> dict[str, str]:
    """Every id on ``page`` → the anchor of the heading it names (itself, the first heading
    inside it, or the next heading after it)."""
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    out: dict[str, str] = {}
    for tagged in soup.find_all(True, id=True):
        heading = (
            tagged
            if tagged.name in HEADINGS
            else tagged.find(HEADINGS) or tagged.find_next(HEADINGS)
        )
        if isinstance(heading, Tag):
            out[str(tagged["id"])] = heading_anchor(heading, heading.get_text(), Slugger())
    h1 = soup.find("h1")
    if isinstance(h1, Tag):
        out[""] = heading_anchor(h1, h1.get_text(), Slugger())
    return out


def _mkdocs(page: str) -> str:
    return "index.html" if page == "index" else f"{page}/index.html"


def _sphinx(page: str) -> str:
    return f"{page}.html"


SETS = {
    "devset": HtmlSet("devset", "https://www.starlette.io/", _mkdocs),
    "devset3": HtmlSet("devset3", "https://www.structlog.org/en/stable/", _sphinx),
}


def ingest(folder: Path, url_base: str, data_dir: Path) -> KnowledgeStore:
    kb = open_lancedb(data_dir, StoreSettings(), MiniLMEmbedding())
    Ingestor(kb, data_dir, progress=False).ingest(
        read_folder(folder / "docs", url_base=url_base), source=folder.name
    )
    return kb
