// longdoc's page: documents in, a question or "Summarize", progress from the SSE stream of
// POST /v1/ask or /v1/summarize, an answer whose citations open the exact span in the text;
// and a chat tab on a thread. Plain browser APIs only: no framework, no build, no network
// but this server.
"use strict";

const $ = (id) => document.getElementById(id);
const KEY_STORE = "longdoc.apiKey"; // sessionStorage: gone when the tab closes

const state = {
  files: [], // File objects chosen or dropped, in order
  documents: new Map(), // id -> {text, page_starts, chars}, from the last result
  citations: [], // the last result's citations
  threadId: null,
  busy: false,
};

// ---- talking to the API ----

const TITLES = {
  401: "An API key is needed",
  404: "Not found",
  413: "Too large",
  415: "Unsupported file type",
  422: "The request could not be used",
  429: "The server is busy",
  502: "The model failed",
  503: "The thread store is down",
  504: "Timed out",
};

class ApiError extends Error {
  constructor({ status = 0, code = "", message = "", hint = "", retryAfter = null, title = "" }) {
    super(message);
    Object.assign(this, { status, code, hint, retryAfter, title });
  }
}

function authHeaders(extra = {}) {
  const key = sessionStorage.getItem(KEY_STORE);
  return key ? { ...extra, Authorization: `Bearer ${key}` } : extra;
}

// Every error body is {"error": {"code", "message", "hint"}}; anything else still reads well.
async function errorFrom(response) {
  let detail = {};
  try {
    detail = (await response.json()).error || {};
  } catch {
    // not JSON (a proxy's page, say): fall back to the status line
  }
  return new ApiError({
    status: response.status,
    code: detail.code || "",
    message: detail.message || response.statusText || "the request failed",
    hint: detail.hint || "",
    retryAfter: response.headers.get("Retry-After"),
  });
}

async function request(path, init = {}) {
  let response;
  const keySent = Boolean(sessionStorage.getItem(KEY_STORE));
  try {
    response = await fetch(path, { ...init, headers: authHeaders(init.headers) });
  } catch (exc) {
    throw new ApiError({
      message: `could not reach the server (${exc.message})`,
      hint: "Check that `longdoc serve` is still running.",
    });
  }
  if (!response.ok) throw keyRefused(await errorFrom(response), keySent);
  return response;
}

// A 401 after sending a key means that key was refused, not that one is missing.
function keyRefused(error, keySent) {
  if (error.status !== 401 || !keySent) return error;
  error.title = "The API key was refused";
  error.hint = "Check the key for typos, or ask whoever runs this server for a valid one.";
  return error;
}

async function requestJson(path, init) {
  const response = await request(path, init);
  return response.status === 204 ? null : response.json();
}

// Server-sent events from a POST: fetch gives a byte stream, parsed here block by block.
// A block is lines of `event: name` and `data: json`, ended by a blank line; a line that
// starts with ':' is a keep-alive comment.
async function* readEvents(response) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end;
    while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
      const event = parseBlock(block);
      if (event) yield event;
    }
  }
}

function parseBlock(block) {
  let name = "message";
  const data = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") name = value;
    else if (field === "data") data.push(value);
  }
  return data.length ? { name, data: JSON.parse(data.join("\n")) } : null;
}

// ---- errors on the page ----

function showError(error) {
  const box = $("error");
  const title = document.createElement("strong");
  title.textContent = error.title || TITLES[error.status] || "Something went wrong";
  const message = document.createElement("p");
  message.textContent = error.message || "the request failed"; // as sent: it may name a file
  box.replaceChildren(title, message);
  const hints = [error.hint, error.retryAfter ? `Try again in ${error.retryAfter} s.` : ""];
  for (const hint of hints.filter(Boolean)) {
    const line = document.createElement("p");
    line.className = "hint";
    line.textContent = hint;
    box.append(line);
  }
  box.hidden = false;
  if (error.status === 401) openKeyPanel();
}

function clearError() {
  $("error").hidden = true;
  $("error").replaceChildren();
}

function setBusy(busy) {
  state.busy = busy;
  for (const id of ["ask-button", "summarize-button", "send-button", "new-thread"]) {
    $(id).disabled = busy;
  }
}

// ---- the API key ----

function openKeyPanel() {
  $("key-panel").hidden = false;
  $("key-toggle").setAttribute("aria-expanded", "true");
  $("api-key").focus();
}

function setupKey() {
  $("api-key").value = sessionStorage.getItem(KEY_STORE) || "";
  $("key-toggle").addEventListener("click", () => {
    const open = $("key-panel").hidden;
    $("key-panel").hidden = !open;
    $("key-toggle").setAttribute("aria-expanded", String(open));
    if (open) $("api-key").focus();
  });
  $("key-save").addEventListener("click", () => {
    const key = $("api-key").value.trim();
    if (key) sessionStorage.setItem(KEY_STORE, key);
    else sessionStorage.removeItem(KEY_STORE);
    $("key-panel").hidden = true;
    $("key-toggle").setAttribute("aria-expanded", "false");
    clearError();
  });
  $("key-forget").addEventListener("click", () => {
    sessionStorage.removeItem(KEY_STORE);
    $("api-key").value = "";
  });
}

// ---- choosing documents ----

function addFiles(list) {
  for (const file of list) state.files.push(file);
  renderFiles();
}

function renderFiles() {
  const items = state.files.map((file, index) => {
    const item = document.createElement("li");
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "secondary";
    remove.textContent = "×";
    remove.setAttribute("aria-label", `Remove ${file.name}`);
    remove.addEventListener("click", () => {
      state.files.splice(index, 1);
      renderFiles();
    });
    item.append(`${file.name} (${formatBytes(file.size)})`, remove);
    return item;
  });
  $("file-list").replaceChildren(...items);
}

function formatBytes(size) {
  if (size < 1000) return `${size} B`;
  if (size < 1_000_000) return `${(size / 1000).toFixed(1)} kB`;
  return `${(size / 1_000_000).toFixed(1)} MB`;
}

// The chosen files, plus pasted text as one more file: all sent as multipart `file` parts.
function documentFiles() {
  const files = [...state.files];
  const pasted = $("paste").value;
  if (pasted.trim()) files.push(new File([pasted], "pasted.txt", { type: "text/plain" }));
  return files;
}

function setupDrop() {
  const drop = $("drop");
  $("files").addEventListener("change", (event) => {
    addFiles(event.target.files);
    event.target.value = ""; // choosing the same file again fires change again
  });
  for (const name of ["dragenter", "dragover"]) {
    drop.addEventListener(name, (event) => {
      event.preventDefault();
      drop.classList.add("over");
    });
  }
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    addFiles(event.dataTransfer.files);
  });
}

// ---- ask and summarize ----

async function run(task) {
  if (state.busy) return;
  clearError();
  const question = $("question").value.trim();
  const files = documentFiles();
  if (!files.length) {
    showError({ title: "No document yet", message: "choose or drop a file, or paste text" });
    return;
  }
  if (task === "ask" && !question) {
    showError({ title: "No question yet", message: "type a question, or choose Summarize" });
    $("question").focus();
    return;
  }
  const form = new FormData();
  for (const file of files) form.append("file", file, file.name);
  if (task === "ask") form.append("question", question);
  form.append("include_documents", "true"); // the texts citations point into, for the viewer
  startProgress();
  setBusy(true);
  try {
    const response = await request(`/v1/${task}`, {
      method: "POST",
      body: form,
      headers: { Accept: "text/event-stream" },
    });
    for await (const { name, data } of readEvents(response)) {
      if (name === "result") showResult(data, task);
      else if (name === "error") throw new ApiError({ ...data.error, title: "The run failed" });
      else showProgress(name, data);
    }
  } catch (error) {
    $("progress").hidden = true;
    showError(error);
  } finally {
    setBusy(false);
  }
}

let failedChunks = 0;

function startProgress() {
  failedChunks = 0;
  $("result").hidden = true;
  $("viewer").hidden = true;
  $("progress").hidden = false;
  $("progress-bar").removeAttribute("value"); // indeterminate until the split is known
  $("progress-text").textContent = "Reading the documents…";
}

function showProgress(name, data) {
  const bar = $("progress-bar");
  const text = $("progress-text");
  if (name === "route") text.textContent = "Reading the documents…";
  else if (name === "split") {
    bar.max = data.chunks;
    bar.value = 0;
    text.textContent = `Split into ${plural(data.chunks, "chunk")}; reading…`;
  } else if (name === "chunk_done") {
    if (!data.ok) failedChunks += 1;
    bar.max = data.total;
    bar.value = data.done;
    const failed = failedChunks ? ` · ${failedChunks} failed` : "";
    text.textContent = `Read ${data.done} of ${plural(data.total, "chunk")}${failed}`;
  } else if (name === "reduce") {
    text.textContent = `Combining findings, round ${data.round}…`;
  } else if (name === "answer") {
    text.textContent = "Writing the answer…";
  }
}

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function showResult(result, task) {
  state.documents = new Map((result.documents || []).map((doc) => [doc.id, doc]));
  state.citations = result.citations || [];
  $("result-title").textContent = task === "summarize" ? "Summary" : "Answer";
  $("answer").textContent = result.answer ?? result.summary ?? "";
  // An answer whose evidence lacks a name the question asks about may be about something else.
  const missing = result.missing_terms || [];
  $("caution").hidden = missing.length === 0;
  $("caution").textContent = missing.length
    ? `Caution: the cited text does not mention ${missing.map((t) => `“${t}”`).join(", ")}; ` +
      "the answer may be about something else."
    : "";
  $("citations").replaceChildren(...state.citations.map(citationItem));
  $("incomplete").hidden = !result.incomplete;
  $("incomplete").textContent = result.incomplete ? describeGaps(result.coverage) : "";
  $("stats").textContent = describeRun(result);
  const ms = result.timings.total_ms;
  const took = ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
  $("progress-text").textContent = `Done in ${took}`;
  $("result").hidden = false;
}

function citationItem(citation, index) {
  const number = index + 1;
  const item = document.createElement("li");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "cite";
  button.textContent = `[${number}]`;
  button.setAttribute("aria-label", `Show citation ${number} in ${citation.document}`);
  button.addEventListener("click", () => showCitation(number));
  const quote = document.createElement("span");
  quote.className = "quote";
  quote.textContent = `“${citation.quote}”`;
  const where = document.createElement("span");
  where.className = "where";
  where.textContent = ` — ${citation.document}${citation.page ? `, page ${citation.page}` : ""}`;
  const text = document.createElement("span");
  text.append(quote, where);
  item.append(button, text);
  return item;
}

function describeRun(result) {
  const { coverage, usage } = result;
  const parts = [
    `Read ${coverage.read} of ${plural(coverage.chunks, "chunk")}`,
    `${coverage.relevant} relevant`,
    `${coverage.failed.length} failed`,
  ];
  if (coverage.skimmed) {
    // A skimmed chunk was looked at for the question's terms, not read closely.
    parts[0] = `Read ${coverage.read - coverage.skimmed} of ${plural(coverage.chunks, "chunk")} closely`;
    parts.push(`${coverage.skimmed} skimmed past`);
  }
  if (coverage.truncated) parts.push("findings cut to fit");
  parts.push(
    usage.calls
      ? `${plural(usage.calls, "model call")}, ${usage.input_tokens} input + ` +
          `${usage.output_tokens} output tokens`
      : "no model calls (built-in engine)",
  );
  const failures = coverage.failed.map((f) => `chunk ${f.chunk}: ${f.error}`);
  return parts.join(" · ") + (failures.length ? `. Failed: ${failures.join("; ")}` : "");
}

function describeGaps(coverage) {
  const failed = coverage.failed.length;
  return `Incomplete: ${failed} of ${plural(coverage.chunks, "chunk")} could not be read, ` +
    "so this rests on the rest of the documents.";
}

// Offsets count Unicode code points (Python's str), JavaScript strings count UTF-16 units:
// slice an array of code points so an emoji before the span does not shift it.
function codePoints(doc) {
  doc.chars ??= Array.from(doc.text);
  return doc.chars;
}

function pageOf(doc, citation) {
  if (citation.page) return citation.page;
  const starts = doc.page_starts || [];
  const page = starts.filter((start) => start <= citation.start).length;
  return page || null;
}

function showCitation(number) {
  const citation = state.citations[number - 1];
  const doc = state.documents.get(citation.document);
  if (!doc) {
    showError({ title: "No text to show", message: `the text of ${citation.document} is missing` });
    return;
  }
  const chars = codePoints(doc);
  const mark = document.createElement("mark");
  mark.id = "highlight";
  mark.textContent = chars.slice(citation.start, citation.end).join("");
  $("doc-text").replaceChildren(
    chars.slice(0, citation.start).join(""),
    mark,
    chars.slice(citation.end).join(""),
  );
  const page = pageOf(doc, citation);
  $("viewer-title").textContent =
    `Citation ${number}: ${citation.document}${page ? `, page ${page}` : ""}`;
  $("viewer").hidden = false;
  mark.scrollIntoView({ block: "center" });
}

// ---- chat ----

async function newThread() {
  const thread = await requestJson("/v1/threads", { method: "POST" });
  state.threadId = thread.thread_id;
  $("thread-id").textContent = `Thread ${thread.thread_id}`;
  $("messages").replaceChildren();
  showSummary("");
}

function addMessage(role, text, citations = []) {
  const item = document.createElement("li");
  item.className = role;
  const who = document.createElement("span");
  who.className = "who";
  who.textContent = role === "user" ? "You" : "longdoc";
  item.append(who, text);
  if (citations.length) item.append(replyCitations(citations));
  $("messages").append(item);
  item.scrollIntoView({ block: "nearest" });
  return item;
}

// Under a reply: the earlier turns recalled into its prompt, looked up in the history.
function showRecalled(item, ids, history) {
  if (!ids || !ids.length) return;
  const byId = new Map(history.map((message) => [message.id, message]));
  const details = document.createElement("details");
  details.className = "recalled";
  const summary = document.createElement("summary");
  summary.textContent = `Recalled ${ids.length} earlier turn${ids.length === 1 ? "" : "s"}`;
  const list = document.createElement("div");
  for (const id of ids) {
    const message = byId.get(id);
    const entry = document.createElement("p");
    if (message) {
      const who = message.name || (message.role === "user" ? "You" : "longdoc");
      const when = message.created_at ? ` (${message.created_at.slice(0, 16).replace("T", " ")})` : "";
      entry.textContent = `${who}${when}: ${message.content}`;
    } else {
      entry.textContent = "A summary of earlier turns";
    }
    list.append(entry);
  }
  details.append(summary, list);
  item.append(details);
}

// A reply that read a document cites its passages: each quote is exact text of the source.
function replyCitations(citations) {
  const list = document.createElement("ol");
  list.className = "reply-citations";
  list.setAttribute("aria-label", "Citations");
  for (const citation of citations) {
    const item = document.createElement("li");
    const quote = document.createElement("span");
    quote.className = "quote";
    quote.textContent = `“${citation.quote}”`;
    const where = document.createElement("span");
    where.className = "where";
    where.textContent = ` — ${citation.document}${citation.page ? `, page ${citation.page}` : ""}`;
    item.append(quote, where);
    list.append(item);
  }
  return list;
}

function showSummary(summary) {
  $("summary").textContent =
    summary ||
    "No summary yet: older turns are folded into one once the conversation grows; " +
      "until then every message is kept as it is.";
  $("summary").classList.toggle("muted", !summary);
}

async function sendMessage(event) {
  event.preventDefault();
  if (state.busy) return;
  const message = $("chat-input").value.trim();
  if (!message) return;
  clearError();
  setBusy(true);
  try {
    if (!state.threadId) await newThread();
    const files = $("attach").checked ? documentFiles() : [];
    let init;
    if (files.length) {
      const form = new FormData();
      form.append("message", message);
      for (const file of files) form.append("file", file, file.name);
      init = { method: "POST", body: form };
    } else {
      init = {
        method: "POST",
        body: JSON.stringify({ message }),
        headers: { "Content-Type": "application/json" },
      };
    }
    const path = `/v1/threads/${encodeURIComponent(state.threadId)}/messages`;
    const reply = await requestJson(path, init);
    addMessage("user", message);
    const answer = addMessage("assistant", reply.reply, reply.citations);
    $("chat-input").value = "";
    $("attach").checked = false;
    const view = await requestJson(`/v1/threads/${encodeURIComponent(state.threadId)}`);
    showSummary(view.summary);
    showRecalled(answer, reply.recalled, view.history);
  } catch (error) {
    showError(error);
  } finally {
    setBusy(false);
  }
}

// ---- tabs ----

function selectTab(tab) {
  for (const other of document.querySelectorAll('[role="tab"]')) {
    const selected = other === tab;
    other.setAttribute("aria-selected", String(selected));
    other.tabIndex = selected ? 0 : -1;
    $(other.getAttribute("aria-controls")).hidden = !selected;
  }
  tab.focus();
}

function setupTabs() {
  const tabs = [...document.querySelectorAll('[role="tab"]')];
  for (const tab of tabs) {
    tab.addEventListener("click", () => selectTab(tab));
    tab.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (!step) return;
      const next = tabs[(tabs.indexOf(tab) + step + tabs.length) % tabs.length];
      selectTab(next);
    });
  }
}

document.addEventListener("DOMContentLoaded", () => {
  setupKey();
  setupDrop();
  setupTabs();
  $("ask-form").addEventListener("submit", (event) => {
    event.preventDefault();
    run("ask");
  });
  $("summarize-button").addEventListener("click", () => run("summarize"));
  $("new-thread").addEventListener("click", async () => {
    clearError();
    try {
      await newThread();
    } catch (error) {
      showError(error);
    }
  });
  $("chat-form").addEventListener("submit", sendMessage);
});
