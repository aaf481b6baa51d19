"""Threads in DynamoDB (and S3 for large checkpoints), against moto's server on a loopback port.

Everything the SQLite and PostgreSQL stores promise is checked here the same way: turns
survive a SIGKILL and a restart, two processes on one thread lose no turn, threads are
listed and deleted; plus what is DynamoDB's own: `longdoc store init`, the 400 KB item
limit and S3 offload, the lease lock. Skipped where the aws extra or moto is absent, but
never under CI.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import BaseModel

from pipeline import (
    ConfigError,
    NotFoundError,
    Settings,
    StorageError,
    achat,
    acreate_thread,
    adelete_thread,
    aget_thread,
    alist_threads,
    get_thread,
)
from tests.support import LONGDOC, REPO
from tests.support.fakes import FakeChatModel
from tests.support.texts import ROBOTICS_REPORT

try:  # a missing extra is a skip here, but never under CI
    import langgraph_checkpoint_aws  # noqa: F401
    import moto
except ImportError:  # pragma: no cover - .ci/run installs both
    if os.environ.get("CI"):
        raise
    pytest.skip(
        "the aws extra or moto is missing (pip install -e '.[test,aws]')", allow_module_level=True
    )

from pipeline.storage.checkpoint import dynamodb_saver, init_store
from pipeline.storage.dynamodb import clients, parse_url
from pipeline.storage.lease import Lease
from tests.support.moto_server import REGION, MotoServer, aws_environment, running_moto

pytestmark = pytest.mark.slow  # a local AWS endpoint and child processes: seconds each


@pytest.fixture(scope="module")
def moto() -> Iterator[MotoServer]:
    with running_moto() as server:
        yield server


@pytest.fixture(autouse=True)
def aws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    env = aws_environment(str(tmp_path))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return env


def store_url(moto: MotoServer, *, bucket: bool = True, **options: str) -> str:
    """A fresh table (and bucket) per test: the moto server outlives them all."""
    name = uuid.uuid4().hex[:12]
    query = {"region": REGION, "endpoint_url": moto.endpoint, **options}
    if bucket:
        query["s3_bucket"] = f"longdoc-{name}"
    return f"dynamodb://threads-{name}?" + "&".join(f"{k}={v}" for k, v in query.items())


@pytest.fixture
def store(moto: MotoServer, tmp_path: Path) -> Settings:
    settings = Settings(
        checkpoint_url=store_url(moto),
        data_dir=tmp_path / "data",
        memory_token_budget=200,
        memory_summary_words=40,
        chunk_size=20_000,  # few chunks per document: moto answers ~20 ms a request
    )
    asyncio.run(init_store(settings))
    return settings


def s3_keys(settings: Settings) -> list[str]:
    target = parse_url(settings.checkpoint_url or "")
    s3 = clients(target).s3
    listed = s3.list_objects_v2(Bucket=target.s3_bucket)
    return [item["Key"] for item in listed.get("Contents", [])]


# ---- the store as a library user sees it ----


async def test_thread_round_trips_through_dynamodb(model: FakeChatModel, store: Settings) -> None:
    thread = (await acreate_thread(settings=store)).thread_id
    for turn in range(12):
        await achat(
            thread,
            f"Fact {turn}: crane {turn} lifted {turn * 7} boxes.",
            model=model,
            settings=store,
        )
    view = await aget_thread(thread, settings=store)
    assert len(view.history) == 24
    assert view.summary, "the small budget should have folded history"
    await adelete_thread(thread, settings=store)
    with pytest.raises(NotFoundError):
        await aget_thread(thread, settings=store)


async def test_stored_state_keeps_longdocs_types(model: FakeChatModel, store: Settings) -> None:
    from pipeline.types import DocumentText, Finding

    document = {"id": "report.md", "text": ROBOTICS_REPORT}
    reply = await achat(
        "typed", "Who is the chief executive?", documents=[document], model=model, settings=store
    )
    assert reply.citations
    stored = await dynamodb_saver(store.checkpoint_url or "").aget_tuple(
        {"configurable": {"thread_id": "typed", "checkpoint_ns": ""}}
    )
    assert stored is not None
    values = stored.checkpoint["channel_values"]
    assert values["findings"]
    assert all(isinstance(f, Finding) for f in values["findings"])
    assert all(isinstance(d, DocumentText) for d in values["documents"])


class Extra(BaseModel):
    """A state type outside longdoc's allowlist."""

    note: str


async def test_an_allowlist_added_by_langgraph_reaches_the_stored_bytes(store: Settings) -> None:
    """The saver revives only allowlisted types; LANGGRAPH_STRICT_MSGPACK makes compile()
    call with_allowlist, and the clone must use the longer list."""
    from langgraph.checkpoint.base import empty_checkpoint

    saver = dynamodb_saver(store.checkpoint_url or "")
    clone = saver.with_allowlist([(Extra.__module__, "Extra")])
    config = {"configurable": {"thread_id": "extra", "checkpoint_ns": ""}}
    checkpoint = empty_checkpoint()
    checkpoint["channel_values"] = {"extra": Extra(note="kept")}
    await clone.aput(config, checkpoint, {"source": "input", "step": -1}, {})
    stored = await clone.aget_tuple(config)
    assert stored is not None
    assert stored.checkpoint["channel_values"]["extra"] == Extra(note="kept")
    strict = await saver.aget_tuple(config)  # longdoc's own allowlist: never revived
    assert strict is not None
    assert not isinstance(strict.checkpoint["channel_values"]["extra"], Extra)


async def test_threads_are_listed_in_order_a_page_at_a_time(
    model: FakeChatModel, store: Settings
) -> None:
    made = sorted([(await acreate_thread(settings=store)).thread_id for _ in range(3)])
    await achat("chatted-into-being", "hello", model=model, settings=store)
    everything = sorted([*made, "chatted-into-being"])
    first = await alist_threads(limit=3, settings=store)
    assert first.threads == everything[:3]
    assert first.next_after == everything[2]
    rest = await alist_threads(after=first.next_after, limit=3, settings=store)
    assert rest.threads == everything[3:]
    assert rest.next_after is None
    await adelete_thread(made[0], settings=store)
    assert made[0] not in (await alist_threads(settings=store)).threads


async def test_a_checkpoint_over_the_item_limit_goes_to_s3_and_comes_back(
    model: FakeChatModel, store: Settings
) -> None:
    # ~1.1 MB of distinct sentences: still ~0.5 MB gzipped, over the 350 KB that sends
    # a checkpoint to S3 (DynamoDB's item limit is 400 KB).
    words = [uuid.uuid4().hex for _ in range(20_000)]
    text = ROBOTICS_REPORT + " ".join(f"Ledger line {w} balanced." for w in words)
    assert len(text) > 1_000_000
    document = {"id": "ledger.md", "text": text}
    reply = await achat(
        "big", "Who is the chief executive?", documents=[document], model=model, settings=store
    )
    assert "Ingrid Halvorsen" in reply.reply
    keys = s3_keys(store)
    assert keys
    assert all(k.startswith("longdoc/big/") for k in keys)
    view = await aget_thread("big", settings=store)
    assert view.history[0].content == "Who is the chief executive?"
    await achat("big", "Thanks!", model=model, settings=store)  # reads the offloaded state
    assert len((await aget_thread("big", settings=store)).history) == 4
    await adelete_thread("big", settings=store)
    assert s3_keys(store) == []


async def test_without_a_bucket_a_large_checkpoint_is_a_storage_error_saying_so(
    model: FakeChatModel, moto: MotoServer, tmp_path: Path
) -> None:
    settings = Settings(
        checkpoint_url=store_url(moto, bucket=False), data_dir=tmp_path, chunk_size=20_000
    )
    await init_store(settings)
    await achat("small-first", "hello", model=model, settings=settings)
    # 680 KB of random base64 words, ~530 KB gzipped: over the 400 KB item limit.
    text = " ".join(secrets.token_urlsafe(12) for _ in range(40_000))
    document = {"id": "big.md", "text": text}
    with pytest.raises(StorageError) as caught:
        await achat(
            "small-first", "read this", documents=[document], model=model, settings=settings
        )
    assert "s3_bucket" in caught.value.hint
    view = await aget_thread("small-first", settings=settings)
    assert [m.content for m in view.history] == ["hello", "You said: hello"]


# ---- provisioning and configuration ----


def test_store_init_is_explicit_and_idempotent(
    moto: MotoServer, tmp_path: Path, aws: dict[str, str]
) -> None:
    url = store_url(moto)
    settings = Settings(checkpoint_url=url, data_dir=tmp_path)
    with pytest.raises(StorageError, match="does not exist") as caught:
        asyncio.run(acreate_thread(settings=settings))
    assert "longdoc store init" in caught.value.hint

    env = {**os.environ, **aws, "LONGDOC_CHECKPOINT_URL": url, "PYTHONPATH": str(REPO)}
    runs = [
        subprocess.run(
            [str(LONGDOC), "store", "init"], env=env, capture_output=True, text=True, timeout=60
        )
        for _ in range(2)
    ]
    assert [r.returncode for r in runs] == [0, 0], runs[0].stderr
    assert "created DynamoDB table" in runs[0].stdout
    assert "created S3 bucket" in runs[0].stdout
    assert "already exists" in runs[1].stdout
    table = parse_url(url).table
    ttl = clients(parse_url(url)).dynamodb.describe_time_to_live(TableName=table)
    assert ttl["TimeToLiveDescription"]["AttributeName"] == "ttl"
    thread = asyncio.run(acreate_thread(settings=settings)).thread_id
    listed = subprocess.run(
        [str(LONGDOC), "store", "list"], env=env, capture_output=True, text=True, timeout=60
    )
    assert listed.stdout.split() == [thread]


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("dynamodb://x?region=us-east-1", "no valid DynamoDB table"),
        ("dynamodb://threads?regoin=us-east-1", "unknown options"),
        ("dynamodb://threads?region=us-east-1&lease_s=0", "lease_s"),
    ],
)
def test_a_malformed_dynamodb_url_is_a_config_error(url: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_url(url)


def test_no_region_anywhere_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AWS_DEFAULT_REGION")
    with pytest.raises(ConfigError, match="region") as caught:
        asyncio.run(acreate_thread(settings=Settings(checkpoint_url="dynamodb://nowhere-1")))
    assert "region=" in caught.value.hint


def test_an_unreachable_endpoint_is_a_storage_error(tmp_path: Path) -> None:
    from tests.support import free_port

    endpoint = f"http://127.0.0.1:{free_port()}"
    url = f"dynamodb://threads?region={REGION}&endpoint_url={endpoint}"
    with pytest.raises(StorageError, match=r"cannot reach DynamoDB at http://127\.0\.0\.1"):
        get_thread("t", settings=Settings(checkpoint_url=url, data_dir=tmp_path))


# ---- the lease lock ----


def test_a_lease_admits_one_holder_and_passes_on_when_it_runs_out(store: Settings) -> None:
    target = parse_url(store.checkpoint_url or "")
    client = clients(target).dynamodb
    first = Lease(client, target.table, "leased", lease_s=1.0)
    second = Lease(client, target.table, "leased", lease_s=1.0)
    assert first.try_acquire()
    assert not second.try_acquire()
    assert not second.release(), "a holder's lease cannot be released by another"
    assert first.renew()
    time.sleep(1.1)  # the first holder "dies": no renewal
    assert second.try_acquire()
    assert second.fence is not None
    assert first.fence is not None
    assert second.fence > first.fence
    assert not first.renew(), "a lapsed lease stays lost"
    assert second.release()
    assert first.try_acquire()


# ---- processes: SIGKILL, restart, two workers on one thread ----

CHILD = """
import asyncio, sys
from pipeline import Settings, achat
from tests.support.fakes import FakeChatModel

async def main() -> None:
    settings = Settings(memory_token_budget=300)
    model = FakeChatModel(latency=float(sys.argv[2]))
    for line in sys.stdin:
        reply = await achat(sys.argv[1], line.strip(), model=model, settings=settings)
        print("done", reply.reply, flush=True)

asyncio.run(main())
"""


def child_env(settings: Settings, aws: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LONGDOC_")}
    return {
        **env,
        **aws,
        "PYTHONPATH": str(REPO),
        "LONGDOC_CHECKPOINT_URL": settings.checkpoint_url or "",
        "LONGDOC_DATA_DIR": str(settings.data_dir),
    }


def start(env: dict[str, str], thread: str, latency: float = 0.0) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, thread, str(latency)],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )


def turn(child: subprocess.Popen[str], text: str) -> None:
    assert child.stdin is not None
    assert child.stdout is not None
    child.stdin.write(text + "\n")
    child.stdin.flush()
    assert child.stdout.readline().startswith("done")


def kill(child: subprocess.Popen[str]) -> None:
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)
    for stream in (child.stdin, child.stdout):
        if stream is not None:
            stream.close()


def test_completed_turns_survive_sigkill_and_restart(store: Settings, aws: dict[str, str]) -> None:
    env = child_env(store, aws)
    child = start(env, "t-durable")
    for i in range(3):
        turn(child, f"fact number {i}")
    kill(child)

    child = start(env, "t-durable")
    turn(child, "fact number 3")
    kill(child)

    users = [m.content for m in get_thread("t-durable", settings=store).history if m.role == "user"]
    assert users == [f"fact number {i}" for i in range(4)]


def test_a_turn_killed_midway_loses_nothing_and_its_lock_runs_out(
    moto: MotoServer, tmp_path: Path, aws: dict[str, str]
) -> None:
    settings = Settings(checkpoint_url=store_url(moto, lease_s="2"), data_dir=tmp_path)
    asyncio.run(init_store(settings))
    env = child_env(settings, aws)
    child = start(env, "t-midway", latency=3.0)
    turn(child, "first fact")
    assert child.stdin is not None
    child.stdin.write("second fact, never answered\n")
    child.stdin.flush()
    time.sleep(1.0)  # inside the model call, holding the thread's lock
    kill(child)
    target = parse_url(settings.checkpoint_url or "")
    lock = clients(target).dynamodb.get_item(
        TableName=target.table, Key={"PK": {"S": "LOCK_t-midway"}, "SK": {"S": "LOCK"}}
    )
    assert int(lock["Item"]["expires_ms"]["N"]) > time.time() * 1000, "the dead turn held it"

    view = get_thread("t-midway", settings=settings)
    assert [m.content for m in view.history if m.role == "user"] == ["first fact"]
    assert len(view.history) == 2
    # The dead holder's lease ends within lease_s=2: the next process's turn proceeds.
    child = start(env, "t-midway")
    turn(child, "third fact")
    kill(child)
    users = [
        m.content for m in get_thread("t-midway", settings=settings).history if m.role == "user"
    ]
    assert users == ["first fact", "third fact"]


TALKER = """
import asyncio, sys
from pipeline import Settings, achat
from tests.support.fakes import FakeChatModel

async def main() -> None:
    model = FakeChatModel(latency=0.05)
    for i in range(4):
        await achat(sys.argv[1], f"{sys.argv[2]} {i}", model=model, settings=Settings())

asyncio.run(main())
"""


def test_turns_from_two_processes_on_one_thread_never_interleave(
    store: Settings, aws: dict[str, str]
) -> None:
    """Two replicas share a thread: their turns queue on DynamoDB's lock, none is lost.

    Each has its own data directory, as on two machines: no local file lock can help.
    """
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", TALKER, "shared", name],
            cwd=REPO,
            env={**child_env(store, aws), "LONGDOC_DATA_DIR": str(store.data_dir / name)},
        )
        for name in ("north", "south")
    ]
    assert [w.wait(timeout=120) for w in workers] == [0, 0]
    history = get_thread("shared", settings=store).history
    assert len(history) == 16, "every turn of both processes is kept"
    for user, reply in zip(history[::2], history[1::2], strict=True):
        assert user.role == "user"
        assert reply.role == "assistant"
        assert reply.content == f"You said: {user.content}", "each reply follows its turn"


async def test_the_memory_store_keeps_items_in_the_thread_table(store: Settings) -> None:
    from pipeline.storage.dynamodb import memory_store

    memory = memory_store(store.checkpoint_url or "")
    await memory.aput(("memory", "t-1"), "m-0", {"text": "My name is Sean Park."})
    await memory.aput(("memory", "t-2"), "m-0", {"text": "another thread"})
    item = await memory.aget(("memory", "t-1"), "m-0")
    assert item is not None
    assert item.value == {"text": "My name is Sean Park."}
    found = await memory.asearch(("memory", "t-1"))
    assert [i.value["text"] for i in found] == ["My name is Sean Park."]
    assert (await alist_threads(settings=store)).threads == []  # not mistaken for threads
