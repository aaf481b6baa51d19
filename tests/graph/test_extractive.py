"""The built-in extractive engine through the public API: answers, not-found, summaries, chat."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from pipeline import AskResult, Settings, ask, build_graph, chat, summarize
from pipeline.engines.extractive.lexrank import count_words
from pipeline.engines.extractive.retrieval import diverse_order
from pipeline.engines.extractive.terms import related, stem
from pipeline.prompts import NOT_FOUND
from tests.support import SAMPLES

QUESTIONS = [json.loads(line) for line in (SAMPLES / "questions.jsonl").read_text().splitlines()]
ANSWERABLE = [q for q in QUESTIONS if not q.get("unanswerable")]
UNANSWERABLE = [q for q in QUESTIONS if q.get("unanswerable")]


def _id(question: dict[str, Any]) -> str:
    return f"{question['document']}:{question['question'][:40]}"


def _assert_citations_slice_back(result: Any, text: str) -> None:
    assert result.citations
    for citation in result.citations:
        assert text[citation.start : citation.end] == citation.quote


@pytest.mark.parametrize("question", QUESTIONS, ids=_id)
def test_sample_question_is_answered_with_citations_that_slice_back(
    question: dict[str, Any],
) -> None:
    path = SAMPLES / question["document"]
    result = ask(path, question["question"])
    assert result.mode == "document"
    assert result.usage.calls == 0  # no model was called
    if not question.get("unanswerable"):
        _assert_citations_slice_back(result, path.read_text())


def test_sample_answers_state_the_expected_fact() -> None:
    """Every sample question, the first a newcomer asks, gets its fact in the answer."""
    misses = []
    for question in ANSWERABLE:
        result = ask(SAMPLES / question["document"], question["question"])
        if not any(answer in result.answer for answer in question["answers"]):
            misses.append(f"{question['question']} -> {result.answer[:120]}")
    assert not misses


def test_japanese_question_gets_a_japanese_sentence_with_the_fact() -> None:
    result = ask(SAMPLES / "ja_product_history.txt", "澄川製茶は何年に創業されましたか？")
    assert "1923年" in result.answer
    assert result.citations[0].quote in result.answer


@pytest.mark.parametrize("question", UNANSWERABLE, ids=_id)
def test_question_the_document_cannot_answer_gets_not_found(question: dict[str, Any]) -> None:
    result = ask(SAMPLES / question["document"], question["question"])
    language = "ja" if question["document"].startswith("ja_") else "en"
    assert result.answer == NOT_FOUND[language]
    assert result.citations == []


@pytest.mark.parametrize(
    "question",
    ["What is the airspeed velocity of an unladen swallow?", "Xyzzy plugh quux?"],
)
def test_nonsense_question_gets_not_found_rather_than_a_random_sentence(question: str) -> None:
    result = ask(SAMPLES / "annual_report.md", question)
    assert result.answer == NOT_FOUND["en"]
    assert result.citations == []


def test_answer_does_not_depend_on_how_the_document_is_chunked() -> None:
    path = SAMPLES / "annual_report.md"
    question = "Which chief engineer led the development of Skarv 3?"
    whole = ask(path, question)
    pieces = ask(path, question, settings=Settings(extractive_chunk_size=200, chunk_overlap=20))
    assert pieces.coverage.chunks > 10
    assert whole.coverage.chunks == 1
    assert "Håkon Lien" in whole.answer
    assert "Håkon Lien" in pieces.answer
    _assert_citations_slice_back(pieces, path.read_text())


def test_findings_over_the_reduce_budget_are_collapsed_and_still_cited() -> None:
    path = SAMPLES / "user_manual.md"
    settings = Settings(extractive_chunk_size=100, chunk_overlap=0, reduce_token_budget=200)
    result = ask(
        path, "Which port does the console's web interface listen on by default?", settings=settings
    )
    assert "8088" in result.answer
    _assert_citations_slice_back(result, path.read_text())


def test_one_sentence_document_is_answered_and_summarized() -> None:
    text = "Aiko Tanaka founded the Blue Harbour bakery in 1998."
    result = ask(text, "Who founded the Blue Harbour bakery?")
    assert result.answer == text
    assert (result.citations[0].start, result.citations[0].end) == (0, len(text))
    assert summarize(text).summary == text


@pytest.mark.parametrize("words", [60, 250])
def test_summary_cites_real_sentences_within_the_word_budget(words: int) -> None:
    path = SAMPLES / "annual_report.md"
    text = path.read_text()
    result = summarize(path, words=words)
    assert 0.5 * words <= count_words(result.summary) <= words
    _assert_citations_slice_back(result, text)
    # The summary is the cited spans themselves as they read (the title's heading marks
    # dropped), in document order: word for word the same.
    words_of = re.compile(r"\w+").findall
    assert words_of(result.summary) == words_of(" ".join(c.quote for c in result.citations))
    starts = [c.start for c in result.citations]
    assert starts == sorted(starts)


def test_longer_summary_option_gives_a_longer_summary() -> None:
    path = SAMPLES / "user_manual.md"
    short = summarize(path, words=80)
    long = summarize(path, words=400)
    assert count_words(short.summary) < count_words(long.summary) <= 400


def test_summary_instructions_steer_the_built_in_summary_to_their_topic() -> None:
    path = SAMPLES / "annual_report.md"
    plain = summarize(path, words=120)
    focused = summarize(path, words=120, instructions="Focus on greenhouse gas emissions.")
    assert not any("emissions" in c.quote for c in plain.citations)
    assert sum("emissions" in c.quote for c in focused.citations) >= 2
    assert count_words(focused.summary) <= 120
    _assert_citations_slice_back(focused, path.read_text())


def test_instructions_that_name_no_topic_leave_the_summary_as_it_was() -> None:
    path = SAMPLES / "annual_report.md"
    plain = summarize(path, words=120)
    assert summarize(path, words=120, instructions="Please keep it brief.") == plain


def test_japanese_document_is_summarized_with_cited_sentences() -> None:
    path = SAMPLES / "ja_product_history.txt"
    result = summarize(path, words=150)
    _assert_citations_slice_back(result, path.read_text())
    title, *sentences = result.citations
    assert title.quote == "澄川製茶株式会社　百年の歩み"
    assert result.summary.startswith("澄川製茶株式会社　百年の歩み。")
    assert sentences
    assert all(c.quote.endswith("。") for c in sentences)
    assert count_words(result.summary) <= 150


@pytest.mark.parametrize("message", ["thanks!", "Hello", "ありがとうございます", "ok, thank you"])
def test_small_talk_in_a_chat_turn_with_a_document_attached_is_answered_as_chat(
    message: str,
) -> None:
    result = chat("small-talk", message, documents=SAMPLES / "annual_report.md")
    assert result.mode == "chat"
    assert result.citations == []


def test_ask_reads_the_documents_even_for_small_talk() -> None:
    result = ask(SAMPLES / "annual_report.md", "thanks!")
    assert result.mode == "document"
    assert result.coverage.read == result.coverage.chunks > 0


def test_question_that_starts_politely_is_still_about_the_document() -> None:
    result = ask(SAMPLES / "annual_report.md", "Thanks! Who founded the company in Bergen?")
    assert result.mode == "document"
    assert "Ingrid Halvorsen" in result.answer


async def _chat(question: str, history: list[Any]) -> AskResult:
    graph = build_graph()
    output = await graph.ainvoke({"question": question, "messages": history})
    return AskResult.model_validate(output)


async def test_chat_without_a_model_recalls_what_the_user_said() -> None:
    history = [
        HumanMessage("Hi! My name is Aiko and I look after the harbour cranes."),
        AIMessage("Good. Ask me anything about your documents."),
        HumanMessage("The night shift starts at 22:00."),
    ]
    result = await _chat("What is my name?", history)
    assert result.mode == "chat"
    assert "My name is Aiko" in result.answer


async def test_a_question_about_the_user_finds_their_fact_by_its_root() -> None:
    history = [
        HumanMessage("I am a statistics student from Busan."),
        AIMessage("Good. Ask me anything about your documents."),
        HumanMessage("The studio upstairs is noisy at night."),
    ]
    study = await _chat("What do I study?", history)
    assert 'You said: "I am a statistics student from Busan."' in study.answer
    job = await _chat("What is my job?", history)
    assert "without a language model" in job.answer, "no root shared: no guess"
    other = await _chat("What do they study?", history)
    assert "without a language model" in other.answer, "not a question about the user"


async def test_chat_without_a_model_says_plainly_when_a_model_is_needed() -> None:
    result = await _chat("Write a poem about the sea.", [HumanMessage("My name is Aiko.")])
    assert "without a language model" in result.answer


async def test_chat_without_a_model_answers_in_the_language_of_the_message() -> None:
    thanks = await _chat("ありがとうございます", [HumanMessage("こんにちは")])
    assert thanks.answer == "どういたしまして。"
    recalled = await _chat("私の名前は何ですか？", [HumanMessage("私の名前はアイコです。")])
    assert recalled.answer == "あなたの発言：「私の名前はアイコです。」"
    needs_model = await _chat("海の詩を書いてください。", [HumanMessage("私の名前はアイコです。")])
    assert needs_model.answer.startswith("言語モデルなしでは")
    korean = await _chat("감사합니다", [])
    assert korean.answer == "천만에요."


def test_two_sentence_document_answers_through_an_irregular_verb_and_cites_only_the_match() -> None:
    text = "Gulls cry over the bay. The lighthouse is kept by Marta Lund."
    result = ask(text, "Who keeps the lighthouse?")
    assert result.answer == "The lighthouse is kept by Marta Lund."
    assert [c.quote for c in result.citations] == ["The lighthouse is kept by Marta Lund."]


def test_unrelated_neighbour_in_a_tiny_document_is_not_cited() -> None:
    result = ask("The lighthouse keeper is Marta Lund. Gulls cry.", "Who is the keeper?")
    assert result.answer == "The lighthouse keeper is Marta Lund."
    assert [c.quote for c in result.citations] == ["The lighthouse keeper is Marta Lund."]


def test_sentence_that_continues_with_a_pronoun_borrows_its_subject() -> None:
    text = (
        "The harbour office opened in 1901. Storms closed the pier twice that winter. "
        "Tesla ran away to the village of Tomingaj in 1874. There, he explored the mountains "
        "in hunter's garb. Trains reached the town in 1910."
    )
    result = ask(text, "What did Tesla do in Tomingaj?")
    assert "hunter's garb" in " ".join(c.quote for c in result.citations)


def test_tiny_document_still_says_not_found_for_an_unrelated_question() -> None:
    result = ask("The lighthouse keeper is Marta Lund. Gulls cry.", "What is the ferry timetable?")
    assert result.answer == NOT_FOUND["en"]
    assert result.citations == []


def test_question_naming_a_country_finds_the_sentence_with_its_adjective() -> None:
    text = (
        "Dutch engineers built a weir on the river in 1750. "
        "German engineers built a weir on the river in 1790."
    )
    result = ask(text, "When did engineers from Germany build a weir on the river?")
    assert result.citations[0].quote == "German engineers built a weir on the river in 1790."


def test_question_with_an_ordinal_word_finds_the_ordinal_written_in_digits() -> None:
    text = (
        "Harbour Lights was voted the greatest show. "
        "Tide Tables was voted the 3rd greatest show of the whole long decade."
    )
    result = ask(text, "Which show was voted the third greatest?")
    assert result.citations[0].quote.startswith("Tide Tables")


def test_word_families_join_only_stems_that_start_each_other() -> None:
    assert related(stem("germany"), stem("german"))
    assert related(stem("religious"), stem("religion"))
    assert not related(stem("construction"), stem("constitution"))
    assert not related(stem("complete"), stem("complexity"))
    assert not related(stem("art"), stem("artist"))  # too short to tell a family


@pytest.mark.parametrize(
    ("text", "question", "answer"),
    [
        (
            "The old bridge was built slowly. The old bridge was built in Prague.",
            "Where was the old bridge built?",
            "The old bridge was built in Prague.",
        ),
        (
            "The pier was closed all winter. The pier was closed because storms broke it.",
            "Why was the pier closed?",
            "The pier was closed because storms broke it.",
        ),
        (
            "The castle towers lean. The castle has seven towers in all.",
            "How many towers does the castle have?",
            "The castle has seven towers in all.",
        ),
        (
            "The abbey was founded by monks. The abbey was founded in the 12th century.",
            "When was the abbey founded?",
            "The abbey was founded in the 12th century.",
        ),
        (
            "The device was shown in Paris. The device was known as the Egg of Columbus.",
            "What was the device called?",
            "The device was known as the Egg of Columbus.",
        ),
        (
            "The team won the cup in May 1990. The team won the cup 12 times in its history.",
            "How often did the team win the cup?",
            "The team won the cup 12 times in its history.",
        ),
    ],
    ids=["place", "reason", "number-word", "century", "name", "count-not-date"],
)
def test_sentence_holding_the_kind_of_answer_asked_for_comes_first(
    text: str, question: str, answer: str
) -> None:
    assert ask(text, question).citations[0].quote == answer


def test_question_without_accents_finds_the_accented_name_and_cites_it_exactly() -> None:
    text = "Every offer failed. Ögedei made an offer of land and horses to the eastern princes."
    result = ask(text, "What did Ogedei offer?")
    assert result.citations[0].quote.startswith("Ögedei made")
    _assert_citations_slice_back(result, text)


def test_american_spelling_in_the_question_finds_british_spelling_in_the_text() -> None:
    text = "The hall was painted white. The theatre was painted in a pale colour."
    result = ask(text, "What color was the theater painted?")
    assert result.citations[0].quote == "The theatre was painted in a pale colour."


@pytest.mark.parametrize("abbreviation", ["Roe v. Wade", "a ruling (e.g. Roe v. Wade)"])
def test_abbreviations_do_not_cut_a_cited_sentence(abbreviation: str) -> None:
    text = f"Rain fell all week. The court issued {abbreviation} in 1973. Courts sat daily."
    result = ask(text, "When did the court issue it?")
    assert result.citations[0].quote == f"The court issued {abbreviation} in 1973."


def test_close_runner_up_citations_prefer_sentences_that_add_question_terms() -> None:
    question = "How many touchdowns did Manning throw in the game?"
    sentences = [
        "Manning threw nine touchdowns in the year.",
        "Osweiler threw ten touchdowns in the year.",  # repeats 'throw' and 'touchdown'
        "Manning finished the game with zero touchdowns.",  # adds 'game'
    ]
    assert diverse_order(question, sentences, [10.0, 9.6, 9.5], 3) == [0, 2, 1]
    # A runner-up far behind is not promoted for its new words.
    assert diverse_order(question, sentences, [10.0, 9.6, 5.0], 3) == [0, 1, 2]


def test_the_built_in_engine_cuts_chinese_and_english_into_chunks_of_like_length() -> None:
    # Its reading costs by characters: a token-sized Chinese chunk (~0.8 characters a token)
    # would be a fifth of an English one, and five times the tasks for the same text.
    chinese = "。".join(
        f"第{i}號倉庫的門禁密碼由管理員每月更換一次並通知所有值班人員" for i in range(600)
    )
    english = " ".join(
        f"Warehouse {i} changes its door code once a month for the staff." for i in range(300)
    )
    settings = Settings(extractive_chunk_size=500, cache="off")
    chinese_chunks = ask(chinese, "第7號倉庫的密碼多久更換？", settings=settings).coverage.chunks
    english_chunks = ask(
        english, "How often does warehouse 7 change its code?", settings=settings
    ).coverage.chunks
    assert abs(len(chinese) - len(english)) < 0.2 * len(english)
    assert english_chunks >= 5
    assert chinese_chunks <= 1.5 * english_chunks
