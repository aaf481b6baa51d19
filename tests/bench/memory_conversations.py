"""Generated two-speaker conversations for the recall benchmark: facts early, questions late.

Each thread is hundreds of turns of chit-chat between a user and an assistant. A few
facts are stated once near the start, each by one of a handful of fact families, and
asked about at the end in other words; distractor turns scattered through the thread
share the question's words but not the answer. The evidence of a question is the one
message that holds its answer: the user's statement, or, for families where the user
asks and the assistant answers, the assistant's reply. Families and values are drawn
by seed, so dev seeds (for tuning) and eval seeds (for the figures) share no thread.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

NAMES = ["Sean Park", "Aiko Tanaka", "Lena Vogel", "Tomas Ruiz", "Mira Chen", "Jonas Berg"]
NICKS = ["Parky", "Ai", "Lenny", "Tom", "Mimi", "Jo"]
CITIES = ["Busan", "Bergen", "Porto", "Tartu", "Cork", "Matsue", "Valdivia", "Split"]
PETS = ["kitten", "puppy", "parrot", "rabbit", "hamster"]
PET_NAMES = ["Biscuit", "Pepper", "Mochi", "Juniper", "Waffles", "Clover"]
ITEMS = ["kettle", "lamp", "rug", "bicycle", "mirror", "teapot"]
COLOURS = ["teal", "ochre", "crimson", "lilac", "olive", "navy"]
FOODS = ["coriander", "olives", "anchovies", "liquorice", "blue cheese"]
MONTHS = ["3月14日", "5月2日", "7月21日", "10月9日", "11月30日"]
KO_DATES = ["3월 14일", "5월 2일", "7월 21일", "10월 9일", "11월 30일"]
TOPICS = [
    "the weather this week",
    "a documentary about deep sea fish",
    "how to keep basil alive on a windowsill",
    "the rules of a card game my cousins play",
    "whether to repaint the bathroom",
    "a podcast about the history of maps",
    "the best way to fold fitted sheets",
    "a recipe for lentil soup",
    "the football match on Saturday",
    "how long a laptop battery should last",
]


@dataclass(frozen=True)
class Fact:
    """What a family puts in the thread and asks at the end."""

    turns: list[tuple[str, str]]
    """(role, text) messages stated once, early."""
    evidence: int
    """Which of `turns` holds the answer."""
    question: str
    answer: str
    """The value that must survive for the running summary to count as holding it."""
    distractors: list[tuple[str, str]]
    """Messages that share the question's words, scattered through the thread."""


def _name(rng: random.Random) -> Fact:
    i = rng.randrange(len(NAMES))
    return Fact(
        [
            ("user", f"By the way, my name is {NAMES[i]} and my friends call me {NICKS[i]}."),
            ("assistant", "Lovely to meet you properly."),
        ],
        0,
        "What is my name again?",
        NAMES[i],
        [
            ("user", "What was the name of the bakery near the station?"),
            ("assistant", "The name of that setting is hidden in the advanced menu."),
            ("user", "I can never remember the name of the actor in that series."),
        ],
    )


def _hometown(rng: random.Random) -> Fact:
    city = rng.choice(CITIES)
    return Fact(
        [
            ("user", f"I grew up in {city}, a small place by the sea."),
            ("assistant", "That sounds like a calm place to be a child."),
        ],
        0,
        "Where did I grow up?",
        city,
        [
            ("user", "How fast do tomato plants grow in a cold spring?"),
            ("assistant", "Puppies grow quickly in their first six months."),
            ("user", "Where did you read that the moss will grow back?"),
        ],
    )


def _pet_name(rng: random.Random) -> Fact:
    pet, name = rng.choice(PETS), rng.choice(PET_NAMES)
    return Fact(
        [
            ("user", f"Can you suggest a name for my new {pet}?"),
            ("assistant", f"How about {name}? It suits a small animal that loves naps."),
        ],
        1,
        f"What did you suggest I call the {pet}?",
        name,
        [
            ("user", f"My neighbour's {pet} kept me awake all night."),
            ("assistant", "I can suggest a few films for a rainy evening."),
            ("user", f"Is a {pet} a good first animal for a child?"),
        ],
    )


def _purchase(rng: random.Random) -> Fact:
    item, price = rng.choice(ITEMS), rng.randint(12, 90)
    return Fact(
        [
            ("user", f"Yesterday I bought a {item} for {price} euros at the flea market."),
            ("assistant", "A good find at that price."),
        ],
        0,
        "What did I buy at the flea market?",
        item,
        [
            ("user", "Should I buy a new phone or repair the old one?"),
            ("assistant", "The flea market opens at eight on Sundays."),
            ("user", "Where can I buy fresh bread at this hour?"),
        ],
    )


def _password(rng: random.Random) -> Fact:
    code = f"{rng.choice(['heron', 'otter', 'maple', 'fjord'])}-{rng.randint(10, 99)}"
    return Fact(
        [
            ("user", "What is the wifi password for the cabin?"),
            ("assistant", f"The one on the card by the door: {code}."),
        ],
        1,
        "Remind me of the cabin wifi password?",
        code,
        [
            ("user", "The hotel wifi was painfully slow."),
            ("assistant", "Changing a router password takes a minute in its settings."),
            ("user", "Is the cabin far from the lake?"),
        ],
    )


def _colour(rng: random.Random) -> Fact:
    colour = rng.choice(COLOURS)
    return Fact(
        [
            ("user", f"My favourite colour is {colour}; I painted the whole hallway in it."),
            ("assistant", "A bold choice for a hallway."),
        ],
        0,
        "What is my favorite color?",
        colour,
        [
            ("assistant", "That film is a favorite of many critics."),
            ("user", "Which color goes with a grey sofa?"),
            ("user", "My sister says her favorite season is autumn."),
        ],
    )


def _dislike(rng: random.Random) -> Fact:
    food = rng.choice(FOODS)
    return Fact(
        [
            ("user", f"I really can't stand {food}; it ruins any dish for me."),
            ("assistant", "Noted, I will leave it out of recipe ideas."),
        ],
        0,
        "Which food can't I stand?",
        food,
        [
            ("user", "The food at the wedding was wonderful."),
            ("assistant", "You can stand the pan on a wooden board to cool."),
            ("user", "What food should I bring to the picnic?"),
        ],
    )


def _train(rng: random.Random) -> Fact:
    city, hour = rng.choice(CITIES), f"{rng.randint(6, 9):02d}:{rng.choice(['10', '25', '40'])}"
    return Fact(
        [
            ("user", f"Which train should I take to {city} on Friday morning?"),
            ("assistant", f"Take the {hour} from platform {rng.randint(2, 9)}; it is the fastest."),
        ],
        1,
        "What time was the Friday train you recommended?",
        hour,
        [
            ("user", "The train was late again on Friday."),
            ("assistant", "A good time to visit is early spring."),
            ("user", "Do you think the morning train is quieter?"),
        ],
    )


def _birthday_ja(rng: random.Random) -> Fact:
    day = rng.choice(MONTHS)
    return Fact(
        [
            ("user", f"私の誕生日は{day}です。毎年家族で祝います。"),
            ("assistant", "素敵ですね。覚えておきます。"),
        ],
        0,
        "私の誕生日はいつでしたか？",
        day,
        [
            ("user", "友達の誕生会はどこでやるのがいいですか？"),
            ("assistant", "家族で行ける公園を探しましょう。"),
            ("user", "毎年この時期は雨が多いですね。"),
        ],
    )


def _birthday_ko(rng: random.Random) -> Fact:
    day = rng.choice(KO_DATES)
    return Fact(
        [
            ("user", f"제 생일은 {day}이에요. 매년 가족과 함께 보내요."),
            ("assistant", "멋지네요. 기억해 둘게요."),
        ],
        0,
        "제 생일이 언제였죠?",
        day,
        [
            ("user", "친구 생일 선물로 뭐가 좋을까요?"),
            ("assistant", "가족과 함께 갈 만한 공원을 찾아볼게요."),
            ("user", "매년 이맘때는 비가 많이 와요."),
        ],
    )


FAMILIES = [
    _name,
    _hometown,
    _pet_name,
    _purchase,
    _password,
    _colour,
    _dislike,
    _train,
    _birthday_ja,
    _birthday_ko,
]


@dataclass(frozen=True)
class Question:
    """A question asked at the end of a thread, and the index of its evidence message."""

    text: str
    evidence: int
    answer: str


@dataclass(frozen=True)
class Thread:
    messages: list[dict[str, str]]
    questions: list[Question]


def _chatter(rng: random.Random) -> tuple[dict[str, str], dict[str, str]]:
    topic = rng.choice(TOPICS)
    detail = rng.choice(TOPICS)
    user = (
        f"I was thinking about {topic} again today, and somehow it led me to {detail}. "
        "Do you have any thoughts on that, or am I overthinking it as usual?"
    )
    reply = (
        f"It is natural to drift from {topic} to {detail}; both reward a little patience. "
        "Try one small step this week and see how it feels before deciding more."
    )
    return {"role": "user", "content": user}, {"role": "assistant", "content": reply}


def thread(seed: int, turns: int = 200, facts: int = 8) -> Thread:
    """`turns` user/assistant pairs; `facts` facts in the first fifth, distractors anywhere."""
    rng = random.Random(seed)
    pairs = [list(_chatter(rng)) for _ in range(turns)]
    chosen = [family(rng) for family in rng.sample(FAMILIES, facts)]
    early = sorted(rng.sample(range(1, turns // 5), facts))
    placed: dict[int, list[dict[str, str]]] = {}
    for slot, fact in zip(early, chosen, strict=True):
        placed[slot] = [{"role": r, "content": t} for r, t in fact.turns]
    for fact in chosen:
        for role, text in fact.distractors:
            slot = rng.randrange(1, turns)
            while slot in placed:
                slot = rng.randrange(1, turns)
            # A distractor stands in for the chatter message of its role in that pair.
            pair = pairs[slot]
            pair[0 if role == "user" else 1] = {"role": role, "content": text}
    messages: list[dict[str, str]] = []
    evidence: dict[int, int] = {}
    for slot in range(turns):
        if slot in placed:
            fact = chosen[early.index(slot)]
            evidence[early.index(slot)] = len(messages) + fact.evidence
            messages += placed[slot]
        else:
            messages += pairs[slot]
    questions = [Question(fact.question, evidence[i], fact.answer) for i, fact in enumerate(chosen)]
    return Thread(messages, questions)
