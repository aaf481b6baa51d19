"""Man pages in roff source read as `man` shows them, written as Markdown."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from pipeline import Settings, ask
from pipeline.documents import from_bytes
from pipeline.documents.roff import MAX_EXPANDED_LINES, looks_like_roff, roff_text

PAGE = r""".\" Manual page for frob, written for these tests.
.de Op
.RB [ \\$1 ]
..
.ds Ve 2.4
.ie \n(.g .ds Aq \(aq
.el .ds Aq '
.if t .ds Tx typeset only
.TH FROB 1 "2026-01-01" "frob \*(Ve" "User Commands"
.SH NAME
frob \- turn text around
.SH SYNOPSIS
.B frob
.Op \-r
[\fIFILE\fR]...
.SH DESCRIPTION
.B frob
reverses each line of each
.IR FILE ,
or of standard input.  It never
changes the files \*(Tx themselves.
.SS Options
.TP
.BR \-r ", " \-\-reverse
Reverse the order of the lines too.
.TP
\fB\-w\fR, \fB\-\-width\fR=\fIN\fR
Wrap at \fIN\fP columns; the default is 80.
.IP
A width of 0 never wraps.
.RS
.TP
.B \-\-width=auto
Use the terminal's width.
.RE
.TP
.B FROB_COLORS
Colours, as \(lqname=value\(rq pairs.
.SH EXAMPLES
.nf
frob \-r notes.txt
  sed \*(Aqs/a/b/\*(Aq notes.txt | frob
.fi
.SH NOTES
.IP \(bu 2
Lines are read whole \(em no line is too long.
.IP \(bu 2
Tabs count as one column.
.if n \{\
.PP
Read on a terminal.
.\}
.if t \{\
.PP
Read in print.
.\}
"""


def test_man_macros_read_as_markdown() -> None:
    text = roff_text(PAGE)
    assert text.startswith("# NAME\n\nfrob - turn text around\n\n# SYNOPSIS\n\nfrob [-r] [FILE]...")
    assert "frob reverses each line of each FILE, or of standard input. It never changes" in text
    assert "## Options" in text
    assert "-r, --reverse\n    Reverse the order of the lines too." in text
    assert "-w, --width=N\n    Wrap at N columns; the default is 80.\n\n    A width of 0" in text
    assert "\n    --width=auto\n        Use the terminal's width." in text
    assert "FROB_COLORS\n    Colours, as \u201cname=value\u201d pairs." in text
    assert "```\nfrob -r notes.txt\n  sed 's/a/b/' notes.txt | frob\n```" in text
    assert "- Lines are read whole \u2014 no line is too long.\n\n- Tabs count" in text


def test_conditions_read_as_nroff_on_a_terminal() -> None:
    text = roff_text(PAGE)
    assert "Read on a terminal." in text
    assert "Read in print." not in text
    assert "typeset only" not in text
    assert "\\" not in text


def test_a_page_cannot_pull_in_other_files_or_loop(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("the secret\n")
    page = f".TH X 1\n.SH NAME\n.so {secret}\n.mso {secret}\n.de Loop\n.Loop\nagain\n..\n.Loop\n"
    started = time.process_time()
    text = roff_text(page)
    assert "the secret" not in text
    assert text.count("again") < 100
    assert time.process_time() - started < 2


def test_deep_conditions_and_macros_stay_linear() -> None:
    nested = ".TH X 1\n.SH A\n" + ".if t \\{\\\n" * 20_000 + "hidden\n" + ".\\}\n" * 20_000
    doubling = ".TH X 1\n.SH A\n.de A\nx\n..\n" + "".join(
        f".de {chr(66 + n)}\n.{chr(65 + n)}\n.{chr(65 + n)}\n..\n" for n in range(24)
    )
    one_line = ".TH X 1\n.SH A\n" + ".if n " * 50_000 + "deep\n"
    started = time.process_time()
    assert "hidden" not in roff_text(nested + "shown\n")
    assert roff_text(one_line) == "# A\n"  # past 32 conditions in one line, nothing
    doubled = roff_text(doubling + ".Y\n").count("x")  # 2**24 calls, were it not capped
    assert 1_000 < doubled <= MAX_EXPANDED_LINES
    assert time.process_time() - started < 10


def test_only_roff_is_read_as_roff() -> None:
    assert looks_like_roff(PAGE)
    assert not looks_like_roff("# Notes\n\n.SH is the section macro of man(7).\n")
    assert not looks_like_roff("...and then.\n.TH was gone\n")


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        (r"\fB\-\-all\fR, \f(CW\-a\fP", "--all, -a"),
        (r"a\|b\^c\&d\:e\%f\/g\,h", "abcdefgh"),
        (r"\s-1SMALL\s0 and \s+2big\s[0]", "SMALL and big"),
        (r"\[u00E9]t\[u00E9] \(co \[rg] \(>= \e", "\u00e9t\u00e9 \u00a9 \u00ae \u2265 \\"),
        (r"\h'3n'moved\v'-1'\w'text' \*(zz\n(.g end", "moved end"),
        (r"text \" a comment", "text"),
    ],
)
def test_escapes_read_as_what_they_print(line: str, shown: str) -> None:
    assert roff_text(f".TH X 1\n.SH A\n{line}\n") == f"# A\n\n{shown}\n"


def test_a_man_page_source_is_answered_without_its_markup(tmp_path: Path) -> None:
    path = tmp_path / "frob.1"
    path.write_text(PAGE)
    result = ask([path], "What is the default width?", settings=Settings())
    assert "Wrap at N columns; the default is 80." in result.answer
    assert "\\f" not in result.answer
    cited = result.citations[0]
    assert cited.quote in from_bytes(path.read_bytes(), "frob.1", Settings()).text


MDOC_PAGE = r""".\" A BSD-style page, written for these tests.
.Dd $Mdocdate: March 1 2026 $
.Dt TUNNEL 1
.Os
.Sh NAME
.Nm tunnel
.Nd forward ports over a link
.Sh SYNOPSIS
.Nm tunnel
.Op Fl 46v
.Op Fl L Oo Ar bind : Oc Ns Ar port
.Ar host
.Sh DESCRIPTION
.Nm
forwards
.Ux Ns -domain
sockets and TCP ports; see
.Xr ssh 1 .
The options are as follows:
.Bl -tag -width Ds
.It Fl 4
Use IPv4 addresses only.
.It Fl L Xo
.Sm off
.Oo Ar bind : Oc
.Ar port : host : hostport
.Sm on
.Xc
Forward a local port.
.Pp
Only root may forward ports below 1024.
.It Fl e Ar char
Set the escape character (default:
.Ql ~ ) .
A dot
.Pq Ql \&.
after it closes the link.
.El
.Sh EXAMPLES
.Bl -bullet
.It
Forward port 80:
.Dl $ tunnel -L 8080:localhost:80 gate
.El
.Bd -literal -offset indent
$ tunnel -4 gate
.Ed
"""


def test_mdoc_macros_read_as_markdown() -> None:
    text = roff_text(MDOC_PAGE)
    assert text.startswith("# NAME\n\ntunnel \u2014 forward ports over a link\n\n# SYNOPSIS")
    assert "tunnel [-46v] [-L [bind:]port] host" in text
    assert "tunnel forwards UNIX-domain sockets and TCP ports; see ssh(1). The options" in text
    assert "-4\n    Use IPv4 addresses only." in text
    assert "-L [bind:]port:host:hostport\n    Forward a local port.\n\n    Only root may" in text
    assert "-e char\n    Set the escape character (default: \u2018~\u2019)." in text
    assert "A dot (\u2018.\u2019) after it closes the link." in text
    assert "- Forward port 80:\n\n  ```\n  $ tunnel -L 8080:localhost:80 gate\n  ```" in text
    assert "```\n$ tunnel -4 gate\n```" in text
    assert ".It" not in text


def test_an_mdoc_page_is_answered_as_its_entries(tmp_path: Path) -> None:
    path = tmp_path / "tunnel.1"
    path.write_text(MDOC_PAGE)
    result = ask([path], "Who may forward ports below 1024?", settings=Settings())
    assert "-L [bind:]port:host:hostport" in result.answer
    assert "Only root may forward ports below 1024." in result.answer
