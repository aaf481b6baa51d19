"""Text drawn in a frame of asterisks or hashes is read as the text inside it."""

from __future__ import annotations

from pipeline.text.frames import unframed

NOTICE = """Terms of use.

**************************************************
*                                                *
*  No Warranty                                   *
*                                                *
*  The tool is provided "as is", without         *
*  warranty of any kind.                         *
*                                                *
**************************************************

Read the terms before use.
"""


def test_a_frame_is_written_over_and_every_offset_kept() -> None:
    read = unframed(NOTICE)
    assert len(read) == len(NOTICE)
    assert "*" not in read
    start = NOTICE.index("The tool")
    assert read[start : start + 8] == "The tool"  # the same character at the same offset
    assert read.startswith("Terms of use.\n\n")
    assert read.endswith("\n\nRead the terms before use.\n")


def test_lines_that_do_not_close_with_the_frame_are_no_frame() -> None:
    # two rules of asterisks around a bullet list: the items are not framed lines
    text = "*" * 30 + "\n* first item\n* second item\n" + "*" * 30 + "\n"
    assert unframed(text) == text


def test_a_text_without_a_frame_is_returned_as_it_is() -> None:
    text = "* a bullet *emphasis*\n\n# Title\n"
    assert unframed(text) is text


def test_a_frame_with_windows_line_ends_is_read_too() -> None:
    text = NOTICE.replace("\n", "\r\n")
    read = unframed(text)
    assert len(read) == len(text)
    assert "*" not in read
    assert read.count("\r\n") == text.count("\r\n")


def test_a_rule_across_a_frame_closes_one_part_and_opens_the_next() -> None:
    rule = "*" * 30
    title, body = "*  Title".ljust(29) + "*", "*  Body text here".ljust(29) + "*"
    text = f"{rule}\n{title}\n{rule}\n{body}\n{rule}\n"
    read = unframed(text)
    assert "*" not in read
    assert len(read) == len(text)


def test_a_frame_inside_fenced_code_stays_code() -> None:
    text = "```sh\n" + "#" * 30 + "\n#  Deploy settings           #\n" + "#" * 30 + "\nrun\n```\n"
    assert unframed(text) is text


def test_lines_not_closing_in_the_rules_last_column_are_no_frame() -> None:
    rule = "*" * 30
    text = f"{rule}\n**Note** read this **first**\n{rule}\n"
    assert unframed(text) == text


def test_a_frame_aligned_with_tabs_is_read_as_drawn() -> None:
    rule = "*" * 32
    text = f"{rule}\n*\tProvided as is,\t       *\n{rule}\n"
    assert "*" not in unframed(text)


def test_a_fence_closes_only_on_its_own_character() -> None:
    # a '~~~' block showing a lone '```' line: the frame after the block is prose
    text = "~~~md\n```js\n~~~\n\n" + NOTICE
    assert "The tool is provided" in unframed(text)
    assert "*" not in unframed(text)[len(text) - len(NOTICE) :]
