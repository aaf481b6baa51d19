"""Word documents and EPUB books read as Markdown; other ZIPs and unsafe ones refused."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from pipeline import InputError, Settings, TooLargeError, UnsupportedTypeError, ask
from pipeline.documents import from_bytes

NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def zipped(parts: dict[str, str | bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def paragraph(*runs: str, style: str = "", numbered: tuple[int, int] | None = None) -> str:
    properties = f'<w:pStyle w:val="{style}"/>' if style else ""
    if numbered:
        properties += (
            f'<w:numPr><w:ilvl w:val="{numbered[1]}"/><w:numId w:val="{numbered[0]}"/></w:numPr>'
        )
    return f"<w:p><w:pPr>{properties}</w:pPr>{''.join(runs)}</w:p>"


STYLES = f"""<w:styles {NS}>
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>
<w:style w:type="paragraph" w:styleId="Titre2"><w:name w:val="Titre 2"/>
  <w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="ListBullet"><w:name w:val="List Bullet"/>
  <w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr></w:style>
</w:styles>"""
NUMBERING = f"""<w:numbering {NS}>
<w:abstractNum w:abstractNumId="10"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/></w:lvl>
</w:abstractNum>
<w:abstractNum w:abstractNumId="20"><w:lvl w:ilvl="0"><w:numFmt w:val="decimal"/></w:lvl>
<w:lvl w:ilvl="1"><w:numFmt w:val="lowerLetter"/></w:lvl></w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="10"/></w:num>
<w:num w:numId="2"><w:abstractNumId w:val="20"/></w:num>
</w:numbering>"""
BODY = "".join(
    [
        paragraph(run("Lease of the Harbour Warehouse"), style="Heading1"),
        paragraph(run("The tenant pays "), run("rent monthly"), run(" in advance.")),
        paragraph(
            run("The deposit is "),
            "<w:del><w:r><w:delText>two</w:delText></w:r></w:del>",
            "<w:ins>" + run("three") + "</w:ins>",
            run(" months of rent."),
            '<w:r><w:footnoteReference w:id="1"/></w:r>',
        ),
        paragraph(
            '<w:r><w:fldChar w:fldCharType="begin"/></w:r>',
            '<w:r><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r>',
            '<w:r><w:fldChar w:fldCharType="separate"/></w:r>',
            run("Page 1"),
            '<w:r><w:fldChar w:fldCharType="end"/></w:r>',
        ),
        paragraph(run("Duties of the tenant"), style="Titre2"),
        paragraph(run("Keep the doors locked."), style="ListBullet"),
        paragraph(run("Report damage within 7 days."), style="ListBullet"),
        paragraph(run("Give notice"), numbered=(2, 0)),
        paragraph(run("in writing"), numbered=(2, 1)),
        paragraph(run("Return the keys"), numbered=(2, 0)),
        "<w:tbl><w:tr><w:tc>"
        + paragraph(run("Item"))
        + "</w:tc><w:tc>"
        + paragraph(run("Fee"))
        + "</w:tc></w:tr><w:tr><w:tc>"
        + paragraph(run("Late rent"))
        + "</w:tc><w:tc>"
        + paragraph(run("40 EUR a day"))
        + "</w:tc></w:tr></w:tbl>",
        "<w:sectPr/>",
    ]
)
FOOTNOTES = f"""<w:footnotes {NS}>
<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>
<w:footnote w:id="1">{paragraph(run("Held by the landlord's bank."))}</w:footnote>
</w:footnotes>"""


def lease(document_body: str = BODY) -> bytes:
    return zipped(
        {
            "[Content_Types].xml": "<Types/>",
            "word/document.xml": f"<w:document {NS}><w:body>{document_body}</w:body></w:document>",
            "word/styles.xml": STYLES,
            "word/numbering.xml": NUMBERING,
            "word/footnotes.xml": FOOTNOTES,
        }
    )


def test_a_word_document_reads_as_word_shows_it() -> None:
    text = from_bytes(lease(), "lease.docx", Settings()).text
    assert text.startswith("# Lease of the Harbour Warehouse\n\nThe tenant pays rent monthly in")
    assert "The deposit is three months of rent.[1]" in text  # tracked: inserted in, deleted out
    assert "Page 1" in text
    assert "PAGE" not in text  # a field's code is not shown, its result is
    assert "## Duties of the tenant" in text  # a heading by its outline level, named in French
    assert "- Keep the doors locked.\n- Report damage within 7 days." in text
    assert "1. Give notice\n  a. in writing\n2. Return the keys" in text
    assert "| Item | Fee |\n|---|---|\n| Late rent | 40 EUR a day |" in text
    assert text.rstrip().endswith("# Footnotes\n\n[1] Held by the landlord's bank.")


def test_a_word_document_is_answered_and_cited(tmp_path: Path) -> None:
    path = tmp_path / "lease.docx"
    path.write_bytes(lease())
    result = ask([path], "How many months of rent is the deposit?", settings=Settings())
    assert "The deposit is three months of rent." in result.answer
    assert result.citations[0].document == "lease.docx"


def test_a_table_of_one_cell_is_a_box_read_as_its_paragraphs() -> None:
    boxed = paragraph(run("Notice period"), style="Heading1") + paragraph(
        run("Either party gives eight weeks of notice."), style="ListBullet"
    )
    body = f"<w:tbl><w:tr><w:tc><w:tcPr/>{boxed}</w:tc></w:tr></w:tbl>"
    text = from_bytes(lease(body), "boxed.docx", Settings()).text
    assert text.startswith("# Notice period\n\n- Either party gives eight weeks of notice."), text
    assert "|" not in text


def online_docx(target: str) -> bytes:
    """A Word document whose main part is word/document2.xml, as `target` names it."""
    relations = (
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        f'<Relationship Id="rId1" Target="{target}" Type="http://schemas.'
        'openxmlformats.org/officeDocument/2006/relationships/officeDocument"/></Relationships>'
    )
    body = paragraph(run("Saved by Word Online."))
    return zipped(
        {
            "[Content_Types].xml": "<Types/>",
            "_rels/.rels": relations,
            "word/document2.xml": f"<w:document {NS}><w:body>{body}</w:body></w:document>",
        }
    )


@pytest.mark.parametrize("target", ["/word/document2.xml", "./word/document2.xml", "gone.xml"])
def test_a_main_part_saved_under_another_name_is_found_through_the_relationships(
    target: str,
) -> None:
    text = from_bytes(online_docx(target), "online.docx", Settings()).text
    assert text.strip() == "Saved by Word Online."


def field_char(kind: str) -> str:
    return f'<w:r><w:fldChar w:fldCharType="{kind}"/></w:r>'


def code(text: str) -> str:
    return f'<w:r><w:instrText xml:space="preserve">{text}</w:instrText></w:r>'


def test_a_field_inside_another_fields_code_shows_only_the_outer_result() -> None:
    # A mail merge's { IF { MERGEFIELD Tier } = "Gold" "twelve" "six" }: Word shows the IF's
    # result, not the MERGEFIELD's inside its code.
    body = paragraph(
        run("Notice is "),
        field_char("begin"),
        code(" IF "),
        field_char("begin"),
        code(" MERGEFIELD Tier "),
        field_char("separate"),
        run("Gold"),
        field_char("end"),
        code(' = "Gold" "twelve" "six" '),
        field_char("separate"),
        run("twelve"),
        field_char("end"),
        run(" weeks."),
    )
    text = from_bytes(lease(body), "merge.docx", Settings()).text
    assert text.startswith("Notice is twelve weeks."), text


CONTAINER = """<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles><rootfile full-path="OEBPS/content.opf"
 media-type="application/oebps-package+xml"/></rootfiles></container>"""
PACKAGE = """<?xml version="1.0"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0">
<metadata/>
<manifest>
 <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
 <item id="two" href="text/chapter%202.xhtml" media-type="application/xhtml+xml"/>
 <item id="one" href="text/one.xhtml" media-type="application/xhtml+xml"/>
 <item id="css" href="style.css" media-type="text/css"/>
</manifest>
<spine><itemref idref="one"/><itemref idref="two"/></spine>
</package>"""


def chapter(heading: str, body: str) -> str:
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n'
        '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Salt Roads</title></head>'
        f"<body><h2>{heading}</h2><p>{body}</p></body></html>"
    )


def book(**extra: str) -> bytes:
    parts: dict[str, str | bytes] = {
        "mimetype": "application/epub+zip",
        "META-INF/container.xml": CONTAINER,
        "OEBPS/content.opf": PACKAGE,
        "OEBPS/nav.xhtml": chapter("Contents", "Chapter 1. Chapter 2."),
        "OEBPS/text/one.xhtml": chapter("Chapter 1", "The ferry left Oban at dawn."),
        "OEBPS/text/chapter 2.xhtml": chapter("Chapter 2", "Mull rose out of the fog at noon."),
        "OEBPS/style.css": "p { margin: 0 }",
    }
    parts.update(extra)
    return zipped(parts)


def test_an_epub_reads_its_chapters_in_reading_order(tmp_path: Path) -> None:
    text = from_bytes(book(), "salt-roads.epub", Settings()).text
    assert text == (
        "## Chapter 1\n\nThe ferry left Oban at dawn.\n\n## Chapter 2\n\n"
        "Mull rose out of the fog at noon.\n"
    )  # the spine's order, not the manifest's; the contents page is not in the spine
    path = tmp_path / "salt-roads.epub"
    path.write_bytes(book())
    result = ask([path], "When did the ferry leave Oban?", settings=Settings())
    assert result.answer == "The ferry left Oban at dawn."


def test_a_book_under_drm_says_so_and_font_obfuscation_is_no_drm() -> None:
    encryption = (
        '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
        'xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData>'
        '<enc:EncryptionMethod Algorithm="{}"/></enc:EncryptedData></encryption>'
    )
    drm = book(
        **{
            "META-INF/encryption.xml": encryption.format(
                "http://www.w3.org/2001/04/xmlenc#aes128-cbc"
            )
        }
    )
    with pytest.raises(UnsupportedTypeError, match="DRM"):
        from_bytes(drm, "locked.epub", Settings())
    fonts = book(
        **{"META-INF/encryption.xml": encryption.format("http://www.idpf.org/2008/embedding")}
    )
    assert "Oban" in from_bytes(fonts, "fonts.epub", Settings()).text


def test_other_zips_and_damaged_or_unsafe_ones_get_a_clear_error() -> None:
    workbook = zipped({"xl/workbook.xml": "<workbook/>"})
    with pytest.raises(UnsupportedTypeError, match="Excel workbook"):
        from_bytes(workbook, "sheet.xlsx", Settings())
    with pytest.raises(UnsupportedTypeError, match="a ZIP archive"):
        from_bytes(zipped({"notes.txt": "hello"}), "notes.zip", Settings())
    with pytest.raises(InputError, match="damaged"):
        from_bytes(lease()[:200], "cut.docx", Settings())
    bomb = '<!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
    entities = zipped({"word/document.xml": f"{bomb}<w:document {NS}>&b;</w:document>"})
    with pytest.raises(InputError, match="DTD"):
        from_bytes(entities, "entities.docx", Settings())


def test_a_small_zip_that_inflates_past_the_size_limit_is_refused_while_inflating() -> None:
    body = paragraph(run("x" * 2_000_000))
    bomb = lease(body)
    assert len(bomb) < 50_000
    with pytest.raises(TooLargeError, match=r"unpacks to more|too large to parse"):
        from_bytes(bomb, "bomb.docx", Settings(max_document_mb=0.4))


def test_word_text_as_word_shows_it_in_cells_boxes_and_hidden_runs() -> None:
    box = (
        "<w:r><w:pict><w:txbxContent><w:p><w:r><w:t>In box</w:t></w:r></w:p>"
        "</w:txbxContent></w:pict></w:r>"
    )
    hidden = "<w:r><w:rPr><w:vanish/></w:rPr><w:t>SECRET</w:t></w:r>"
    symbol = '<w:r><w:sym w:font="Symbol" w:char="F0B0"/><w:sym w:char="00B0"/></w:r>'
    cell = "<w:tc><w:tcPr><w:gridSpan w:val='2'/></w:tcPr>" + paragraph(run("wide")) + "</w:tc>"
    body = (
        paragraph(run("Before"), box, run("After")),
        paragraph(run("Shown."), hidden, run(" Also shown."), symbol),
        "<w:tbl><w:tr><w:tc>"
        + paragraph(run("A"))
        + "</w:tc><w:tc>"
        + paragraph(run("B"))
        + "</w:tc><w:tc>"
        + paragraph(run("C"))
        + "</w:tc></w:tr>"
        + "<w:sdt><w:sdtContent><w:tr>"
        + cell
        + "<w:tc>"
        + paragraph(run("3"), box)
        + "</w:tc></w:tr></w:sdtContent></w:sdt></w:tbl>",
    )
    text = from_bytes(lease("".join(body)), "forms.docx", Settings()).text
    assert "Before In box After" in text  # a text box's words stand apart, read once
    assert "Shown. Also shown.\u00b0" in text
    assert "SECRET" not in text
    assert "| wide |  | 3 In box |" in text  # a row inside a content control; a cell's span


def test_damaged_encrypted_or_entity_laden_archives_are_input_errors() -> None:
    good = lease()
    damaged = bytearray(good)
    start = good.find(b"word/document.xml") + len("word/document.xml")
    damaged[start + 10 : start + 40] = b"\xff" * 30  # the part's deflated bytes
    with pytest.raises(InputError):
        from_bytes(bytes(damaged), "damaged.docx", Settings())
    only = zipped({"word/document.xml": f"<w:document {NS}/>"})
    encrypted = bytearray(only)
    encrypted[6] |= 1  # the part's flag, in its header and the directory: encrypted
    encrypted[only.find(b"PK\x01\x02") + 8] |= 1
    with pytest.raises(InputError):
        from_bytes(bytes(encrypted), "locked.docx", Settings())
    entities = '<!DOCTYPE d [<!ENTITY a "INJECTED">]><w:document ' + NS + ">&a;</w:document>"
    utf16 = zipped({"word/document.xml": entities.encode("utf-16")})
    with pytest.raises(InputError, match="DTD"):
        from_bytes(utf16, "utf16.docx", Settings())


def test_an_epub_closing_a_script_in_its_start_tag_keeps_its_text() -> None:
    page = (
        '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head>'
        '<script src="x.js"/><style type="text/css"/></head><body><p>Kept.</p></body></html>'
    )
    assert "Kept." in from_bytes(book(**{"OEBPS/text/one.xhtml": page}), "b.epub", Settings()).text


def test_an_epub_chapter_declaring_its_entities_shows_none_of_its_doctype() -> None:
    # ... after a licence's comment longer than a page of text, as some books open
    licence = "<!-- " + "Licensed under the terms of the book's licence. " * 120 + "-->\n"
    page = chapter("Chapter 1", "The ferry left Oban at dawn.").replace(
        "<!DOCTYPE html>",
        licence + '<!DOCTYPE html [\n<!ENTITY nbsp "&#160;">\n<!ENTITY ferry "MV Isle">\n]>',
    )
    text = from_bytes(book(**{"OEBPS/text/one.xhtml": page}), "b.epub", Settings()).text
    assert text.startswith("## Chapter 1\n\nThe ferry left Oban at dawn."), text
    assert "]>" not in text


def test_numbered_headings_keep_the_numbers_word_shows() -> None:
    styles = f"""<w:styles {NS}>
<w:style w:type="paragraph" w:styleId="H1"><w:name w:val="heading 1"/>
  <w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="3"/></w:numPr></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="H2"><w:name w:val="heading 2"/>
  <w:pPr><w:numPr><w:ilvl w:val="1"/><w:numId w:val="3"/></w:numPr></w:pPr></w:style>
</w:styles>"""
    numbering = f"""<w:numbering {NS}><w:abstractNum w:abstractNumId="30">
<w:lvl w:ilvl="0"><w:numFmt w:val="decimal"/><w:lvlText w:val="Article %1"/></w:lvl>
<w:lvl w:ilvl="1"><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.%2"/></w:lvl>
</w:abstractNum><w:num w:numId="3"><w:abstractNumId w:val="30"/></w:num></w:numbering>"""
    headings = [("H1", "Definitions"), ("H2", "Terms"), ("H2", "Notices"), ("H1", "Payment")]
    body = "".join(paragraph(run(text), style=style) for style, text in [*headings, ("H2", "Rent")])
    document = f"<w:document {NS}><w:body>{body}</w:body></w:document>"
    raw = zipped(
        {"word/document.xml": document, "word/styles.xml": styles, "word/numbering.xml": numbering}
    )
    assert from_bytes(raw, "contract.docx", Settings()).text == (
        "# Article 1 Definitions\n\n## 1.1 Terms\n\n## 1.2 Notices\n\n# Article 2 Payment\n\n"
        "## 2.1 Rent\n"
    )
