"""A text's readable units for the built-in engine, with the structure around each, shown clean.

Units are what retrieval scores and answers quote: the sentences of paragraphs and list
items, whole table rows, terms and headings, and code statements (a line with the comment
lines above it). Page furniture is no unit. Each unit knows its label (the heading, term
or header row that says what it is about, see `label`) and renders for reading (`show`):
reflowed, a row with its headers, a description with its term, an item with its lead-in.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from pipeline.engines.extractive import openers
from pipeline.engines.extractive.options import entry_names
from pipeline.engines.extractive.sentences import MAX_SENTENCE_CHARS, block_sentences
from pipeline.engines.extractive.terms import LITERAL, is_literal, iter_tokens
from pipeline.text.frames import unframed
from pipeline.text.layout import (
    ALIGNED_RULE,
    BULLET_CLASS,
    aligned_cells,
    analyse,
    as_read_lead_in,
    asks,
    ends_lead_in,
    goes_on,
    without_marker,
)
from pipeline.text.reflow import Known, known_in, reflow
from pipeline.text.structure import Kind, Structure

_LABELS = (Kind.HEADING, Kind.TERM)
_LEADS_IN = (Kind.PARAGRAPH, Kind.ITEM, Kind.HEADING)
_HEADING_MARKS = re.compile(r"^(?:#{1,6}[ \t]+|\*{1,6} )|[ \t]+#+$|^\*\*(.*)\*\*:?$")
_BULLET = re.compile(rf"^{BULLET_CLASS}[ \t]+")
# A field's key, a word or three, and its value: 'Default: false', 'Environment: CARGO_HOME'.
_FIELD = re.compile(r"[A-Z][\w-]*(?: [\w-]+){0,2}: +\S")
_TYPE_ALONE = re.compile(r"\{[\w.<>\[\]|,\\ ]{1,80}\}")
"""A type alone in braces, as API references mark a property's ('{string}', '{URL|null}'),
a union of several too ('{Buffer|TypedArray|DataView|ArrayBuffer|string}')."""
# ... and a call's parameter or result with its type: '`noDelay` {boolean} **Default:**
# `true`', 'Returns: {net.Socket} The socket itself.'
_TYPED = re.compile(rf"(?:`[\w.$]+`|[A-Z]\w*:) +{_TYPE_ALONE.pattern}")
# A call's signature as its reference heads it: 'socket.destroy([error])', 'Static method:
# `Buffer.alloc(size)`', 'new net.Socket([options])', and a declaration with its keywords,
# generics and result: Rust's 'pub fn pop(&mut self) -> Option<T>', 'pub fn retain<F>(&mut
# self, f: F) where F: FnMut(&T) -> bool', TypeScript's 'off(event: string): this' (a
# type after the colon, not 'Notes(1): see below'). Its groups: the function's path and name.
_CALL = re.compile(
    r"(?:[A-Z][\w ]*:\s*`?|new\s+)?"
    r"(?:(?:pub(?:\([\w: ]+\))?|const|async|unsafe|extern(?:\s+\"\w+\")?|fn|def|static)\s+)*"
    r"(?P<path>(?:[\w$]+\.)*(?P<name>[\w$]+))(?:<[^()`]*>)?\([^`]*\)"
    r"(?:\s*->\s*[^`]*|\s+where\s[^`]*:[^`]*|\s*:\s*[\w$.<>\[\]|&?]+(?:\s*[|&]\s*[\w$.<>\[\]]+)*)?"
)
CALL_CHARS = 300
"""Longest label read as a call's signature: a heading of a page's worth of text is none,
and the pattern's brackets would try every ')' of it."""
_ASIDE_AFTER = re.compile(r"\s+\([^()]*\)\s*$")
_CAMEL_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z])")
_STATE = re.compile(r"(?:[\w$]+\.)+[\w$]*(?:ed|ing)")
FIELD_CHARS = 100
"""Longest list item read as a field ('Key: value') of what its heading names."""
# A clause's run-in title: a few capitalized words (joined by small ones) and a full stop.
_RUN_IN_TITLE = re.compile(
    r"[A-Z][\w'’-]*(?: (?:[A-Z][\w'’-]*|of|or|and|the|a|an|to|for|in|on|by|with|from)){0,6}\."
)
_CHOICE = re.compile(r"\b(?:one|either|one or more) of (?:the following|these)\b", re.IGNORECASE)
"""A lead-in offering its items (or command lines) as choices: 'provided that you do at least
ONE of the following:', 'use one of these commands:'. Not 'any of the following': 'may contain
any of the following elements'."""
_PROMPT = re.compile(r"[$%#>] \S")
_CLOSES_SENTENCE = frozenset(".!?;。！？")
_ENDS_PIECE = _CLOSES_SENTENCE | frozenset(":\"'”’)]」")
# Markdown links alone, nothing said beside them.
_IMAGE = r"!\[[^\]\n]*\]\([^()\s]*\)"
_LINK = rf"(?:{_IMAGE}|\[(?:{_IMAGE}|[^\]\n])*\]\([^()\s]*\))"  # a badge: an image in a link
# A sentence naming what the one before it describes: 'This integer is usually called the
# "rowid".', 'This is known as antigenic variation.'
_NAMES_BEFORE = re.compile(
    r"(?:This|These|Such|That|Those)\b[^.;:!?]{0,40}?\s(?:is|are)\s+(?:(?:\w+ly|also|often)\s+)?"
    r"(?:called|termed|named|known\s+as|referred\s+to\s+as)\b"
)
# An info file's menu entry, which names a node to go to: "* cmp Options:: Summary of ...".
_INFO_MENU_ENTRY = re.compile(r"[^:\n]{1,60}::(?:\s|$)")
# A man page's reference to another, as its SEE ALSO lists them: 'bzip2(1), xz(1).'
_MAN_REFERENCE = r"[\w.+-]+\(\d\w{0,3}\)"
_LINKS_ONLY = re.compile(rf"\s*(?:(?:{_LINK}|{_MAN_REFERENCE})[ \t\n,;|·]*)+\.?\s*$")
# ... except a link to a change ('- [Stabilize `let else`](https://github.com/.../pull/93628/)'):
# a changelog's item, whose text says what changed.
_CHANGE_LINK = re.compile(
    r"\]\(https?://[^()\s]*/(?:(?:pull|pulls|issues|merge_requests)/\d+|commit/[0-9a-f]{7,40})\b"
)  # by its number: not a badge's '.../github/issues/psf/requests' nor '.../issues/new'
# What a section's heading names, pointed at from anywhere in it: 'this flag', 'this option'
_THIS_KIND = re.compile(
    r"\bthis\s+(?:flag|option|switch|setting|command|subcommand|argument|parameter|attribute"
    r"|function|method|macro|lint|directive|key|field|variable)\b",
    re.IGNORECASE,
)
# The title of a list of works cited: '## References', '7. Bibliography', 'Works Cited'
_WORKS_CITED = re.compile(
    r"[#=\s]*(?:\d+(?:\.\d+)*\.?\s+)?(?:[A-Za-z]+\s+)?(?:references|bibliography|works\s+cited"
    r"|literature\s+cited|citations|notes\s+and\s+references|参考文献|參考文獻|참고\s*문헌)"
    r"\s*[:#=]*\s*$",
    re.IGNORECASE,
)
# ... whose entries name a work: a link, a quoted title or a year ('B. Anderson. "Stabilize
# -C overflow-checks #1535." GitHub. https://...', 'A. Author, Title, Venue, 2019.')
_CITING = re.compile(r"https?://|[“\"][^”\"]{3,}[”\"]|\b(?:1[5-9]|20)\d\d\b")
# Markdown's link reference definitions, which the rendered page does not show at all:
# '[`maxBuffer` and Unicode]: #maxbuffer-and-unicode'.
_LINK_DEFINITIONS = re.compile(r"(?:[ \t]*\[[^\]\n]+\]:[ \t]*\S+(?:[ \t]+[\"'(][^\n]*)?\s*)+$")
COMMAND_MAX_CHARS = 100
"""Longest command line read into the sentence around it."""
LABEL_MAX_WORDS = 5
"""Most words of a label alone on its line, read with the short lines under it as one: a
licence's 'Linux platform:' over '/usr/local/cuda-#.#'."""
VALUE_MAX_LINES = 4
"""Most lines (each a paragraph of its own, as long as a title at most) read after a label."""
VALUE_MAX_WORDS = 6
"""Most words of a line read after a label: a path, a phone number ('+47 22 00 00 00'), a
name; not a sentence."""
EXAMPLE_MAX_LINES = 16
"""Most lines of a code example shown with the lead-in that introduces it: Cargo's 'The
default settings for the release profile are:' leads in to 13 (it was 8, and the lead-in
was shown alone, saying nothing)."""
_CELL_SPLIT = re.compile(r"(?<!\\)\|")
_COMMENT = re.compile(r"\s*(?://|#(?!!)|/\*|\*(?!\*)|--\s|;)")
# The lines of a settings file (TOML, INI): '[profile.release]', 'opt-level = 3'.
# A manual's placeholders may stand in a name: '[profile.<name>]'.
_SETTINGS_SECTION = re.compile(r"\s*\[\[?[\w.\-\"'<>* ]+\]\]?\s*(?:#.*)?")
_SETTING = re.compile(r"\s*[\w.\-\"'<>*]+\s*=\s*\S.*")
_FENCE_LINE = re.compile(r"\s*(?:`{3,}|~{3,})")
# A heading that names a release: a version ('3.8', '0.28.0') or a year ('2022-09-02').
_RELEASE_HEADING = re.compile(r"\d+\.\d+|\b(?:19|20)\d\d\b")
# Second column headers that only say "what the first column means".
_PLAIN_SECOND = frozenset("definition description meaning explanation details".split())
HEADER_SHARE = 0.5
"""Share of its header row's words a table row holding none of the question's words
takes: what a sentence takes of its heading."""
WHOLE_ITEM_CHARS = 400
"""An item up to this long is shown whole when one of its sentences is the answer."""
TERSE_CHARS = 80
"""A sentence of a long description shorter than this is shown with the next one: a
setting's 'Takes a boolean argument.' names its type, and what it does comes after."""
HEADING_LEAD_CHARS = 80
"""Longest heading shown before the opening sentence of its section that points back to it."""
REPLY_CHARS = 10
"""A section opening shorter than this ('Yes.', 'No.', 'はい。' under a FAQ's question) reads
on with the sentence after it, which says how or why (counted in characters: a Japanese
sentence is one 'word' to a split on spaces)."""
LONG_SENTENCE_CHARS = 1500
"""Longest sentence shown whole though cut into units for its length (MAX_SENTENCE_CHARS)."""
STEPS_MAX_CHARS = 1500
"""Most characters of a procedure (lead-in and steps) shown as one answer."""
CACHED_CHARS = 200_000
"""Longest text whose reading is kept for the next caller: a document that fits one chunk
(the built-in engine's chunks are ~100,000 characters) is read for its IDF by build_query
and again by its one map task; the layout pass is most of an `ask` of a 30 KB file."""


@dataclass(frozen=True)
class Shown:
    """A span to cite and how it reads."""

    start: int
    end: int
    text: str


@dataclass
class Passages:
    """The units of one text (chunk-local offsets) and the structure they come from."""

    text: str
    structure: Structure
    spans: list[tuple[int, int]] = field(default_factory=list)
    blocks: list[int] = field(default_factory=list)
    """Per unit, the index of its block."""
    first: list[int] = field(default_factory=list)
    """Per block, its first unit (-1 for furniture)."""

    @classmethod
    def read(cls, text: str, page_starts: Sequence[int] = ()) -> Passages:
        """The units of `text`; `page_starts` (a PDF chunk's) mark where pages begin.

        The last few texts are read once (see _read_cached).
        """
        starts = tuple(page_starts)
        if len(text) > CACHED_CHARS:
            return cls._analysed(text, starts)
        return _read_cached(text, starts)

    @classmethod
    def _analysed(cls, text: str, page_starts: tuple[int, ...]) -> Passages:
        text = unframed(text)  # read inside a frame's borders; offsets unchanged
        passages = cls(text, analyse(text, page_starts))
        spans, blocks, first = passages.spans, passages.blocks, passages.first
        for index, block in enumerate(passages.structure):
            units = _units(text, block.kind, block.start, block.end)
            first.append(len(spans) if units else -1)
            spans.extend(units)
            blocks.extend([index] * len(units))
        return passages

    def unit_at(self, start: int) -> int:
        """The unit that starts at `start` (a hit's offset)."""
        return self._starts[start]

    @cached_property
    def _starts(self) -> dict[int, int]:
        return {span[0]: unit for unit, span in enumerate(self.spans)}

    # -- structure for scoring -------------------------------------------------------------

    @cached_property
    def labels(self) -> list[int]:
        """Per unit, the unit that labels it: its table's header row, its entry's term,
        its list's lead-in or its section heading (the nearest of them); for a heading or
        term, itself (it is its own topic); a label's line its label ('Linux platform:' of
        '/usr/local/cuda-#.#', see _labelled_value); -1 for none."""
        found: list[int] = []
        kinds, last_block, label = self.kinds, -1, -1
        for unit, block in enumerate(self.blocks):
            if kinds[unit] in _LABELS:
                found.append(unit)
                continue
            if block != last_block:  # the units of one block share its label
                parent = self.structure.parent(block)
                label_above = self._label_above(block) if self._labelled_line(block) else -1
                if label_above >= 0:
                    parent = label_above
                last_block, label = block, self._last_unit(parent) if parent >= 0 else -1
            found.append(label)
        return found

    @cached_property
    def sections(self) -> list[tuple[int, ...]]:
        """Per unit, the units of every heading above it (outermost first): a changelog
        entry under '** Bug fixes' is still in '* release 3.8', which names it."""
        path_of: dict[int, tuple[int, ...]] = {}
        found: list[tuple[int, ...]] = []
        for block in self.blocks:
            if block not in path_of:
                path = self.structure.heading_path(block)
                path_of[block] = tuple(self.first[h] for h in path if self.first[h] >= 0)
            found.append(path_of[block])
        return found

    @cached_property
    def kinds(self) -> list[Kind]:
        """Per unit, the kind of its block: scoring asks it of every candidate, several times."""
        return [self.structure.kind(block) for block in self.blocks]

    def is_term(self, unit: int) -> bool:
        return self.kinds[unit] == Kind.TERM

    def names(self, unit: int, terms: Collection[str]) -> bool:
        """The unit (a term) is named by the question: all its words are question terms
        ('-e' for 'the -e option of set'), or one of its names is a literal the question
        quotes ('--max-time' of '-m, --max-time <seconds>')."""
        term = self._label_text(unit)
        call = _call(term)  # not a bold heading's '**write (NOT RECOMMENDED)**'
        if call:
            # a call's signature, named by its function and at most one word besides ('What
            # does _.pluck return?' of 'pluck(list, propertyName)'), not by a question of
            # other things ('... value of the WARNING logging level?', 'logging.warning(msg)'),
            # and by all of the function's name: 'What does trim do?' names 'pub fn
            # trim(&self)', not 'pub fn trim_left(&self)'
            function = _name_words(call.group("path"))  # 'socket.setNoDelay'
            name = _name_words(call.group("name"))
            asked = {t for t in terms if not is_literal(t)}
            if asked & function and name <= asked and len(asked - function) <= 1:
                return True
        # an aside after an entry's name is no name: apt-get's 'autoremove (and
        # auto-remove, an alias since 1.1)'; a heading's says which it is, as a bold
        # '**write (NOT RECOMMENDED)**' over another way to write
        words = iter_tokens(_ASIDE_AFTER.sub("", term) if self.is_term(unit) else term)
        first = next(words, None)  # most terms stop at their first word
        if first is not None and first in terms and all(w in terms for w in words):
            return True
        named = set(entry_names(term))
        return any(is_literal(t) and t[len(LITERAL) :] in named for t in terms)

    def called(self, unit: int) -> str:
        """The index term of the verb of the call a signature (a term or heading) stands
        for: 'kill' of '### `subprocess.kill([signal])`', which 'How do I kill a child
        process?' asks for, 'remov' of '`emitter.removeListener(eventName, listener)`';
        '' for any other unit."""
        call = _call(self._label_text(unit))
        if call is None:
            return ""
        verb = _CAMEL_HUMP.sub(" ", call.group("name"))  # 'removeListener': its verb, 'remove'
        return next(iter_tokens(verb), "")

    def names_state(self, unit: int) -> bool:
        """The unit (a term or heading) is the name of a property holding a state:
        '### `worker.stopped`', '`server.listening`'; not a call named without its brackets
        ('## `client.close`')."""
        return _STATE.fullmatch(self._label_text(unit)) is not None

    def names_flag(self, unit: int) -> bool:
        """The unit (a heading) names a state (names_state) typed boolean: '###
        `subprocess.killed`' over '* {boolean} Set to `true` after ...'."""
        if not self.names_state(unit):
            return False
        typed = self._past_links(unit + 1)  # its type, the section's first line
        return typed < len(self.spans) and "{boolean}" in self.text[slice(*self.spans[typed])]

    @cached_property
    def called_verbs(self) -> frozenset[str]:
        """The verbs of the calls the text's headings and terms are signatures of (see
        called): 'kill' of '### `subprocess.kill([signal])`'."""
        labels = (unit for unit, kind in enumerate(self.kinds) if kind in _LABELS)
        return frozenset(self.called(unit) for unit in labels) - {""}

    def _label_text(self, unit: int) -> str:
        """A term's or heading's words without Markdown marks or code-span backticks: a
        signature as written in Markdown, '### `socket.destroy([error])`'."""
        start, end = self.spans[unit]
        return strip_heading(self.text[start:end]).strip("`")

    def leads_list(self, unit: int) -> bool:
        """The unit ends a lead-in whose list follows ('Supported table formats are:')."""
        block = self.blocks[unit]
        following = block + 1
        return (
            self.structure.kind(block) == Kind.PARAGRAPH
            and self._leads_to_list(block, self.spans[unit][1])
            and following < len(self.structure)
            and self._under(following, block)
        )

    def leads_example(self, unit: int) -> bool:
        """The unit ends a lead-in whose short code block follows and is shown with it
        ('To copy a line to the clipboard:' over '"*yy'; see _with_example)."""
        return self.kinds[unit] != Kind.CODE and self._with_example(unit) is not None

    def links_only(self, unit: int) -> bool:
        """The unit is links alone, in a list item or a paragraph: a table of contents'
        '1. [Install](...)', a badge, '[Get an API key here](...)', which point elsewhere
        rather than say anything; or link reference definitions, which say nothing shown;
        or an info file's menu entry."""
        if self.kinds[unit] not in (Kind.ITEM, Kind.PARAGRAPH):
            return False
        start, end = self.spans[unit]
        text = without_marker(self.text[start:end])
        if _LINKS_ONLY.match(text) is not None and _CHANGE_LINK.search(text) is None:
            return True
        if _LINK_DEFINITIONS.match(text) is not None:
            return True
        if self.kinds[unit] == Kind.ITEM and _INFO_MENU_ENTRY.match(text) is not None:
            return True
        return unit in self._contents_entries

    def defines_links(self, unit: int) -> bool:
        """The unit is Markdown link reference definitions alone ('[`Deflate`]:
        #class-zlibdeflate'), which the rendered page does not show: no answer, nor
        evidence of one."""
        if self.kinds[unit] not in (Kind.ITEM, Kind.PARAGRAPH):
            return False
        start, end = self.spans[unit]
        return _LINK_DEFINITIONS.match(without_marker(self.text[start:end])) is not None

    def cites_work(self, unit: int) -> bool:
        """The unit is under a list of works cited ('## References'): an entry there names
        a work ('18. B. Anderson. "Stabilize -C overflow-checks #1535." GitHub. https://...')
        that says what the text only points to; not prose under a heading 'References'
        (a C++ page's section on references, beside 'Pointers')."""
        under = any(h in self._works_cited_headings for h in self.sections[unit])
        return under and _CITING.search(self._read(*self.spans[unit])) is not None

    @cached_property
    def _works_cited_headings(self) -> frozenset[int]:
        """The heading units titling a list of works cited (see _WORKS_CITED): read once,
        not for every unit scored."""
        headings = {h for sections in self.sections for h in sections}
        return frozenset(h for h in headings if _WORKS_CITED.match(self._read(*self.spans[h])))

    @cached_property
    def _contents_entries(self) -> frozenset[int]:
        """Items that are a heading of the text written again: a table of contents without
        links ('2.3.3. 完整地清理已删除软件包' under '目录', a FAQ's list of its questions),
        which names where the answer is rather than says it."""
        titles = {
            _title_key(self.heading_text(block))
            for block, heading in enumerate(self.structure)
            if heading.kind == Kind.HEADING
        }
        if not titles:
            return frozenset()  # most texts of sentences: nothing to read again
        return frozenset(
            unit
            for unit, kind in enumerate(self.kinds)
            if kind == Kind.ITEM
            and self.first[self.blocks[unit]] == unit
            and _title_key(self._read(*self.spans[unit])) in titles
        )

    def asks(self, unit: int) -> bool:
        """The unit is a question ('1. How do I create an AUTOINCREMENT field?' of a FAQ's
        contents, a rhetorical 'Why does it matter?'): it asks, and states no answer."""
        start, end = self.spans[unit]
        return asks(self.text[start:end])

    def names_in_words(self, unit: int, terms: Collection[str]) -> bool:
        """The unit (a term) is an option whose long name is question terms in plain words:
        '--quiet' of '-q, --quiet' for 'How do I make wget quiet?'."""
        start, end = self.spans[unit]
        for name in entry_names(self.text[start:end]):
            words = list(iter_tokens(name)) if name.startswith("--") else []
            if words and all(w in terms for w in words):
                return True
        return False

    def opens_description(self, unit: int) -> bool:
        """The unit is the first of a term's description ('Delete files; ...' under
        '-delete'), which says what the entry does."""
        block = self.blocks[unit]
        if self.first[block] != unit:
            return False
        parent = self.structure.parent(block)
        return parent >= 0 and self.structure.kind(parent) == Kind.TERM

    def is_code(self, unit: int) -> bool:
        return self.kinds[unit] == Kind.CODE

    def is_heading(self, unit: int) -> bool:
        return self.kinds[unit] == Kind.HEADING

    def is_label(self, unit: int) -> bool:
        """A heading or a term: names a topic, rarely states the answer."""
        return self.kinds[unit] in _LABELS

    @cached_property
    def _labels_if_matching(self) -> list[tuple[int, int]]:
        """(unit, label unit) of each field under its heading and each setting under its
        section: a unit takes its label's words only when it matches the question itself."""
        fields = [(item, self.first[heading]) for item, heading in self.field_headings.items()]
        return fields + [(unit, section) for unit, section in self.settings.items() if section >= 0]

    @cached_property
    def header_rows(self) -> frozenset[int]:
        """The units of table header rows: they name a table's columns, as a heading names
        a section, and shown alone ('field   allowed values') say nothing."""
        return frozenset(
            parent for unit, parent in self.term_parents if self.kinds[unit] == Kind.ROW
        )

    @cached_property
    def settings(self) -> dict[int, int]:
        """Each setting line of a settings block ('opt-level = 3' under '[profile.release]':
        a code block of sections and settings alone, see _setting_kind) -> the unit of the
        section line above it, or -1 if none.
        A setting states a value, as a table row does, and its section names whose."""
        found: dict[int, int] = {}
        for block, item in enumerate(self.structure):
            if item.kind != Kind.CODE or self.first[block] < 0:
                continue
            units = range(self.first[block], self._last_unit(block) + 1)
            kinds = [_setting_kind(self.text[slice(*self.spans[u])]) for u in units]
            if not all(kinds) or "setting" not in kinds:
                continue
            section = -1
            for unit, kind in zip(units, kinds, strict=True):
                if kind == "section":
                    section = unit
                else:
                    found[unit] = section
        return found

    @cached_property
    def sections_of_settings(self) -> dict[int, list[int]]:
        """Each section line of a settings block -> the units of its settings."""
        found: dict[int, list[int]] = {}
        for unit, section in self.settings.items():
            if section >= 0:
                found.setdefault(section, []).append(unit)
        return found

    def _settings_section(self, unit: int) -> Shown:
        """A settings block's section line with its settings, as many as EXAMPLE_MAX_LINES
        allows: '[alias]' says nothing alone."""
        start, end = self.spans[unit]
        for setting in self.sections_of_settings[unit]:
            if self._code((start, self.spans[setting][1])).count("\n") - 1 > EXAMPLE_MAX_LINES:
                break
            end = self.spans[setting][1]
        return Shown(start, end, self._code((start, end)))

    @cached_property
    def term_parents(self) -> list[tuple[int, int]]:
        """(unit, parent unit) for every term under another term or a heading, and every
        table row under its header row: a term's full name is its path ('set' ... '-e'), and
        a row means what its header says ('| WARNING | 30 |' under '| Level | Numeric value |'
        is the numeric value of the WARNING level), so each inherits its parent's words."""
        pairs = []
        for unit, (block, kind) in enumerate(zip(self.blocks, self.kinds, strict=True)):
            if kind not in (Kind.TERM, Kind.ROW):
                continue
            parent = self.structure.parent(block)
            if parent < 0 or self.first[parent] < 0:
                continue
            parent_kind = self.structure.kind(parent)
            if parent_kind in _LABELS if kind == Kind.TERM else parent_kind == Kind.ROW:
                pairs.append((unit, self.first[parent]))
        return pairs

    @cached_property
    def field_headings(self) -> dict[int, int]:
        """Each field (see _is_field) right under a heading, with that heading's block."""
        found = {}
        for unit in range(len(self.blocks)):
            parent = self.structure.parent(self.blocks[unit])
            if parent >= 0 and self.structure.kind(parent) == Kind.HEADING and self._is_field(unit):
                found[unit] = parent
        return found

    @cached_property
    def typed_fields(self) -> frozenset[int]:
        """The fields that give a type: a value's ('* {string}') or a call's parameter's or
        result's ('* `noDelay` {boolean} ...', '* Returns: {net.Socket} ...')."""
        return frozenset(unit for unit in self.field_headings if self._typed(unit))

    def _is_field(self, unit: int) -> bool:
        """The unit is a field: a short 'Key: value' item of a list of two or more of them,
        which says a thing of what its heading names ('- Default: number of logical CPUs'
        under '#### build.jobs' is the default of build.jobs), or a typed item (_typed)."""
        block = self.blocks[unit]
        if self.kinds[unit] != Kind.ITEM or self.first[block] != unit:
            return False
        if self._typed(unit):
            return True  # Node's '* {string}' under '#### `url.pathname`': the value's type
        siblings = [b for b in (block - 1, block + 1) if 0 <= b < len(self.structure)]
        return self._field_item(block) and any(self._field_item(b) for b in siblings)

    def _typed(self, unit: int) -> bool:
        """The unit is a list item giving a type (see typed_fields)."""
        item = self.structure[self.blocks[unit]]
        written = without_marker(self.text[item.start : item.end]).strip()
        return _TYPE_ALONE.fullmatch(written) is not None or _TYPED.match(written) is not None

    def _field_item(self, block: int) -> bool:
        item = self.structure[block]
        return (
            item.kind == Kind.ITEM
            and item.end - item.start <= FIELD_CHARS
            and _FIELD.match(without_marker(self.text[item.start : item.end])) is not None
        )

    def inherit(
        self,
        counts: dict[int, dict[str, float]],
        attribute: Sequence[str] = (),
        terms: Collection[str] = (),
        sections: bool = False,
    ) -> set[int]:
        """Give each term the question words of the labels above it, in document order so
        that a chain ('SHELL BUILTIN COMMANDS' > 'set' > '-e') accumulates; each row its
        header's; each field its heading's; and, when the question asks an `attribute` of
        something the question names (its index terms; the question's: `terms`), each
        sentence of that term's description stating it, and with `sections` each of the
        section whose heading it is. Returns those sentences."""
        for unit, parent in self.term_parents:
            above = counts.get(parent)
            if above:
                # a row that holds none of the question's words only sits in a table whose
                # header does: its header's words count as a heading's do
                share = (
                    HEADER_SHARE if self.kinds[unit] == Kind.ROW and not counts.get(unit) else 1.0
                )
                own = counts.setdefault(unit, {})
                for term, count in above.items():
                    own.setdefault(term, count * share)
        # ... and each field its heading's and each setting its section's, when it matches
        # the question itself ('default' of 'What is the default value of build.jobs?';
        # 'opt-level = 3' under '[profile.release]'): 'Type: array' and 't = "test"' under
        # '[alias]' say nothing asked
        for unit, label in self._labels_if_matching:
            if not attribute and unit in self.typed_fields:
                continue  # a call's parameter or result answers what is asked of it only
            named, said = counts.get(label), counts.get(unit)
            if named and said:
                for term, count in named.items():
                    said.setdefault(term, count)
        if not attribute:
            return set()
        return self._inherit_attribute(counts, attribute, terms, sections)

    def _inherit_attribute(
        self,
        counts: dict[int, dict[str, float]],
        attribute: Sequence[str],
        terms: Collection[str],
        sections: bool,
    ) -> set[int]:
        """A sentence of a term's description stating the asked attribute (its first word:
        'default' of 'default value', which 'The default is typically 100' states and 'the
        same or higher value' does not) holds its term's words: 'The default value is four
        megabytes (4MB).' is work_mem's, four sentences under 'work_mem (integer)', for 'What
        is the default value of work_mem?'; not one under 'logging.getLevelName(level)',
        which the question does not name. With `sections`, a sentence under no term is its
        section heading's: '- 0 or none: no debug info at all (the default).' under a
        reference's '## debuginfo'."""
        stated = set()
        for unit, said in counts.items():
            if self.kinds[unit] == Kind.TERM or attribute[0] not in said:
                continue
            term = self.described_term(unit)
            if term < 0 and sections and self.sections[unit]:  # a reference's '## debuginfo'
                term = self.sections[unit][-1]
            named = counts.get(term) if term >= 0 else None
            if named and self.names(term, terms):
                stated.add(unit)
                for name, count in named.items():
                    said.setdefault(name, count)
        return stated

    def _last_unit(self, block: int) -> int:
        """The last unit of a block (a lead-in's last sentence ends with its colon)."""
        first = self.first[block]
        if first < 0:
            return -1
        unit = first
        while unit + 1 < len(self.blocks) and self.blocks[unit + 1] == block:
            unit += 1
        return unit

    # -- showing ---------------------------------------------------------------------------

    def described_term(self, unit: int) -> int:
        """The unit of the term whose description holds `unit`, or -1."""
        term = self._described_term(self.blocks[unit])
        return self.first[term] if term >= 0 else -1

    def _described_term(self, block: int) -> int:
        """The term whose description `block` is, or -1."""
        parent = self.structure.parent(block)
        return parent if parent >= 0 and self.structure.kind(parent) == Kind.TERM else -1

    def _opens_body(self, block: int) -> bool:
        """`block` is the first of what the block just before it holds: a term's description's
        first paragraph, a list item's example."""
        return self.structure.parent(block) == block - 1

    def _under_term(self, block: int, shown: Shown) -> Shown:
        """`shown` after the name of the term it describes, if its block is a description:
        zip's '-r --recurse-paths: Travel the directory structure recursively; for example:
        `zip -r foo.zip foo`'."""
        term = self._described_term(block)
        if term < 0:
            return shown
        return Shown(shown.start, shown.end, f"{self.term_name(term)}: {shown.text}")

    def show(self, unit: int) -> Shown:
        """The unit as a reader should see it, and the span that backs it."""
        block = self.blocks[unit]
        kind = self.structure.kind(block)
        start, end = self.spans[unit]
        halves = self._across_page(unit)
        steps = self._list_led_past_page(halves) if halves and halves[0] == unit else None
        if steps is not None:
            return steps
        title = self._run_in_title(unit)
        if title:
            following = self.show(unit + 1)  # a short item is shown whole, title and all
            text = following.text if following.start <= start else _led(title, following.text)
            return Shown(min(start, following.start), following.end, text)
        if kind in (Kind.PARAGRAPH, Kind.CODE, Kind.ITEM):
            joined = (
                self._around_command(unit) or self._with_example(unit) or self._labelled_value(unit)
            )
            if joined is not None:
                return self._under_term(block, joined)
        if kind == Kind.ROW:
            return Shown(start, end, self._row(block))
        if kind == Kind.CODE and unit in self.sections_of_settings:
            return self._settings_section(unit)
        if kind == Kind.CODE and self.settings.get(unit, -1) >= 0:
            section = self.spans[self.settings[unit]]  # whose setting it is: '[net]' / 'retry = 3'
            return Shown(start, end, self._code(section, (start, end)))
        if kind == Kind.CODE:
            return Shown(start, end, self._code((start, end)))
        if kind == Kind.HEADING:
            return self._heading(unit)
        if kind == Kind.TERM:
            return self._term(unit)
        if kind == Kind.ITEM and self._leads_to_list(block, end):
            steps = self.procedure(unit)  # a clause leading in to its sub-items: '(a) ...'
            if steps is not None:
                return steps
        if kind == Kind.ITEM and self.led_in(block) and self._read_whole(unit):
            choices = self._choices(block)  # not for a sentence deep inside a long item
            if choices is not None:
                return choices
        if kind in (Kind.PARAGRAPH, Kind.ITEM):
            start, end = self._whole_sentence(unit)
        if kind == Kind.ITEM:
            item = self.structure[block]
            if len(self._read(item.start, item.end)) <= WHOLE_ITEM_CHARS:
                start, end = item.start, item.end
            text = self._item_text(start, end, block)
            opening = self.first[block]
            title = self._run_in_title(opening) if start == item.start else ""
            if title and not _RUN_IN_TITLE.fullmatch(title):  # its own line: read as a title
                text = _led(title, self._item_text(self.spans[opening + 1][0], end, block))
            # A lead-in reads on into its items' openings, not into a sentence deep inside
            # one: '... the following elements, and in any order: The default weight ...'.
            lead = self._lead_in(block) if start == item.start else ""
            if halves is not None:  # the item goes on past a page break
                end = self.spans[halves[1]][1]
                text = f"{text} {self._read(*self.spans[halves[1]])}"
            return Shown(start, end, f"{lead} {text}" if lead else text)
        if self._described_term(block) >= 0:
            paragraph = self.structure[block]
            whole = self._read(paragraph.start, paragraph.end)
            if len(whole) <= WHOLE_ITEM_CHARS:  # a short description, whole
                text, end = self._then_command(block, whole, paragraph.end)
                return self._under_term(block, Shown(paragraph.start, end, text))
            if len(self._read(start, end)) < TERSE_CHARS and self._next_in_block(unit):
                end = self.spans[unit + 1][1]  # 'Takes a boolean argument.' says little alone
            text = self._read(start, end)
            opening = self.first[block]
            if self._opens_body(block) and opening != unit and start == self.spans[unit][0]:
                # what the entry does first: make's '-j: Specifies the number of jobs (commands)
                # to run simultaneously. … When make invokes a sub-make, ...'
                first_start, first_end = self._whole_sentence(opening)
                if first_end < start:
                    text = f"{self._read(first_start, first_end)} … {text}"
                    start = first_start
            return self._under_term(block, Shown(start, end, text))
        text = self._read(start, end)
        if self._leads_to_list(block, end) or self._announces_list(unit, block):
            steps = self.procedure(unit)
            if steps is not None:
                return steps
        if halves is not None:  # one sentence, cut by a page's footer and the next's header
            first, second = (self.spans[half] for half in halves)
            return Shown(first[0], second[1], f"{self._read(*first)} {self._read(*second)}")
        if start == self.spans[unit][0] and self._names_sentence_before(unit):
            start = self._whole_sentence(unit - 1)[0]
            text = self._read(start, end)
        heading = self._call_descriptions.get(unit)
        if heading is None:
            return Shown(start, end, text)
        # 'Returns the string path of the current user's home directory.' says which call
        # it describes only after its signature, '`os.homedir()`'
        return Shown(start, end, _led(self.heading_text(self.blocks[heading]), text))

    def describes_call(self, unit: int) -> bool:
        """The unit opens the description of a call under its signature heading: what
        the call does ('Removes the last element from a vector and returns it, ...')."""
        return unit in self._call_descriptions

    @cached_property
    def _call_descriptions(self) -> dict[int, int]:
        """The unit opening the description of each call whose signature is a heading
        (see reads_as) -> that heading."""
        found = {}
        for unit, kind in enumerate(self.kinds):
            if kind == Kind.HEADING and _call(self._label_text(unit)) is not None:
                described = self.reads_as(unit)
                if described != unit:
                    found[described] = unit
        return found

    def _names_sentence_before(self, unit: int) -> bool:
        """The unit names what the sentence before it in its paragraph describes, and says
        nothing without it: 'This integer is usually called the "rowid".'"""
        start, end = self.spans[unit]
        return (
            unit > 0
            and self.blocks[unit - 1] == self.blocks[unit]
            and _NAMES_BEFORE.match(self.text, start, end) is not None
        )

    def _read_whole(self, unit: int) -> bool:
        """The list item `unit` is in reads as one from it: it is short, or `unit` opens it."""
        block = self.blocks[unit]
        item = self.structure[block]
        return (
            self.first[block] == unit or len(self._read(item.start, item.end)) <= WHOLE_ITEM_CHARS
        )

    def _whole_sentence(self, unit: int) -> tuple[int, int]:
        """The span of the sentence `unit` is a piece of, when a sentence longer than
        MAX_SENTENCE_CHARS was cut into pieces (GPLv3's 'b) Convey the object code in ...'
        runs 900 characters) and the whole is at most LONG_SENTENCE_CHARS; else the unit's."""
        first = last = unit
        while first > 0 and self.blocks[first - 1] == self.blocks[unit] and self._cut(first - 1):
            first -= 1
        while self._cut(last) and self._next_in_block(last):
            last += 1
        start, end = self.spans[first][0], self.spans[last][1]
        if self._cut(last) or end - start > LONG_SENTENCE_CHARS:
            return self.spans[unit]  # no end in reach: text without stops, not a sentence
        return start, end

    def _cut(self, unit: int) -> bool:
        """A piece of a sentence cut for its length: long, and not ending it."""
        start, end = self.spans[unit]
        return end - start >= MAX_SENTENCE_CHARS // 2 and self.text[end - 1] not in _ENDS_PIECE

    def _run_in_title(self, unit: int) -> str:
        """The title a numbered clause opens with, as a sentence of its own ('7. Disclaimer
        of Warranty. Unless required by ...' -> 'Disclaimer of Warranty.'), when a sentence
        follows it in the clause; else ''. Only in a list item or after a marker: a paragraph
        of prose may open with a short sentence ('Yes.')."""
        block = self.blocks[unit]
        if self.first[block] != unit or not self._next_in_block(unit):
            return ""
        kind = self.structure.kind(block)
        text = self._read(*self.spans[unit])
        words = without_marker(text)
        if kind != Kind.ITEM and (kind != Kind.PARAGRAPH or words == text):
            return ""
        if _RUN_IN_TITLE.fullmatch(words):
            return words
        # ... or a title on a line of its own, unpunctuated: '3. We will not hide problems' /
        # 'We will keep our entire bug report database open ...'
        start, end = self.spans[unit]
        alone = (
            "\n" not in self.text[start:end] and "\n" in self.text[end : self.spans[unit + 1][0]]
        )
        return words if alone and words[-1:] not in _ENDS_PIECE | {","} else ""

    def under_heading(self, unit: int, shown: Shown) -> Shown:
        """`shown` (the unit as show() reads it, or a list it leads in to) after the heading
        it points back to, when it is a section's opening sentence as it stands: under
        '## -V/--version: print a version', 'This flag will print out rustc's version.' says
        which flag only with it, and under '## panic', 'This option lets you control ...:'
        which option its values are of; or when it names it as 'this flag' anywhere in its
        section (see heading_named); and a field ('Default: false') says of what with it
        too."""
        heading = self.heading_pointed_at(unit)
        if heading < 0:
            heading = self.heading_named(unit)
        start, end = self.spans[unit]
        read = self._read(start, end)
        if heading < 0 and unit in self.field_headings:  # a field is its heading's
            heading, read = self.field_headings[unit], without_marker(read)
        if heading < 0 or shown.start != start or not shown.text.startswith(read):
            return shown  # no such heading, or the unit reads as more than itself
        return Shown(shown.start, shown.end, f"{self.heading_text(heading)} — {shown.text}")

    def heading_pointed_at(self, unit: int) -> int:
        """The heading block a section's opening sentence points back to ('This option ...'
        under '## code-model'), if it is a short one; -1 otherwise."""
        block = self.blocks[unit]
        parent = self.structure.parent(block)
        opens_section = parent == block - 1 and self.first[block] == unit
        if not opens_section or not self._under_short_heading(block):
            return -1
        return parent if openers.points_back(self._read(*self.spans[unit])) else -1

    def heading_named(self, unit: int) -> int:
        """The heading a sentence anywhere in its section names as 'this flag' ('With this
        flag, it will place all output into the directory you specify.' under '-o/--out-dir:
        output directory path'), if it is a short one; -1 otherwise."""
        block = self.blocks[unit]
        if not self._under_short_heading(block):
            return -1
        named = _THIS_KIND.search(self._read(*self.spans[unit]))
        return self.structure.parent(block) if named else -1

    def _under_short_heading(self, block: int) -> bool:
        """`block` is a paragraph right under a heading short enough to lead in to it."""
        parent = self.structure.parent(block)
        if self.structure.kind(parent) != Kind.HEADING:
            return False
        if self.structure.kind(block) != Kind.PARAGRAPH:
            return False
        return len(self.heading_text(parent)) <= HEADING_LEAD_CHARS

    def _across_page(self, unit: int) -> tuple[int, int] | None:
        """The two halves of a sentence a page break cuts, if `unit` is one of them: a
        paragraph's last unit, not closed, then only page furniture, then a paragraph whose
        first unit goes on in lowercase ('Information found in a' / 'directory is added')."""
        block = self.blocks[unit]
        if self.first[block] == unit:
            before = block - 1
            while before >= 0 and self.structure.kind(before) == Kind.FURNITURE:
                before -= 1
            if before == block - 1 or before < 0:
                return None
            return self._cut_by_page(before, block)
        after = block + 1
        while after < len(self.structure) and self.structure.kind(after) == Kind.FURNITURE:
            after += 1
        if after == block + 1 or after >= len(self.structure) or self._last_unit(block) != unit:
            return None
        return self._cut_by_page(block, after)

    def _goes_on(self, unit: int) -> bool:
        """The unit opens in the middle of a sentence (see layout.goes_on)."""
        start = self.spans[unit][0]
        return goes_on(self.text[start : start + 1])

    def _cut_by_page(self, before: int, after: int) -> tuple[int, int] | None:
        """(last unit of `before`, first of `after`) if a sentence runs from one to the other."""
        # an item may go on as a paragraph: the next page has no marker to say it is one
        kinds = self.structure.kind(before), self.structure.kind(after)
        if kinds[0] not in (Kind.PARAGRAPH, Kind.ITEM) or kinds[1] != Kind.PARAGRAPH:
            return None
        last, first = self._last_unit(before), self.first[after]
        if last < 0 or first < 0:
            return None
        ends = self.text[self.spans[last][1] - 1]
        if ends in _CLOSES_SENTENCE or ends == ":" or not self._goes_on(first):
            return None
        return last, first

    def _then_command(self, block: int, text: str, end: int) -> tuple[str, int]:
        """`text` (block's reading, up to `end`) with the command line its closing lead-in
        introduces: find(1)'s -prune description ends 'do something like this:' above
        the indented 'find . -path ./src/emacs -prune -o -print', which says the rest."""
        parts = self._command_parts(block + 1)  # its lead is always block's last unit
        if parts is None or len(parts) != 2:
            return text, end
        return f"{text} `{self._command_line(block + 1)}`", self.structure[block + 1].end

    def _next_in_block(self, unit: int) -> bool:
        return unit + 1 < len(self.blocks) and self.blocks[unit + 1] == self.blocks[unit]

    def in_release(self, unit: int, shown: Shown) -> Shown:
        """`shown` after the nearest heading above it that names a release ('0.25.0 (11th
        September, 2023): Drop support for Python 3.7.'): what a changelog entry says
        changed, and in which version; `shown` as it is under no such heading."""
        block = self.blocks[unit]
        for heading in reversed(self.structure.heading_path(block)):
            if heading == block:
                return shown  # the heading itself is the answer
            title = self.heading_text(heading)
            if shown.text.startswith(title):
                return shown  # an item its release's heading leads in to
            if _RELEASE_HEADING.search(title) and heading != self._versioned_title:
                return Shown(shown.start, shown.end, f"{title}: {shown.text}")
        return shown

    @cached_property
    def _versioned_title(self) -> int:
        """The heading that titles the text and names its version, when no other heading
        names a release ('GNU Free Documentation License Version 1.3, 3 November 2008' over
        a licence's sections): the document's own version, which says nothing of when its
        terms apply; -1 for none. A changelog of one release ('## 0.1.0 (2024-03-01)' under
        '# Changelog') keeps it."""
        structure = self.structure
        headings = [b for b in range(len(structure)) if structure.kind(b) == Kind.HEADING]
        releases = [b for b in headings if _RELEASE_HEADING.search(self.heading_text(b))]
        opening = next(
            (b for b in range(len(structure)) if structure.kind(b) != Kind.FURNITURE), -1
        )
        return releases[0] if releases == [opening] else -1

    def in_section(self, unit: int, shown: Shown, category: Collection[str]) -> Shown:
        """A table row (`shown`) after its section's heading when the question asks which
        `category` (index terms of 'What tier is ...?', 'Is ... a tier 2 target?') and the
        heading names it but the row does not: 'What tier is aarch64-apple-darwin?' reads
        'Tier 1 with Host Tools: aarch64-apple-darwin — notes: ARM64 macOS'; asked whether a
        tier 3 target is tier 2, its 'Tier 3' heading tells."""
        if not category or self.kinds[unit] != Kind.ROW:
            return shown
        path = self.structure.heading_path(self.blocks[unit])
        if not path:
            return shown
        title = self.heading_text(path[-1])
        if not set(category) & set(iter_tokens(title)):
            return shown
        if set(category) <= set(iter_tokens(shown.text)):
            return shown  # the row (or the heading leading in to it) says it itself
        return Shown(shown.start, shown.end, f"{title}: {shown.text}")

    def read_on_to_list(self, unit: int) -> Shown | None:
        """The paragraph `unit` reads as (a term's description, or its own) from its first
        sentence, with the list its last sentence leads in to; None if it is no paragraph
        or leads in to none. Cited from the term when it is one."""
        opening = unit + 1 if self.is_term(unit) else unit
        if opening >= len(self.blocks) or self.kinds[opening] != Kind.PARAGRAPH:
            return None
        listed = self.procedure(self.first[self.blocks[opening]])
        if listed is None or not self.is_term(unit):
            return listed
        return Shown(self.spans[unit][0], listed.end, listed.text)

    def procedure(self, unit: int) -> Shown | None:
        """A list with its lead-in, shown whole: for a lead-in ('To restore factory
        settings:') or any of its items; None if the unit is in no such list."""
        block = self.blocks[unit]
        kind = self.structure.kind(block)
        if kind == Kind.ITEM and self._leads_to_list(block, self.spans[unit][1]):
            lead = block  # a clause whose last sentence leads in to its sub-items
        elif kind == Kind.ITEM:
            lead = self.structure.parent(block)
            while lead >= 0 and self.structure.kind(lead) == Kind.ITEM:
                lead = self.structure.parent(lead)
        elif kind == Kind.PARAGRAPH:
            lead = block
        else:
            return None
        if lead < 0 or not self._ends_lead_in(lead):
            return None
        if self.structure.kind(lead) not in (Kind.PARAGRAPH, Kind.ITEM):
            return None
        items = [b for b in range(lead + 1, len(self.structure)) if self._under(b, lead)]
        if not items:
            return None
        start, lead_end = self._last_sentence(lead)
        if kind == Kind.PARAGRAPH and self.spans[unit][0] < start:  # the sentence before it
            start = self.spans[unit][0]
        last = self._last_unit(lead)
        whole = self._with_half_before(last) if last >= 0 else None
        if whole is not None:  # 'the order to perform the checks' / (a page break) / 'is:'
            listed = self._listed(whole[0], lead_end, items, whole[1])
        else:
            listed = self._listed(start, lead_end, items)
        # an entry's list says what of with its term: '-f, --force: This option has ...:'
        return None if listed is None else self._under_term(lead, listed)

    def _choices(self, block: int) -> Shown | None:
        """An item of a list its lead-in offers as choices, shown with the others: 'b) use
        the modified Package only within your corporation' alone reads as what the Artistic
        Licence requires of a modified copy, where it asks for one of four. None for a list
        of another kind, or one too long to be one answer."""
        lead = self.structure.parent(block)
        reads = self._lead_in(block)
        if not _CHOICE.search(reads):
            return None
        start, lead_end = self._last_sentence(lead)
        last = self._last_unit(lead)
        whole = self._with_half_before(last) if last >= 0 else None
        if whole is not None:  # the lead-in starts on the page before
            start = whole[0]
        items = [b for b in range(lead + 1, len(self.structure)) if self._under(b, lead)]
        return self._listed(start, lead_end, items, reads)

    def list_after(self, unit: int) -> Shown | None:
        """A paragraph's last sentence with the list right under it, for a question that
        asks for several things: rustc's 'This option lets you control what happens when
        the code panics.' over its three values, a lead-in that ends in a full stop."""
        block = self.blocks[unit]
        if self.structure.kind(block) != Kind.PARAGRAPH or self._last_unit(block) != unit:
            return None
        items = self._run_of(block + 1, Kind.ITEM)
        if not items:
            return self._table_names(unit, self._run_of(block + 1, Kind.ROW))
        if all(self.first[b] < 0 or self.links_only(self.first[b]) for b in items):
            return None  # a table of contents under the paragraph
        return self._listed(*self.spans[unit], items)

    def _run_of(self, block: int, kind: Kind) -> list[int]:
        """The blocks of `kind` from `block` on, up to the first of another kind."""
        run = []
        while block < len(self.structure) and self.structure.kind(block) == kind:
            run.append(block)
            block += 1
        return run

    def _table_names(self, unit: int, rows: list[int]) -> Shown | None:
        """The unit with the first cells of the table under it, one a line: rustc's 'All
        tier 1 targets with host tools support the full standard library.' over its table
        of targets names them; None for no table with a header row, or one too long."""
        body = [r for r in rows if self.structure[r].level != 1]
        if not rows or self.structure[rows[0]].level != 1 or not body:
            return None
        names = [
            _cells(self.text[self.structure[r].start : self.structure[r].end])[0] for r in body
        ]
        text = "\n".join([self._read(*self.spans[unit]), *(f"- {name}" for name in names)])
        if len(text) > STEPS_MAX_CHARS:
            return None
        return Shown(self.spans[unit][0], self.structure[body[-1]].end, text)

    def _listed(self, start: int, lead_end: int, items: list[int], lead: str = "") -> Shown | None:
        """The lead-in from `start` to `lead_end` (or as `lead` reads it), then each item on
        a line of its own (indented by depth); None when that is too long to be one answer."""
        lead = lead or self._read(start, lead_end)
        text = "\n".join([lead, *(self._listed_item(item, whole=True) for item in items)])
        if len(text) > STEPS_MAX_CHARS:  # each item by its opening sentence, then
            text = "\n".join([lead, *(self._listed_item(item, whole=False) for item in items)])
        if len(text) > STEPS_MAX_CHARS:
            return None
        return Shown(start, self.structure[items[-1]].end, text)

    def _listed_item(self, item: int, whole: bool) -> str:
        """An item on a line of its own, indented by depth: whole, or its opening sentence
        and '…' when more follows (Apache-2.0's four conditions for redistribution run
        2,000 characters; their openings say what each asks)."""
        entry = self.structure[item]
        end = entry.end
        first = self.first[item]
        if not whole and first >= 0:
            end = self._whole_sentence(first)[1]
        text = self._item_text(entry.start, end, item, keep=True)
        return "  " * entry.level + (text if end == entry.end else f"{text} …")

    def term_name(self, block: int) -> str:
        """A term as a reader names it: its text, after its parent term's first word
        ('set' and '-e' give 'set -e'; '-o option-name' and 'pipefail' give '-o pipefail')."""
        term = self.structure[block]
        name = self._read(term.start, term.end)
        name = name[:-1] if name.endswith(":") else name  # 'Name:' is followed by ': ...'
        parent = self.structure.parent(block)
        if parent >= 0 and self.structure.kind(parent) == Kind.TERM:
            outer = self.text[self.structure[parent].start : self.structure[parent].end].split()
            if outer and outer[0] != name.split()[0]:
                name = f"{outer[0]} {name}"
        return name

    def heading_text(self, block: int) -> str:
        heading = self.structure[block]
        return strip_heading(self._read(heading.start, heading.end))

    # -- pieces ----------------------------------------------------------------------------

    @cached_property
    def _known(self) -> Known:
        return known_in(self.text)

    def _read(self, start: int, end: int) -> str:
        return reflow(self.text[start:end], self._known)

    def _row(self, block: int) -> str:
        cells = _cells(self.text[self.structure[block].start : self.structure[block].end])
        parent = self.structure.parent(block)
        header: list[str] = []
        if parent >= 0 and self.structure.kind(parent) == Kind.ROW:
            head = self.structure[parent]
            header = _cells(self.text[head.start : head.end])
            rule = self._rule_under(parent)
            if rule:  # a table aligned with spaces: cut where the rule's runs start
                cells = aligned_cells(self._whole_line(block), rule)
                header = aligned_cells(self._whole_line(parent), rule)
        cells = [reflow(c) for c in cells]
        if not header or len(header) != len(cells) or len(cells) < 2:
            return "; ".join(c for c in cells if c)
        if len(cells) == 2 and header[1].lower() in _PLAIN_SECOND:
            return f"{cells[0]}: {cells[1]}"
        pairs = "; ".join(f"{h}: {c}" for h, c in zip(header[1:], cells[1:], strict=True) if c)
        return f"{cells[0]} — {pairs}"

    def _rule_under(self, header: int) -> str:
        """The line under a table's header row when it is an aligned table's rule, else ''."""
        start = self.text.find("\n", self.structure[header].end) + 1
        end = self.text.find("\n", start)
        line = self.text[start : end if end >= 0 else len(self.text)]
        return line if start and ALIGNED_RULE.match(line) else ""

    def _whole_line(self, block: int) -> str:
        """The line a one-line block is on, from its first column: its indent counts."""
        start, end = self.structure[block].start, self.structure[block].end
        return self.text[self.text.rfind("\n", 0, start) + 1 : end]

    def _around_command(self, unit: int) -> Shown | None:
        """A sentence that a command on a line of its own interrupts or ends, read whole
        with the command quoted: 'To start building, you need to run' / '    cmake <dir>' /
        'from a build directory.' reads 'To start building, you need to run `cmake <dir>`
        from a build directory.'; '... can be run via:' / '    $ ./run-tests' reads as
        the lead-in and its command. `unit` is any of those parts; None when it is none."""
        block = self.blocks[unit]
        for command in (block, block - 1, block + 1):
            parts = self._command_parts(command)
            if parts is not None and unit in parts:
                lead, first, rest = parts[0], parts[1], parts[-1] if len(parts) == 3 else -1
                line = self._command_line(command)
                # no lead-in (-1): the command opens the sentence
                text = f"{self._read_lead(lead)} `{line}`" if lead >= 0 else f"`{line}`"
                end = self.structure[command].end
                if rest >= 0:
                    text += f" {self._read(*self.spans[rest])}"
                    end = self.spans[rest][1]
                elif lead >= 0 and _CHOICE.search(self._read(*self.spans[lead])):
                    for other in self._commands_after(command):  # 'use one of these commands:'
                        text += f", `{self._read(*self.spans[self.first[other]]).strip()}`"
                        end = self.structure[other].end
                return Shown(self.spans[lead if lead >= 0 else first][0], end, text)
        return None

    def _commands_after(self, block: int) -> list[int]:
        """The command lines right after the command line `block`: rm(1)'s 'rm ./-foo' under
        'rm -- -foo', the other of 'one of these commands:'."""
        found = []
        following = block + 1
        while following < len(self.structure) and self._beside_command(following):
            found.append(following)
            following += 1
        return found

    def _beside_command(self, block: int) -> bool:
        """`block` is a command line at the indent of the command line just before it."""
        same_kind = self.structure.kind(block) == self.structure.kind(block - 1)
        if self.first[block] < 0 or not same_kind or self._command_line(block - 1) is None:
            return False
        raw, above = self._with_line_above(block)
        return _indent(raw) == _indent(above) and _one_short_line(raw.strip())

    def _read_lead(self, unit: int) -> str:
        """A lead-in's reading, without a list item's bullet or its code's marker (see
        as_read_lead_in)."""
        text = self._read(*self.spans[unit])
        block = self.blocks[unit]
        if self.structure.kind(block) == Kind.ITEM and self.first[block] == unit:
            text = _BULLET.sub("", text)
        return as_read_lead_in(text)

    def _command_parts(self, block: int) -> tuple[int, ...] | None:
        """(lead, command, rest) units when `block` is a command line between a sentence it
        interrupts and the lowercase rest of it, (-1, command, rest) when the sentence
        before it is whole, (lead, command) after a lead-in ending in ':' or for a list
        item's example; else None."""
        line = self._command_line(block) if 0 < block < len(self.structure) else None
        if line is None:
            return None
        lead = self._lead_before(block)
        if lead < 0:
            return None
        ending = self.text[self.spans[lead][1] - 1]
        command = self.first[block]
        after = block + 1
        rest = -1
        if after < len(self.structure) and self.structure.kind(after) == Kind.PARAGRAPH:
            opening = self.first[after]
            if opening >= 0 and self._goes_on(opening):
                rest = opening
        if ending in _CLOSES_SENTENCE:
            # the command is the subject of the lowercase sentence after it: zip's
            # 'zip -R */bar.c' / 'will zip up foo/foo1/bar.c.'
            if rest >= 0:
                return -1, command, rest
            # a list item's example, or a sentence pointing ahead to it ('以下のようにして...
            # 再設定できます。' / '# dpkg-reconfigure tzdata')
            shown = self._item_example(block, line) or ends_lead_in(self.text, *self.spans[lead])
            return (lead, command) if shown else None
        if rest >= 0 and ending != ":":
            return lead, command, rest
        # ... or it ends the sentence left open above it: 'You may obtain a copy of the
        # License at' / '    http://www.apache.org/licenses/LICENSE-2.0'
        return (lead, command) if ending == ":" or ending.isalnum() else None

    def _with_example(self, unit: int) -> Shown | None:
        """A lead-in (see ends_lead_in) and the short code block under it, read as one: 'you can
        iterate over the result to access each element:' and its loop. `unit` is the
        lead-in's last sentence or a unit of the code; None when it is neither."""
        block = self.blocks[unit]
        for code in (block, block + 1):
            if not 0 < code < len(self.structure) or self.structure.kind(code) != Kind.CODE:
                continue
            lead = self._lead_before(code)
            if lead < 0 or not ends_lead_in(self.text, *self.spans[lead]):
                continue
            if unit != lead and code != block:
                continue
            item = self.structure[code]
            body = self._code((item.start, item.end))
            if body.count("\n") - 1 > EXAMPLE_MAX_LINES:
                return None
            return Shown(self.spans[lead][0], item.end, f"{self._read_lead(lead)}\n{body}")
        return None

    def _labelled_value(self, unit: int) -> Shown | None:
        """A label alone on its line and the short lines under it, each a paragraph of its
        own, read as one ('Linux platform: /usr/local/cuda-#.#'): either alone says nothing.
        `unit` is the label or one of its lines; None when it is neither."""
        block = self.blocks[unit]
        if self._label(block):
            label = block
        elif self._labelled_line(block):
            label = self._label_above(block)
        else:
            return None
        if label < 0:
            return None
        values = label + 1
        while values <= label + VALUE_MAX_LINES and self._labelled_line(values):
            values += 1
        if values == label + 1:
            return None
        lines = [self.structure[b] for b in range(label, values)]
        read = " ".join(self._read(line.start, line.end) for line in lines)
        return Shown(lines[0].start, lines[-1].end, read)

    def _label_above(self, block: int) -> int:
        """The label whose lines run down to `block` (see _labelled_value); -1 for none."""
        label = block - 1
        while label >= max(0, block - VALUE_MAX_LINES):
            if self._label(label):
                return label
            if not self._labelled_line(label):
                return -1
            label -= 1
        return -1

    def _label(self, block: int) -> bool:
        """The block is a short paragraph ending with a colon, all on one line."""
        line = self._one_line(block)
        return line.endswith((":", "：")) and len(line.split()) <= LABEL_MAX_WORDS

    def _labelled_line(self, block: int) -> bool:
        """The block is a line a label above it may name: one short line of a few words that
        is no sentence ('/usr/local/cuda-#.#', '+47 22 00 00 00'), and no label itself."""
        line = self._one_line(block) if block < len(self.structure) else ""
        return (
            bool(line)
            and len(line.split()) <= VALUE_MAX_WORDS
            and line[-1] not in _CLOSES_SENTENCE | {":", "："}
        )

    def _one_line(self, block: int) -> str:
        """The block's text if it is a paragraph of one line no longer than a title, else ''."""
        item = self.structure[block]
        if item.kind != Kind.PARAGRAPH or item.end - item.start > HEADING_LEAD_CHARS:
            return ""
        line = self.text[item.start : item.end].strip()
        return "" if "\n" in line else line

    def _lead_before(self, block: int) -> int:
        """The last sentence of the paragraph just before `block`, or of the list item it sits
        in; -1 if that is neither."""
        before = self.structure.kind(block - 1)
        if before == Kind.PARAGRAPH or (before == Kind.ITEM and self._opens_body(block)):
            return self._last_unit(block - 1)
        return -1

    def _item_example(self, block: int, line: str) -> bool:
        """`line`, block's command, is the example of the list item it sits in: find(1)'s
        '•  Search for files ... modified in the last twenty-four hours.' / '$ find $HOME
        -mtime 0'. Only a command after a shell prompt: an item's deeper line may be prose."""
        return self.structure.kind(block - 1) == Kind.ITEM and _PROMPT.match(line) is not None

    def _command_line(self, block: int) -> str | None:
        """The command a block holds, if it is one short line set off from the prose around
        it: fenced, or indented deeper than the paragraph before it."""
        item = self.structure[block]
        if self.first[block] < 0 or item.kind not in (Kind.PARAGRAPH, Kind.CODE):
            return None
        line = self._code((item.start, item.end))[4:-4] if item.kind == Kind.CODE else None
        if line is None:
            raw, above = self._with_line_above(block)
            if _indent(raw) <= _indent(above):
                return None
            line = raw.strip()
        return line if _one_short_line(line) else None

    def _with_line_above(self, block: int) -> tuple[str, str]:
        """The block's text and the block's before it, each from the start of its line."""
        item, before = self.structure[block], self.structure[block - 1]
        return (
            self.text[self.text.rfind("\n", 0, item.start) + 1 : item.end],
            self.text[self.text.rfind("\n", 0, before.start) + 1 : before.end],
        )

    def _code(self, *spans: tuple[int, int]) -> str:
        """The code of `spans` (start, end), dedented and fenced as one block."""
        lines = []
        for start, end in spans:
            line_start = self.text.rfind("\n", 0, start) + 1
            lines += [x for x in self.text[line_start:end].split("\n") if not _FENCE_LINE.match(x)]
        indent = min((len(x) - len(x.lstrip()) for x in lines if x.strip()), default=0)
        body = "\n".join(line[indent:].rstrip() for line in lines).strip("\n")
        return f"```\n{body}\n```"

    def reads_as(self, unit: int) -> int:
        """The unit a heading reads as (its section's first, when that is no heading; see
        _heading), and a term the lead-in to a list that opens its description ('-f,
        --force' over 'This option has several effects:' and them), else `unit` itself:
        what a list question's answer leads in from."""
        if self.is_term(unit):
            described = unit + 1
            if described >= len(self.blocks) or self.show(unit).end != self.spans[described][1]:
                return unit
            return described if self.leads_list(described) else unit
        if not self.is_heading(unit):
            return unit
        following = self._past_links(unit + 1)
        if not self._in_section(following, unit):
            return unit
        described = following
        while described < len(self.blocks) and self._in_field(described):
            described += 1  # 'Type: boolean', 'Default: false' before what the entry does
        return described if self._in_section(described, unit) else following

    def _in_field(self, unit: int) -> bool:
        """`unit` is a field under a heading, or any part of one: its next sentence, the
        items nested in it ('* `options` {Object}' and the options under it)."""
        block = self.blocks[unit]
        while block >= 0 and self.structure.kind(block) != Kind.HEADING:
            if self.first[block] in self.field_headings:
                return True
            block = self.structure.parent(block)
        return False

    def _in_section(self, unit: int, heading: int) -> bool:
        """`unit` is right under `heading`, no heading itself."""
        return (
            unit < len(self.blocks)
            and not self.is_heading(unit)
            and self.structure.parent(self.blocks[unit]) == self.blocks[heading]
        )

    def _heading(self, unit: int) -> Shown:
        """A heading reads as its section's first unit, after the heading's words."""
        title = self.heading_text(self.blocks[unit])
        following = self.reads_as(unit)
        if following != unit:
            shown = self.show(following)
            if len(shown.text.strip()) < REPLY_CHARS and self._next_in_block(following):
                end = self.spans[following + 1][1]  # 'Yes.' under a FAQ's question: and?
                shown = Shown(shown.start, end, self._read(shown.start, end))
            start = self.spans[unit][0]
            return Shown(start, shown.end, _led(title, shown.text))
        start, end = self.spans[unit]
        subsection = self._first_subsection(unit)
        if subsection is not None:  # '## Upgrading' opens with '### Upgrading with Homebrew'
            shown = self._heading(subsection)
            return Shown(start, shown.end, _led(title, shown.text))
        return Shown(start, end, title)

    def _first_subsection(self, heading: int) -> int | None:
        """The heading right under `heading` that opens its first subsection, if its
        section has no words of its own before it."""
        following = self._past_links(heading + 1)
        if following >= len(self.blocks) or not self.is_heading(following):
            return None
        parent = self.structure.parent(self.blocks[following])
        return following if parent == self.blocks[heading] else None

    def _past_links(self, unit: int) -> int:
        """The first unit from `unit` on that is not links alone: badges under a README's
        title say nothing."""
        while unit < len(self.blocks) and self.links_only(unit):
            unit += 1
        return unit

    def _term(self, unit: int) -> Shown:
        """A term reads with the first sentence of its description."""
        block = self.blocks[unit]
        name = self.term_name(block)
        following = unit + 1
        start, end = self.spans[unit]
        if following < len(self.blocks):
            below = self.blocks[following]
            if self.structure.parent(below) == block and self.structure.kind(below) != Kind.TERM:
                described = self.show(following)
                return Shown(start, described.end, described.text)
        return Shown(start, end, name)

    def _item_text(self, start: int, end: int, block: int, keep: bool = False) -> str:
        text = self._read(start, end)
        if start == self.structure[block].start and not keep:
            text = _BULLET.sub("", text)
        elif keep:
            text = _BULLET.sub("- ", text)
        return text

    def led_in(self, block: int) -> bool:
        """Whether a block is an item of a list that a paragraph, an item or a heading ending
        in ':' introduces ('... meet all of these conditions:' / 'a) The modified work ...';
        '#### Use a LinkedList when:' / '- You want a Vec or VecDeque of unknown size')."""
        parent = self.structure.parent(block)
        leads = parent >= 0 and self.structure.kind(parent) in _LEADS_IN
        return leads and self.structure.kind(block) == Kind.ITEM and self._ends_lead_in(parent)

    def _lead_in(self, block: int) -> str:
        if not self.led_in(block):
            return ""
        parent = self.structure.parent(block)
        if self.structure.kind(parent) == Kind.HEADING:
            return f"{self.heading_text(parent)}:"
        last = self._last_unit(parent)
        whole = self._with_half_before(last) if last >= 0 else None
        lead = whole[1] if whole is not None else self._read(*self._last_sentence(parent))
        return _BULLET.sub("", lead) if self.structure.kind(parent) == Kind.ITEM else lead

    def _list_led_past_page(self, halves: tuple[int, int]) -> Shown | None:
        """The list a lead-in introduces, shown for its first half, when a page break cuts
        it into `halves` ('the RECOMMENDED order to perform the checks' / 'is:'); else None."""
        after = halves[1]
        if not self._leads_to_list(self.blocks[after], self.spans[after][1]):
            return None
        return self.procedure(after)

    def _with_half_before(self, unit: int) -> tuple[int, str] | None:
        """Where the sentence a page break cuts before `unit` starts, and how it reads
        whole; None when `unit` is no such sentence's second half."""
        halves = self._across_page(unit)
        if halves is None or halves[1] != unit:
            return None
        first = self.spans[halves[0]]
        return first[0], f"{self._read(*first)} {self._read(*self.spans[unit])}"

    def _ends_lead_in(self, block: int) -> bool:
        item = self.structure[block]
        return ends_lead_in(self.text, item.start, item.end)

    def _last_sentence(self, block: int) -> tuple[int, int]:
        last = self._last_unit(block)
        return self.spans[last] if last >= 0 else self.structure[block][1:3]

    def _leads_to_list(self, block: int, end: int) -> bool:
        return self._ends_lead_in(block) and end == self.structure[block].end

    def _announces_list(self, unit: int, block: int) -> bool:
        """The unit is the sentence just before a lead-in's colon: 'First, let's look at the
        ownership rules. Keep these rules in mind ...:' names what the list holds."""
        return self._last_unit(block) == unit + 1 and self._ends_lead_in(block)

    def _under(self, block: int, lead: int) -> bool:
        """An item of the list that `lead` introduces, at any depth."""
        if self.structure.kind(block) != Kind.ITEM:
            return False
        return lead in self.structure.ancestors(block)


def _call(label: str) -> re.Match[str] | None:
    """The label read as a call's signature (_CALL), if it is one."""
    return _CALL.fullmatch(label) if len(label) <= CALL_CHARS else None


def _name_words(name: str) -> set[str]:
    """The index terms of a call's name; a name that is a stopword alone ('any', 'once')
    is its own word."""
    return set(iter_tokens(name)) or set(iter_tokens(name, keep_stopwords=True))


def _led(title: str, text: str) -> str:
    """`text` after the title that leads in to it: '15. Disclaimer of Warranty.' leads in
    as '15. Disclaimer of Warranty: ...'; a FAQ's question as '(6) Is SQLite threadsafe? ...'."""
    lead = title[:-1] if title.endswith((".", ":", ",")) else title
    if text.startswith(lead):  # a list shown with its lead-in, the title itself
        return text
    return f"{lead} {text}" if asks(lead) else f"{lead}: {text}"


@lru_cache(maxsize=8)
def _read_cached(text: str, page_starts: tuple[int, ...]) -> Passages:
    """Passages are not changed once read (their cached properties are pure), so one
    reading serves every caller; 8 texts of at most CACHED_CHARS hold at most ~10 MB."""
    return Passages._analysed(text, page_starts)


def whole_structure(text: str) -> Structure:
    """The structure of a whole document, read as the IDF pass reads it: a text short
    enough to be cached as a chunk is (so its one map task reuses it), a longer one in a
    lean layout pass (see layout.analyse)."""
    if len(text) <= CACHED_CHARS:
        return Passages.read(text).structure
    return analyse(text, lean=True)


def unit_bounds(text: str, structure: Structure | None = None) -> tuple[array[int], array[int]]:
    """The starts and ends of the units of `text` (Passages.read(text).spans), as arrays;
    `structure` is its whole_structure when the caller already has it.

    What IDF needs of a whole document, without the reading a chunk keeps: 90,887 units
    of 10 MB take 1.5 MB so, and ~11 MB as a list of tuples with their blocks beside them.
    """
    if len(text) <= CACHED_CHARS:
        spans = Passages.read(text).spans
        return array("q", [s for s, _ in spans]), array("q", [e for _, e in spans])
    return laid_out_bounds(text, structure if structure is not None else whole_structure(text))


def laid_out_bounds(text: str, structure: Structure | None = None) -> tuple[array[int], array[int]]:
    """unit_bounds(text), from `structure` or a layout pass of its own, kept for no other
    caller (a sample of a text, see usage.py)."""
    starts, ends = array("q"), array("q")
    text = unframed(text)  # as Passages.read splits it (the structure is of this text)
    for block in structure if structure is not None else analyse(text):
        for start, end in _units(text, block.kind, block.start, block.end):
            starts.append(start)
            ends.append(end)
    return starts, ends


def _units(text: str, kind: Kind, start: int, end: int) -> list[tuple[int, int]]:
    """The units of one block."""
    if kind == Kind.FURNITURE:
        return []
    if kind in (Kind.PARAGRAPH, Kind.ITEM):
        return block_sentences(text, start, end)
    if kind == Kind.CODE:
        return _statements(text, start, end)
    if end - start > MAX_SENTENCE_CHARS:
        return block_sentences(text, start, end)
    return [(start, end)]


def _statements(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A code block's statements: each line with the comment lines just above it."""
    spans: list[tuple[int, int]] = []
    offset = start
    begin = -1
    for line in text[start:end].split("\n"):
        line_start, line_end = offset, offset + len(line.rstrip())
        offset += len(line) + 1
        if not line.strip() or _FENCE_LINE.match(line):
            begin = -1
            continue
        if begin < 0:
            begin = line_start + len(line) - len(line.lstrip())
        if _COMMENT.match(line):
            continue
        spans.append((begin, line_end))
        begin = -1
    return spans


def _cells(row: str) -> list[str]:
    row = row.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    return [cell.strip().replace("\\|", "|") for cell in _CELL_SPLIT.split(row)]


# A section's number or a list's marker before a title: '2.3.3. ', '(1) ', '- '.
_TITLE_NUMBER = re.compile(rf"\s*(?:{BULLET_CLASS}\s+)?(?:\(?\d+(?:\.\d+)*[.)]?\s+)?")


def unnumbered(title: str) -> str:
    """A heading's words without its section's number: '3. RFC 42: Faster mirrors' ->
    'RFC 42: Faster mirrors'."""
    return _TITLE_NUMBER.sub("", strip_heading(title), count=1)


_TITLE_SPACES = re.compile(r"[\s_-]+")


def _title_key(text: str) -> str:
    """A title as a contents list and the heading it points to both write it, a name's
    underscores as its anchor's hyphens: rustc's contents item 'unused_must_use' is the
    section '## unused-must-use'."""
    return " ".join(_TITLE_SPACES.split(unnumbered(text).casefold())).strip()


def strip_heading(text: str) -> str:
    """A heading's words without its Markdown marks ('## 3.8' -> '3.8', '**Usage**:') or
    a closing colon ("What's new in 2.46.0:")."""
    bold = re.fullmatch(r"\*\*(.+?)\*\*:?", text)
    if bold:
        return bold.group(1)
    return _HEADING_MARKS.sub("", text).strip().removesuffix(":")


def _one_short_line(line: str) -> bool:
    """`line` can be a command read into the prose around it: one line, no code span."""
    return "\n" not in line and "`" not in line and 0 < len(line) <= COMMAND_MAX_CHARS


def _indent(lines: str) -> int:
    """Columns of leading whitespace of the first line (a tab to the next multiple of 8)."""
    first = lines.split("\n", 1)[0].expandtabs(8)
    return len(first) - len(first.lstrip())


def _setting_kind(unit: str) -> str:
    """'section' for a settings file's section line ('[profile.release]'), 'setting' for
    its 'key = value' line (after any comment lines, which read with the line they
    precede), else ''."""
    lines = [x for x in unit.split("\n") if x.strip() and not _COMMENT.match(x)]
    if len(lines) == 1 and _SETTINGS_SECTION.fullmatch(lines[0]):
        return "section"
    return "setting" if lines and all(_SETTING.fullmatch(x) for x in lines) else ""
