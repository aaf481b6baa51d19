"""Man pages in roff source read as `man` shows them, written as Markdown."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from pipeline import Settings, TooLargeError, ask
from pipeline.documents import from_bytes
from pipeline.documents.roff import (
    MAX_EXPANDED_LINES,
    MAX_LINE_CHARS,
    MAX_STRING_CHARS,
    looks_like_roff,
    roff_text,
)

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


CIRCLE_BULLETS = r""".TH GREP 1
.SH OPTIONS
.IP "\[ci]" 4
\fB\-\-unbuffered\fR
.IP
Flush the output after each line.
.IP "\[ci]" 4
\fB\-\-arg name value\fR:
.IP
This option passes a value to the program as a predefined variable.
.IP
Named arguments are also available as \fB$ARGS\fR.
.IP "\(sq" 4
\fB\-\-quiet\fR:
.IP
Print nothing.
"""


def test_circle_and_square_bullets_are_list_items_with_their_paragraphs() -> None:
    """jq's page marks each option '.IP "\\[ci]"' with its description in '.IP'
    paragraphs after: each is one item, not a run of loose paragraphs."""
    text = roff_text(CIRCLE_BULLETS)
    assert "- --unbuffered\n\n  Flush the output after each line.\n\n- --arg name value:" in text
    assert "predefined variable.\n\n  Named arguments are also available as $ARGS." in text
    assert "- --quiet:\n\n  Print nothing." in text


def test_an_option_in_a_bulleted_list_answers_under_its_own_name(tmp_path: Path) -> None:
    path = tmp_path / "tool.1"
    path.write_text(CIRCLE_BULLETS)
    result = ask([path], "How do I pass a variable into the program?", settings=Settings())
    assert result.answer.startswith("--arg name value: This option passes a value")


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


def test_strings_and_macro_arguments_that_double_stay_small_and_fast() -> None:
    doubling = ".TH X 1\n.SH A\n.ds a xxxxxxxx\n" + ".as a \\*a\n" * 40 + "\\*a\n"
    one_line = ".TH X 1\n.SH A\n.ds a " + "x" * 10_000 + "\n" + "\\*a" * 10_000 + "\n"
    chain = ".TH X 1\n.SH A\n" + "".join(
        f".de M{n}\n.M{n + 1} \\\\$* \\\\$*\n..\n" for n in range(40)
    )
    started = time.process_time()
    assert len(roff_text(doubling)) <= MAX_STRING_CHARS + 10
    assert len(roff_text(one_line)) <= MAX_LINE_CHARS + 20_000
    assert len(roff_text(chain + ".M0 abcdefgh\n")) < 1_000
    appended = ".TH X 1\n.SH A\n.de X\n..\n" + ".am X\nfoo\n..\n" * 50_000
    glued = ".TH X 1\n.SH A\n" + "abcdefg\\c\n" * 100_000
    roff_text(appended + ".X\n")
    assert len(roff_text(glued)) > 700_000
    assert time.process_time() - started < 10


def test_a_page_writing_past_the_size_limit_is_refused() -> None:
    page = ".TH X 1\n.SH A\n.de A\nsome words of text\n..\n" + "".join(
        f".de {chr(66 + n)}\n.{chr(65 + n)}\n.{chr(65 + n)}\n..\n" for n in range(20)
    )
    page += ".U\n"  # 2**20 lines of text, were the lines not capped
    with pytest.raises(TooLargeError):
        roff_text(page, limit=10_000)


@pytest.mark.parametrize(
    ("page", "shown"),
    [
        (".SH A\n\\[u80000000]\\C'u110000'\\[uD800]ok\n", "# A\n\nok\n"),  # no such character
        (".SH A\n.Op " + "Op " * 500 + "x\n", "# A\n\n[" * 1),  # nested past 64: words
        (".SH A\n.BR CONFORMING\\ TO ,\n", "# A\n\nCONFORMING TO,\n"),  # an escaped space
        (".SH A\nThe value of\\~\\c\n.I n\n", "# A\n\nThe value of n\n"),
        (".SH A\n.LINKSTYLE blue R < >\n.cp 0\ntext\n", "# A\n\ntext\n"),  # undefined: nothing
        (".SH A\n.tr \\(*W-\n.ds -- \\(*W\nlong\\*(--dash\n", "# A\n\nlong-dash\n"),
        ('.SH A\n.de X\nfoo\n.. \\" end\nbar\n.X\n', "# A\n\nbar foo\n"),
        (
            ".SH A\n.ie n \\{\\\n.ie t .ds x A\n.el .ds x B\n.\\}\n.el .ds x C\n\\*x\n",
            "# A\n\nB\n",
        ),  # an .el answers the last .ie not yet answered
    ],
)
def test_roff_reads_as_groff_does(page: str, shown: str) -> None:
    assert roff_text(".TH X 1\n" + page).startswith(shown)


def test_a_tbl_table_is_a_pipe_table() -> None:
    page = (
        ".TH X 1\n.SH TABLE\n.TS\ntab(@);\nl lx.\nSection@Contents\n_\n1@T{\nExecutable\n"
        "programs\nT}\n8@System administration\n.TE\nAfter.\n"
    )
    assert roff_text(page) == (
        "# TABLE\n\n| Section | Contents |\n|---|---|\n| 1 | Executable programs |\n"
        "| 8 | System administration |\n\nAfter.\n"
    )


def test_a_docbook_option_is_its_terms_entry() -> None:
    # DocBook and Asciidoctor write an option as a paragraph, then its description in .RS
    page = (
        ".TH X 1\n.SH OPTIONS\n.PP\n\\-n, \\-\\-dry\\-run\n.RS 4\nDo not act.\n.RE\n.PP\nAfter.\n"
    )
    assert "-n, --dry-run\n    Do not act.\n\nAfter." in roff_text(page)


def test_mdoc_reads_what_mandoc_writes() -> None:
    page = (
        ".Dd 2026\n.Dt X 1\n.Sh NAME\n.Nm frob\n.Sh SYNOPSIS\n.Nm frob\n.Op Fl a\n.Nm frob\n"
        ".Fl b\n.In stdio.h\n.Ft int\n.Fo frob\n.Fa int a\n.Fa char *b\n.Fc\n"
        ".Sh COMMANDS\n.Bl -tag\n.It Xo Ic chgrp\n.Op Fl h\n.Ar grp\n.Xc\nChange group.\n"
        ".It Fl z Xo\n.Ar size\n"
        ".Sh EXIT STATUS\n.Ex -std\n.Tg exit\n.Sh STANDARDS\nConforms to\n.St -p1003.1-2008 .\n"
    )
    text = roff_text(page)
    assert "frob [-a]\nfrob -b\n#include <stdio.h>\nint\nfrob(int a, char *b)" in text
    assert "chgrp [-h] grp\n    Change group." in text
    assert "-z size" in text  # an item's head never closed ends with the section
    assert "The frob utility exits 0 on success, and >0 if an error occurs." in text
    assert "Conforms to IEEE Std 1003.1-2008 (\u201cPOSIX.1\u201d)." in text
    assert "exit\n" not in text


def test_a_page_opening_with_a_bare_dot_is_roff() -> None:
    assert looks_like_roff(".\n.TH LZ4 1\n.SH NAME\nlz4\n")


def test_tbl_text_blocks_keep_their_macros_words_and_a_table_without_rule_has_no_header() -> None:
    page = (
        ".TH X 3\n.SH ATTRIBUTES\n.TS\nallbox;\nlbx lb lb\nl l l.\nInterface@Attribute@Value\n"
        "T{\n.BR printf (),\n.BR vsnprintf ()\nT}\tThread safety\tMT-Safe locale\n.TE\n"
        ".SH COLORS\n.TS\nl l.\n0\tto restore default color\n1\tfor brighter colors\n.TE\n"
        ".SH SEE ALSO\n.MR stat 2 ,\n.MR dir 1\n"
    ).replace("@", "\t")
    text = roff_text(page)
    assert "| printf(), vsnprintf() | Thread safety | MT-Safe locale |" in text
    assert "|---|---|---|" in text
    assert "| 0 | to restore default color |\n| 1 | for brighter colors |" in text
    assert "| 0 | to restore default color |\n|---" not in text
    assert "stat(2), dir(1)" in text


def test_a_wide_table_counts_toward_the_limit_and_stays_linear() -> None:
    row = "\t".join(["a"] * 60_000) + "\n"
    page = ".TH X 1\n.SH A\n.TS\nl.\n" + row * 3 + ".TE\n"
    started = time.process_time()
    with pytest.raises(TooLargeError):
        roff_text(page, limit=100_000)
    assert time.process_time() - started < 5


def test_a_bare_rs_after_prose_is_no_description() -> None:
    page = ".TH X 1\n.SH A\nAn OR list has the form\n.RS\n.nf\na || b\n.fi\n.RE\n"
    assert "An OR list has the form\n\n```" in roff_text(page)
