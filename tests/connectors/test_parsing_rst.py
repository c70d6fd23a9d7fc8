"""reStructuredText read as the page Sphinx publishes (pages written for these tests, shaped
like a Sphinx project's sources)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from connectors.knowledge.documents import Document
from connectors.knowledge.parsing import kind_of, parse_bytes
from connectors.knowledge.parsing.rst import parse_rst
from connectors.knowledge.sources.folder import read_folder

PAGE = """\
.. _install:

Installing Acme
===============

Acme runs on Python 3.9 and later. Call :func:`acme.run` or :meth:`~acme.App.start`,
see :ref:`configuring` and :doc:`/guide/quick-start`. Pass :option:`--verbose` for more.

.. note:: Acme needs a writable cache folder.

   Set ``ACME_CACHE`` to choose one.

.. versionadded:: 2.1
   The ``--fast`` flag.

.. versionchanged:: 3.0

.. deprecated:: 2.5 Use :class:`acme.Server` instead.

.. toctree::
   :maxdepth: 2

   guide/one
   guide/two

.. code-block:: python
   :caption: app.py
   :linenos:

   import acme
   acme.run()

.. autofunction:: acme.run

.. _configuring:

Configuring the server
----------------------

.. option:: --verbose, -v

   Log every request. Repeat it for more detail.

.. py:function:: acme.run(port=8000)

   Start the server on *port*.

cache
   Where downloads are kept.

.. tabs::

   .. tab:: Windows

      Run ``acme.exe serve``.

   .. tab:: Linux

      Run ``acme serve``.

.. dropdown:: Why port 8000?

   An extension's directive keeps its text.

.. seealso::

   The deployment guide.

.. hlist::

   * one
   * two

An :unknownrole:`widget` role and a reference to `PEP 8`_.

.. _PEP 8: https://peps.python.org/pep-0008/
"""


def _sections() -> tuple[str, dict[str, str]]:
    title, sections = parse_rst(PAGE, "fallback")
    return title, {s.anchor or "": s.text for s in sections}


def test_sections_carry_sphinx_anchors_and_headings() -> None:
    title, sections = _sections()
    assert title == "Installing Acme"
    assert list(sections) == ["installing-acme", "configuring-the-server"]
    assert sections["installing-acme"].startswith("# Installing Acme\n")
    assert sections["configuring-the-server"].startswith("## Configuring the server\n")


def test_sphinx_roles_read_as_sphinx_shows_them() -> None:
    _, sections = _sections()
    text = sections["installing-acme"]
    assert "Call `acme.run()` or `start()`," in text
    # a reference to a section on the page is its title; to another page, its name
    assert "see Configuring the server and quick start." in text
    assert "Pass `--verbose` for more." in text
    assert "An `widget` role" in sections["configuring-the-server"]


def test_admonitions_and_version_notes_keep_their_text() -> None:
    _, sections = _sections()
    text = sections["installing-acme"]
    assert ":::{admonition} Note\n\nAcme needs a writable cache folder." in text
    assert "Set `ACME_CACHE` to choose one." in text
    assert "Added in version 2.1: The `--fast` flag." in text
    assert "Changed in version 3.0." in text
    assert "Deprecated since version 2.5: Use `acme.Server` instead." in text


def test_code_blocks_keep_their_language_and_tocs_are_dropped() -> None:
    _, sections = _sections()
    text = sections["installing-acme"]
    assert "```python\nimport acme\nacme.run()\n```" in text
    assert "guide/one" not in text and "maxdepth" not in text
    assert "autofunction" not in text


def test_api_entries_definitions_and_tabs() -> None:
    _, sections = _sections()
    text = sections["configuring-the-server"]
    assert "`--verbose`, `-v`\n: Log every request." in text
    assert "```\nacme.run(port=8000)\n```\n\nStart the server on port." in text
    assert "cache\n: Where downloads are kept." in text
    assert ":::{tab-item} Windows\n\nRun `acme.exe serve`.\n\n:::" in text
    assert ":::{tab-item} Linux\n\nRun `acme serve`.\n\n:::" in text
    assert ":::{admonition} Why port 8000?\n\nAn extension's directive keeps its text." in text
    assert ":::{admonition} See also\n\nThe deployment guide." in text
    assert "- one\n- two" in text
    assert "a reference to PEP 8." in text


def test_no_system_message_reaches_the_text_or_stderr(capfd: pytest.CaptureFixture[str]) -> None:
    broken = (
        "Title\n===\n\nText with |undefined| and :ref:`<>` and `unclosed.\n\n"
        ".. include:: /etc/passwd\n\n.. raw:: html\n\n   <script>x()</script>\n\n"
        "* item\ncontinued badly\n\n.. code-block::\n\n   plain\n"
    )
    _, sections = parse_rst(broken, "fallback")
    text = "\n".join(s.text for s in sections)
    assert "Text with" in text
    for noise in ("System Message", "ERROR", "WARNING", "Unknown", "root:", "script"):
        assert noise not in text
    out, err = capfd.readouterr()
    assert (out, err) == ("", "")


def test_an_rst_file_is_a_kind_and_a_txt_file_stays_text(tmp_path: Path) -> None:
    assert kind_of("guide/install.rst") == "rst"
    assert kind_of("notes.txt") == "text"
    (tmp_path / "install.rst").write_text(PAGE)
    (tmp_path / "notes.txt").write_text("Title\n=====\n\nPlain *notes*.\n")
    found = {d.url: d for d in read_folder(tmp_path, url_base="https://acme.dev/")}
    page = found["https://acme.dev/install.rst"]
    assert isinstance(page, Document) and page.kind == "rst"
    assert page.title == "Installing Acme"
    notes = found["https://acme.dev/notes.txt"]
    assert isinstance(notes, Document) and notes.sections[0].text.startswith("Title\n=====")
    doc = parse_bytes(b"Only text.\n", kind="rst", key="k", url="u", fallback_title="Short")
    assert doc.title == "Short" and doc.sections[0].text == "Only text."


def test_docutils_is_imported_only_when_a_page_is_read() -> None:
    code = (
        "import sys, connectors.knowledge.parsing, connectors.knowledge.sources.folder;"
        "print('docutils' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def _read(source: str) -> str:
    _, sections = parse_rst(source, "fallback")
    return "\n\n".join(s.text for s in sections)


def test_cross_reference_titles() -> None:
    text = _read(
        "Refs\n====\n\n"
        ":func:`!acme.stop` :meth:`App.run() <acme.App.run>` :class:`~acme.web.Server` "
        ":func:`acme.wait()` :py:attr:`acme.App.name` :doc:`the guide <guide/index>` "
        ":doc:`../topics/cache_rules` :term:`Virtual env` :abbr:`LIFO (last-in, first-out)` "
        ":ref:`Tuning <perf-tuning>` :ref:`<other-page-label>` :ref:`missing_label` "
        ":kbd:`Ctrl+C` :pep:`8` :code:`x = 1`\n"
    )
    assert (
        "`acme.stop()` `App.run()` `Server` `acme.wait()` `acme.App.name` the guide "
        "cache rules Virtual env LIFO Tuning other page label missing label `Ctrl+C` PEP 8 "
        "`x = 1`"
    ) in text


def test_code_directives_and_listings() -> None:
    text = _read(
        "Code\n====\n\n.. code:: toml\n\n   [tool]\n\n.. sourcecode::\n\n   plain\n\n"
        ".. highlight:: python\n\n.. literalinclude:: ../app.py\n\n"
        ".. tabs::\n\n   .. code-tab:: bash\n\n      acme serve\n\n   .. code-tab:: powershell\n\n"
        "      acme.exe serve\n\n.. admonition:: Read this first\n\n   It matters.\n\n"
        ".. automodule:: acme\n   :members:\n\n.. py:autoclass:: acme.App\n"
    )
    assert "```toml\n[tool]\n```\n\n```\nplain\n```" in text
    assert ":::{tab-item} bash\n\n```bash\nacme serve\n```\n\n:::" in text
    assert ":::{tab-item} powershell\n\n```powershell\nacme.exe serve\n```\n\n:::" in text
    assert ":::{admonition} Read this first\n\nIt matters.\n\n:::" in text
    for gone in ("python", "app.py", "members", "acme.App"):
        assert gone not in text


def test_api_entries_with_several_signatures_and_version_notes_without_text() -> None:
    text = _read(
        "API\n===\n\n.. function:: get(key)\n              get(key, default)\n\n"
        "   Read a value.\n\n.. envvar:: ACME_HOME\n\n   Where Acme keeps its data.\n\n"
        ".. versionremoved:: 4.0\n\n.. deprecated:: 3.1\n\n   Use the new API.\n\n   It is faster.\n"
    )
    assert "```\nget(key)\n```\n\n```\nget(key, default)\n```\n\nRead a value." in text
    assert "`ACME_HOME`\n: Where Acme keeps its data." in text
    assert "Removed in version 4.0." in text
    assert "Deprecated since version 3.1: Use the new API.\n\nIt is faster." in text


def test_a_page_docutils_cannot_read_is_plain_text(monkeypatch: pytest.MonkeyPatch) -> None:
    from connectors.knowledge.parsing import rst

    def broken(doctree: object) -> None:
        raise RuntimeError("a bug in a page's reading")

    monkeypatch.setattr(rst, "_shape", broken)
    text = _read("Title\n=====\n\nStill <read> & kept.\n")
    assert "Still <read> & kept." in text


# a page shaped like Celery's sources: a local table of contents, a sidebar, an hlist, a
# one-line "see also", Sphinx's substitutions and a project's own cross-reference targets
SPHINX_PAGE = """\
=======
 Guide
=======

:Release: |version|
:Date: |today|
:Author: Ask Solem

Celery |version| is documented here.

.. contents::
    :local:
    :depth: 2

Workers
=======

.. sidebar:: Version Requirements
    :subtitle: Celery 5.5 runs on:

    - Python 3.8 to 3.13

The workers run tasks.

.. hlist::
    :columns: 2

    - prefork
    - solo

.. seealso:: :ref:`faq-acks` and :ref:`rate-limits`.

.. centered:: Always shown

.. py:function:: shown_alone(x)

The signature above stays: only one that ends its section is a target.

.. setting:: task_acks_late

Rate Limits
===========

.. control:: rate_limit

.. _rate-limits:

Changing rate limits
--------------------

Limits change at run time.
"""


def _sphinx_page() -> dict[str, tuple[str, str]]:
    _, sections = parse_rst(SPHINX_PAGE, "fallback")
    return {s.anchor or "": (s.heading, s.text) for s in sections}


def test_headings_under_a_local_table_of_contents_keep_their_text() -> None:
    # docutils links each heading back to the ".. contents::" list; the link was read as the
    # heading, so every heading of such a page came out empty
    sections = _sphinx_page()
    assert sections["workers"][0] == "Workers"
    assert sections["workers"][1].startswith("## Workers\n")
    assert sections["changing-rate-limits"][0] == "Changing rate limits"
    # the list itself is the page's navigation, not its text
    assert "- Workers" not in sections["guide"][1]


def test_a_sidebar_is_a_box_with_its_title_and_subtitle() -> None:
    text = _sphinx_page()["workers"][1]
    assert ":::{admonition} Version Requirements\n\nCelery 5.5 runs on:" in text
    assert "- Python 3.8 to 3.13" in text


def test_directive_options_are_options_and_a_one_line_see_also_says_its_argument() -> None:
    text = _sphinx_page()["workers"][1]
    assert ":columns:" not in text and "- prefork" in text
    assert ":::{admonition} See also\n\nfaq acks and Changing rate limits." in text
    assert "Always shown" in text


def test_substitutions_and_cross_reference_targets_show_nothing() -> None:
    sections = _sphinx_page()
    guide = sections["guide"][1]
    assert "|version|" not in guide and "Release" not in guide and "Date" not in guide
    assert "Author" in guide and "Ask Solem" in guide
    assert "Celery is documented here." in guide
    # ".. setting:: task_acks_late" before a heading and ".. control:: rate_limit" under one
    # are targets for cross-references, which Sphinx shows as nothing
    assert "task_acks_late" not in sections["workers"][1]
    assert "```\nshown_alone(x)\n```" in sections["workers"][1]
    assert "rate_limit" not in sections.get("rate-limits", ("", ""))[1]


def test_a_reference_to_another_page_shows_that_sections_title(tmp_path: Path) -> None:
    # Sphinx resolves a label across the project; the folder reader reads every page's
    # labels first, so a reference shows the title there too, not the label's words
    (tmp_path / "faq.rst").write_text(
        "===\nFAQ\n===\n\n.. _faq-acks:\n.. _acks:\n\nShould I use ``retry`` or *acks_late*?\n"
        "--------------------------------------\n\nUse both.\n",
        encoding="utf-8",
    )
    (tmp_path / "guide.rst").write_text(
        "Guide\n=====\n\nSee :ref:`faq-acks`, :ref:`ACKS` and :ref:`missing-label`.\n",
        encoding="utf-8",
    )
    docs = {d.url.rsplit("/", 1)[-1]: d for d in read_folder(tmp_path, url_base="https://d/")}
    guide = docs["guide.rst"]
    assert isinstance(guide, Document)
    text = guide.sections[0].text
    assert (
        "See Should I use retry or acks_late?, Should I use retry or acks_late? "
        "and missing label." in text
    )
