"""Built-in summaries read by structure, through the public `summarize`: what the document is
first, its sections in order, a changelog's latest release, nothing a reader cannot use."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline import Settings, SummaryResult, summarize
from pipeline.cache.keys import CacheScope
from pipeline.engines.extractive.lexrank import count_words
from pipeline.types import Chunk, ChunkTask

OFF = Settings(cache="off")

MAN_PAGE = """\
TIDE(1)                     General Commands Manual                    TIDE(1)

NAME
       tide - predict the tide heights of a harbour

SYNOPSIS
       tide [-s station] [-d days] [--json] [--metric]

DESCRIPTION
       tide prints the predicted high and low waters of a harbour, computed
       from the harmonic constants of its station.  Predictions are computed
       on the machine and need no network connection.

       It reads the station table once, when it starts, and keeps it in
       memory while it runs.

OPTIONS
       -s station
              Use the named station instead of the default one.  The name is
              matched without regard to case, and a unique prefix is enough.

       -d days
              Print predictions for this many days, starting today.  The
              default is seven days, and at most ninety days are printed.

       --json Write the predictions as JSON objects, one object per line.

       --metric
              Print heights in metres instead of feet; the default follows
              the locale of the terminal that runs the command.

ENVIRONMENT
       TIDE_STATION
              The station used when no -s option is given on the command
              line.

FILES
       /usr/share/tide/stations
              The table of stations with their harmonic constants, one
              station per line.

EXIT STATUS
       tide exits 0 when it printed its predictions and 2 when the station
       is unknown.

SEE ALSO
       date(1), cal(1), the tide tables published by the harbour office.

AUTHORS
       Written by Maren Dahl.  Copyright 2021 Maren Dahl.  All rights
       reserved.

tide 1.4                           March 2021                          TIDE(1)
"""

USER_MANUAL = """\
# Heron 2 Kitchen Scale — User Guide

This guide explains how to set up the Heron 2 kitchen scale, how to weigh and count
ingredients, and how to look after the scale so that it stays accurate.

## 1. Getting started

The Heron 2 weighs up to 5 kg in steps of one gram and shows the weight on a backlit
display. The package holds two parts:

- The **platform**, a glass plate that rests on four load cells. It carries the batteries
  in a compartment underneath and must stand on a flat, firm surface.
- The **display unit**, which clips onto the front edge. It receives the readings from the
  platform by cable and shows them in grams, ounces or millilitres.

## 2. Weighing ingredients

Place a bowl on the platform and press **TARE** to set the display back to zero. Add each
ingredient in turn and press **TARE** again between ingredients to weigh the next one on
its own.

```
TARE  -> zero
UNIT  -> g / oz / ml
HOLD  -> freeze reading
```

## 3. Counting pieces

The scale can count small identical pieces such as screws or coffee beans by their weight.
Weigh ten pieces first, hold **UNIT** for three seconds, and the display then shows the
number of pieces instead of their weight.

## 4. Care and cleaning

Wipe the glass plate with a damp cloth and never put the scale in water or a dishwasher.
Replace both batteries when the display shows the battery symbol, and remove them if the
scale will not be used for several months.

## 5. Troubleshooting

The display shows Err when the load on the platform is over 5 kg or the platform is not
level. Take the load off, move the scale to a flat surface and switch it on again.
"""

CHANGELOG = """\
2024-03-02  Ana Ruiz  <ana@example.org>

	Release 2.4 of the tide predictor.
	* NEWS: Record the release date.
	* configure.ac: Bump the version to 2.4.

2024-02-27  Ana Ruiz  <ana@example.org>

	Add station groups, so one command predicts a whole coast.
	* src/groups.c: New file.
	* src/main.c (parse_args): Accept --group.
	* tests/groups.sh: New file.
	* tests/Makefile.am (TESTS): Likewise.

2024-02-20  Jonas Berg  <jonas@example.org>

	Fix the rounding of heights below one centimetre.
	* src/height.c (round_height): Round half away from zero.
	* tests/height.sh: Update the expected output.
	* tests/height-neg.sh: Likewise.
	* tests/height-zero.sh: Likewise.

2023-11-14  Ana Ruiz  <ana@example.org>

	Release 2.3 of the tide predictor.
	* NEWS: Record the release date.

2023-11-01  Jonas Berg  <jonas@example.org>

	Speed up the harmonic sum with a table of cosines.
	* src/harmonic.c (harmonic_sum): Use the table.
	* src/table.c: New file.
	* tests/speed.sh: Likewise.
	* tests/table.sh: Likewise.
	* tests/table-big.sh: Likewise.
	* tests/table-small.sh: Likewise.
	* tests/Makefile.am (TESTS): Likewise.
"""

RELEASE_NOTES = """\
# Release notes

Every release of Kestrel, the photo library manager, is described here, newest first.

## 3.2.0 (2024-05-10)

### Added
- Albums can be shared with a link that expires after a chosen number of days.
- Photos can be searched by the place they were taken.

### Fixed
- Importing a folder of more than ten thousand photos no longer stops halfway.

## 3.1.0 (2024-01-22)

### Added
- Faces found in photos are grouped so that each person can be named once.
- The library can be moved to another disk without losing albums, tags or faces.
- Photos can be rotated and cropped without leaving the library view.
- Duplicate photos are found and shown side by side, so one copy can be removed.

### Changed
- The library database is compacted every week, which keeps the library view fast.

## 3.0.0 (2023-09-05)

### Changed
- The library database was rewritten, so a library of photos opens in a second.
- Albums, tags and faces of a photo library are kept in the library database.
- Photos in the library are shown in a grid that loads the library as you scroll.
"""


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text)


def _starts(result: SummaryResult) -> list[int]:
    return [c.start for c in result.citations]


def test_a_man_page_summary_opens_with_its_name_line_and_what_the_command_does() -> None:
    result = summarize(MAN_PAGE, words=80, settings=OFF)
    assert result.summary.startswith(
        "tide - predict the tide heights of a harbour. tide prints the predicted high and "
        "low waters of a harbour"
    )
    # The sections say what it does, not option details; no synopsis, no boilerplate.
    assert "tide exits 0 when it printed its predictions" in result.summary
    assert "[-s station]" not in result.summary
    assert "Copyright" not in result.summary
    assert "date(1)" not in result.summary
    assert "  " not in result.summary  # reflowed: no justified spacing or line breaks
    assert "\n" not in result.summary
    assert count_words(result.summary) <= 80
    assert _starts(result) == sorted(_starts(result))


def test_a_reference_page_summary_says_what_the_page_lists() -> None:
    lead = "Here’s a list of the command-line arguments to tide and what they do."
    page = f"# Command-line Arguments\n\n{lead}\n\n"
    page += "".join(
        f"## --{flag}: {what}\n\nThis flag {what} of the harbour table.\n\n"
        for flag, what in [
            ("station", "picks the station"),
            ("days", "sets the days"),
            ("metric", "prints the heights"),
            ("json", "writes the records"),
        ]
    )
    result = summarize(page, words=40, settings=OFF)
    assert result.summary.startswith(f"Command-line Arguments. {lead}")


def test_a_readme_summary_opens_with_the_sentence_under_its_title() -> None:
    # The later sentence repeats the title's word; the one under the title says what it is.
    readme = (
        "Mockwire\n========\n\nA utility library for faking web calls in tests.\n\n"
        "Installing\n----------\n\nInstall it with pip, then import it.\n\n"
        "Basics\n------\n\nThe core of Mockwire comes from its registry of fake responses.\n"
    )
    result = summarize(readme, words=12, settings=OFF)
    assert result.summary.startswith("Mockwire. A utility library for faking web calls in tests.")


def test_a_title_that_its_first_heading_repeats_is_said_once(tmp_path: Path) -> None:
    # an HTML page's <title> over an <h2> of the same words
    page = tmp_path / "example.html"
    page.write_text(
        "<html><head><title>Packer Usage Example</title></head><body>"
        "<h2>Packer Usage Example</h2>"
        "<p>The pack() routine compresses data from an input file to an output file.</p>"
        "<p>The unpack() routine restores it.</p></body></html>"
    )
    result = summarize(page, words=20, settings=OFF)
    assert result.summary.startswith("Packer Usage Example. The pack() routine compresses")


def test_a_page_whose_chapters_sit_under_its_contents_heading_is_summarized_from_them() -> None:
    # A documentation page as loaded from HTML: its chapters are headed under 'Contents';
    # the copyright chapter, numbered, and its short holder line are still boilerplate.
    page = (
        "# Abstract\n\nThis document says how Tidepool modules are packaged.\n\n"
        "# Contents\n\n## 1. Copyright\n\n2019-2024, the Tidepool project\n\n"
        "See the Tidepool licence for the terms of copying this manual.\n\n"
        "## 2. Module names\n\nEvery public module is packaged under its import name.\n\n"
        "## 3. Dependencies\n\nA package declares the runtime version it was built for.\n"
    )
    result = summarize(page, settings=OFF)
    assert "packaged under its import name" in result.summary
    assert "declares the runtime version" in result.summary
    assert "licence" not in result.summary


FETCH_MAN_PAGE = """FETCH(1)                     General Commands Manual                    FETCH(1)

NAME
       fetch - download files from the web

DESCRIPTION
       fetch downloads the files named on its command line and the pages they
       link to, down to the depth it is given.  Its requisites are fetched
       with each page.  With this command:

                   fetch -r -l 2 http://<site>/1.html

       all the linked pages and their images will be downloaded, two links
       deep.

RECURSION
       Recursion stops at the depth given with -l, five links by default.
"""


def test_a_man_page_summary_leaves_out_the_sentence_an_example_broke_off() -> None:
    result = summarize(FETCH_MAN_PAGE, settings=OFF)
    assert result.summary.startswith("fetch - download files from the web.")
    assert "all the linked pages" not in result.summary
    assert "Recursion stops at the depth" in result.summary


def test_there_is_does_not_read_as_here_is_pointing_at_the_document() -> None:
    text = (
        "Tidekit is a JavaScript library that predicts the tides of a harbour, station by "
        "station.\n\nThere is a modular version with clickable import references as well.\n"
    )
    result = summarize(text, words=20, settings=OFF)
    assert result.summary.startswith("Tidekit is a JavaScript library")


HOLDER_LICENCE = """\t\t\t The "Harbour Licence"

The intent of this document is to state the conditions under which the tide tables
may be copied, such that the Copyright Holder keeps some control over their accuracy.

1. You may give away verbatim copies of the tide tables, provided that you keep every
notice they carry.

2. THE TIDE TABLES ARE PROVIDED AS IS, WITHOUT ANY WARRANTY THAT THEY ARE CORRECT, AND
THE COPYRIGHT HOLDER IS NOT LIABLE FOR ANY GROUNDING.

Copyright (C) 2024 The Harbour Office.
"""


def test_a_licence_summary_keeps_its_copyright_holder_and_skips_notice_and_capitals() -> None:
    # 'Copyright Holder' is one of the licence's terms; the notice and the disclaimer in
    # capitals are boilerplate.
    result = summarize(HOLDER_LICENCE, settings=OFF)
    assert "The intent of this document is to state the conditions" in result.summary
    assert "WARRANTY" not in result.summary
    assert "(C) 2024" not in result.summary


def test_a_text_opening_this_is_a_is_summarized_from_that_sentence() -> None:
    news = (
        "This is a terse description of the new features added to tidekit-2.1 since the "
        "release of tidekit-2.0.  As always, the manual page is the place to look for "
        "complete descriptions.\n\n"
        "a. Station groups predict a whole coast with one command.\n\n"
        "b. Heights below one centimetre are rounded half away from zero.\n"
    )
    result = summarize(news, words=30, settings=OFF)
    assert result.summary.startswith("This is a terse description of the new features")


def test_a_licence_summary_leaves_out_conditions_read_without_their_lead_in() -> None:
    licence = """                 THE HARBOUR PUBLIC LICENSE
                    Version 2, March 2024

  1. You may copy and share the harbour tables in any medium, provided
you keep this notice with every copy of them.

  2. You may change your copy of the harbour tables and share the
changed tables, provided that you also meet all of these conditions:

    a) The changed tables must themselves be harbour tables.

    b) You must mark the changed files with the date of every change.

  3. The harbour office gives no warranty for the tables, to the extent
permitted by the law of the harbour.
"""
    result = summarize(licence, words=120, settings=OFF)
    assert "may copy and share the harbour tables" in result.summary
    assert "must themselves be harbour tables" not in result.summary
    assert "must mark the changed files" not in result.summary


def test_a_glossary_description_is_not_summarized_without_its_term() -> None:
    glossary = "\n\n".join(
        f'1.{i}. "{term}"\n    means {what} kept in the harbour office archive.'
        for i, (term, what) in enumerate(
            [("Table", "a list of tide heights"), ("Office", "the building"), ("Chart", "a map")]
        )
    )
    text = f"The Harbour Licence\n\n1. Definitions\n\n{glossary}\n\n2. Grants\n\n"
    text += "You may copy the harbour tables for any purpose, at no charge, in any medium.\n"
    result = summarize(text, words=120, settings=OFF)
    assert "You may copy the harbour tables" in result.summary
    assert not re.search(r"(?:^|\. )means ", result.summary), result.summary


def test_a_user_manual_summary_names_the_guide_then_covers_its_sections_in_order() -> None:
    result = summarize(USER_MANUAL, words=150, settings=OFF)
    assert result.summary.startswith(
        "Heron 2 Kitchen Scale — User Guide. This guide explains how to set up the Heron 2"
    )
    # No sentence that needs the one before it ("It receives the readings ...").
    sentences = re.split(r"(?<=[.!?])\s+", result.summary)
    assert not [s for s in sentences[2:] if re.match(r"(?:It|They|This|However)\b", s)]
    assert "TARE  ->" not in result.summary
    assert "->" not in result.summary  # the code block is no summary sentence
    for section_sentence in (
        "The Heron 2 weighs up to 5 kg",
        "Place a bowl on the platform",
        "The scale can count small identical pieces",
        "Wipe the glass plate with a damp cloth",
        "The display shows Err",
    ):
        assert section_sentence in result.summary
    assert "**" not in result.summary
    assert _starts(result) == sorted(_starts(result))
    assert count_words(result.summary) <= 150


def test_a_gnu_changelog_summary_names_the_latest_release_and_skips_repeated_entries() -> None:
    result = summarize(CHANGELOG, words=60, settings=OFF)
    assert result.summary.startswith(
        "2024-03-02 Ana Ruiz <ana@example.org>: Release 2.4 of the tide predictor."
    )
    assert "Add station groups, so one command predicts a whole coast." in result.summary
    assert "Likewise" not in result.summary
    assert "New file" not in result.summary
    # The latest release's changes come before (and crowd out) the older release's.
    assert "Release 2.3" not in result.summary


def test_release_notes_summarise_the_latest_release_first() -> None:
    result = summarize(RELEASE_NOTES, words=60, settings=OFF)
    assert result.summary.startswith(
        "Release notes. Every release of Kestrel, the photo library manager, is described here"
    )
    latest = result.summary.index("3.2.0 (2024-05-10)")
    assert "Albums can be shared with a link" in result.summary[latest:]
    assert "Photos can be searched by the place" in result.summary
    # The older releases, however central their words, do not push the latest one out.
    assert "3.0.0" not in result.summary
    assert "The library database was rewritten" not in result.summary


def test_a_long_document_read_in_many_chunks_keeps_its_lead_first_and_its_sections_in_order() -> (
    None
):
    settings = Settings(
        cache="off", extractive_chunk_size=60, chunk_overlap=0, reduce_token_budget=300
    )
    whole = summarize(USER_MANUAL, words=150, settings=OFF)
    pieces = summarize(USER_MANUAL, words=150, settings=settings)
    assert pieces.coverage.chunks > 4
    assert pieces.summary.startswith("Heron 2 Kitchen Scale — User Guide. This guide explains")
    assert _starts(pieces) == sorted(_starts(pieces))
    assert "The display shows Err" in pieces.summary  # the last section is still reached
    # Each cited span is the document's own text.
    for citation in pieces.citations:
        assert USER_MANUAL[citation.start : citation.end] == citation.quote
    assert _words(whole.summary)[:12] == _words(pieces.summary)[:12]


def test_a_cached_summary_reading_is_reused_only_where_it_means_the_same() -> None:
    """The start of a document is read for its title and lead, so a chunk's reading there is
    keyed apart from the same text further in; elsewhere the position stays out of the key."""
    scope = CacheScope.of("extractive", Settings())

    def key(start: int) -> str:
        chunk = Chunk(id=0, document="d", start=start, end=start + 20, text="Some chunk text here")
        return scope.key(
            ChunkTask(
                chunk=chunk,
                question="",
                task="summarize",
                instructions="",
                words=0,
                hints={},
                total=1,
                run="r",
            )
        )

    assert key(0) != key(100)
    assert key(100) == key(5000)


BUILD_FLAGS = """# Build flags

All of these flags are passed to the builder with -B, short for "build".

## strip-level

This flag sets how much debugging information is removed from the output.

## link-mode

This option lets you choose whether libraries are linked statically or dynamically.

## cache-dir

Builds keep their intermediate files in the cache directory, which holds one folder a target.
"""


def test_a_sections_sentence_that_points_back_reads_after_its_heading_in_a_summary() -> None:
    summary = summarize(BUILD_FLAGS, settings=OFF).summary
    assert "strip-level: This flag sets how much debugging information" in summary
    assert "link-mode: This option lets you choose whether libraries" in summary
    assert "cache-dir:" not in summary  # its sentence says what it is about itself


TRANSLATED_MAN_PAGE = """TIDE(1)                     使用者命令                     TIDE(1)

名稱
       tide - 預測港口的潮高

描述
       tide 輸出港口每天的高潮和低潮時間，以及每次潮汐的高度。

       預測依據港口的潮汐常數計算，誤差通常在十分鐘之內。

作者
       由 Ada Marsh 和 Ben Wold 編寫。

版權
       Copyright © 2024 Tidepool Project.
"""

KOREAN_MAN_PAGE = """이름
       tide - 항구의 조위를 예측합니다

설명
       tide 는 항구의 만조와 간조 시각을 출력합니다. 예측은 항구의 조화 상수로 계산합니다.

저자
       Ada Marsh 와 Ben Wold 가 작성했습니다.
"""


def test_a_translated_man_page_summary_opens_with_its_name_line_and_skips_its_authors() -> None:
    result = summarize(TRANSLATED_MAN_PAGE, settings=OFF)
    assert result.summary.startswith("tide - 預測港口的潮高。 tide 輸出港口每天的高潮和低潮時間")
    assert "名稱" not in result.summary
    assert "Ada Marsh" not in result.summary
    assert "Copyright" not in result.summary
    result = summarize(KOREAN_MAN_PAGE, settings=OFF)
    assert result.summary.startswith("tide - 항구의 조위를 예측합니다. tide 는")  # no '。'
    assert "Ada Marsh" not in result.summary


# A manual numbered in sections: '1.2.1.' numbers a section of '1.2.', no release.
NUMBERED_MANUAL = """\
# Ferry Guide

## 1.1. Tickets

### 1.1.1. Buying a ticket

Tickets are sold at the quay kiosk and on board.

### 1.1.2. Refunds

A ticket is refunded in full until the day before the crossing.

## 1.2. On board

### 1.2.1. Cabins

Cabins are booked with the ticket and hold four berths.

### 1.2.2. Pets

Dogs travel on the car deck in their owner's vehicle.

### 1.2.3. Meals

The galley serves hot meals on crossings longer than two hours.
"""


@pytest.mark.parametrize(
    "manual",
    [NUMBERED_MANUAL, re.sub(r"(\d\.\d\.\d)\. ", r"\1 ", NUMBERED_MANUAL)],
    ids=["closing dot", "number under its section's"],
)
def test_a_manual_numbered_in_sections_is_summarised_in_order_not_as_releases(
    manual: str,
) -> None:
    result = summarize(manual, words=40, settings=OFF)
    # read as a changelog, '1.2.3. Meals' is the latest release and crowds out the rest
    assert "1.2.3" not in result.summary
    assert "A ticket is refunded in full" in result.summary
    assert "Cabins are booked with the ticket" in result.summary
    assert _starts(result) == sorted(_starts(result))


# The lead-in points ahead to its list without a colon ('... in this order.'); its items are
# no statements of their own.
JAPANESE_LISTING = """\
# 出力の読み方

ls コマンドはファイルの一覧を表示します。

"-l" オプション付きで実行すると、次の情報がこの順序で表示されます。

- ファイルのタイプ
- ファイルのサイズ
- ファイルの名前

隠しファイルは "-a" オプションで表示されます。
"""


def test_a_japanese_list_pointed_to_by_its_lead_in_is_not_summarised_item_by_item() -> None:
    result = summarize(JAPANESE_LISTING, words=200, settings=OFF)
    assert "ls コマンドはファイルの一覧を表示します。" in result.summary
    assert "ファイルの名前" not in result.summary
    assert "次の情報がこの順序で表示されます" not in result.summary


# Each section opens with a sentence that only points elsewhere.
POINTING_GUIDE = """\
# Harbour Handbook

This handbook tells skippers how to use the harbour of Lindholm.

## Berths

See section 4.2.

Visiting boats moor at the east pontoon, which has water and power.

## 港内の速度

詳細は「港の規則」を参照下さい。

港内では五ノットを超えて走ってはいけません。
"""


def test_a_sentence_that_only_points_elsewhere_is_no_summary_sentence() -> None:
    result = summarize(POINTING_GUIDE, words=200, settings=OFF)
    assert "Visiting boats moor at the east pontoon" in result.summary
    assert "港内では五ノットを超えて走ってはいけません。" in result.summary
    assert "See section" not in result.summary
    assert "参照" not in result.summary


# A PDF's contents page as its text comes out: titles, leader dots, page numbers.
CONTENTS_PAGE = """\
Harbour Handbook

1.1 Berths vs. moorings . . . . . . . . . . . . . . . . 3
1.2 Speed in the harbour . . . . . . . . . . . . . . . 4

This handbook tells skippers how to use the harbour of Lindholm.

Visiting boats moor at the east pontoon, which has water and power.

No boat may go faster than five knots inside the breakwater.
"""


def test_a_contents_line_is_no_summary_sentence() -> None:
    result = summarize(CONTENTS_PAGE, words=200, settings=OFF)
    assert "Visiting boats moor at the east pontoon" in result.summary
    assert "Berths vs" not in result.summary
    assert " ." not in result.summary
