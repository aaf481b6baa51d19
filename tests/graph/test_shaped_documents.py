"""Answers on documents of real shapes: whole units, shown clean, cited exactly."""

from __future__ import annotations

import pytest

from pipeline import AskResult, Settings, ask, summarize
from pipeline.engines.extractive.passages import Passages
from pipeline.engines.extractive.retrieval import asked_action, attribute_terms
from tests.support.shaped import LICENCE, MAN_PAGE, REPORT, RST_README


def _ask(text: str, question: str) -> AskResult:
    result = ask({"id": "doc", "text": text}, question)
    assert result.citations
    for citation in result.citations:
        assert text[citation.start : citation.end] == citation.quote  # still exact spans
    return result


def test_a_table_row_is_shown_with_its_column_headers() -> None:
    result = _ask(REPORT, "What was the order backlog at year end in 2024?")
    assert result.answer.startswith("Order backlog at year end — 2024: 6,240; 2023: 5,422")
    assert "|" not in result.answer


SPECIAL_PARAMETERS = """PARAMETERS
   Special Parameters
       The shell treats several parameters specially.  These parameters may
       only be referenced; assignment to them is not allowed.
       #      Expands to the number of positional parameters in decimal.
       ?      Expands  to  the exit status of the most recently executed fore‐
              ground pipeline.
       $      Expands to the process ID of the shell.

EXPANSION
       Pattern Matching
       ?      Matches any single character.

       A question mark in a word (what? or why?) is kept as written when nothing
       matches, and the number of matches is printed in decimal.
"""


@pytest.mark.parametrize(
    ("question", "entry"),
    [
        ("What does $? mean?", "?: Expands to the exit status of the most recently executed"),
        ("What is $# ?", "#: Expands to the number of positional parameters in decimal."),
        ("$$ は何を表しますか？", "$: Expands to the process ID of the shell."),
    ],
)
def test_a_special_parameter_is_found_where_the_manual_lists_it_by_its_bare_name(
    question: str, entry: str
) -> None:
    assert entry in _ask(SPECIAL_PARAMETERS, question).answer.split("\n")[0]


# Tables aligned with spaces, as man pages and reStructuredText write them: a rule of
# dashes under the header, or rules of equals signs around it.
ALIGNED_TABLES = """CRONTAB(5)

DESCRIPTION
       The time and date fields are:

              field          allowed values
              -----          --------------
              minute         0-59
              hour           0-23
              day of month   1-31
              month          1-12 (or names, see below)
              day of week    0-7 (0 or 7 is Sunday, or use names)

       A field may contain an asterisk (*), which always stands for first-last.

EXIT STATUS

       =====  ====================================
       Code   Meaning
       =====  ====================================
       0      every entry was installed
       1      an entry could not be parsed
       2      the crontab file could not be read
       =====  ====================================
"""


# crontab(5) in Japanese: a table headed '意味' (meaning), and the sentence saying what '%'
# does; a longer row holding the asked word beside shorter rows holding only the header's.
JAPANESE_CRONTAB = """説明
       時間と日付フィールドは以下の通り：

              フィールド 指定可能な値
              ---------- --------------
              分         0-59
              時         0-23
              月内日     1-31
              月         1-12 (もしくは名前。下記を参照)
              曜日       0-7 (0 と 7 は日曜日。もしくは名前)

       コマンド中にパーセント記号 (%) が バックスラッシュ (\\) によってエスケープ
       されずに置かれていると、 改行文字に置き換えられる。

       最初の 5 つのフィールドの代わりに、 特殊な文字列を指定してもかまわない:

              文字列         意味
              ------         ----
              @reboot        起動時に一度だけ実行。
              @yearly        年に一度だけ実行 ("0 0 1 1 *" と等価)。
              @daily         一日に一度だけ実行 ("0 0 * * *" と等価)。
"""


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("曜日フィールドに指定できる値は？", "曜日 — 指定可能な値: 0-7 (0 と 7 は日曜日。"),
        ("パーセント記号はどういう意味ですか？", "コマンド中にパーセント記号 (%) が"),
        ("起動時に一度だけ実行するには？", "@reboot — 意味: 起動時に一度だけ実行。"),
    ],
)
def test_a_japanese_tables_row_holding_the_asked_word_outranks_rows_holding_its_header(
    question: str, answer: str
) -> None:
    # '意味' of 'どういう意味' asks what '%' means; the rows headed '意味' say nothing of '%'
    assert _ask(JAPANESE_CRONTAB, question).answer.startswith(answer)


@pytest.mark.parametrize(
    ("question", "row"),
    [
        (
            "What values can the day of week field take?",
            "day of week — allowed values: 0-7 (0 or 7 is Sunday, or use names)",
        ),
        ("What is the range of the hour field?", "hour — allowed values: 0-23"),
        ("What does exit code 2 mean?", "2: the crontab file could not be read"),
    ],
)
def test_a_row_of_a_table_aligned_with_spaces_is_read_with_its_header(
    question: str, row: str
) -> None:
    result = _ask(ALIGNED_TABLES, question)
    assert result.answer.startswith(row)
    assert "Code: Meaning" not in result.answer  # the header alone says nothing
    assert not any(c.quote.startswith("field ") for c in result.citations)  # nor is cited


def test_a_question_that_asks_how_gets_the_steps_under_the_lead_in() -> None:
    result = _ask(REPORT, "How do I restore factory settings?")
    assert result.answer.splitlines() == [
        "To restore factory settings:",
        "1. Unplug the unit.",
        "2. Hold the reset button for ten seconds.",
        "3. Plug the unit back in.",
    ]


MAINTAINERS = """# Tidepool packaging policy

This policy says how Tidepool modules are packaged.

The policy is kept by these maintainers:

- Ada Brandt, who reviews module names
- Omar Haddad, who reviews dependencies
- Lin Qiao, who reviews the build scripts

Ada Brandt also keeps the list of reserved module names.
"""


def test_a_question_for_several_gets_the_whole_list_under_the_lead_in() -> None:
    result = _ask(MAINTAINERS, "Who are the reviewers?")
    assert result.answer.splitlines()[:4] == [
        "The policy is kept by these maintainers:",
        "- Ada Brandt, who reviews module names",
        "- Omar Haddad, who reviews dependencies",
        "- Lin Qiao, who reviews the build scripts",
    ]


FORMATS = """# tidekit

The `fmt` argument says how tables of heights are formatted. Most table formats support
a title line, and other formats are supported by plugins.

Supported table formats are:

- plain
- grid
- markdown
"""


def test_a_sentence_that_is_only_a_link_is_no_answer() -> None:
    text = (
        "Tidekit reads a station key from the `TIDEKIT_KEY` variable, or from the key "
        "argument when the variable is unset.\n"
        "[Get a station key here](https://example.org/tidekit/keys).\n"
    )
    result = _ask(text, "How do I set the station key?")
    assert result.answer.startswith("Tidekit reads a station key from the `TIDEKIT_KEY`")


def test_a_lead_in_the_question_restates_still_brings_its_list() -> None:
    result = _ask(FORMATS, "Which table formats are supported?")
    assert "Supported table formats are:\n- plain\n- grid\n- markdown" in result.answer


def test_a_question_for_one_gets_its_item_alone() -> None:
    result = _ask(MAINTAINERS, "Who reviews dependencies?")
    assert "Omar Haddad" in result.answer
    assert "Lin Qiao" not in result.answer


NUMBERED_CONDITIONS = """1. You may give away verbatim copies of the tide tables.

3. You may otherwise change your copy of the tide tables in any way, provided
that you mark each changed table and that you do at least ONE of the following:

    a) place your changes in the public domain, or

    b) use the changed tables only within your own harbour office.
"""


def test_a_numbered_lead_in_is_not_repeated_after_its_item() -> None:
    result = _ask(NUMBERED_CONDITIONS, "What must I do if I change my copy of the tide tables?")
    assert result.answer.count("You may otherwise change your copy") == 1, result.answer


def test_a_bullet_is_shown_alone_without_its_marker() -> None:
    result = _ask(REPORT, "What is the default web interface port?")
    assert result.answer.startswith("Default web interface port: 8088")
    assert "The web interface listens" not in result.answer.split("8088")[0]


def test_a_sentence_the_text_repeats_is_shown_once() -> None:
    result = _ask(REPORT, "How did revenue grow?")
    assert result.answer.count("Revenue grew in every region.") == 1


def test_a_man_page_option_is_answered_with_its_term_and_reflowed() -> None:
    result = _ask(MAN_PAGE, "What does the -e option do?")
    assert result.answer.startswith(
        "-e: Exit immediately if a pipeline returns a non-zero status. The shell does not"
        " exit if the command that fails is part of a command list."
    )


# A made-up command's man page as a translation renders it: its sections have no capitals.
TRANSLATED_MAN_PAGE = """FETCH(1)                      使用者命令                      FETCH(1)

名稱
       fetch - 下載檔案

描述
       從指定的網址下載檔案到目前的目錄。

       -m, --max-wait
              等待伺服器回應的最長秒數，預設為三十秒

       -q, --quiet
              不要輸出進度訊息
"""


def test_a_translated_man_page_option_is_answered_with_its_term_not_its_section() -> None:
    result = _ask(TRANSLATED_MAN_PAGE, "等待伺服器回應的最長秒數是多少？")
    assert result.answer.startswith("-m, --max-wait: 等待伺服器回應的最長秒數")


FETCH_PAGE = """FETCH(1)                  User Commands                  FETCH(1)

OPTIONS
       -m, --max-wait <seconds>
              Longest time in seconds that each download may take.  This keeps
              scripts from hanging on a slow network.

              If -m, --max-wait is given several times, the last value is used.

              Examples:
               fetch --max-wait 10 https://example.com
               fetch --max-wait 2.5 https://example.com

       --retry <num>
              Try a failed download this many times before giving up.
"""


def test_an_option_named_by_its_long_name_is_answered_with_its_description() -> None:
    result = _ask(FETCH_PAGE, "What does the --max-wait option do?")
    assert result.answer.startswith(
        "-m, --max-wait <seconds>: Longest time in seconds that each download may take."
    )


def test_an_entry_whose_term_stands_on_its_own_line_reads_with_its_term() -> None:
    result = _ask(MAN_PAGE, "How many commands are remembered in the history by default?")
    assert result.answer.startswith(
        "HISTSIZE: The number of commands to remember in the command history."
        " The default value is 500."
    )


def test_a_hard_wrapped_licence_sentence_is_whole_and_on_one_line() -> None:
    result = _ask(LICENCE, "What must each copy carry when I convey verbatim copies?")
    first = result.answer.split(" You may convey a work")[0]
    assert first.startswith("You may convey verbatim copies of the Program's source code as you")
    assert first.endswith("give all recipients a copy of this License along with the Program.")
    assert "\n" not in result.answer
    assert "  " not in result.answer


RUN_IN_TITLES = """                    HARBOUR DATA SERVICE AGREEMENT

   1. Definitions. "Service" means the hosted data store operated by
      Harbour Data, and "Customer" means the party that signed below.

   2. Service Credits. If monthly availability falls below 99.5 percent,
      the Customer receives a credit of ten percent of that month's fee.
      Credits are the Customer's only remedy for unavailability.

   3. Disclaimer of Warranty. Except as stated in section 2, the Service
      is provided "as is", without warranties or conditions of any kind,
      and Harbour Data does not warrant that it will be free of errors.
      Harbour Data is not liable for data the Customer loses through its
      own mistakes, through a third party's network, or through events
      beyond Harbour Data's reasonable control, and its liability in any
      twelve months is at most the fees paid in those months. Nothing in
      this section limits liability that the law does not allow to limit.

   4. Termination. Either party may end this Agreement with sixty days'
      written notice, and the Customer's data is deleted thirty days later.
"""
"""An agreement whose numbered clauses open with a title run in before their first sentence."""


@pytest.mark.parametrize(
    ("question", "reads"),
    [
        # a long clause: its title, then the sentence it opens
        ("What is the warranty?", "Disclaimer of Warranty: Except as stated in section 2, the"),
        # a short one is shown whole
        ("What are the service credits?", "2. Service Credits. If monthly availability falls"),
    ],
)
def test_a_clauses_run_in_title_reads_with_the_sentence_it_opens(question: str, reads: str) -> None:
    """A title standing as a sentence of its own ('3. Disclaimer of Warranty.') matches the
    question best, and says nothing alone: it reads into its clause's first sentence."""
    answer = _ask(RUN_IN_TITLES, question).answer
    assert answer.startswith(reads)
    assert "Harbour Data is not liable" not in answer  # the clause's first sentence, not all


@pytest.mark.parametrize("markers", [("1.", "2.", "3.", "4."), ("a.", "b.", "c.", "d.")])
def test_a_numbered_clauses_marker_is_not_a_sentence_of_its_own(markers: tuple[str, ...]) -> None:
    text = RUN_IN_TITLES
    for number, marker in enumerate(markers, start=1):
        text = text.replace(f"   {number}. ", f"   {marker} ")
    units = [text[start:end] for start, end in Passages.read(text).spans]
    assert f"{markers[3]} Termination." in units
    assert not set(markers) & set(units)


LONG_CLAUSE = """  6. Conveying the Firmware.

  You may convey the Firmware in one of these ways:

    a) Convey it inside a device, with a written offer, valid for at least
    three years and for as long as you offer spare parts or support for
    that model of the device, to give anyone who holds the device either
    a copy of the source code on a durable medium customarily used for
    software, for a price no more than your reasonable cost of copying
    it, or access to copy the source code from a network server at no
    charge, provided that the server is kept running and answers within
    a reasonable time, and that the copy it gives is the same source code
    that built the Firmware in the device, with every script used to
    build it and every key needed to install a modified build of it.

    b) Convey it over a network, with the source code beside it.
"""
"""A licence clause whose first item is one sentence of 700 characters."""


def test_a_sentence_cut_for_its_length_is_shown_whole() -> None:
    """Units are cut at MAX_SENTENCE_CHARS; the answer still reads the sentence to its end."""
    result = _ask(LONG_CLAUSE, "How long must the written offer be valid?")
    assert "valid for at least three years" in result.answer
    assert "needed to install a modified build of it." in result.answer


CONDITIONS = """   4. Redistribution. You may give away copies of the Work in any medium,
      provided that You meet the following conditions:

      (a) You must give every recipient a copy of this License; and

      (b) You must mark every file You changed with a notice saying so; and

      (c) You must keep every notice of authorship that the Work carries.

   5. Trademarks. This License grants no right to use the Licensor's names.
"""
"""A numbered clause whose last sentence leads in to lettered sub-items."""

_MORE = " More is said about this condition in the notes at the end of the Work." * 8


def test_a_clause_leading_in_to_its_sub_items_is_shown_with_them() -> None:
    result = _ask(CONDITIONS, "What conditions must I meet when I give away copies?")
    assert result.answer.splitlines() == [
        "You may give away copies of the Work in any medium, provided that You meet the "
        "following conditions:",
        "  (a) You must give every recipient a copy of this License; and",
        "  (b) You must mark every file You changed with a notice saying so; and",
        "  (c) You must keep every notice of authorship that the Work carries.",
    ]


def test_a_list_too_long_to_show_whole_shows_each_items_opening() -> None:
    text = CONDITIONS.replace("; and\n", f".{_MORE}\n").replace("carries.", f"carries.{_MORE}")
    lines = _ask(text, "What conditions must I meet when I give away copies?").answer.splitlines()
    assert lines[1:] == [
        "  (a) You must give every recipient a copy of this License. …",
        "  (b) You must mark every file You changed with a notice saying so. …",
        "  (c) You must keep every notice of authorship that the Work carries. …",
    ]


CONSOLE_README = """# tidekit

## Installation

First, install the runtime, and then add **tidekit** to your project:

<div class="termy">

```console
$ uv add tidekit
```

</div>

This installs the library and the `tidekit` command.
"""


def test_html_tags_around_an_example_leave_it_with_its_lead_in() -> None:
    """A README's '<div class="termy">' wraps its console example for the web page; the
    answer reads the lead-in into the command, in plain words, and 'This installs ...'
    (no sentence about the document) after what it points back to."""
    result = _ask(CONSOLE_README, "How do I install tidekit?")
    assert result.answer.splitlines() == [
        "Installation: First, install the runtime, and then add tidekit to your project: "
        "`$ uv add tidekit`",
        "This installs the library and the `tidekit` command.",
    ]


LEVELS = """# Logging levels

Every record has a level. The WARNING level is the default threshold of the root logger, and
a custom level needs a numeric value of its own, chosen between the predefined ones.

| Level | Numeric value |
|---|---|
| CRITICAL | 50 |
| WARNING | 30 |
| DEBUG | 10 |
"""


def test_a_row_that_holds_only_a_name_and_a_number_answers_what_its_header_says() -> None:
    """The row's header says what its bare cells are: '30' is the numeric value."""
    result = ask(LEVELS, "What is the numeric value of the WARNING level?")
    assert result.answer.startswith("WARNING — Numeric value: 30\n")


def test_two_items_of_one_list_read_their_lead_in_once() -> None:
    text = (
        "  6. Sharing Tables.\n\n"
        "  You may share the harbour tables in one of these ways:\n\n"
        "    a) Share the tables printed on paper, with the harbour office's\n"
        "    stamp on every page of the printed tide tables.\n\n"
        "    b) Share the tables online, with a link to the harbour office's\n"
        "    own page of the printed tide tables.\n"
    )
    result = _ask(text, "How may I share the printed tide tables?")
    lead = "You may share the harbour tables in one of these ways:"
    assert result.answer.count(lead) == 1, result.answer
    assert "a) Share the tables printed on paper" in result.answer
    assert "b) Share the tables online" in result.answer


def test_two_items_of_a_chinese_list_read_their_lead_in_once() -> None:
    lead = "港务局的潮汐表可以用以下方式分享："
    text = (
        "# 分享潮汐表\n\n"
        f"{lead}\n\n"
        "- 分享印在纸上的潮汐表，每页都盖港务局的章。\n"
        "- 在网上分享潮汐表，附上港务局自己的潮汐表页面的链接。\n"
    )
    result = _ask(text, "怎样分享港务局的潮汐表？")
    assert result.answer.count(lead) == 1, result.answer
    assert "分享印在纸上的潮汐表" in result.answer
    assert "在网上分享潮汐表" in result.answer


# Each numbered item opens with a title on a line of its own, without a full stop.
PLEDGES = """Our pledges

    1. The harbour will stay open all year
       The harbour office keeps the quay clear of ice from December to March,
       and the pilots work every day of the year.
    2. We will not hide delays
       Every delay to a crossing is posted on the quay board within ten
       minutes, with its cause.
"""


def test_an_items_title_on_a_line_of_its_own_reads_as_its_title() -> None:
    result = _ask(PLEDGES, "Does the harbour office post delays?")
    assert "We will not hide delays: Every delay to a crossing is posted" in result.answer
    assert "open all year The harbour" not in result.answer


SYNC_PAGE = """OPTIONS
       -m, --merge
           Use merging strategies to apply each change (default).

           Note that a merge replays each change on top of the target, so the
           sides reported as ours and theirs are swapped.
"""


def test_an_option_with_two_names_on_one_line_is_one_term() -> None:
    result = _ask(SYNC_PAGE, "What does the --merge option do?")
    assert result.answer.startswith(
        "-m, --merge: Use merging strategies to apply each change (default)."
    )


def test_a_quoted_exclamation_followed_by_an_ellipsis_does_not_end_the_sentence() -> None:
    text = (
        'Tidying runs before every push. Messages that begin with "tidy! ..." or "drop! ..."\n'
        "are moved right after the change they name. Other messages stay where they are."
    )
    result = _ask(text, "Which messages are moved after the change they name?")
    assert result.answer.startswith(
        'Messages that begin with "tidy! ..." or "drop! ..." are moved right after the change'
    )


def test_a_sentence_deep_inside_a_long_item_is_shown_without_the_lists_lead_in() -> None:
    text = (
        "Each pump node may contain any of the following elements, in any order:\n\n"
        "- valve elements have a pattern attribute. Any pipe whose name matches this pattern"
        " is given this valve, subject to conflicting rules in other files, of course. There"
        " is also an optional weight attribute, which is used when resolving conflicts with"
        " other valve matches of the same pipe, in the order the files were read. Files"
        " read later win over files read earlier when two valves have the same weight. The"
        " default weight value is 50, and the maximum is 100.\n"
        "- drain elements have a level attribute.\n"
    )
    result = _ask(text, "What does the valve weight default to?")
    assert result.answer.startswith("The default weight value is 50, and the maximum is 100.")


README_WITH_COMMANDS = """# Pumpkit

## Building

Pumpkit uses CMake. To start building, you need to run

\tcmake <path to source directory>

from a build directory. Then use make as you normally would.

## Tests

There is an integration test suite which can be run via:

    $ ./test/integration/run-tests

Each test can be run on its own as well.
"""


def test_a_sentence_a_command_line_interrupts_is_read_whole_with_the_command() -> None:
    result = _ask(README_WITH_COMMANDS, "How do I start building Pumpkit?")
    assert result.answer.startswith(
        "To start building, you need to run `cmake <path to source directory>` from a build"
        " directory."
    )


def test_a_lead_in_reads_with_the_command_it_introduces() -> None:
    result = _ask(README_WITH_COMMANDS, "How do I run the integration test suite?")
    assert result.answer.startswith(
        "There is an integration test suite which can be run via: `$ ./test/integration/run-tests`"
    )


MAN_PAGE_WITH_EXAMPLE = """SEEK(1)              General Commands Manual              SEEK(1)

ACTIONS
       -skip  True; if the file is a folder, do not enter it.  If -deep is
              given, -skip has no effect.  For example, to leave out the folder
              build and everything under it, and list the other files, write:
                  seek . -path ./build -skip -o -list

       -stop  Exit at once, with status zero if no errors have occurred.
"""


def test_an_entry_whose_description_ends_in_a_lead_in_reads_with_its_command() -> None:
    result = _ask(MAN_PAGE_WITH_EXAMPLE, "What does the -skip action do?")
    assert result.answer.startswith("-skip: True; if the file is a folder, do not enter it.")
    assert "and list the other files, write: `seek . -path ./build -skip -o -list`" in (
        result.answer
    )
    assert result.citations[0].quote.rstrip().endswith("-o -list")


MAN_PAGE_ACTIONS = """SEEK(1)              General Commands Manual              SEEK(1)

DESCRIPTION
       seek walks the folders it is given and tests every file it meets.  Take
       care with -remove: seek removes the files it finds as soon as they match,
       so a test placed after it never sees them.

ACTIONS
       -list  True; print the file's name, then a newline.

       -remove
              Remove the file; true if removal succeeded.  A folder is removed
              only when it is empty.

       -stop  Exit at once, with status zero if no errors have occurred.

MESSAGES
       removing-files
              Removing files: shown before a file is removed.
"""


def test_a_how_to_question_gets_the_entry_whose_description_does_it() -> None:
    # The warning names more of the question; the entry says how to do it.
    result = _ask(MAN_PAGE_ACTIONS, "How do I remove the files that seek finds?")
    assert result.answer.startswith("-remove: Remove the file; true if removal succeeded.")


def test_a_description_naming_the_activity_is_not_the_entry_that_does_it() -> None:
    # 'Removing files: ...' is a message's name, shorter than the entry that removes.
    result = _ask(MAN_PAGE_ACTIONS, "How do I remove files?")
    assert result.answer.startswith("-remove: Remove the file; true if removal succeeded.")


LOCK_OPTIONS = """LATCH(1)             General Commands Manual             LATCH(1)

DESCRIPTION
       latch runs a command while it holds a lock on a file.  By default latch
       waits until the lock is free, however long that takes.

OPTIONS
       -n, --no-block
              Fail rather than wait if the lock is held.

       -w, --wait seconds
              Fail if the lock is still held after seconds.  Wait forever if 0.

       --no-ignore-case
              Do not ignore case in lock names.  Undoes an earlier -i.

       -i, --ignore-case
              Ignore case in lock names, so that LOCK and lock are one lock.

       -r, --read-only
              Make the lock file read-only once the lock is taken.

       --mkdir
              Make missing directories of the lock file's path.
"""


@pytest.mark.parametrize(
    ("question", "opening"),
    [
        # 'make' and 'instead' are nowhere: the manual says 'fail rather than wait'
        ("How do I make latch fail instead of waiting?", "-n, --no-block: Fail rather than"),
        # the verb asked for is 'ignore', which -i's description opens with
        ("How do I make latch ignore case?", "-i, --ignore-case: Ignore case in lock names"),
        # ... or 'make' itself, as a description may say
        ("How do I make the lock file readonly?", "-r, --read-only: Make the lock file"),
        # 'directory' read as the verb: 'make', which the manual writes, still counts
        ("How do I make new directory?", "--mkdir: Make missing directories"),
    ],
)
def test_a_how_to_question_asks_for_what_its_program_is_made_to_do(
    question: str, opening: str
) -> None:
    assert _ask(LOCK_OPTIONS, question).answer.startswith(opening)


@pytest.mark.parametrize(
    ("question", "action"),
    [
        ("How do I make grep ignore case?", "ignor"),
        ("How can I let users upload files?", "upload"),
        ("How do I make the output quiet?", "quiet"),
        ("How do I make the file executable?", "execut"),
        # something made, not made to do something
        ("How do I make a backup?", "make"),
        ("How do I make copies of the file?", "make"),
        ("How do I make new directories?", "make"),
        ("How do I make sure the lock is free?", "make"),
        ("How do I make a new directory?", "make"),
        ("How do I make new directory?", "make"),
    ],
)
def test_the_action_of_a_causative_question_is_what_is_made_to_happen(
    question: str, action: str
) -> None:
    assert asked_action(question) == action


# GNU style: an option's short and long names on lines of their own, each with its argument.
FETCH_OPTIONS = """FETCH(1)             General Commands Manual             FETCH(1)

DESCRIPTION
       fetch downloads files from the web.  fetch reads its options first,
       then fetches every address it is given.

OPTIONS
       -q
       --quiet
           Turn off the program's output.

       --progress
           Show a progress bar, even with --quiet, so that fetch can show how
           far a quiet download has come.

       -w seconds
       --wait=seconds
           Pause the given number of seconds between downloads.

       --random-wait
           Vary the pause between downloads from half to one and a half times
           the seconds set by the --wait option, so that the --wait option
           cannot be told from a person reading.
"""


def test_an_option_named_on_its_second_term_line_is_the_entry_the_question_names() -> None:
    # '--random-wait' says '--wait option' twice; '-w seconds' over '--wait=seconds' is it.
    result = _ask(FETCH_OPTIONS, "What does the --wait option do?")
    assert result.answer.startswith("-w seconds --wait=seconds: Pause the given number")


def test_a_how_to_question_gets_the_option_its_plain_words_name() -> None:
    # '--progress' says 'quiet' twice and 'fetch' too; '--quiet' is what makes it quiet.
    result = _ask(FETCH_OPTIONS, "How do I make fetch quiet?")
    assert result.answer.startswith("-q --quiet: Turn off the program's output.")


# jq's manual: each option a bullet ('○') before its names, its description under it.
BULLETED_OPTIONS = """SIFT(1)                                                                SIFT(1)

INVOKING SIFT
       sift reads records and writes the ones its filter keeps:

       ○   --raw-output / -r:

           With this option, a string result is written as it is rather
           than as a quoted string.

       ○   --join-output / -j:

           Like -r but sift won't print a newline after each result.

       ○   --tab:

           Use a tab for each indentation level.

       ○   A record that no filter keeps is dropped.
"""


def test_a_bulleted_option_is_an_entry_named_by_each_of_its_names() -> None:
    # '-r' is written in '--join-output's description; '--raw-output / -r' is what -r is.
    result = _ask(BULLETED_OPTIONS, "What does -r do?")
    assert result.answer.startswith("--raw-output / -r: With this option, a string result is")


SELECTING = """PICK(1)                      General Commands Manual                     PICK(1)

SELECTION
       -a     Select all files except hidden ones and files named on no list.

       -A     Select all files.

       -d     Select all files except directories.
"""


def test_an_entry_doing_what_a_how_to_question_restates_is_not_counted_down() -> None:
    # 'Select all files.' holds nothing the question lacks: it is the answer, not a
    # restatement pointing elsewhere.
    result = _ask(SELECTING, "How do I select all files?")
    assert "-A: Select all files." in result.answer


# A README with a table of contents: links to its own sections, nothing said beside them.
README_WITH_CONTENTS = """# tidekit

tidekit predicts tides for harbours.

The tidekit repository is [github.com/tk/tidekit](https://github.com/tk/tidekit).

1. [Usage](https://github.com/tk/tidekit?tab=readme#usage)
    1. [Install](https://github.com/tk/tidekit?tab=readme#install)
    2. [Quickstart](https://github.com/tk/tidekit?tab=readme#quickstart)
2. [License](https://github.com/tk/tidekit?tab=readme#license)

## Usage

### Install

To install a wheel from the package index, install the `tidekit` package.

tidekit does not have an installation or compilation dependency on anything else.

### Quickstart

Call predict with a station name.
"""


def test_a_table_of_contents_link_is_no_answer_and_links_read_as_words() -> None:
    result = _ask(README_WITH_CONTENTS, "How do I install tidekit?")
    assert "install the `tidekit` package" in result.answer
    assert not any("#install" in citation.quote for citation in result.citations)
    summary = summarize(README_WITH_CONTENTS, settings=Settings(cache="off")).summary
    assert "The tidekit repository is github.com/tk/tidekit." in summary


# xargs(1)'s EXIT STATUS: one-line entries a blank line apart, each a status and its cause.
EXIT_STATUS = """EXIT STATUS
       fetch exits with the following status:

              0      if it succeeds

              124    if the download exited with status 255

              125    if the download is killed by a signal

              127    if the address is not found
"""


def test_a_cause_the_question_restates_is_answered_with_its_entry() -> None:
    # The question holds every word of '125's description: its term is what it asks for.
    result = _ask(EXIT_STATUS, "What exit status means the download was killed by a signal?")
    assert result.answer.startswith("125: if the download is killed by a signal")


OPTIONS_REFERENCE = """# Build options

## fast-level

This flag controls how hard the builder works on speed.

- 0: no speed work (the default).
- 1: some speed work.

Note: The -F flag is an alias for -B fast-level=1.

## trim

This flag removes the notes the builder adds to its output.
"""


def test_a_section_named_by_the_question_reads_as_its_opening() -> None:
    # The note names 'fast-level' too, but the section under that heading says what it does.
    result = _ask(OPTIONS_REFERENCE, "What does fast-level do?")
    assert result.answer.startswith(
        "fast-level: This flag controls how hard the builder works on speed."
    )
    assert result.citations[0].quote.startswith("## fast-level")


GUIDE_WITH_EXAMPLE = """# Strings

## Iterating

Calling chars on a string returns its characters, and you can iterate over the result to
reach each one:

```rust
for c in "hello".chars() {
    println!("{c}");
}
```

This prints one character a line.
"""


def test_a_lead_in_reads_with_the_short_code_example_under_it() -> None:
    result = _ask(GUIDE_WITH_EXAMPLE, "How do I iterate over the characters of a string?")
    assert result.answer.startswith(
        "Calling chars on a string returns its characters, and you can iterate over the result"
        ' to reach each one:\n```\nfor c in "hello".chars() {\n    println!("{c}");\n}\n```'
    )


@pytest.mark.parametrize(
    ("lead", "question"),
    [
        ("港のタイムゾーンは以下のようにして再設定できます。", "タイムゾーンを再設定するには？"),
        ("The harbour's time zone is set again as follows.", "How do I set the time zone again?"),
    ],
)
def test_a_lead_in_pointing_ahead_without_a_colon_reads_with_its_command(
    lead: str, question: str
) -> None:
    text = (
        f"# Time\n\nClocks are kept by the harbour office.\n\n{lead}\n\n```\n# tzset harbour\n```\n"
    )
    result = _ask(text, question)
    assert result.answer.startswith(lead)
    assert "# tzset harbour" in result.answer


UNIT_SETTINGS = """UNIT.EXEC(5)                   unit.exec                   UNIT.EXEC(5)

SANDBOXING
       PrivateSpool=
           Takes a boolean argument. If true, sets up a new file system
           namespace for the executed processes and mounts a private spool
           directory inside it that is not shared by processes outside of the
           namespace. This is useful to secure access to spooled files of the
           process, but makes sharing between processes via the spool
           directory impossible. Defaults to false. Enabling this option may
           delay the start of the unit when the spool directory is large.

       KeepCache=
           Takes a boolean argument. If true, the cache directory is kept when
           the unit stops, so that the next start finds it warm and does not
           rebuild it from the sources, which may take a long time on a large
           installation. The directory is removed when the unit is removed,
           whatever this setting says. Defaults to false.
"""


def test_a_terse_first_sentence_of_a_setting_is_shown_with_what_it_does() -> None:
    result = _ask(UNIT_SETTINGS, "What does PrivateSpool= do?")
    first = result.answer.split(" KeepCache=")[0]
    assert first == (
        "PrivateSpool=: Takes a boolean argument. If true, sets up a new file system namespace"
        " for the executed processes and mounts a private spool directory inside it that is"
        " not shared by processes outside of the namespace."
    )


GUIDE = """# The pantry guide

Every kitchen keeps its pantry in order. The pantry is where dry goods wait to be cooked.

## Pantry rules

First, let's take a look at the pantry rules. Keep them in mind as you read the recipes:

- Each jar carries a label with its filling date.
- Flour is stored above the sugar shelf.
- An opened bag is used within a month.

## Shopping

The shopping list is written every Friday and taken to the market on Saturday.
"""


def test_the_sentence_announcing_a_list_is_shown_with_the_list() -> None:
    result = _ask(GUIDE, "What are the three pantry rules?")
    lines = result.answer.splitlines()
    # The section's heading may lead in: 'Pantry rules: First, ...'.
    assert lines[0].removeprefix("Pantry rules: ") == (
        "First, let's take a look at the pantry rules. Keep them in mind as you read the recipes:"
    )
    assert lines[1:4] == [
        "- Each jar carries a label with its filling date.",
        "- Flour is stored above the sugar shelf.",
        "- An opened bag is used within a month.",
    ]


def test_a_rst_literal_block_reads_with_its_lead_in() -> None:
    result = _ask(RST_README, "How do I install quickmock?")
    assert result.answer.startswith("Install it with pip: `pip install quickmock`")


def test_a_how_to_question_gets_the_section_its_heading_names() -> None:
    result = _ask(RST_README, "How do I upgrade quickmock?")
    assert result.answer.startswith("Upgrading: `pip install -U quickmock`")


# A section with no words of its own: its first subsection says how.
TOOL_README = """# quicktool

## Installing

Install it with `pipx install quicktool`.

## Upgrading

### Upgrading with Homebrew

If you installed quicktool with Homebrew, run:

```sh
brew upgrade quicktool
```

### Upgrading with pipx

Run `pipx upgrade quicktool`.
"""


def test_a_heading_whose_section_opens_with_a_subsection_reads_as_that_subsection() -> None:
    result = _ask(TOOL_README, "How do I upgrade?")
    assert result.answer.startswith(
        "Upgrading with Homebrew: If you installed quicktool with Homebrew, run: "
        "`brew upgrade quicktool`"
    )


PACKER_MANUAL = """PACK(1)                     General Commands Manual                    PACK(1)

NAME
       pack - compress or decompress .pk files

OPTIONS
       -d, --decompress
              Decompress.

       -k, --keep
              Don't delete the input files.

       --memlimit-decompress=limit
              Set a memory usage limit for decompression.  This option is
              used when the default limit is too low for the option
              that was used to compress.

       -v, --verbose
              Be verbose.

              The progress indicator shows the following information:

              •  Completion percentage, if the size of the input file is known.

              •  Amount of data produced so far.
"""


def test_which_option_to_use_to_do_something_is_its_entry() -> None:
    # 'option' and 'use' are in every entry: the question asks how to decompress
    result = _ask(PACKER_MANUAL, "Which option do I use to decompress?")
    assert result.answer.startswith("-d, --decompress: Decompress.")


def test_a_list_item_under_an_entry_does_not_repeat_its_lead_in() -> None:
    result = _ask(PACKER_MANUAL, "What does the progress indicator show?")
    assert result.answer.count("The progress indicator shows the following information") == 1
    assert "Completion percentage" in result.answer


def test_a_rst_directive_is_not_read_as_text() -> None:
    result = _ask(RST_README, "When does the mock stop?")
    assert result.answer.startswith("The mock stops when the block ends.")


def test_rst_inline_markup_reads_as_the_rendered_page() -> None:
    result = _ask(RST_README, "How do I forget every response?")
    assert "Call `mock.reset()` to forget every response, as the guide shows." in result.answer


TARGETS = """# Platform support

## Tier 2 with host tools

| target | notes |
|---|---|
| riscv9-unknown-linux-gnu | RISC-V Linux (kernel 4.20+, glibc 2.29) |
| mips9-unknown-linux-gnu | MIPS9 Linux (kernel 4.4, glibc 2.23) |
| sparc9-unknown-linux-gnu | SPARC9 Linux (kernel 4.4, glibc 2.23) |
| arm7-unknown-linux-gnu | ARM7 Linux (kernel 4.4, glibc 2.23) |
| ppc9-unknown-linux-gnu | PPC9 Linux (kernel 4.4, glibc 2.23) |
| s390-unknown-linux-gnu | S390 Linux (kernel 4.4, glibc 2.23) |

## Tier 3

| target | std | host | notes |
|---|---|---|---|
| riscv9-unknown-hermit | ✓ |  | RISC-V Hermit |
| riscv9-unknown-fuchsia | ✓ |  | RISC-V Fuchsia |
| riscv9-unknown-netbsd | ✓ |  | RISC-V Netbsd |
| riscv9-unknown-openbsd | ✓ |  | RISC-V Openbsd |
| riscv9-unknown-nuttx | ✓ |  | RISC-V Nuttx |
"""


def test_a_hyphen_joined_name_is_found_as_written_not_by_its_parts() -> None:
    # 'riscv9' and 'unknown' name five other targets, in a table with a host column.
    result = _ask(TARGETS, "Does riscv9-unknown-linux-gnu have host tools?")
    assert "riscv9-unknown-linux-gnu — notes: RISC-V Linux" in result.answer.splitlines()[0]


def test_a_table_row_reads_after_the_heading_that_says_what_was_asked() -> None:
    result = _ask(TARGETS, "What tier is riscv9-unknown-linux-gnu?")
    assert result.answer.startswith("Tier 2 with host tools: riscv9-unknown-linux-gnu — notes:")
    assert result.citations[0].quote.startswith("| riscv9-unknown-linux-gnu |")


SEARCH_EXAMPLES = """FINDER(1)                   General Commands Manual                   FINDER(1)

EXAMPLES
   Searching files by age
       •      List the logs in your spool directory that have been rotated
              within the last two days.

                  $ finder /var/spool -rotated 2

              This command counts whole days: a log rotated 47 hours ago was
              rotated within the last two days, but one rotated 49 hours ago
              was not.

   Searching files by owner
       •      List the logs the operator account owns.

                  $ finder /var/spool -owner operator

SEE ALSO
       locate(1), stat(2), glob(7), regex(7)
"""


def test_a_sentence_pointing_back_follows_the_one_it_points_to() -> None:
    result = _ask(SEARCH_EXAMPLES, "How do I list logs rotated within the last two days?")
    first, second = "List the logs in your spool", "This command counts whole days"
    assert first in result.answer
    assert second in result.answer
    assert result.answer.index(first) < result.answer.index(second)


def test_a_manual_section_number_is_not_the_number_a_question_asks_about() -> None:
    # '7' is in 'glob(7)' and 'regex(7)' alone: the SEE ALSO line must not answer.
    result = ask({"id": "doc", "text": SEARCH_EXAMPLES}, "How do I list logs rotated in 7 days?")
    assert "regex" not in result.answer
    assert not any("glob(7)" in citation.quote for citation in result.citations)


CODEGEN_OPTIONS = """# Codegen options

## overflow

This option sets what happens when an integer arithmetic operation overflows.

- wrap: keep the low bits of the result
- trap: stop the program with an error
- saturate: clamp the result to the largest or smallest value

If not specified, the default depends on the build profile.

## strip

This flag removes debugging information from the output binary.
"""


# The question's words are the heading's alone: the heading is the best unit, and reads as
# the lead-in under it.
OVERFLOW_MODES = """# Codegen options

## Overflow modes

The compiler offers three of them.

- wrap: keep the low bits of the result
- trap: stop the program with an error
- saturate: clamp the result to the largest or smallest value

## Strip

This flag removes debugging information from the output binary.
"""


@pytest.mark.parametrize(
    ("text", "question", "lead_in"),
    [
        (
            CODEGEN_OPTIONS,
            "What are the values of the overflow option?",
            # 'This option' points back to its heading, which says which option
            "overflow — This option sets what happens when an integer arithmetic operation "
            "overflows.",
        ),
        (OVERFLOW_MODES, "What are the overflow modes?", "The compiler offers three of them."),
    ],
)
def test_a_list_question_gets_the_list_under_a_lead_in_ending_in_a_full_stop(
    text: str, question: str, lead_in: str
) -> None:
    # The second's best unit is its heading, which reads as the lead-in under it.
    assert _ask(text, question).answer.splitlines()[:4] == [
        lead_in,
        "- wrap: keep the low bits of the result",
        "- trap: stop the program with an error",
        "- saturate: clamp the result to the largest or smallest value",
    ]


TWO_OPTION_LISTS = """# Codegen options

## linker-flavor

This flag sets the flavour of the linker. Valid options are:

- gcc: use the cc executable
- ld: use the ld executable
- msvc: use the link.exe executable

## overflow

This option sets what happens when an integer arithmetic operation overflows.

- wrap: keep the low bits of the result
- trap: stop the program with an error
"""


def test_a_list_answer_is_not_joined_by_a_list_about_something_else() -> None:
    """The linker's list matches 'valid values ... option' as well as the overflow list
    does, but is not about overflow: the answer shows one list; the other is a citation."""
    result = _ask(TWO_OPTION_LISTS, "What are the valid values of the overflow option?")
    assert result.answer.splitlines() == [
        "overflow — This option sets what happens when an integer arithmetic operation overflows.",
        "- wrap: keep the low bits of the result",
        "- trap: stop the program with an error",
    ]


FLAG_SECTIONS = """# Command-line arguments

## -q/--quiet: print nothing but errors

This flag silences the progress bar and every notice.

## -V/--version: print the version

This flag will print out the compiler's version.
"""


def test_a_sections_opening_sentence_that_points_back_reads_after_its_heading() -> None:
    result = _ask(FLAG_SECTIONS, "Which flag prints the version?")
    expected = "-V/--version: print the version — This flag will print out the compiler's version."
    assert result.answer.startswith(expected)


# diff(1): names that run on past the column their description starts at.
COMPARE_OPTIONS = """OPTIONS
       -q, --brief
              report only when files differ

       -u, -U NUM, --unified[=NUM]
              output NUM (default 3) lines of unified context

       -bn or --blocks=n
              Compares n blocks at a time.
"""


def test_option_names_running_past_the_description_column_stay_one_term() -> None:
    result = _ask(COMPARE_OPTIONS, "What does --unified do?")
    expected = "-u, -U NUM, --unified[=NUM]: output NUM (default 3) lines of unified context"
    assert result.answer.startswith(expected)
    result = _ask(COMPARE_OPTIONS, "What does --blocks do?")
    assert result.answer.startswith("-bn or --blocks=n: Compares n blocks at a time.")


PLATFORMS = """# Platform support

## Tier 1

Tier 1 platforms are built and tested after every change.

Every tier 1 platform runs the full test suite.

| platform | notes |
|---|---|
| arm64-linux | ARM64 Linux (kernel 5.4+) |
| x64-linux | 64-bit Linux (kernel 4.19+) |
| x64-windows | 64-bit Windows 10+ |

## Tier 2

Tier 2 platforms are built after every change but not tested.
"""


def test_a_question_for_several_things_gets_the_names_a_table_under_the_paragraph_lists() -> None:
    result = _ask(PLATFORMS, "Which platforms are tier 1 platforms that run the full test suite?")
    assert result.answer.splitlines()[:4] == [
        "Every tier 1 platform runs the full test suite.",
        "- arm64-linux",
        "- x64-linux",
        "- x64-windows",
    ]


def test_a_row_asked_whether_it_is_of_a_kind_reads_after_the_heading_that_says() -> None:
    result = _ask(PLATFORMS, "Is x64-windows a tier 1 platform?")
    assert result.answer.startswith("Tier 1: x64-windows — notes: 64-bit Windows 10+")
    result = _ask(PLATFORMS, "Is x64-windows a tier 2 platform?")
    assert result.answer.startswith("Tier 1: x64-windows")  # its own tier, not the one asked


# zip(1)'s shape: a term on two lines, a lead-in ending in ':' with its example under it,
# and an example that is the subject of the lowercase sentence after it.
PACK_PAGE = """PACK(1)              General Commands Manual              PACK(1)

OPTIONS
       -r
       --recurse-paths
              Travel the folder tree and pack every file in it; for example:

                     pack -r crate.pk crate

       -W
       --wide
              Pack the files of every folder named on the command line into
              one crate, as in the example before.

                     pack -W crate/*

              will pack crate/a and crate/b into one crate.
"""


def test_a_lead_in_with_its_example_reads_after_its_entrys_term() -> None:
    result = _ask(PACK_PAGE, "What does -r do?")
    assert result.answer.startswith(
        "-r --recurse-paths: Travel the folder tree and pack every file in it; for example:"
        " `pack -r crate.pk crate`"
    )


def test_an_example_opening_the_lowercase_sentence_after_it_is_its_subject() -> None:
    passages = Passages.read(PACK_PAGE)
    unit = passages.unit_at(PACK_PAGE.index("will pack crate/a"))
    assert passages.show(unit).text == (
        "-W --wide: `pack -W crate/*` will pack crate/a and crate/b into one crate."
    )


CHOICES = """  3. You may change your copy of the Firmware in any way, provided that you
mark each changed file with the date of the change, and provided that you
do at least ONE of the following:

    a) publish your changes under these terms, so that anyone may use them.

    b) use the changed Firmware only within your own organization.

    c) give the changed programs names that differ from the original ones.

  4. You may charge a fee for the physical act of copying the Firmware.
"""
"""A clause whose conditions are choices: any one of them will do."""


def test_an_item_offered_as_a_choice_is_shown_with_the_other_choices() -> None:
    """'b) use ... only within your own organization' alone reads as what the clause
    requires; the lead-in says any one of three will do, and the answer shows all three."""
    answer = _ask(CHOICES, "Can I use the changed Firmware within my organization?").answer
    assert answer.startswith("3. You may change your copy of the Firmware in any way")
    for choice in ("a) publish your changes", "b) use the changed", "c) give the changed"):
        assert choice in answer


COLLECTIONS = """# Collections

## When should you use which collection?

#### Use a Vec when:

- You want a stack.
- You want a resizable array.

#### Use a LinkedList when:

- You want a list of unknown size, and cannot tolerate amortization.
- You want to split and append lists cheaply.

#### Use a HashMap when:

- You want a cache.
- You want to associate keys with values.
"""
"""Rust's collections overview in shape: headings ending ':' lead in to their lists."""


@pytest.mark.parametrize(
    ("question", "reads"),
    [
        ("Which collection should I use for a cache?", "Use a HashMap when: You want a cache."),
        ("What if the size is unknown?", "Use a LinkedList when: You want a list of unknown"),
    ],
)
def test_an_item_reads_after_the_heading_that_leads_in_to_its_list(
    question: str, reads: str
) -> None:
    """'You want a cache.' alone does not say which collection it is a reason for."""
    assert _ask(COLLECTIONS, question).answer.startswith(reads)


EXAMPLE_ITEMS = """EXAMPLES
   Searching files by age
       •      Search for files in your home directory which have been modified
              in the last twenty-four hours.

                  $ find $HOME -mtime 0

              This command works this way because the time since each file was
              last modified is divided by 24 hours.

   Searching files by permissions
       •      Search for files which are executable but not readable.

                  $ find /sbin /usr/sbin -executable \\! -readable -print
"""
"""find(1)'s examples: each a bulleted description with its command indented under it."""


@pytest.mark.parametrize(
    ("question", "command"),
    [
        ("How do I find files modified in the last day?", "`$ find $HOME -mtime 0`"),
        ("How do I find executable files that are not readable?", "-executable \\! -readable"),
    ],
)
def test_an_examples_description_reads_with_its_command(question: str, command: str) -> None:
    answer = _ask(EXAMPLE_ITEMS, question).answer
    assert answer.startswith("Search for files")
    assert command in answer.split("\n")[0]


LONG_OPTION = """OPTIONS
       -j [jobs], --jobs[=jobs]
            Specifies the number of jobs (commands) to run simultaneously.  If
            there is more than one -j option, the last one is effective.  If
            the -j option is given without an argument, make will not limit
            the number of jobs that can run simultaneously.  When make invokes
            a sub-make, all instances of make will coordinate to run the
            specified number of jobs at a time; see the section PARALLEL MAKE
            AND THE JOBSERVER for details.

       -k, --keep-going
            Continue as much as possible after an error.
"""
"""make(1)'s -j: a description longer than is shown whole."""


def test_a_later_sentence_of_an_entry_reads_after_the_entrys_opening() -> None:
    """The sentence matching the question best says what -j does only with the opening."""
    answer = _ask(LONG_OPTION, "How do sub-make instances coordinate?").answer
    assert answer.startswith(
        "-j [jobs], --jobs[=jobs]: Specifies the number of jobs (commands) to run"
        " simultaneously. … When make invokes a sub-make"
    )


MENU = """### Format menu

Indent Region
    Shift selected lines right by the indent width (default 4 spaces).

Dedent Region
    Shift selected lines left by the indent width (default 4 spaces).

See also the indent/dedent region commands on the Format menu.

### Run menu

Run Module
    Do Check Module. If no error, restart the shell, then execute the module.

### Help menu

Turtle Demo
    Run the turtledemo module with example Python code and turtle drawings.
"""
"""IDLE's help page in shape: menu entries over their descriptions."""


@pytest.mark.parametrize(
    ("question", "reads"),
    [
        ("How do I run a module?", "Run Module: Do Check Module."),
        ("How do I indent a region?", "Indent Region: Shift selected lines right"),
    ],
)
def test_a_how_to_question_naming_a_menu_entry_gets_that_entry(question: str, reads: str) -> None:
    """'Run Module' is what 'How do I run a module?' names, though 'Run the turtledemo
    module ...' says both words as a description's opening."""
    assert _ask(MENU, question).answer.startswith(reads)


SHRED_PAGE = """NAME
       prune - remove old files

DESCRIPTION
       To remove a file whose name starts with a '-', for example '-old', use
       one of these commands:

              prune -- -old

              prune ./-old

       Note that if you use prune to delete a file, it might be possible to re\u2010
       cover parts of it, given sufficient expertise and time.
"""


def test_a_word_hyphenated_at_a_line_end_is_found_whole() -> None:
    # groff breaks 'recover' as 're‐' / 'cover': the question's word is the whole one
    result = _ask(SHRED_PAGE, "Can a file deleted with prune be recovered?")
    assert result.answer.startswith("Note that if you use prune to delete a file, it might be")
    assert "possible to recover parts of it" in result.answer


def test_commands_offered_as_choices_are_shown_together() -> None:
    # the second example, as deep as the first, is one of the two: no heading of its own
    result = _ask(SHRED_PAGE, "How do I remove a file whose name starts with a dash?")
    first = result.answer.split("\n")[0]
    assert first.endswith("use one of these commands: `prune -- -old`, `prune ./-old`")


API_REFERENCE = """Functions

stall_.stall(fn, wait, [leading])
Creates and returns a stalled version of fn that waits until wait milliseconds pass without a \
call. Handy for search boxes.

If you need to cancel a pending stall, call .cancel() on the stalled function.

gather_.gather(list, key)
A convenient version of the most common use of map: the values of key in every item.
"""


def test_a_signature_over_its_description_is_the_entry_a_what_question_names() -> None:
    result = _ask(API_REFERENCE, "What does _.stall do?")
    assert result.answer.startswith(
        "stall_.stall(fn, wait, [leading]): Creates and returns a stalled version of fn"
    )
    result = _ask(API_REFERENCE, "What does _.gather return?")
    assert result.answer == (
        "gather_.gather(list, key): A convenient version of the most common use of map: the"
        " values of key in every item."
    )


LINKED_REFERENCE = """# tidekit.run

* `maxLines` {number} Most lines of output kept. See [`maxLines` and tabs][].
  **Default:** `1000`.

The `maxLines` option caps the lines kept from the tide table.

[`maxLines` and tabs]: #maxlines-and-tabs
[`maxLines` option]: #options-maxlines
[`tidekit.read()`]: read.md#tidekit-read
"""


def test_link_reference_definitions_are_never_an_answer() -> None:
    # the rendered page does not show them at all
    result = _ask(LINKED_REFERENCE, "What does the maxLines option do?")
    assert "]:" not in result.answer
    assert "#maxlines" not in result.answer


JAPANESE_MAN_PAGE = """名前
       tally - 行を数える

オプション
       -c, --count
              行を出力せず、一致した行の数を表示します。 -v オプションと共に指
              定した場合は、一致しなかった行の数を表示します。

       -v, --invert
              一致の意味を逆にして、一致しない行を選びます。

環境変数
       TALLY_COLOR
              -v オプションを指定しなかったときは一致する行に、 -v オプション
              を指定したときは一致しない行に適用される色です。
"""


# As nroff sets Japanese: lines wrap inside words ('保' / '持').
WRAPPED_JAPANESE_MAN_PAGE = """名前
       keep - ファイルを保管する

オプション
       -o, --owner
              ファイルの所有者を表示します。

       -p, --preserve
              コピーの際、ファイルの所有者とタイムスタンプを保
              持します。

       -e, --empty
              ファイルが空であるかどうかをテストします。

       -w, --whitespace
              名前に空白を含むファイルを探して、一覧を表示します。
"""


@pytest.mark.parametrize(
    ("question", "entry"),
    [
        (
            "所有者を保持するには？",
            "-p, --preserve: コピーの際、ファイルの所有者とタイムスタンプを保持します。",
        ),
        ("空のファイルを探すには？", "-e, --empty: ファイルが空であるかどうかをテストします。"),
    ],
    ids=["word-wrapped", "one-kanji-noun"],
)
def test_a_japanese_man_pages_entry_is_found_by_its_words_as_the_page_sets_them(
    question: str, entry: str
) -> None:
    # '保持' is written across a line wrap; '空' (empty) is not the '空' of '空白' (a blank)
    assert _ask(WRAPPED_JAPANESE_MAN_PAGE, question).answer.startswith(entry)


@pytest.mark.parametrize(
    ("see_also", "question", "answer"),
    [
        (
            "The full documentation for keep is maintained as a Texinfo manual.  If the\n"
            "       info and keep programs are properly installed at your site, the command",
            "How do I read the complete manual?",
            "If the info and keep programs are properly installed at your site, the command "
            "`info keep` should give you access to the complete manual.",
        ),
        (
            "keep の完全なマニュアルは Texinfo マニュアルとして整備されている。もし、\n"
            "       info および keep のプログラムが正しくインストールされているならば、コマン\n"
            "       ド",
            "完全なマニュアルを読むには？",
            "もし、 info および keep のプログラムが正しくインストールされているならば、"
            "コマンド `info keep` を使用すると完全なマニュアルを読むことができるはずだ。",
        ),
    ],
    ids=["en", "ja"],
)
def test_a_sentence_a_command_line_interrupts_is_shown_whole(
    see_also: str, question: str, answer: str
) -> None:
    rest = "should give you access to the complete manual."
    if question.endswith("？"):
        rest = "を使用すると完全なマニュアルを読むことができるはずだ。"
    text = f"SEE ALSO\n       {see_also}\n\n              info keep\n\n       {rest}\n"
    assert _ask(text, question).answer.startswith(answer)


def test_a_cjk_question_asking_what_an_option_does_gets_its_entry() -> None:
    # the other sentences name '-v' twice; the question asks what -v itself does
    result = _ask(JAPANESE_MAN_PAGE, "-v オプションは何をしますか？")
    assert result.answer.startswith("-v, --invert: 一致の意味を逆にして、一致しない行を選びます。")
    result = _ask(TRANSLATED_MAN_PAGE, "-q 選項是什麼意思？")
    assert result.answer.startswith("-q, --quiet: 不要輸出進度訊息")


KOREAN_MAN_PAGE = """이름
       tally - 파일의 행을 셉니다

설명
       tally 는 각 파일의 행 수를 출력합니다. 기본 입력은 표준 입력입니다.
"""


def test_a_korean_question_word_is_no_name_the_documents_must_hold() -> None:
    # '무엇' (what) is written nowhere in the page: it asks, it names nothing
    result = _ask(KOREAN_MAN_PAGE, "tally 는 무엇입니까?")
    assert "tally" in result.answer


KOREAN_EXIT_STATUS = """종료 상태
       0      프로그램 실행 성공입니다.

       1      사용법 또는 구성 파일 오류입니다.

       3      하위 프로세스가 0 이 아닌 종료 상태를 반환했습니다.
"""


def test_a_korean_question_asking_what_a_status_means_gets_its_entry() -> None:
    result = _ask(KOREAN_EXIT_STATUS, "종료 상태 0은 무엇을 의미합니까?")
    assert result.answer.startswith("0: 프로그램 실행 성공입니다.")


def test_what_a_program_is_is_its_man_pages_name_line_in_any_language() -> None:
    assert _ask(MAN_PAGE, "What is demo?").answer.startswith("demo - a demonstration shell")
    # '是做什麼的' (what does it do) asks what fetch is; '做' is no word to search for
    notes = "註記\n       這樣做和 -q 選項等價。\n\n       這樣做會讓 fetch 更安靜。\n"
    result = _ask(f"{TRANSLATED_MAN_PAGE}\n{notes}", "fetch 是做什麼的？")
    assert result.answer.startswith("fetch - 下載檔案")
    result = _ask(JAPANESE_MAN_PAGE, "tally とは何ですか？")
    assert result.answer.startswith("tally - 行を数える")


@pytest.mark.parametrize(
    ("text", "question", "name_line"),
    [
        (
            f"{MAN_PAGE}\nNOTES\n       Run demo as demo --quiet to keep demo silent.\n",
            "What does demo do?",
            "demo - a demonstration shell",
        ),
        (
            f"{KOREAN_MAN_PAGE}\n       tally 를 tally.x 로 호출하면 tally 는 색을 씁니다.\n",
            "tally는 무엇을 합니까?",
            "tally - 파일의 행을 셉니다",
        ),
        (JAPANESE_MAN_PAGE, "tally は何をしますか？", "tally - 行を数える"),
    ],
    ids=["en", "ko", "ja"],
)
def test_what_a_program_does_is_its_man_pages_name_line(
    text: str, question: str, name_line: str
) -> None:
    # sentences naming the program more often say how to run it, not what it does
    assert _ask(text, question).answer.startswith(name_line)


FAQ = """# Tidekit frequently asked questions

1. How do I reset my password?
2. Can two people share one account?
3. Is my data encrypted?

(1) How do I reset my password?

Open Settings, choose Security and press Reset. A link to set a new password is sent to
the address the account was opened with.

(2) Can two people share one account?

No. Each account belongs to one person; a team plan gives every member an account of
their own.

(3) Is my data encrypted?

Yes. Files are encrypted at rest with AES-256 and in transit with TLS 1.3.
"""

FAQ_JA = """# よくある質問

パスワードを忘れた場合はどうすればよいですか？

設定画面のセキュリティから再設定を押してください。登録したメールアドレスに新しいパスワードを設定するリンクが届きます。

データは暗号化されていますか？

はい。保存時は AES-256、通信時は TLS 1.3 で暗号化されます。

共有リンクは期限を設定できますか？

設定できます。期限を過ぎたリンクは自動的に無効になります。
"""


@pytest.mark.parametrize(
    ("text", "question", "answer"),
    [
        (FAQ, "How do I reset my password?", "Open Settings, choose Security and press Reset."),
        (FAQ, "Can two people share one account?", "No."),
        (FAQ, "Is my data encrypted?", "Yes. Files are encrypted at rest with AES-256"),
        (FAQ_JA, "パスワードを忘れた場合はどうすればよいですか？", "設定画面のセキュリティ"),
        (FAQ_JA, "データは暗号化されていますか？", "はい。保存時は AES-256"),
    ],
)
def test_a_faq_question_is_answered_by_the_text_under_it_not_by_itself(
    text: str, question: str, answer: str
) -> None:
    # The FAQ asks the user's question word for word, in its contents and over its
    # answer; a question states nothing, the text under it does.
    result = _ask(text, question)
    assert answer in result.answer
    assert answer in result.citations[0].quote


SETTINGS_REFERENCE = """# Resource settings

cache_size (integer)
    Sets the amount of memory the server uses for its page cache, shared by every session
    that reads from the same tables. On a replica, set it to the same or a higher value
    than on the primary. The default is sixty-four megabytes (64MB). Larger values help
    read-heavy workloads, but a cache larger than the working set gains nothing, and
    memory given to the cache is memory the operating system cannot use for its own file
    cache, which the server relies on as well.

reserved_pages (integer)
    Sets how many pages of the cache are kept for the server's own work, whatever the
    sessions ask for. The default value is ten pages. The value must be less than
    cache_size, and is read only when the server starts.

sort_memory (integer)
    Sets the memory one sort may use before it writes its rows to temporary files on
    disk. If this value is specified without units, it is taken as kilobytes. The default
    value is four megabytes (4MB). Note that a complex query may run several sorts at the
    same time, each allowed this much memory, and several sessions may do so at once, so
    the total memory used can be many times this value; keep that in mind when choosing.

spill_factor (floating point)
    Used to compute the memory a hash may use before it spills, as a multiple of
    sort_memory. The default value is 2.0, which lets a hash use twice the usual
    sort_memory. Consider raising it where hashes spill often, especially when simply
    raising sort_memory puts the server under memory pressure that sorts do not need.
"""


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What is the default value of sort_memory?", "The default value is four megabytes"),
        ("What is the default value of cache_size?", "The default is sixty-four"),
        ("What is the default value of spill_factor?", "The default value is 2.0"),
    ],
)
def test_an_entry_s_attribute_is_answered_by_the_sentence_of_its_description_stating_it(
    question: str, answer: str
) -> None:
    # The default is stated three sentences into the entry's description, without the
    # setting's name; another entry names the setting beside a default of its own.
    result = _ask(SETTINGS_REFERENCE, question)
    assert answer in result.answer
    assert answer in " ".join(result.citations[0].quote.split())


JOURNAL_MODES = """# The WAL journal

Tidekit can keep a WAL journal instead of a rollback journal. The WAL journal is off by
default; a database in WAL mode stays in WAL mode.

There are advantages and disadvantages to using WAL instead of a rollback journal.
Advantages include:

1. WAL is faster in most workloads.
2. With WAL, readers do not block writers.

But there are also disadvantages:

1. Every process using WAL must run on the same host.
2. Very large transactions are slower with WAL.

To turn WAL on, set journal_mode to WAL. A WAL checkpoint moves the WAL back into the
database.
"""


def test_a_list_question_gets_the_list_its_lead_in_names_and_that_list_alone() -> None:
    result = _ask(JOURNAL_MODES, "What are the disadvantages of WAL?")
    assert result.answer.splitlines() == [
        "But there are also disadvantages:",
        "1. Every process using WAL must run on the same host.",
        "2. Very large transactions are slower with WAL.",
    ]


# A manual with its contents written out, a note it repeats, and a section titled by name.
MANUAL = """# Packages

Contents

- 1. Installing a package
- 2. Purging a package
- 3. RFC 42: Faster mirrors

## 1. Installing a package

Install a package with the install command. Note: run it as root.

## 2. Purging a package

Purge removes a package and the configuration files it left behind, where remove keeps
them. Note: run it as root.

## 3. RFC 42: Faster mirrors

Mirrors are now chosen by their measured speed rather than by their country. See RFC 42
for more details. Note: run it as root.
"""


def test_a_contents_entry_is_not_the_answer_its_section_is() -> None:
    result = _ask(MANUAL, "How do I purge a package?")
    assert "Purge removes a package" in result.citations[0].quote, result.answer
    assert "- 2. Purging a package" not in result.answer


def test_a_passage_written_again_elsewhere_is_cited_once() -> None:
    result = _ask(MANUAL, "Must I run it as root?")
    quotes = [" ".join(c.quote.split()) for c in result.citations]
    assert quotes.count("Note: run it as root.") == 1, quotes


def test_a_heading_naming_the_subject_before_its_subtitle_defines_it() -> None:
    result = _ask(MANUAL, "What is RFC 42?")
    assert result.answer.startswith(
        "3. RFC 42: Faster mirrors: Mirrors are now chosen by their measured speed"
    ), result.answer


CONNECTION_SETTINGS = """# Connection settings

max_sessions (integer)
    Determines the most sessions the server accepts at once. The default is typically
    100 sessions, but might be less if the kernel will not support it. This parameter can
    only be set at server start.

    When running a replica, you must set this parameter to the same or a higher value than
    on the primary. Otherwise, queries will not be allowed on the replica.

reserved_sessions (integer)
    Determines how many session slots are kept for administrators. The default value is
    three sessions. The value must be less than max_sessions. This parameter can only be
    set at server start.
"""


def test_an_entry_s_default_beats_another_entry_s_default_that_names_it() -> None:
    # The asked entry says 'default' but not 'value'; the next entry says 'default value'
    # and names the asked one; a sentence of the asked entry says 'value' alone.
    result = _ask(CONNECTION_SETTINGS, "What is the default value of max_sessions?")
    first = " ".join(result.citations[0].quote.split())
    assert "The default is typically 100 sessions" in first, result.answer


PROFILES = """# Build profiles

## opt-level

The opt-level setting controls the -C opt-level flag which controls the level of
optimization. Higher optimization levels may produce faster code at the expense of
longer builds.

## Default profiles

### dev

The dev profile is used for everyday development and debugging.

The default settings for the dev profile are:

```toml
[profile.dev]
opt-level = 0
debug = true
split-debuginfo = '...'  # Platform-specific.
strip = "none"
debug-assertions = true
overflow-checks = true
lto = false
panic = 'unwind'
incremental = true
codegen-units = 256
rpath = false
```

### release

The release profile is meant for the artifacts you ship.

The default settings for the release profile are:

```toml
[profile.release]
opt-level = 3
debug = false
split-debuginfo = '...'  # Platform-specific.
strip = "none"
debug-assertions = false
overflow-checks = false
lto = false
panic = 'unwind'
incremental = false
codegen-units = 16
rpath = false
```
"""


@pytest.mark.parametrize(
    ("question", "setting", "other"),
    [
        ("What is the default opt-level of the release profile?", "opt-level = 3", "opt-level = 0"),
        (
            "Is incremental compilation on by default in the dev profile?",
            "incremental = true",
            "incremental = false",
        ),
    ],
)
def test_a_setting_in_a_settings_block_answers_under_its_section_and_lead_in(
    question: str, setting: str, other: str
) -> None:
    result = ask(PROFILES, question)
    first = result.answer.split("\n\n")[0]
    assert first.startswith("The default settings for the")
    assert setting in first
    assert other not in first


OVERVIEW = (
    "# Configuration\n\nAn overview of every setting:\n\n```toml\n"
    + "\n".join(
        f"[{section}]\n" + "\n".join(f"{key} = {value}" for key, value in keys)
        for section, keys in [
            ("alias", [("b", '"build"'), ("c", '"check"'), ("t", '"test"')]),
            ("build", [("jobs", "1"), ("rustc", '"rustc"'), ("target-dir", '"target"')]),
            ("net", [("retry", "3   # network retries"), ("offline", "false")]),
            ("http", [("proxy", '"host:port"'), ("timeout", "30"), ("cainfo", '"cert.pem"')]),
            ("term", [("quiet", "false"), ("verbose", "false"), ("color", '"auto"')]),
        ]
    )
    + "\n```\n\nThe [alias] table defines command aliases.\n"
)


def test_a_setting_of_a_long_settings_block_is_shown_under_its_section() -> None:
    result = ask(OVERVIEW, "How many network retries are made?")
    assert result.answer.startswith("```\n[net]\nretry = 3")


def test_a_section_of_a_settings_block_is_shown_with_its_settings() -> None:
    result = ask(OVERVIEW, "How do I set an alias for a command?")
    quotes = [c.quote for c in result.citations]
    assert '[alias]\nb = "build"\nc = "check"\nt = "test"' in quotes


FLAGS_REFERENCE = """# Codegen options

## collapse-macro-debuginfo

This flag controls whether code locations from a macro definition are collapsed into a
single location, when generating debuginfo for this crate. This option, if passed,
overrides both default collapsing behavior and attributes in code.

## debuginfo

This flag controls the generation of debug information. It takes one of the following
values:

- 0 or none: no debug info at all (the default).
- 1 or limited: debug info without type or variable-level information.
- 2 or full: full debug info.

## split-debuginfo

This option controls the emission of split debuginfo for debug information that rustc
generates. The default behavior of this option is platform-specific.
"""


def test_a_sentence_stating_the_asked_attribute_belongs_to_the_section_it_is_under() -> None:
    result = ask(FLAGS_REFERENCE, "What is the default for debuginfo?")
    assert "0 or none: no debug info at all (the default)." in result.answer


# Texinfo's info format: node lines after a \x1f, option names in quotes, one per line.
INFO_MANUAL = """\x1f
File: fetch.info,  Node: Top,  Next: Download Options,  Up: (dir)

Fetch
*****

* Menu:

* Download Options::   How Fetch downloads.
* Startup File::       Fetch reads commands from ‘.fetchrc’ upon startup.

\x1f
File: fetch.info,  Node: Download Options,  Next: Directory Options,  Prev: Logging,  Up: Invoking

2.5 Download Options
====================

‘-nc’
‘--no-clobber’
     When running Fetch with ‘-N’, the decision as to whether or not to
     download a newer copy of a file depends on the local and remote
     timestamps.  ‘-nc’ may not be specified at the same time as ‘-N’.

‘-N’
‘--timestamping’
     Turn on time-stamping.  *Note Time-Stamping::, for details.

‘--no-if-modified-since’
     Do not send If-Modified-Since header in ‘-N’ mode.  Send a
     preliminary HEAD request instead.

\x1f
File: fetch.info,  Node: Startup File,  Next: Examples,  Prev: Download Options,  Up: Top

6 Startup File
**************

Fetch reads ‘.fetchrc’ upon startup, recognizing a limited set of
commands.
"""


def test_an_info_files_option_is_the_entry_its_quoted_names_name() -> None:
    result = ask(INFO_MANUAL, "What does the -N option do?")
    assert result.answer.startswith("‘-N’ ‘--timestamping’: Turn on time-stamping.")


def test_an_info_files_node_lines_are_never_cited() -> None:
    result = ask(INFO_MANUAL, "Which node comes after the startup file?")
    assert not any("Node:" in c.quote for c in result.citations)


def test_an_info_files_menu_entry_is_no_answer() -> None:
    result = ask(INFO_MANUAL, "When does Fetch read commands from .fetchrc?")
    assert result.answer.startswith("Fetch reads ‘.fetchrc’ upon startup")


SEEK_PAGE = """SEEK(1)              General Commands Manual              SEEK(1)

OPTIONS
       -O1    Reorder tests by cost: the cheapest run first.

       -mtime n
              The file's data was last modified n*24 hours ago.  A leading
              plus means more than n, a leading minus less than n.

       -size n
              The file uses n blocks of space; 1 block is 512 bytes.
"""


@pytest.mark.parametrize("question", ["What does -mtime +1 mean?", "What does -mtime=1 do?"])
def test_a_number_given_to_an_option_is_its_value_not_a_word_to_find(question: str) -> None:
    result = _ask(SEEK_PAGE, question)
    assert result.answer.startswith("-mtime n: The file's data was last modified n*24 hours ago.")
    assert "-O1" not in result.answer
    assert "512 bytes" not in result.answer
    assert not result.missing_terms  # no caution that the entry never says '1'


CODEGEN_PAGE = """# Codegen options

All of these options are passed to the compiler with the -C flag.

## opt-level

This flag controls the optimization level: -C opt-level=3 optimizes for speed.

## code-model

This flag selects the code model, the size of the address space the code may use.

## link-dead-code

Keeps dead code at link time; the relocation of unused sections is skipped.
"""


def test_the_key_an_option_sets_is_a_name_the_documents_must_write() -> None:
    # 'relocation' and 'model' are each written, the key 'relocation-model' nowhere
    absent = ask({"id": "doc", "text": CODEGEN_PAGE}, "What does -C relocation-model do?")
    assert not absent.citations
    assert "do not contain" in absent.answer
    present = _ask(CODEGEN_PAGE, "What does -C code-model do?")
    assert "selects the code model" in present.answer


CITED_PAGE = """# Stack protection

Stack smashing protection guards the return address with a random canary value.

Shadow stacks keep return addresses in a second, protected stack.

## References

1. A. Writer. "Add stack smashing protection to the compiler #84197." GitHub. https://example.org/84197
2. B. Writer. "Stack smashing protection tracking issue #12345." GitHub. https://example.org/12345
"""


def test_a_list_of_works_cited_names_works_rather_than_answering() -> None:
    result = _ask(CITED_PAGE, "What does stack smashing protection do?")
    assert result.answer.startswith("Stack smashing protection guards the return address")
    assert "GitHub" not in result.answer


FORCE_PAGE = """PACK(1)              General Commands Manual              PACK(1)

OPTIONS
       -k, --keep
              Don't delete the input files.

       -f, --force
              This option has several effects:

              •  If the target file already exists, delete it before packing.

              •  Pack even if the input is a symbolic link to a regular file.
"""


def test_an_entry_whose_description_opens_with_a_lead_in_answers_with_its_list() -> None:
    result = _ask(FORCE_PAGE, "What does --force do?")
    assert result.answer.startswith(
        "-f, --force: This option has several effects:\n"
        "- If the target file already exists, delete it before packing.\n"
        "- Pack even if the input is a symbolic link"
    )


LOCKED_PAGE = """PACK(1)              General Commands Manual              PACK(1)

OPTIONS
       --locked
              Asserts that the lock file is used as it stands. The tool exits with an
              error when either of the following arises:

              •  The lock file is missing.

              •  The lock file would have to change.

       --offline
              Never touch the network.
"""


def test_an_entry_read_on_to_a_lead_in_brings_its_list() -> None:
    result = _ask(LOCKED_PAGE, "What does --locked do?")
    assert result.answer == (
        "--locked: Asserts that the lock file is used as it stands. The tool exits with an "
        "error when either of the following arises:\n"
        "- The lock file is missing.\n"
        "- The lock file would have to change."
    )


SETUP_CHECKLIST = """# Setup

Before you start, check the following:

- Node.js 18 or later is installed on the machine.
- The registry token is exported in your shell. To export the registry token, add this line
  to your profile:

  ```
  export NPM_TOKEN=abc
  ```

- Port 8080 is free.
"""


def test_a_list_item_read_on_to_its_code_does_not_bring_the_list_around_it() -> None:
    result = _ask(SETUP_CHECKLIST, "What must be exported in your shell?")
    assert "The registry token is exported in your shell." in result.answer
    assert "Node.js 18" not in result.answer


FROZEN_PAGE = """PACK(1)              General Commands Manual              PACK(1)

OPTIONS
       --frozen
              Requires the lock file and the cache to be up to date. It implies
              the offline mode for all registry access. The tool fails when one of
              these holds:

              •  The lock file is missing.

              •  The cache is stale.

       --offline
              Never touch the network.
"""


def test_a_description_read_on_to_a_lead_in_keeps_its_first_sentence() -> None:
    # the hit is the second sentence, 'It implies ...': what 'It' is must stay
    result = _ask(FROZEN_PAGE, "What does offline mode for registry access mean with --frozen?")
    assert result.answer.startswith("--frozen: Requires the lock file and the cache to be up")
    assert result.answer.endswith("- The cache is stale.")


STRINGS_CHAPTER = """## Updating a String

We can grow a String by using the push_str method to append a string slice. The push_str
method takes a string slice because we don't want to take ownership of the parameter. If
the push_str method took ownership of s2, we could not print its value afterwards. Calling
push_str twice appends both slices, and push_str never reallocates more than it needs.

The push method takes a single character as a parameter and adds it to the String.
"""


def test_a_question_comparing_two_things_is_answered_with_each() -> None:
    # every push_str sentence also holds the word 'push' and outranks the push sentence
    result = _ask(STRINGS_CHAPTER, "What is the difference between push and push_str?")
    push_str, push = result.answer.split(". The push method")
    assert "push_str" in push_str
    assert push.startswith(" takes a single character")
    man = _ask(FORCE_PAGE, "How does --keep differ from --force?")
    assert "-k, --keep: Don't delete the input files." in man.answer
    assert "-f, --force: This option has several effects:" in man.answer


KOREAN_PACKER = """PACK(1)              General Commands Manual              PACK(1)

동작
       -z, --compress
              압축합니다.

       -d, --decompress
              압축을 해제합니다.

       -t, --test
              압축 파일의 무결성을 시험합니다. 압축 해제 데이터는 버립니다.

메모리 사용
       압축 해제시 메모리 사용량은 압축 해제 프로그램마다 다릅니다. 압축 해제
       속도는 압축 해제 프로그램의 메모리 사용량과 압축 해제 데이터에 달려
       있습니다.
"""


@pytest.mark.parametrize(
    "question", ["압축 해제하려면 어떤 옵션을 사용합니까?", "어떻게 압축을 해제합니까?"]
)
def test_a_korean_how_to_question_reaches_the_entry_doing_it(question: str) -> None:
    # '압축' and '해제' fill the memory section; the entry's description says the action
    result = _ask(KOREAN_PACKER, question)
    assert result.answer.startswith("-d, --decompress: 압축을 해제합니다.")


GLOSSED_README = """# textfix

textfix repairs text in many ways. It can fix mojibake (encoding mix-ups), by detecting
patterns of characters that were meant to be UTF-8 but were decoded as something else.

A string of mojibake usually holds all the information needed to recover the original.

textfix can fix several layers of mojibake at once, and mojibake inside quotes.
"""


def test_a_gloss_in_brackets_after_a_word_defines_it() -> None:
    result = _ask(GLOSSED_README, "What is mojibake?")
    assert result.answer.startswith("It can fix mojibake (encoding mix-ups)")


JAPANESE_SORTER = """SORT(1)              General Commands Manual              SORT(1)

名前
       sort - テキストファイルの行をソートする

説明
       キーのソートオプションは、グローバルなソートオプションより優先されます。

       -n, --numeric-sort
              文字列を数値とみなして比較する

       -r, --reverse
              比較結果を逆順にする
"""

CHINESE_ARCHIVER = """TAR(1)              General Commands Manual              TAR(1)

描述
       新存档的选项按功能分组。创建存档的每个选项都有短名和长名，存档选项可以合并。

       -c, --create
              创建一个新的存档

       -t, --list
              列出存档的内容
"""


@pytest.mark.parametrize(
    ("page", "question", "entry"),
    [
        (JAPANESE_SORTER, "逆順にソートするにはどのオプションを使いますか？", "-r, --reverse"),
        (CHINESE_ARCHIVER, "要创建新的存档用哪个选项？", "-c, --create"),
    ],
)
def test_which_option_to_use_asks_in_japanese_and_chinese_for_the_entry(
    page: str, question: str, entry: str
) -> None:
    # 'オプション' / '选项' fill the opening paragraph: the question's frame, not its content
    assert _ask(page, question).answer.startswith(entry)


FLAGS_CHAPTER = """# Command-line arguments

## -o/--out-dir: output directory path

Using this flag looks like this:

```
$ tool src/lib.rs -o target/doc
```

By default, the tool's output appears in a directory named doc. With this flag, it will
place all output into the directory you specify.

## --theme: add a theme

Giving a CSS file to this flag adds it to your documentation as a theme choice.
"""


def test_this_flag_anywhere_in_a_section_reads_after_the_flags_heading() -> None:
    result = _ask(FLAGS_CHAPTER, "How do I set the output directory?")
    assert "-o/--out-dir: output directory path — With this flag, it will place" in result.answer


GREP_PAGE = """GREP(1)              General Commands Manual              GREP(1)

OPTIONS
       -i, --ignore-case
              Ignore case distinctions in patterns and input data.

       -T threads, --threads=threads
              Use this many worker threads.  Setting threads to the special
              value 0 uses as many threads as there are processors.
"""


def test_a_word_after_a_lowercase_option_is_no_key_the_documents_must_write() -> None:
    # 'case-insensitive' is no key of -i, as 'relocation-model' is of rustc's -C
    assert _ask(GREP_PAGE, "Is -i case-insensitive?").answer.startswith("-i, --ignore-case")


def test_a_number_given_to_an_option_still_finds_what_the_entry_says_of_it() -> None:
    assert "special value 0 uses as many threads" in _ask(GREP_PAGE, "What does -T 0 do?").answer


def test_brackets_that_point_or_give_a_unit_gloss_nothing() -> None:
    text = (
        "Every download is checked against the cache (see below) before it starts.\n\n"
        "The fetch stops after the timeout (in seconds) has passed.\n\n"
        "The cache is a folder of earlier downloads, kept for a day.\n\n"
        "The timeout is the longest wait for a reply.\n"
    )
    assert _ask(text, "What is the cache?").answer.startswith("The cache is a folder")
    assert _ask(text, "What is the timeout?").answer.startswith("The timeout is the longest")


def test_prose_under_a_heading_named_references_is_no_list_of_works() -> None:
    page = (
        "# C++ basics\n\n## Pointers\n\nA pointer can be null, and it can be reseated.\n\n"
        "## References\n\nA reference always refers to the same object and cannot be null.\n"
    )
    assert _ask(page, "Can a reference be null?").answer.startswith("A reference always refers")


PRESET_PAGE = """PACK(1)              General Commands Manual              PACK(1)

OPTIONS
       -z, --compress
              Compress.  This is the default operation mode.

       -d, --decompress
              Decompress.

NOTES
       The most important difference is how dictionary sizes are mapped to
       presets.  The differences between old and new presets are small.
"""


def test_the_words_of_a_comparison_are_no_search_words() -> None:
    result = _ask(PRESET_PAGE, "How does -z differ from -d?")
    assert "-z, --compress: Compress." in result.answer
    assert "-d, --decompress: Decompress." in result.answer
    assert not any("difference" in c.quote for c in result.citations)


NODE_API_REFERENCE = """# URL

#### `url.hash`

* {string}

Gets and sets the fragment portion of the URL.

#### `url.pathname`

* {string}

Gets and sets the path portion of the URL.

#### `url.port`

* {string}

Gets and sets the port portion of the URL.
"""


def test_a_type_alone_under_an_api_entry_is_its_field_not_its_description() -> None:
    result = _ask(NODE_API_REFERENCE, "What does url.pathname return?")
    assert result.answer.startswith("`url.pathname`: Gets and sets the path portion of the URL.")


SERVER_API = """# net

### `server.listen()`

Start a server listening for connections. A `net.Server` can be a TCP or
an IPC server depending on what it listens to.

### `server.listening`

<!-- YAML
added: v5.7.0
-->

* {boolean} Indicates whether or not the server is listening for connections.

### `server.maxConnections`

* {integer}

When the number of connections reaches the `server.maxConnections` threshold,
the server stops listening to new connections.
"""


def test_a_dotted_name_is_searched_as_written() -> None:
    # 'listening' stems to 'listen': the words alone find server.listening first
    result = _ask(SERVER_API, "What does server.listen() do?")
    assert result.answer.startswith("`server.listen()`: Start a server listening for connections.")


CALL_API = """# queue

Work queues for background jobs.

### `queue.pause([drain])`

<!-- YAML
added: v1.2.0
-->

* `drain` {boolean} Finish the jobs already started. **Default:** `true`
* Returns: {queue.Queue} The queue itself.

Stops the queue from starting new jobs.

Jobs added while the queue is paused wait until `queue.resume()` is called.

### `queue.push(job[, options])`

<!-- YAML
added: v1.0.0
-->

* `job` {Function}
* `options` {Object}
  * `priority` {integer} Jobs of a higher priority start first. **Default:** `0`.
  * `signal` {AbortSignal} Lets the job be cancelled before it starts.
* Returns: {integer} How many jobs were added to the queue so far.

Adds a job at the end of the queue. Call `queue.pause()` to hold the jobs back.
"""


@pytest.mark.parametrize(
    ("question", "opening"),
    [
        # the parameters and result come first; the call's description says what it does
        ("What does queue.pause() do?", "`queue.pause([drain])`: Stops the queue from starting"),
        # ... past an options object and the options nested in it
        ("What does queue.push() do?", "`queue.push(job[, options])`: Adds a job at the end"),
        # ... and what it returns is its 'Returns:' line
        ("What does queue.push() return?", "`queue.push(job[, options])` — Returns: {integer}"),
    ],
)
def test_a_call_reads_as_its_description_past_its_parameters(question: str, opening: str) -> None:
    assert _ask(CALL_API, question).answer.startswith(opening)


WORKER_API = """# worker

### `worker.stopped`

* {boolean} Set to `true` after `worker.stop()` is used to stop the worker.

The `worker.stopped` property tells whether the worker was stopped with `worker.stop()`.

### `worker.stop([code])`

* `code` {integer} The exit code the worker reports.
* Returns: {boolean}

Ends the worker's thread as soon as its current task returns.
"""


def test_a_calls_result_answers_only_what_is_asked_of_it() -> None:
    # the Returns line says 'added' and 'queue' in fewer words than the description; the
    # description reads with the call it describes, which the reader is after
    result = _ask(CALL_API, "How do I add a job to the queue?")
    assert result.answer.startswith("`queue.push(job[, options])`: Adds a job at the end of")
    assert "Returns" not in result.answer


def test_a_how_to_question_reaches_the_call_doing_it() -> None:
    # 'background' is nowhere: the call is named by its verb alone, and the answer says
    # which call it is, not only what it does
    for question in ("How do I stop a worker?", "How do I stop the background thread?"):
        answer = _ask(WORKER_API, question).answer
        assert answer.startswith("`worker.stop([code])`: Ends the worker's thread")


KILL_API = """# Pool

### `pool.killed`

* {boolean} Set to `true` after `pool.kill()` has sent its signal to the pool's worker.

The `pool.killed` property tells whether the pool's worker received the signal from
`pool.kill()`; a killed worker may still be running.

### `pool.kill([signal])`

* `signal` {string} **Default:** `'SIGTERM'`.
* Returns: {boolean}

Sends a signal to the pool's worker. It returns `true` if the signal was sent.
"""


def test_a_how_to_question_gets_the_call_not_the_state_it_leaves() -> None:
    # the state's section names killing and the worker more often than the call's does
    answer = _ask(KILL_API, "How do I kill the pool's worker?").answer
    assert answer.startswith("`pool.kill([signal])`: Sends a signal to the pool's worker.")


def test_a_question_asking_whether_gets_the_state() -> None:
    answer = _ask(KILL_API, "How do I check whether the pool's worker was killed?").answer
    assert "The `pool.killed` property tells whether" in answer.split(". ")[0]


SETTINGS_API = """# Settings

### `config.logging`

* {Object}

Logging is configured by assigning an object with `level` and `file` to `config.logging`,
for example `{ level: 'debug', file: 'app.log' }`.

### `config.retries`

* {number} **Default:** `3`

The number of retries. Retries are logged at the configured logging level when
logging is configured.

### `config.encoding`

* {string} **Default:** `'utf8'`

Set the encoding by assigning a name such as `'latin1'` to `config.encoding`.

### `config.timeout`

* {number}

The timeout before a request fails. A request that fails is retried, and its encoding
is kept as configured when the encoding was set before.
"""


@pytest.mark.parametrize(
    ("question", "opening"),
    [
        # 'logging' and 'encoding' name settings, not states: their sections say how
        ("How do I configure logging?", "Logging is configured by assigning an object"),
        ("How do I set the encoding?", "Set the encoding by assigning a name"),
    ],
)
def test_a_setting_named_in_ing_is_no_state(question: str, opening: str) -> None:
    assert _ask(SETTINGS_API, question).answer.startswith(opening)


CAMEL_CASE_API = """# Tides

### `tides.addWatcher(port, watcher)`

* `port` {string}
* `watcher` {Function}

Calls `watcher` whenever the tide at `port` turns.

### `tides.removeWatcher(port, watcher)`

* `port` {string}
* `watcher` {Function}

Stops calling `watcher` for the tides at `port`.

Once removed, a watcher is not called again, even for a turn already under way.
"""


def test_a_how_to_question_in_plain_words_reaches_the_call_named_in_camel_case() -> None:
    answer = _ask(CAMEL_CASE_API, "How do I remove a watcher?").answer
    assert answer.startswith("`tides.removeWatcher(port, watcher)`: Stops calling `watcher`")


TYPED_API = """# Emitter

### on(event: string, listener: Function): this

Adds the listener at the end of the event's listeners.

### off(event: string, listener: Function): this

Removes the listener from the event's listeners. The listener array is removed when no
listener is left, and a removed listener is never called again.
"""


def test_a_typed_signature_heading_is_a_call_too() -> None:
    answer = _ask(TYPED_API, "How do I remove a listener?").answer
    assert answer.startswith("off(event: string, listener: Function): this: Removes the listener")


STRING_API = """# Methods

### pub fn trim_left(&self) -> &str

Deprecated: superseded by trim_start. Returns the string trimmed of leading whitespace,
as trim_start does; trim it again and it stays as it is.

### pub fn trim_right(&self) -> &str

Deprecated: superseded by trim_end. Returns the string trimmed of trailing whitespace,
as trim_end does; trim it again and it stays as it is.

### pub fn trim(&self) -> &str

Returns a string slice with leading and trailing whitespace removed.
"""


def test_a_call_is_named_by_all_of_its_name() -> None:
    # 'trim' is a word of trim_left's name, and its section says 'trim' four times
    answer = _ask(STRING_API, "What does trim do?").answer
    assert answer.startswith("pub fn trim(&self) -> &str: Returns a string slice with leading")


ITERATOR_API = """# Provided methods

### fn map<B, F>(self, f: F) -> Map<Self, F> where F: FnMut(Self::Item) -> B

Takes a closure and creates an iterator which calls that closure on each element.

map() is conceptually similar to a for loop.

### fn count(self) -> usize

Consumes the iterator, counting the number of iterations and returning it.
"""


def test_a_calls_signature_is_its_definition_before_a_sentence_saying_what_it_is() -> None:
    answer = _ask(ITERATOR_API, "What does map do?").answer
    assert answer.startswith("fn map<B, F>(self, f: F) -> Map<Self, F> where F: FnMut(Self::Item)")


FILES_API = """# Files

### `files.mkdtemp(prefix)`

Creates a unique temporary directory whose name starts with `prefix`.

### `files.mkdir(path[, options])`

* `path` {string}
* `options` {Object}
  * `recursive` {boolean} Create the missing parents too. **Default:** `false`.

Asynchronously creates a directory.
"""


def test_a_description_opening_with_an_adverb_does_what_its_verb_does() -> None:
    answer = _ask(FILES_API, "How do I create a directory recursively?").answer
    assert answer.startswith("`files.mkdir(path[, options])`: Asynchronously creates a directory.")


PACK_API = """# pack

### `pack.squeezeSync(buffer[, options])`

* `buffer` {Buffer|TypedArray|DataView|ArrayBuffer|string}
* `options` {pack options}

Squeezes a chunk of data with the default packer.
"""


def test_a_parameter_of_a_union_type_is_a_field_too() -> None:
    answer = _ask(PACK_API, "How do I squeeze a buffer?").answer
    assert answer.startswith("`pack.squeezeSync(buffer[, options])`: Squeezes a chunk of data")


PACKERS = """# Packers

### Class: `pack.Squeeze`

Packs data using squeeze.

### Class: `pack.SqueezeRaw`

Packs data using squeeze, and do not append a header.

[`Squeeze`]: #class-packsqueeze
[`SqueezeRaw`]: #class-packsqueezeraw
"""


def test_a_link_reference_definition_is_no_answer_nor_evidence() -> None:
    result = _ask(PACKERS, "What is the difference between Squeeze and SqueezeRaw?")
    assert "#class-" not in result.answer
    assert all("#class-" not in c.quote for c in result.citations)


GUIDE_WITH_BOLD_HEADINGS = """# Files

**write (NOT RECOMMENDED)**

```
open(path, 'w', (err, fd) => { write(fd); });
```

**write (RECOMMENDED)**

To write to a file, open it with the `'w'` flag and write `buffer` to the file.
"""


def test_a_bold_heading_ending_in_brackets_is_no_call_signature() -> None:
    result = _ask(GUIDE_WITH_BOLD_HEADINGS, "How do I write to a file?")
    assert "NOT RECOMMENDED" not in result.answer


@pytest.mark.parametrize(
    ("question", "attribute"),
    [
        ("What does queue.push() return?", ["return"]),
        ("What will the call return?", ["return"]),
        ("What should I do when the request returns?", []),
        ("What does it mean when fetch returns?", []),
        ("What does the socket.setNoDelay method return?", ["return"]),
    ],
)
def test_what_a_call_returns_is_asked_as_its_attribute(question: str, attribute: list[str]) -> None:
    assert attribute_terms(question) == attribute


CLIENT_API = """# Client API

## `client.connect`

Opens a session to the server and waits until the handshake completes.

## `client.close`

Ends the session. Pending requests fail with an error after this call.

## Sessions

A session ends when the server drops it or when you call the close method on a client
that was connected earlier; reconnecting is then required.
"""

ALLOCATOR_API = """# Buffer

## `Buffer.from()`, `Buffer.alloc()`, and `Buffer.allocUnsafe()`

In versions before 6.0.0, buffers were created by a constructor that allocated them
differently based on what arguments were given.

### Static method: `Buffer.alloc(size[, fill])`

Allocates a new `Buffer` of `size` bytes, filled with zeros unless `fill` is given.
"""


@pytest.mark.parametrize(
    ("text", "question", "opening"),
    [
        # a call named without its brackets is a call, not a state like 'worker.stopped'
        (CLIENT_API, "How do I close a client?", "`client.close`: Ends the session."),
        # a signature after its kind; a heading naming three calls is no one call's
        (ALLOCATOR_API, "What does Buffer.alloc() do?", "Static method: `Buffer.alloc(size"),
    ],
)
def test_a_calls_heading_is_read_as_written(text: str, question: str, opening: str) -> None:
    assert _ask(text, question).answer.startswith(opening)


def test_a_parameter_of_a_call_still_answers_for_itself() -> None:
    result = _ask(CALL_API, "What is the default value of drain?")
    assert "Finish the jobs already started. Default: `true`" in result.answer


PRINT_TERMS = """1. DEFINITIONS

A "Draft" copy of the Manual means a copy that still carries the editors' marks, made
for review by the authors and not for sale.

A copy that is not "Draft" is called "Final".

2. PRINTING

If you send Final copies of the Manual to a printer, you must include a Draft copy with
each Final copy, or state where the printer can fetch a complete Draft copy.

If you use the latter option, keep the Draft copy available until the last Final copy
is printed (directly or through your agents).
"""


def test_a_comparison_of_two_defined_terms_is_answered_by_both_definitions() -> None:
    result = _ask(PRINT_TERMS, "What is the difference between a Draft copy and a Final copy?")
    assert result.answer == (
        'A "Draft" copy of the Manual means a copy that still carries the editors\' marks, '
        'made for review by the authors and not for sale. A copy that is not "Draft" is '
        'called "Final".'
    )


FRAMED_LICENCE = """4. Termination

This License ends when You break its terms.

************************************************************************
*                                                                      *
*  5. Disclaimer of Warranty                                           *
*  -------------------------                                           *
*                                                                      *
*  The Program is provided under this License on an "as is" basis,     *
*  without warranty of any kind. Should the Program prove defective    *
*  in any respect, You (not any Contributor) assume the cost of any    *
*  necessary servicing, repair, or correction.                         *
*                                                                      *
************************************************************************
"""


def test_a_notice_in_a_frame_reads_as_the_text_inside_it() -> None:
    result = _ask(FRAMED_LICENCE, "Who pays for servicing if the Program is defective?")
    assert result.answer == (
        "Should the Program prove defective in any respect, You (not any Contributor) "
        "assume the cost of any necessary servicing, repair, or correction."
    )


VAULTD_MAN_PAGE = """VAULTD(8)                System Manager's Manual                VAULTD(8)

NAME
       vaultd - keep encrypted keys for local services

DESCRIPTION
       vaultd keeps the encrypted keys of local services. A key is encrypted
       with the master passphrase and compared against the stored copy when a
       service asks for it. Keys that have been stored for longer than the
       rotation period are encrypted again with a fresh salt.

FILES
       /etc/vaultd.conf
           Configuration of the daemon.

       /var/lib/vaultd/keys.db
           The encrypted keys.
"""

VAULTD_MAN_PAGE_JA = """VAULTD(8)                System Manager's Manual                VAULTD(8)

名前
       vaultd - ローカルサービスの暗号化された鍵を管理する

説明
       vaultd はローカルサービスの暗号化された鍵を管理する。 鍵はマスターパスフ
       レーズで暗号化され、サービスが要求すると記録された鍵と照合される。 長く
       使われた鍵は新しいソルトで暗号化し直される。

ファイル
       /etc/vaultd.conf - デーモンの設定
       /var/lib/vaultd/keys.db - 暗号化された鍵
"""


@pytest.mark.parametrize(
    ("page", "question"),
    [
        (VAULTD_MAN_PAGE, "Where are the encrypted keys stored?"),
        (VAULTD_MAN_PAGE_JA, "暗号化された鍵はどこに保存されていますか？"),
    ],
)
def test_where_in_a_manual_is_answered_by_a_files_path(page: str, question: str) -> None:
    # the prose says 'encrypted' and 'keys' more often; where they are is a path
    answer = _ask(page, question).answer
    assert answer.startswith("/var/lib/vaultd/keys.db"), answer


BUNDLES_POLICY = """Bundles

Packages must not ship bundles of their own. The build tools unpack bundles into the
package tree before they are installed, and bundles left in a source tree are removed.

The archive format is described in the packaging guide, which introduces a sealed
archive called "bundles", which is a tar file holding the code and a manifest.

Bundles built for the test suite are kept out of the binary packages. Only pure-code
bundles are accepted upstream; bundles with native code are rebuilt from source.
"""


def test_a_sentence_introducing_the_asked_thing_by_its_quoted_name_defines_it() -> None:
    # the other sentences name bundles more often, and shorter; this one says what they are
    answer = _ask(BUNDLES_POLICY, "What is a bundle?").answer
    assert answer.startswith("The archive format is described in the packaging guide"), answer


SUPPORTED_VERSIONS = """Versions

A comma-separated list of several versions (e.g. 3.3, 3.4) in the Runtime-Version field
will continue to be supported, but is not recommended. Lists of versions in the
Runtime3-Version field are not supported for later releases. There may be newer supported
or unsupported versions in the archive. They now support both new and older versions.

The set of currently supported runtime versions can be found in the defaults file; the
supported interface to this information is the versions tool, which prints the set of
currently supported runtime versions. The company behind the runtime was founded in 2009.
"""


def test_where_can_i_find_is_answered_by_where_it_can_be_found() -> None:
    answer = _ask(SUPPORTED_VERSIONS, "Where can I find the supported runtime versions?").answer
    assert answer.startswith("The set of currently supported runtime versions can be found"), answer


VIM_MARKS_HELP = """*usr_09.txt*\tFor Vim version 9.0.  Last change: 2021 Feb 22

==============================================================================
*09.2*\tMarking places

A mark remembers a position in the file, and the cursor can jump to a mark.
Marks stay in place when the cursor moves to another file.

To set mark a at the cursor: >

\tma

To jump back to mark a later: >

\t'a

A mark set at the cursor before a big jump is kept for you in the ' mark.
"""


def test_a_how_to_restated_by_a_lead_in_is_answered_by_it_and_its_example() -> None:
    # Vim's help: the lead-in says what the question says, and its example is the answer
    answer = _ask(VIM_MARKS_HELP, "How do I set mark a at the cursor?").answer
    assert answer.startswith("To set mark a at the cursor:\n```\nma\n```"), answer


RELEASE_NOTES = """Version 1.66.0 (2022-12-15)
==========================

Language
--------
- [Permit specifying explicit discriminants on all `repr(Int)` enums](https://github.com/rust-lang/rust/pull/95710/)
- [Allow transmutes between the same type differing only in lifetimes](https://github.com/rust-lang/rust/pull/101520/)

Version 1.65.0 (2022-11-03)
==========================

Language
--------
- [Error on `as` casts of enums with `#[non_exhaustive]` variants](https://github.com/rust-lang/rust/pull/92744/)
- [Stabilize `let else`](https://github.com/rust-lang/rust/pull/93628/)
- [Stabilize generic associated types (GATs)](https://github.com/rust-lang/rust/pull/96709/)

Version 1.64.0 (2022-09-22)
==========================

Language
--------
- [Unions with mutable references or tuples of allowed types are now allowed](https://github.com/rust-lang/rust/pull/97995/)
- It is now considered valid to deallocate memory pointed to by a shared reference
  `&T` [if every byte in `T` is inside an `UnsafeCell`](https://github.com/rust-lang/rust/pull/98017/)
- `let` statements are now allowed in const functions.
"""


def test_a_changelog_item_linked_to_its_pull_request_says_what_changed() -> None:
    # the item is a link alone, as a table of contents' entries are, but to the change
    answer = _ask(RELEASE_NOTES, "Which version stabilized let-else statements?").answer
    assert answer.startswith("Version 1.65.0 (2022-11-03): Stabilize `let else`"), answer


FILES_REFERENCE = """# Files

## `files.read(path)`

Reads the whole file at `path` and returns its contents. A file deleted while it is
read raises an error; so does a path that names a deleted directory.

## `files.unlink(path)`

Removes a file or symbolic link. Directories are left alone.

## `files.copy(src, dest)`

Copies `src` to `dest`, replacing a file that is there.
"""

COPY_MAN_PAGE = """OPTIONS
       -f, --force
              if an existing destination file cannot be opened, remove it and try
              again; asks nothing before overwriting a file

       -i, --interactive
              prompt before overwrite (overrides a previous -n option)

       -n, --no-clobber
              do not overwrite an existing file
"""


EMITTER_REFERENCE = """# Events

## `emitter.on(eventName, listener)`

Adds the `listener` function to the end of the listeners array for the event. Each
listener added runs every time the event is emitted.

## `emitter.once(eventName, listener)`

Adds a one-time `listener` function for the event named `eventName`.

## `emitter.any(eventNames)`

Tests whether a listener is registered for at least one of the events named.
"""


@pytest.mark.parametrize(
    ("question", "entry"),
    [
        ("How do I add a listener that runs only once?", "`emitter.once(eventName, listener)`"),
        ("What does any do?", "`emitter.any(eventNames)`"),
    ],
)
def test_a_stopword_the_reference_writes_as_a_call_name_asks_for_that_call(
    question: str, entry: str
) -> None:
    # 'once' and 'any' are words of grammar in prose, names in this reference
    answer = _ask(EMITTER_REFERENCE, question).answer
    assert answer.startswith(entry), answer


SEARCH_PATH = """Setting up

Unpack the archive. Then set the environment variable named "PATH" to include the bin
directory.

PATH is a colon-separated list of directories in which the shell looks for commands.
"""


def test_an_instruction_naming_a_thing_in_quotes_does_not_define_it() -> None:
    answer = _ask(SEARCH_PATH, "What is PATH?").answer
    assert answer.startswith("PATH is a colon-separated list"), answer


PACKAGE_FIELDS = """# package.json

## files

Certain files are always included, regardless of settings: the file in the `main` field,
the files named in the `bin` field and the README. Files listed in `.npmignore` are left
out unless the `files` field names them.

The optional `files` field is an array of file patterns that describes the entries to be
included when your package is installed as a dependency.
"""


def test_a_sentence_defining_a_code_quoted_name_after_an_adjective_is_its_definition() -> None:
    answer = _ask(PACKAGE_FIELDS, "What does the files field do?").answer
    assert answer.startswith("The optional `files` field is an array of file patterns"), answer


LISTING_MAN_PAGE = """OPTIONS
       -l     use a long listing format

       -r, --reverse
              reverse order while sorting

       -S     sort by file size, largest first

       -U     do not sort; list entries in directory order

       --sort=WORD
              sort by WORD instead of name: none (-U), size (-S), time (-t)
"""


@pytest.mark.parametrize(
    ("text", "question", "entry"),
    [
        # the entry doing the action in other words: 'Removes' deletes, 'prompt' asks,
        # where other entries name the question's own verb in passing
        (FILES_REFERENCE, "How do I delete a file?", "`files.unlink(path)`"),
        (COPY_MAN_PAGE, "How do I make cp ask before overwriting?", "-i, --interactive"),
        # the entry that does not do what the question does without, where the entries
        # that sort (or copy) name the question's words as often
        (LISTING_MAN_PAGE, "How do I list files without sorting?", "-U: do not sort"),
        (COPY_MAN_PAGE, "How do I copy without overwriting existing files?", "-n, --no-clobber"),
    ],
)
def test_a_how_to_finds_the_entry_doing_its_action_as_the_manual_words_it(
    text: str, question: str, entry: str
) -> None:
    answer = _ask(text, question).answer
    assert answer.startswith(entry), answer


# A licence's preface, as NVIDIA's CUDA EULA lays it out: each platform a label on a line of
# its own, the place it names a paragraph of one line under it.
INSTALL_LOCATIONS = """\
Default Install Location of the Toolkit

Windows platform:

%ProgramFiles%\\Vendor GPU Toolkit\\v#.#

Linux platform:

/usr/local/toolkit-#.#

Mac platform:

/Developer/Vendor/Toolkit-#.#


Default Install Location of the Samples

Windows platform:

%ProgramData%\\Vendor Samples\\v#.#

Linux platform:

/usr/local/toolkit-#.#/samples

and

$HOME/Vendor_Toolkit-#.#_Samples

Mac platform:

/Developer/Vendor/Toolkit-#.#/samples


Description

The toolkit provides compilers, libraries and tools for building applications.
"""


@pytest.mark.parametrize(
    ("question", "place", "elsewhere"),
    [
        ("What is the default install location on Linux?", "/usr/local/toolkit-#.#", "Mac"),
        (
            "Where are the samples installed on Linux?",
            "/usr/local/toolkit-#.#/samples and $HOME/Vendor_Toolkit-#.#_Samples",
            "/Developer",
        ),
        ("Where is the toolkit installed on a Mac?", "/Developer/Vendor/Toolkit-#.#", "Linux"),
    ],
)
def test_a_label_alone_on_its_line_is_answered_with_the_lines_it_names(
    question: str, place: str, elsewhere: str
) -> None:
    # The label alone ('Linux platform:') said nothing, and the path under it, read as a
    # title, answered nothing; another platform's place must not read as more of it.
    answer = _ask(INSTALL_LOCATIONS, question).answer.split("\n")[0]
    assert place in answer, answer
    assert elsewhere not in answer, answer


# A lint reference as rustc's book shows it: a contents list of the lints' names, then a
# section for each, titled by its anchor ('unused-must-use' for 'unused_must_use').
LINT_REFERENCE = "# Warn-by-default Lints\n\nThese lints are all set to the 'warn' level.\n\n" + (
    "\n".join(f"- {name}" for name in ("unused_labels", "unused_macros", "unused_must_use"))
    + "\n\n"
    + "\n\n".join(
        f"## {name.replace('_', '-')}\n\nThe {name} lint detects {what}.\n\n"
        f"### Explanation\n\n{why}\n"
        for name, what, why in (
            ("unused_labels", "labels that are never used", "Unused labels may be a mistake."),
            ("unused_macros", "macros that were not used", "Unused macros may signal a bug."),
            (
                "unused_must_use",
                "unused result of a type flagged as #[must_use]",
                "Ignoring a #[must_use] value is most likely a mistake.",
            ),
        )
    )
)


def test_a_contents_entry_naming_a_section_by_its_anchor_is_no_answer() -> None:
    result = _ask(LINT_REFERENCE, "What does the unused_must_use lint detect?")
    assert result.answer.startswith("The unused_must_use lint detects unused result"), result.answer
    assert "unused_macros" not in result.answer, result.answer
    assert not any(c.quote.startswith("- ") for c in result.citations), result.citations


# A licence's boilerplate notice: its sentence left open at a line's end, the address it ends
# with indented on a line of its own.
NOTICE = """\
APPENDIX: How to apply the Tidepool License to your work.

   Copyright [yyyy] [name of copyright owner]

   Licensed under the Tidepool License, Version 3.0 (the "License");
   you may not use this file except in compliance with the License.
   You may obtain a copy of the License at

       https://www.tidepool.example/licenses/LICENSE-3.0

   Unless required by applicable law or agreed to in writing, software
   distributed under the License is distributed on an "AS IS" BASIS.
"""


def test_a_sentence_left_open_is_read_with_the_indented_line_ending_it() -> None:
    result = _ask(NOTICE, "Where can I obtain a copy of the License?")
    read = "You may obtain a copy of the License at `https://www.tidepool.example/licenses/"
    assert read in result.answer, result.answer


CONTACT = """# Contact

Email:

help@example.com

Phone:

+47 22 00 00 00

Office hours are weekdays from nine to four, except public holidays in Norway.

Linux platform:

/usr/local/toolkit

The installer needs root access, and it refuses to overwrite an existing toolkit unless it
is given the --force option on its command line.

She said:

Keep it dry.

Check the seals twice a year.
"""


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What is the phone number?", "Phone: +47 22 00 00 00"),
        ("What is the email address?", "Email: help@example.com"),
        # what follows a label and its line is no more of it, nor is a sentence under one
        ("Does the installer overwrite an existing toolkit?", "The installer needs root"),
        ("What are the office hours?", "Office hours are weekdays"),
        ("How often should the seals be checked?", "Check the seals twice a year."),
    ],
)
def test_a_label_names_its_short_lines_and_nothing_after_them(question: str, answer: str) -> None:
    reads = _ask(CONTACT, question).answer.split("\n")[0]
    assert reads.startswith(answer), reads
    assert "Linux platform" not in reads or "platform" in question, reads


MULTIPLEXER = """## Windows and panes

rename-window [-t target-window] new-name
    (alias: renamew) Rename the current window, or the window at target-window if
    specified, to new-name.

swap-window [-d] [-s src-window] [-t dst-window]
    (alias: swapw) Swap the windows at src-window and dst-window.

## Hooks

window-renamed
    Run when a window is renamed.

window-linked
    Run when a window is linked into a session.
"""
"""tmux's page in shape: commands with their aliases in a parenthesis, and hooks named
after what happened."""


def test_a_how_to_gets_the_command_doing_it_not_the_hook_run_after_it() -> None:
    """'window-renamed' holds both words of 'How do I rename a window?', but as a past
    participle: it names what runs after a rename. The command's description opens with
    its alias, then the asked verb."""
    answer = _ask(MULTIPLEXER, "How do I rename a window?").answer
    assert answer.startswith("rename-window [-t target-window] new-name: (alias: renamew) Rename")


ARCHIVER_PAGE = """# OPTIONS

-J, --xz
    Filter the archive through xz(1).

-z, --gzip
    Filter the archive through gzip(1).

# SEE ALSO

bzip2(1), compress(1), gzip(1), lzma(1), xz(1), zstd(1).

The complete manual explains every option: run info tar.
"""
"""tar's page in shape: options naming other programs, and its SEE ALSO list of them."""


def test_a_see_also_list_of_pages_points_elsewhere_and_joins_no_answer() -> None:
    result = _ask(ARCHIVER_PAGE, "Which option compresses with xz?")
    assert result.answer == "-J, --xz: Filter the archive through xz(1)."


PACKAGE_TOOL_PAGE = """# COMMANDS

remove
    Remove the named packages, leaving their configuration files.

autoremove (and auto-remove, an alias since 1.1)
    Remove packages that were installed to satisfy a dependency and are no longer needed.

autopurge
    Like autoremove, but also remove configuration files. A shortcut for autoremove --purge.
"""
"""apt-get's page in shape: a command whose term notes its alias in a parenthesis."""


def test_an_entry_named_with_an_aside_after_its_name_defines_it() -> None:
    answer = _ask(PACKAGE_TOOL_PAGE, "What does autoremove do?").answer
    assert answer.startswith("autoremove (and auto-remove, an alias since 1.1): Remove packages")
