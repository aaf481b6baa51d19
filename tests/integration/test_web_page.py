"""The web page at /, driven in headless Chromium (Debian's) against a real `longdoc serve`."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support import REPO, SAMPLES
from tests.support.documents import pdf_bytes
from tests.support.server import COUNTING_MODEL, running_server
from tests.support.texts import KEEPER_IN_A_FAILING_CHUNK

pytestmark = pytest.mark.slow  # a real server and a real browser: seconds each

try:  # a missing test extra is a skip here, but never under CI
    from playwright.sync_api import BrowserContext, Page, expect, sync_playwright
except ImportError:  # pragma: no cover - the test extra installs it
    if os.environ.get("CI"):
        raise
    pytest.skip("playwright is not installed (pip install -e '.[test]')", allow_module_level=True)

REPORT = SAMPLES / "annual_report.md"
MANUAL = SAMPLES / "user_manual.md"
ARTIFACTS = REPO / "tests" / "artifacts"
QUESTION = "Who founded the company in Bergen?"
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(32)

# Chromium makes no request of its own: the machine has no network, and a test must not
# depend on one. A fresh profile per run (launch_persistent_context) keeps runs apart.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str:
    """Debian's Chromium (.ci/chromium.sh installs it); skip here without it, fail under CI."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    reason = "no chromium on PATH; `apt-get install chromium` (.ci/run does it)"
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


# ---- a real server and a real browser ----


def serve(workdir: Path, **env: str) -> Iterator[str]:
    """`longdoc serve` with the built-in engine (no model factory) on a loopback port."""
    with running_server(
        workdir,
        # ~40 chunks of the sample report, so progress has steps to show.
        LONGDOC_EXTRACTIVE_CHUNK_SIZE="300",
        LONGDOC_MEMORY_TRIGGER="messages",
        LONGDOC_MEMORY_MAX_MESSAGES="2",  # the second chat turn folds the first
        LONGDOC_MEMORY_KEEP_MESSAGES="1",
        **env,
    ) as server:
        yield server.url


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from serve(tmp_path_factory.mktemp("server"))


@pytest.fixture(scope="module")
def browser() -> Iterator[BrowserContext]:
    executable = chromium_path()
    with (
        tempfile.TemporaryDirectory(prefix="longdoc-chromium-") as profile,
        sync_playwright() as playwright,
    ):
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=executable, headless=True, args=CHROMIUM_ARGS
        )
        context.set_default_timeout(20_000)
        yield context
        context.close()


@pytest.fixture
def page(browser: BrowserContext) -> Iterator[Page]:
    tab = browser.new_page()
    yield tab
    tab.close()


def open_page(page: Page, url: str) -> list[str]:
    """Load the page; returns the list every request URL it makes is appended to."""
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(url)
    return requests


def record_progress(page: Page) -> None:
    """Keep every text the progress line shows, so a test can check the steps it went through."""
    page.evaluate(
        """() => {
            window.progressSeen = [];
            const line = document.getElementById("progress-text");
            new MutationObserver(() => window.progressSeen.push(line.textContent))
                .observe(line, {childList: true, characterData: true, subtree: true});
        }"""
    )


def api_answer(url: str, path: Path, question: str) -> dict[str, Any]:
    """What the API itself answers for this file, to check the page against."""
    response = httpx.post(
        f"{url}/v1/ask",
        files=[("file", (path.name, path.read_bytes(), "text/markdown"))],
        data={"question": question},
        timeout=30,
    )
    response.raise_for_status()
    body: dict[str, Any] = response.json()
    return body


# ---- the tests ----


def test_ask_shows_progress_then_answer_and_citation_opens_its_exact_span(
    server: str, page: Page
) -> None:
    expected = api_answer(server, REPORT, QUESTION)
    requests = open_page(page, server)
    record_progress(page)
    page.set_input_files("#files", str(REPORT))
    expect(page.locator("#file-list")).to_contain_text("annual_report.md")
    page.fill("#question", QUESTION)
    page.click("#ask-button")

    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#answer")).to_have_text(expected["answer"])
    assert "Ingrid Halvorsen" in expected["answer"]
    seen: list[str] = page.evaluate("window.progressSeen")
    chunks = expected["coverage"]["chunks"]
    assert chunks > 10
    assert f"Split into {chunks} chunks; reading…" in seen
    assert f"Read {chunks} of {chunks} chunks" in seen
    assert any(text.startswith("Done in") for text in seen)
    assert page.locator("#progress-bar").evaluate("bar => [bar.value, bar.max]") == [chunks] * 2
    expect(page.locator("#stats")).to_contain_text(f"Read {chunks} of {chunks} chunks")
    expect(page.locator("#stats")).to_contain_text("0 failed")
    expect(page.locator("#stats")).to_contain_text("no model calls (built-in engine)")

    page.get_by_role("button", name="Show citation 1 in annual_report.md").click()
    citation = expected["citations"][0]
    highlight = page.locator("#doc-text mark")
    expect(highlight).to_have_count(1)
    expect(highlight).to_have_text(citation["quote"])
    expect(highlight).to_be_in_viewport()
    # The mark sits at exactly [start, end) of the document's text.
    text = REPORT.read_text(encoding="utf-8")
    before = page.locator("#doc-text").evaluate("box => box.firstChild.textContent")
    assert before == text[: citation["start"]]
    expect(page.locator("#viewer-title")).to_have_text("Citation 1: annual_report.md")

    ARTIFACTS.mkdir(exist_ok=True)
    page.set_viewport_size({"width": 1200, "height": 1400})
    page.screenshot(path=str(ARTIFACTS / "web_ask.png"), full_page=True)
    # Nothing was fetched from anywhere but this server.
    assert requests
    assert all(url.startswith(server) for url in requests), requests


def test_summarize_shows_a_cited_summary(server: str, page: Page) -> None:
    open_page(page, server)
    page.fill("#paste", MANUAL.read_text(encoding="utf-8"))
    page.click("#summarize-button")
    expect(page.locator("#result-title")).to_have_text("Summary")
    expect(page.locator("#answer")).not_to_be_empty()
    assert page.locator("#citations li").count() > 0
    page.get_by_role("button", name="Show citation 1 in pasted.txt").click()
    quote = page.locator("#citations li .quote").first.inner_text().strip("“”")
    expect(page.locator("#doc-text mark")).to_have_text(quote)


def test_answer_whose_evidence_lacks_the_asked_name_shows_a_caution(
    server: str, page: Page
) -> None:
    open_page(page, server)
    page.fill(
        "#paste", "The Ashford warehouse opened in 1998. The Lakeside warehouse opened in 2006."
    )
    page.fill("#question", "When did the Ashfort warehouse open?")
    page.click("#ask-button")
    expect(page.locator("#answer")).to_contain_text("1998")
    expect(page.locator("#caution")).to_be_visible()
    expect(page.locator("#caution")).to_contain_text("does not mention “Ashfort”")
    # A plain answer shows no caution.
    page.fill("#question", "When did the Lakeside warehouse open?")
    page.click("#ask-button")
    expect(page.locator("#answer")).to_contain_text("2006")
    expect(page.locator("#caution")).to_be_hidden()


def test_unsupported_and_empty_files_show_readable_errors(server: str, page: Page) -> None:
    open_page(page, server)
    page.set_input_files(
        "#files", files=[{"name": "photo.png", "mimeType": "image/png", "buffer": PNG}]
    )
    page.fill("#question", QUESTION)
    page.click("#ask-button")
    error = page.locator("#error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("Unsupported file type")
    expect(error).to_contain_text("photo.png")
    expect(page.locator("#result")).to_be_hidden()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web_error.png"))

    page.get_by_role("button", name="Remove photo.png").click()
    page.set_input_files(
        "#files", files=[{"name": "empty.txt", "mimeType": "text/plain", "buffer": b"  \n"}]
    )
    page.click("#ask-button")
    expect(error).to_contain_text("The request could not be used")
    expect(error).to_contain_text("empty")

    # Nothing to read at all is caught before any request.
    page.get_by_role("button", name="Remove empty.txt").click()
    page.click("#ask-button")
    expect(error).to_contain_text("No document yet")


def test_api_key_is_asked_for_kept_in_the_session_and_sent(
    tmp_path: Path, browser: BrowserContext, page: Page
) -> None:
    for url in serve(tmp_path, LONGDOC_API_KEYS="web-test-key", LONGDOC_MAX_QUESTION_CHARS="200"):
        # The page itself needs no key, and may load nothing but this server's files.
        response = httpx.get(url, timeout=10)
        assert response.status_code == 200
        assert "default-src 'self'" in response.headers["content-security-policy"]
        open_page(page, url)
        expect(page.locator("#key-panel")).to_be_hidden()
        page.fill("#paste", REPORT.read_text(encoding="utf-8"))
        page.fill("#question", QUESTION)
        page.click("#ask-button")
        expect(page.locator("#error")).to_contain_text("An API key is needed")
        expect(page.locator("#error")).to_contain_text("this API needs an API key")
        expect(page.locator("#key-panel")).to_be_visible()

        page.fill("#api-key", "wrong-key")
        page.click("#key-save")
        page.click("#ask-button")
        expect(page.locator("#error")).to_contain_text("The API key was refused")
        expect(page.locator("#error")).to_contain_text("the API key is not valid")
        expect(page.locator("#error")).not_to_contain_text("An API key is needed")
        expect(page.locator("#key-panel")).to_be_visible()

        page.fill("#api-key", "web-test-key")
        page.click("#key-save")
        page.click("#ask-button")
        expect(page.locator("#answer")).to_contain_text("Ingrid Halvorsen")
        expect(page.locator("#error")).to_be_hidden()
        storage = page.evaluate("[sessionStorage.length, localStorage.length]")
        assert storage == [1, 0]
        assert browser.cookies() == []

        # Over a limit is a 413, shown with what to do about it.
        page.fill("#question", "Who founded it? " * 20)
        page.click("#ask-button")
        expect(page.locator("#error")).to_contain_text("Too large")
        expect(page.locator("#error")).to_contain_text("200")


def test_chat_tab_keeps_a_thread_and_shows_its_running_summary(server: str, page: Page) -> None:
    open_page(page, server)
    page.get_by_role("tab", name="Chat").click()
    expect(page.locator("#panel-ask")).to_be_hidden()
    page.fill("#chat-input", "Hello, my name is Solveig and I build boats.")
    page.click("#send-button")
    expect(page.locator("#messages li")).to_have_count(2)
    expect(page.locator("#thread-id")).to_contain_text("Thread ")

    page.fill("#chat-input", "What is my name?")
    page.click("#send-button")
    expect(page.locator("#messages li")).to_have_count(4)
    expect(page.locator("#messages li.assistant").last).not_to_be_empty()
    # Two messages at most in a prompt: the second turn folded the first into the summary.
    expect(page.locator("#summary")).to_contain_text("Solveig")
    thread_id = page.locator("#thread-id").inner_text().removeprefix("Thread ")
    view = httpx.get(f"{server}/v1/threads/{thread_id}", timeout=10).json()
    assert len(view["history"]) == 4
    expect(page.locator("#summary")).to_have_text(view["summary"])
    # The reply lists the earlier turn it was given from the index: the folded first one.
    recalled = page.locator("#messages li.assistant").last.locator(".recalled")
    expect(recalled.locator("summary")).to_contain_text("Recalled 1 earlier turn")
    recalled.locator("summary").click()
    expect(recalled).to_contain_text("You (")
    expect(recalled).to_contain_text("Hello, my name is Solveig and I build boats.")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web_chat.png"), full_page=True)


def test_dropped_pdf_citation_shows_its_page(server: str, page: Page) -> None:
    pdf = pdf_bytes(["The weather was calm all week.", "Ada Lovelace founded Acme Shipping."])
    open_page(page, server)
    # A drop as the browser delivers it: a DataTransfer holding the file.
    transfer = page.evaluate_handle(
        """bytes => {
            const transfer = new DataTransfer();
            const file = new File([new Uint8Array(bytes)], "report.pdf", {type: "application/pdf"});
            transfer.items.add(file);
            return transfer;
        }""",
        list(pdf),
    )
    page.dispatch_event("#drop", "drop", {"dataTransfer": transfer})
    expect(page.locator("#file-list")).to_contain_text("report.pdf")
    page.fill("#question", "Who founded Acme Shipping?")
    page.click("#ask-button")
    expect(page.locator("#citations li").first).to_contain_text("report.pdf, page 2")
    page.get_by_role("button", name="Show citation 1 in report.pdf").click()
    expect(page.locator("#viewer-title")).to_have_text("Citation 1: report.pdf, page 2")
    expect(page.locator("#doc-text mark")).to_have_text("Ada Lovelace founded Acme Shipping.")


def test_chat_reply_that_read_a_document_shows_its_citations(server: str, page: Page) -> None:
    open_page(page, server)
    page.fill("#paste", REPORT.read_text(encoding="utf-8"))
    page.get_by_role("tab", name="Chat").click()
    page.check("#attach")
    page.fill("#chat-input", QUESTION)
    page.click("#send-button")
    reply = page.locator("#messages li.assistant").last
    expect(reply).to_contain_text("Ingrid Halvorsen")
    cited = reply.get_by_role("list", name="Citations").locator("li")
    expect(cited.first).to_contain_text("pasted.txt")
    quote = cited.first.locator(".quote").inner_text().strip("“”")
    assert quote in REPORT.read_text(encoding="utf-8")
    # A turn without a document cites nothing.
    page.fill("#chat-input", "Thanks!")
    page.click("#send-button")
    expect(page.locator("#messages li.assistant")).to_have_count(2)
    expect(page.locator("#messages li.assistant").last.locator("ol")).to_have_count(0)


def test_answer_with_a_chunk_that_failed_is_shown_as_incomplete(tmp_path: Path, page: Page) -> None:
    for url in serve(
        tmp_path,
        LONGDOC_MODEL_FACTORY=COUNTING_MODEL,
        LONGDOC_CHUNK_SIZE="100",
        LONGDOC_CHUNK_OVERLAP="0",
        LONGDOC_MAX_RETRIES="0",
    ):
        open_page(page, url)
        page.fill("#paste", KEEPER_IN_A_FAILING_CHUNK)
        page.fill("#question", "Who is the lighthouse keeper?")
        page.click("#ask-button")
        expect(page.locator("#answer")).to_contain_text(
            "could not be found in the chunks that were read"
        )
        note = page.locator("#incomplete")
        expect(note).to_be_visible()
        expect(note).to_contain_text(re.compile(r"Incomplete: 1 of \d+ chunks could not be read"))

        page.fill("#question", "Which harbour is quiet?")  # the other chunks answer this
        page.fill("#paste", "The quiet harbour is Bergen. " * 5)
        page.click("#ask-button")
        expect(page.locator("#answer")).to_contain_text("Bergen")
        expect(note).to_be_hidden()
