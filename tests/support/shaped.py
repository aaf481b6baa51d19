"""Documents of the shapes real texts come in (man page, hard-wrapped licence, Markdown report)."""

from __future__ import annotations

MAN_PAGE = """DEMO(1)                   General Commands Manual                  DEMO(1)

NAME
       demo - a demonstration shell

OPTIONS
       -e      Exit  immediately  if  a pipeline returns a non-zero status.  The
               shell does not exit if the command that fails is part of a  com\u2010
               mand list.
       -x      Print commands and their arguments as they are executed.

   Reading input
       read [-e] name
              One line is read from the standard input.  If -e is given, line
              editing is used to obtain the line.

ENVIRONMENT
       HISTSIZE
              The  number  of commands to remember in the command history.  The
              default value is 500.

DEMO 1.0                          2024-01-01                         DEMO(1)
"""
"""A rendered man page: option entries (inline and on their own line), a nested builtin."""

LICENCE = """                    THE DEMO PUBLIC LICENSE
                       Version 1, June 2024

  1. Conveying Copies.

  You may convey verbatim copies of the Program's source code as you
receive it, in any medium, provided that you conspicuously and
appropriately publish on each copy an appropriate copyright notice;
keep intact all notices stating that this License applies to the
code; and give all recipients a copy of this License along with the
Program.

  2. Conveying Modified Versions.

  You may convey a work based on the Program, in the form of source
code, provided that the work carries prominent notices stating that
you modified it, and giving a relevant date.
"""
"""A hard-wrapped licence: centred title, numbered section titles, sentences across lines."""

REPORT = """# Annual report

## Results

Revenue grew in every region. Revenue grew in every region.

| Metric | 2024 | 2023 |
|---|---|---|
| Order backlog at year end | 6,240 | 5,422 |
| Staff | 910 | 874 |

## Support

To restore factory settings:

1. Unplug the unit.
2. Hold the reset button for ten seconds.
3. Plug the unit back in.

The unit has a web interface.

- Default web interface port: 8088
- The web interface listens on all addresses.
"""
"""A Markdown report: a table with its header row, a procedure, bullets, a repeated sentence."""


RST_README = """Quickmock
=========

.. image:: https://img.example.org/quickmock.svg
    :target: https://example.org/quickmock/

Quickmock fakes the web for tests.

Installing
----------

Install it with pip::

    pip install quickmock

Upgrading
---------

``pip install -U quickmock``

Usage
-----

Context manager
^^^^^^^^^^^^^^^

Instead of a decorator you can use a context manager.

.. code-block:: python

    # Start the mock for one block
    with quickmock.on() as mock:
        mock.add("GET", "/")

.. note::

    The mock stops when the block ends.

Callbacks
^^^^^^^^^

A callback builds each response. Call ``mock.reset()`` to forget every response, as
`the guide <https://example.org/guide>`_ shows.
"""
"""A reStructuredText README: underlined headings of three levels, literal blocks."""

HTML_REFERENCE = """<!DOCTYPE html>
<html><head><title>Pumpkit reference</title><style>dt { font-weight: bold; }</style></head>
<body>
<h1>Pumpkit reference<a class="headerlink" href="#top">¶</a></h1>
<p>Pumpkit drives the P-series pumps from a script.</p>
<h2>Options</h2>
<dl>
<dt><code>--prime</code></dt>
<dd><p>Fills the housing with water before the first start, so the seal never runs dry.</p></dd>
<dt><code>--drain</code></dt>
<dd><p>Empties the housing after the last run of the day.</p>
<p>Leave it off in frost-free rooms.</p></dd>
<dt><code>--rate</code> <var>N</var></dt>
<dd><p>Sets the flow to N litres a minute; the default is 40.</p></dd>
</dl>
<h2>Models</h2>
<table>
<thead><tr><th>Model</th><th>Flow (l/min)</th><th>Weight (kg)</th></tr></thead>
<tbody>
<tr><td>P-100</td><td>40</td><td>12</td></tr>
<tr><td>P-200</td><td>85</td><td>19</td></tr>
<tr><td>P-300</td><td>130</td><td>27</td></tr>
</tbody>
</table>
<h2>Example</h2>
<p>A script that primes the pump and runs it at 60 litres a minute:</p>
<pre>import pumpkit
pump = pumpkit.open("/dev/pump0")
pump.prime()
pump.run(rate=60)</pre>
<h2>Maintenance</h2>
<p>To replace the filter:</p>
<ol><li>Stop the pump.</li><li>Unscrew the filter cap.</li><li>Insert a new F7 cartridge.</li></ol>
</body></html>
"""
"""A library's HTML reference page: a definition list, a table, a code block, steps."""

HTML_DOCS_PAGE = """<!DOCTYPE html>
<html><head><title>Tidekit - Tidekit 2.1 documentation</title></head>
<body>
<div class="related" role="navigation" aria-label="related navigation"><h3>Navigation</h3>
<ul><li><a href="genindex.html">index</a></li><li><a href="units.html">next</a> |</li>
<li>Tidekit 2.1 documentation &raquo;</li></ul></div>
<nav class="breadcrumbs"><ol><li><a href="/">Home</a></li><li>Reference</li></ol></nav>
<div class="sphinxsidebar" role="navigation" aria-label="main navigation">
<div class="sphinxsidebarwrapper"><h3>Table of Contents</h3>
<ul><li><a href="#stations">Stations of the harbour table</a>
<ul><li><a href="#units">Units and the metric heights</a></li></ul></li></ul>
<div role="search"><form><input type="text" name="q" placeholder="Quick search"/></form></div>
<h4>Previous topic</h4><p><a href="install.html">Installing the harbour tables</a></p>
</div></div>
<div class="body" role="main">
<h1>Tidekit: tide predictions for harbours<a class="headerlink" href="#">&para;</a></h1>
<p>Tidekit predicts the high and low waters of a harbour from its station's harmonic
constants.</p>
<h2 id="stations">Stations<span aria-hidden="true">#</span></h2>
<p>Each station is read from the station table when Tidekit starts.
<svg aria-hidden="true"><use href="#icon"/></svg>The table lists 1,200 harbours.</p>
<h2 id="units">Units</h2>
<p>Heights are given in metres unless the --feet option is set.</p>
<article><p>Station notes are kept by each harbour.</p>
<footer>Written by the harbour office.</footer></article>
<div hidden><p>We use cookies to remember your harbour.</p></div>
</div>
<footer><p>&copy; 2026 Tidekit authors. Last updated on May 3, 2026.</p></footer>
<div class="footer">Created using Sphinx 7.2 for the harbour tables.</div>
</body></html>
"""
"""A docs site's page: navigation bars, a sidebar table of contents, breadcrumbs, a search
box and footers around the page's own content, which is what a reader came for."""

MANUAL_HEADER = "Acme P-series pump manual"

TWO_COLUMN_PAGES: list[list[tuple[int, int, str]]] = [
    [
        (72, 750, MANUAL_HEADER),
        *(
            line
            for row, (left, right) in enumerate(pair)
            for line in ((72, 700 - 14 * row, left), (320, 700 - 14 * row, right))
        ),
        (72, 60, f"Page {number}"),
    ]
    for number, pair in enumerate(
        [
            [
                ("Priming", "Filters"),
                ("The pump must be primed", "The filter is replaced"),
                ("before the first start.", "every 400 hours of use."),
                ("Open the bleed valve", "Use only type F7"),
                ("and fill the housing.", "cartridges in it."),
            ],
            [
                ("Storage", "Noise"),
                ("Drain the housing before", "A worn bearing hums"),
                ("storing the pump in frost.", "at about 120 Hz."),
                ("Keep it in a dry room.", "Replace the bearing then."),
            ],
            [
                ("Warranty", "Service"),
                ("The warranty lasts", "Service centres are"),
                ("five years from purchase.", "listed on the website."),
            ],
        ],
        start=1,
    )
]
"""A PDF manual's pages, drawn line by line across two columns under a running header
and over a page number (positions for tests.support.documents.pdf_drawn)."""

ONE_COLUMN_PAGES: list[list[tuple[int, int, str]]] = [
    [(72, 750, MANUAL_HEADER), *((72, 720 - 14 * i, line) for i, line in enumerate(lines))]
    for lines in (
        ["The pump must be primed before the first start.", "Open the bleed valve first."],
        ["Drain the housing before storing the pump in frost."],
        ["The warranty lasts five years from purchase."],
    )
]
"""A PDF whose running header sits right above each page's first line."""


def _numbered_pages(pages: list[list[str]]) -> list[list[tuple[int, int, str]]]:
    """One column of lines a page, under the running header and over the page's number."""
    return [
        [
            (72, 750, MANUAL_HEADER),
            *((72, 720 - 14 * i, line) for i, line in enumerate(lines)),
            (300, 60, str(number)),
        ]
        for number, lines in enumerate(pages, start=1)
    ]


CUT_BY_PAGE_PAGES = _numbered_pages(
    [
        ["The pump must be primed before the first start.", "Open the bleed valve first."],
        ["Drain the housing before storing it.", "A pump left full in frost may"],
        ["crack its housing when the water in it freezes.", "Keep it in a dry room."],
    ]
)
"""A PDF whose sentence runs from the foot of one page (its number below) past the next
page's running header."""

LIST_LED_PAST_PAGE = _numbered_pages(
    [
        ["The pump is delivered dry.", "Before the first start, the checks to perform"],
        [
            "are:",
            "- Open the bleed valve.",
            "- Fill the housing with clean water.",
            "- Close the bleed valve.",
        ],
        ["The pump can then be started.", "Keep it in a dry room."],
    ]
)
"""A PDF whose list's lead-in a page break cuts: 'the checks to perform' / 'are:'."""
