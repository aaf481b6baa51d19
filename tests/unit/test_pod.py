"""Perl's POD read as Markdown: headings, lists, entries, code and formatting codes."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from pipeline import InputError, Settings, ask
from pipeline.documents import from_bytes
from pipeline.documents.pod import looks_like_pod, pod_text

MODULE = """\
package Text::Frob;

use strict;
our $VERSION = '1.02';

sub frob { return reverse @_ }

1;
__END__

=encoding utf8

=head1 NAME

Text::Frob - turn text around

=head1 SYNOPSIS

    use Text::Frob;
    my $out = frob($in);

=head1 OPTIONS

=over 4

=item B<-r>, B<--reverse>

Reverse each line. See L<perlfunc/"reverse"> and L<the manual|Text::Frob::Manual>.

=item B<-w> I<width>

Wrap at I<width> columns; the default is C<< $ENV{COLUMNS} >> or 80.

=back

=head2 Caveats

=over

=item *

Lines longer than E<lt>widthE<gt> are cut.

=item * Tabs count as one column.

=back

=begin html

<p>Only for HTML readers.</p>

=end html

=for comment Nobody reads this.

=cut

sub unwrap { 1 }
"""


def test_pod_commands_and_codes_read_as_markdown() -> None:
    text = pod_text(MODULE)
    assert "# NAME\n\nText::Frob - turn text around" in text
    assert "## Caveats" in text
    # an entry: the item on its line, its paragraphs indented below it, as html.py writes <dl>
    assert "-r, --reverse\n    Reverse each line." in text
    assert '"reverse" in perlfunc and the manual.' in text
    assert "-w width\n    Wrap at width columns; the default is `$ENV{COLUMNS}` or 80." in text
    assert "- Lines longer than <width> are cut.\n\n- Tabs count as one column." in text
    assert "```\nuse Text::Frob;\nmy $out = frob($in);\n```" in text


def test_pod_is_read_without_the_code_around_it_or_blocks_for_other_formatters() -> None:
    text = pod_text(MODULE)  # as perldoc shows it
    assert text.startswith("# NAME\n")
    assert "package Text::Frob" not in text
    assert "sub unwrap" not in text
    assert "Only for HTML readers" not in text
    assert "Nobody reads this" not in text
    assert not any(mark in text for mark in ("=item", "B<", "C<"))


def test_only_pod_is_read_as_pod() -> None:
    assert looks_like_pod(MODULE)
    assert looks_like_pod("=head1 NAME\n\nfoo - bar\n\n=cut\n")
    for perl in ("package Foo::Bar 1.23;", "package Foo {", "#!/usr/bin/env perl", "use v5.36;"):
        assert looks_like_pod(f"{perl}\n1;\n__END__\n\n=head1 NAME\n\nFoo\n\n=cut\n"), perl
    readme = "# Foo\n\nIts manual:\n\n```\n=head1 NAME\n\nFoo - frob\n\n=cut\n```\n\nMore.\n"
    assert not looks_like_pod(readme)
    assert not looks_like_pod('"""Tests."""\nimport os\n\nPOD = """\n=head1 NAME\n\n=pod\n"""\n')
    prose = "Write =head1 at a line's start to open a heading:\n\n=head1 NAME\n\nand so on."
    assert not looks_like_pod(prose)
    assert not looks_like_pod("a = b\n=c\n")


def test_a_pod_file_is_answered_without_its_markup(tmp_path: Path) -> None:
    path = tmp_path / "Frob.pm"
    path.write_text(MODULE)
    result = ask([path], "What is the default width?", settings=Settings())
    assert "the default is `$ENV{COLUMNS}` or 80" in result.answer
    assert not any(mark in result.answer for mark in ("I<", "C<"))
    cited = result.citations[0]
    assert cited.quote in from_bytes(path.read_bytes(), "Frob.pm", Settings()).text


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        ("B<C<nested>> and I<open", "`nested` and open"),  # a code left open closes at the end
        ("C<$x->y>", "`$x-`y>"),  # as perlpodspec reads it: the first '>' closes
        ("L<https://example.org/>", "https://example.org/"),
        ("L<Foo::Bar>", "Foo::Bar"),
        ("E<0x263A> E<181> E<eacute> E<nosuch>", "\u263a \u00b5 \u00e9 nosuch"),
        ("X<index entry>Z<>kept", "kept"),
        ("E<0xD800>E<0x110000>lone", "lone"),  # no character: no lone surrogate either
        ("L<the docs|https://example.org/>", "the docs <https://example.org/>"),
        ("E<lt>fileE<gt> HELLO<world>", "<file> HELLO<world>"),  # O< is no code
    ],
)
def test_formatting_codes_read_as_their_text(source: str, shown: str) -> None:
    assert pod_text(f"=pod\n\n{source}\n").strip() == shown


def test_deeply_nested_codes_and_lists_stay_linear() -> None:
    nested = "=pod\n\n" + "C<" * 200_000 + "x" + ">" * 200_000 + "\n"
    unclosed = "=pod\n\n" + "C<x " * 200_000 + "\n"
    lists = "=pod\n\n" + "=over\n\n=item a\n\n" * 5_000 + "text\n"
    started = time.process_time()
    assert "x" in pod_text(nested)  # past 64 open codes, the rest is text
    assert pod_text(unclosed).count("x") == 200_000
    assert pod_text(lists).rstrip().endswith("text")
    assert time.process_time() - started < 2


def test_a_pod_file_in_the_charset_its_encoding_line_names_is_read_in_it() -> None:
    raw = "=encoding iso-8859-1\n\n=head1 NAME\n\nCaf\u00e9 - a caf\u00e9\n".encode("latin-1")
    assert "# NAME\n\nCaf\u00e9 - a caf\u00e9" in from_bytes(raw, "cafe.pod", Settings()).text


def test_an_encoding_line_naming_no_charset_is_an_input_error() -> None:
    raw = b"=pod\n\n=encoding base64\n\n=head1 NAME\n\ncaf\xe9\n"  # bytes to bytes: no text
    with pytest.raises(InputError, match="not valid UTF-8"):
        from_bytes(raw, "cafe.pod", Settings())
