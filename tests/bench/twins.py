"""Twin-entity QA set: documents stating the same kind of fact for several named things.

    python tests/bench/twins.py [--split dev|eval] [--show N]

Each document describes 3-4 entities of one kind (warehouses, ferries, people...) with the
same facts for each, laid out one of three ways: a paragraph per entity (later facts in
sentences opening with a pronoun), a Markdown section per entity, or one paragraph per
fact listing every entity. Every fact is asked about every entity in the document
(present: the gold value must be in the answer) and about names the document never
holds (absent: the answer must be the fixed not-found text with no citations).

The kinds are split: dev kinds for setting parameters, eval kinds (other templates,
other names) for reporting, so the figures are on documents no parameter saw.
Generated from a fixed seed: the same set every run.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

# kind -> (names, [(statement, question, value maker)]); {n} is the entity's name.
# Statements after the first may open with {It}: the pronoun for paragraph layouts.
Fact = tuple[str, str, str]
KINDS: dict[str, dict[str, Any]] = {
    # ---- dev kinds
    "warehouse": {
        "split": "dev",
        "thing": "the {n} warehouse",
        "pronoun": "It",
        "names": "Ashford Lakeside Riverside Millbrook Stonegate Harwick Elmstead Brackley "
        "Fernhill Oakridge Dunmore Westbury",
        "facts": [
            ("The access code for {t} is {v}.", "What is the access code for {t}?", "code"),
            ("{T} opened in {v}.", "When did {t} open?", "year"),
            ("{T} is managed by {v}.", "Who manages {t}?", "person"),
        ],
    },
    "ferry": {
        "split": "dev",
        "thing": "the {n} ferry",
        "pronoun": "It",
        "names": "Kestrel Osprey Marlin Heron Puffin Gannet Plover Curlew Tern Avocet",
        "facts": [
            (
                "{T} leaves the harbour at {v} every morning.",
                "When does {t} leave the harbour?",
                "time",
            ),
            ("{T} carries up to {v} passengers.", "How many passengers can {t} carry?", "count"),
            ("The captain of {t} is {v}.", "Who is the captain of {t}?", "person"),
        ],
    },
    "person": {
        "split": "dev",
        "thing": "{n}",
        "pronoun": "She",
        "names": "Maria Alvarez|Hannah Okafor|Julia Brandt|Sofia Lindqvist|Elena Moreau|"
        "Priya Raman|Clara Jensen|Nadia Petrova|Ingrid Solberg|Leah Castillo",
        "facts": [
            ("{T} works in room {v}.", "Which room does {t} work in?", "room"),
            ("{T} joined the institute in {v}.", "When did {t} join the institute?", "year"),
            ("The phone extension of {t} is {v}.", "What is the phone extension of {t}?", "ext"),
        ],
    },
    # ---- eval kinds
    "library": {
        "split": "eval",
        "thing": "the {n} library",
        "pronoun": "It",
        "names": "Northgate Willowbrook Castlemead Ravenscroft Ambleside Thornbury Glenmoor "
        "Ashcombe Larkfield Whitmore",
        "facts": [
            ("{T} opens at {v} on weekdays.", "What time does {t} open on weekdays?", "time"),
            ("{T} holds {v} books.", "How many books does {t} hold?", "count"),
            ("The head librarian of {t} is {v}.", "Who is the head librarian of {t}?", "person"),
        ],
    },
    "department": {
        "split": "eval",
        "thing": "the {n} department",
        "pronoun": "It",
        "names": "Procurement Logistics Compliance Treasury Facilities Outreach Archives "
        "Forecasting Licensing Auditing",
        "facts": [
            ("The annual budget of {t} is {v}.", "What is the annual budget of {t}?", "money"),
            ("{T} is led by {v}.", "Who leads {t}?", "person"),
            ("{T} moved to floor {v} last year.", "Which floor did {t} move to?", "floor"),
        ],
    },
    "ship": {
        "split": "eval",
        "thing": "the research vessel {n}",
        "pronoun": "It",
        "names": "Aurora Meridian Polaris Calypso Endeavour Halcyon Sirius Vanguard Odyssey Triton",
        "facts": [
            ("{T} was launched in {v}.", "When was {t} launched?", "year"),
            ("{T} is {v} metres long.", "How long is {t}?", "count"),
            ("{T} sails from the port of {v}.", "From which port does {t} sail?", "port"),
        ],
    },
}
_PEOPLE = (
    "Tom Becker|Ana Ruiz|Lars Holm|Mei Tanaka|Omar Haddad|Ruth Klein|Ivan Novak|Zoe Marsh|"
    "Paul Dufour|Keiko Ito|Sam Okoro|Eva Lund"
).split("|")
_PORTS = "Bergen Tromso Aberdeen Galway Brest Cadiz Rostock Gdansk Esbjerg Hull".split()


def _value(kind: str, rng: random.Random) -> str:
    if kind == "code":
        return f"{rng.randint(1000, 9999)}-{rng.randint(10, 99)}"
    if kind == "year":
        return str(rng.randint(1950, 2020))
    if kind == "time":
        return f"{rng.randint(6, 10)}:{rng.choice(['00', '15', '30', '45'])} am"
    if kind == "count":
        return str(rng.randint(120, 990))
    if kind == "room":
        return f"{rng.choice('ABCD')}{rng.randint(100, 499)}"
    if kind == "ext":
        return str(rng.randint(2000, 7999))
    if kind == "money":
        return f"${rng.randint(2, 40)}.{rng.randint(1, 9)} million"
    if kind == "floor":
        return str(rng.randint(2, 19))
    if kind == "port":
        return rng.choice(_PORTS)
    return rng.choice(_PEOPLE)


@dataclass(frozen=True)
class TwinQuestion:
    doc_id: str
    question: str
    answer: str | None
    """The gold value, or None when the question names an entity the document lacks."""


def _names(spec: dict[str, Any]) -> list[str]:
    names: str = spec["names"]
    return names.split("|") if "|" in names else names.split()


def _statement(template: str, thing: str, value: str) -> str:
    capital = thing[0].upper() + thing[1:]
    return template.format(t=thing, T=capital, v=value)


def build(
    split: str, docs_per_kind: int = 8, seed: int = 15
) -> tuple[dict[str, str], list[TwinQuestion]]:
    """Documents by id and their questions, for the kinds of one split."""
    rng = random.Random(f"{seed}-{split}")
    docs: dict[str, str] = {}
    questions: list[TwinQuestion] = []
    for kind, spec in KINDS.items():
        if spec["split"] != split:
            continue
        names = _names(spec)
        for number in range(docs_per_kind):
            doc_id = f"twins-{kind}-{number}"
            chosen = rng.sample(names, rng.choice([3, 4]))
            absent = rng.sample([n for n in names if n not in chosen], 2)
            facts = spec["facts"]
            values = {(n, i): _value(f[2], rng) for n in chosen for i, f in enumerate(facts)}
            docs[doc_id] = f"# {kind.title()} register\n\n" + _layout(
                number % 3, spec, chosen, values
            )
            for i, (_, question, _) in enumerate(facts):
                for name in chosen:
                    thing = spec["thing"].format(n=name)
                    questions.append(
                        TwinQuestion(doc_id, question.format(t=thing), values[(name, i)])
                    )
                for name in absent:
                    thing = spec["thing"].format(n=name)
                    questions.append(TwinQuestion(doc_id, question.format(t=thing), None))
    return docs, questions


def _layout(style: int, spec: dict[str, Any], chosen: list[str], values: dict[Any, str]) -> str:
    facts = spec["facts"]
    if style == 0:  # a paragraph per entity; later facts open with a pronoun
        paragraphs = []
        for name in chosen:
            thing = spec["thing"].format(n=name)
            sentences = [_statement(facts[0][0], thing, values[(name, 0)])]
            for i in range(1, len(facts)):
                template = facts[i][0]
                if template.startswith("{T}"):
                    template = spec["pronoun"] + template[3:]
                sentences.append(_statement(template, thing, values[(name, i)]))
            paragraphs.append(" ".join(sentences))
        return "\n\n".join(paragraphs) + "\n"
    if style == 1:  # a Markdown section per entity
        sections = []
        for name in chosen:
            thing = spec["thing"].format(n=name)
            lines = [_statement(f[0], thing, values[(name, i)]) for i, f in enumerate(facts)]
            sections.append(f"## {name}\n\n" + " ".join(lines))
        return "\n\n".join(sections) + "\n"
    paragraphs = []  # one paragraph per fact, every entity in it
    for i, fact in enumerate(facts):
        sentences = [
            _statement(fact[0], spec["thing"].format(n=name), values[(name, i)]) for name in chosen
        ]
        paragraphs.append(" ".join(sentences))
    return "\n\n".join(paragraphs) + "\n"


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="dev", choices=["dev", "eval"])
    parser.add_argument("--show", type=int, default=2)
    args = parser.parse_args()
    documents, asked = build(args.split)
    for doc_id in list(documents)[: args.show]:
        print(f"--- {doc_id}\n{documents[doc_id]}")
        for q in asked:
            if q.doc_id == doc_id:
                print(f"  {q.question} -> {q.answer}")
    print(f"{len(documents)} documents, {len(asked)} questions")
