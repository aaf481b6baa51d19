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
