"""Chat threads in DynamoDB: the URL, the checkpointer, the thread index and `store init`.

    LONGDOC_CHECKPOINT_URL=dynamodb://TABLE?region=eu-west-1&s3_bucket=BUCKET

One table holds everything, keyed PK (hash) + SK (range): the checkpoints that
langgraph-checkpoint-aws's DynamoDBSaver writes (PK `CHECKPOINT_<thread>`, `CHUNK_...`,
`WRITES_...`), an index of thread ids (PK `THREADS`) and each thread's lock item
(PK `LOCK_<thread>`, see storage/lease.py). A checkpoint over 350 KB (the item limit is
400 KB) goes to S3 when `s3_bucket` is given; without it such a turn fails with a
StorageError saying so. Nothing is created on a request: `longdoc store init` makes the
table and the bucket. Credentials come from boto3's usual chain (variables, profile, role).
"""

from __future__ import annotations

import builtins
import copy
import re
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import parse_qs, urlsplit

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError, NoCredentialsError, NoRegionError
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import CheckpointTuple
from langgraph.checkpoint.serde.base import SerializerProtocol, maybe_add_typed_methods
from langgraph_checkpoint_aws import DynamoDBSaver
from langgraph_checkpoint_aws.checkpoint.dynamodb.serialization import CheckpointSerializer

from pipeline.errors import ConfigError, LongdocError, StorageError
from pipeline.storage.lease import forget_lock

SCHEME = "dynamodb://"
THREADS_PK = "THREADS"
DEFAULT_LEASE_S = 15.0
_OPTIONS = {"region", "endpoint_url", "s3_bucket", "s3_prefix", "s3_endpoint_url", "lease_s"}
_TABLE_NAME = re.compile(r"^[A-Za-z0-9_.-]{3,255}$")

# Storage calls fail fast and retry a little (throttling, a dropped connection); the
# saver's own default is 5 adaptive attempts with botocore's 60 s timeouts.
_BOTO = Config(connect_timeout=5, read_timeout=20, retries={"mode": "standard", "max_attempts": 3})


@dataclass(frozen=True)
class DynamoTarget:
    """Where threads are kept, from a dynamodb:// URL."""

    table: str
    region: str | None
    endpoint_url: str | None
    s3_bucket: str | None
    s3_prefix: str
    s3_endpoint_url: str | None
    lease_s: float


def parse_url(url: str) -> DynamoTarget:
    """`dynamodb://TABLE?region=...&endpoint_url=...&s3_bucket=...`; ConfigError if malformed."""
    parts = urlsplit(url)
    table = parts.netloc
    if not _TABLE_NAME.match(table) or parts.path not in ("", "/"):
        raise ConfigError(
            f"LONGDOC_CHECKPOINT_URL names no valid DynamoDB table: {url!r}",
            hint="Use dynamodb://TABLE?region=REGION, TABLE 3-255 letters, digits, _ . -",
        )
    query = parse_qs(parts.query, keep_blank_values=True)
    unknown = sorted(set(query) - _OPTIONS)
    if unknown:
        raise ConfigError(
            f"LONGDOC_CHECKPOINT_URL has unknown options {unknown}",
            hint=f"A dynamodb:// URL takes {', '.join(sorted(_OPTIONS))}.",
        )
    option = {name: values[-1] for name, values in query.items() if values[-1]}
    try:
        lease_s = float(option.get("lease_s", DEFAULT_LEASE_S))
    except ValueError:
        lease_s = 0.0
    if not 1.0 <= lease_s <= 600.0:
        raise ConfigError(f"lease_s in LONGDOC_CHECKPOINT_URL must be 1-600 seconds: {url!r}")
    endpoint = option.get("endpoint_url")
    return DynamoTarget(
        table=table,
        region=option.get("region"),
        endpoint_url=endpoint,
        s3_bucket=option.get("s3_bucket"),
        s3_prefix=option.get("s3_prefix", "longdoc").strip("/"),
        s3_endpoint_url=option.get("s3_endpoint_url", endpoint),
        lease_s=lease_s,
    )


@dataclass(frozen=True)
class Clients:
    """boto3 clients for one target (thread-safe, so shared by every request)."""

    dynamodb: Any
    s3: Any | None
    region: str


@lru_cache(maxsize=8)
def clients(target: DynamoTarget) -> Clients:
    """The target's clients, made once per process: a boto3 client takes ~50 ms to build."""
    session = boto3.Session(region_name=target.region)
    if not session.region_name:
        raise ConfigError(
            f"no AWS region for the DynamoDB table {target.table!r}",
            hint="Add ?region=... to LONGDOC_CHECKPOINT_URL, or set AWS_REGION.",
        )
    dynamodb = session.client("dynamodb", endpoint_url=target.endpoint_url, config=_BOTO)
    s3 = (
        session.client("s3", endpoint_url=target.s3_endpoint_url, config=_BOTO)
        if target.s3_bucket
        else None
    )
    return Clients(dynamodb, s3, session.region_name)


def storage_error(exc: Exception, target: DynamoTarget) -> LongdocError:
    """A boto3 failure as the StorageError (or ConfigError) a user can act on."""
    where = f"DynamoDB table {target.table!r}"
    if isinstance(exc, NoCredentialsError):
        return ConfigError(
            f"no AWS credentials found for the {where}",
            hint="Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or an IAM role.",
        )
    if isinstance(exc, NoRegionError):
        return ConfigError(f"no AWS region for the {where}", hint="Add ?region=... to the URL.")
    if isinstance(exc, ClientError):
        error = exc.response.get("Error", {})
        code, message = error.get("Code", ""), error.get("Message", "")
        if code == "ResourceNotFoundException":
            return StorageError(
                f"the {where} does not exist", hint="Create it with `longdoc store init`."
            )
        if code == "NoSuchBucket":
            return StorageError(
                f"the S3 bucket {target.s3_bucket!r} does not exist",
                hint="Create it with `longdoc store init`.",
            )
        if code == "ValidationException" and "size" in message:
            return StorageError(
                "a checkpoint is over DynamoDB's 400 KB item limit",
                hint="Add s3_bucket=... to LONGDOC_CHECKPOINT_URL: large checkpoints then go "
                "to S3.",
            )
        return StorageError(f"{where} failed: {code}: {message}"[:400])
    if isinstance(exc, BotoCoreError):
        endpoint = target.endpoint_url or "AWS"
        return StorageError(f"cannot reach DynamoDB at {endpoint}: {exc}"[:400])
    raise exc


class LongdocDynamoDBSaver(DynamoDBSaver):  # type: ignore[misc]
    """DynamoDBSaver with longdoc's serializer, its errors, and a thread index.

    DynamoDBSaver takes no `serde` and builds its serializer once in __init__, so a strict
    JsonPlusSerializer (and the allowlist LangGraph adds in strict msgpack mode, through
    with_allowlist's shallow copy) would never reach the bytes: stored Findings would come
    back as dicts. `_use_serde` rebuilds the serializer the repository writes with. This
    reaches into langgraph-checkpoint-aws 1.2 (`serializer`, `repo`), hence its pin.
    """

    client: Any  # the saver's DynamoDB client
    serializer: Any
    repo: Any

    def __init__(self, target: DynamoTarget, serde: SerializerProtocol) -> None:
        own = clients(target)
        offload = (
            {
                "bucket_name": target.s3_bucket,
                "endpoint_url": target.s3_endpoint_url,
                "key_prefix": target.s3_prefix,
            }
            if target.s3_bucket
            else None
        )
        super().__init__(
            table_name=target.table,
            region_name=own.region,
            endpoint_url=target.endpoint_url,
            boto_config=_BOTO,
            # gzip when it saves 10 %: chat history and document text shrink ~3x, so fewer
            # checkpoints pass the 350 KB that sends one to S3.
            enable_checkpoint_compression=True,
            s3_offload_config=offload,
        )
        self.target = target
        self._use_serde(serde)

    def _use_serde(self, serde: SerializerProtocol) -> None:
        self.serde = maybe_add_typed_methods(serde)
        self.serializer = CheckpointSerializer(self.serde, self.serializer.enable_compression)
        self.repo = copy.copy(self.repo)  # a clone must not change its original's serializer
        self.repo.serializer = self.serializer

    def with_allowlist(self, extra_allowlist: Collection[tuple[str, ...]]) -> Any:
        clone = super().with_allowlist(extra_allowlist)
        if clone is not self:
            clone._use_serde(clone.serde)
        return clone

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        try:
            found: CheckpointTuple | None = super().get_tuple(config)
        except (BotoCoreError, ClientError) as exc:
            raise storage_error(exc, self.target) from exc
        return found

    def put(
        self, config: RunnableConfig, checkpoint: Any, metadata: Any, new_versions: Any
    ) -> RunnableConfig:
        try:
            stored: RunnableConfig = super().put(config, checkpoint, metadata, new_versions)
            # Every turn's first checkpoint (source "input") lists the thread, after the
            # checkpoint is stored: a crash in between leaves it unlisted until its next
            # turn, never listed without a checkpoint. One small idempotent write a turn.
            if metadata.get("source") == "input" and not config["configurable"].get(
                "checkpoint_ns"
            ):
                self.client.put_item(
                    TableName=self.target.table,
                    Item={
                        "PK": {"S": THREADS_PK},
                        "SK": {"S": config["configurable"]["thread_id"]},
                    },
                )
        except (BotoCoreError, ClientError) as exc:
            raise storage_error(exc, self.target) from exc
        return stored

    def put_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        try:
            super().put_writes(config, writes, task_id, task_path)
        except (BotoCoreError, ClientError) as exc:
            raise storage_error(exc, self.target) from exc

    def list(self, config: RunnableConfig | None, **kwargs: Any) -> Iterator[CheckpointTuple]:
        try:
            yield from super().list(config, **kwargs)
        except (BotoCoreError, ClientError) as exc:
            raise storage_error(exc, self.target) from exc

    def delete_thread(self, thread_id: str) -> None:
        """Checkpoints, writes and their S3 objects, then the index entry, then an idle lock."""
        try:
            super().delete_thread(thread_id)
            self.client.delete_item(
                TableName=self.target.table, Key={"PK": {"S": THREADS_PK}, "SK": {"S": thread_id}}
            )
            forget_lock(self.client, self.target.table, thread_id)
        except (BotoCoreError, ClientError) as exc:
            raise storage_error(exc, self.target) from exc

    def thread_ids(self, after: str | None, limit: int) -> builtins.list[str]:
        """Up to `limit` thread ids in order, each greater than `after`: one Query."""
        query: dict[str, Any] = {
            "TableName": self.target.table,
            "KeyConditionExpression": "PK = :pk" + (" AND SK > :after" if after else ""),
            "ExpressionAttributeValues": {":pk": {"S": THREADS_PK}},
            "Limit": limit,
        }
        if after:
            query["ExpressionAttributeValues"][":after"] = {"S": after}
        try:
            items = self.client.query(**query).get("Items", [])
        except (BotoCoreError, ClientError) as exc:
            raise storage_error(exc, self.target) from exc
        return [item["SK"]["S"] for item in items]


def create_store(url: str) -> list[str]:
    """Create the table (and bucket) if missing, idempotently; what was done, line by line."""
    target = parse_url(url)
    own = clients(target)
    done: list[str] = []
    try:
        done.append(_create_table(own.dynamodb, target.table))
        if own.s3 is not None and target.s3_bucket:
            done.append(_create_bucket(own.s3, target.s3_bucket, own.region))
    except (BotoCoreError, ClientError) as exc:
        raise storage_error(exc, target) from exc
    return done


def _create_table(client: Any, table: str) -> str:
    """On-demand capacity, PK + SK strings, and TTL on `ttl` (it sweeps idle lock items)."""
    try:
        client.create_table(
            TableName=table,
            BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[
                {"AttributeName": "PK", "AttributeType": "S"},
                {"AttributeName": "SK", "AttributeType": "S"},
            ],
            KeySchema=[
                {"AttributeName": "PK", "KeyType": "HASH"},
                {"AttributeName": "SK", "KeyType": "RANGE"},
            ],
        )
        said = f"created DynamoDB table {table}"
    except ClientError as exc:
        if exc.response["Error"]["Code"] != "ResourceInUseException":
            raise
        said = f"DynamoDB table {table} already exists"
    client.get_waiter("table_exists").wait(TableName=table, WaiterConfig={"Delay": 1})
    ttl = client.describe_time_to_live(TableName=table)["TimeToLiveDescription"]
    if ttl.get("TimeToLiveStatus") not in ("ENABLED", "ENABLING"):
        client.update_time_to_live(
            TableName=table, TimeToLiveSpecification={"Enabled": True, "AttributeName": "ttl"}
        )
    return said


def _create_bucket(client: Any, bucket: str, region: str) -> str:
    """us-east-1 takes no location constraint; every other region needs one."""
    options: dict[str, Any] = {"Bucket": bucket}
    if region != "us-east-1":
        options["CreateBucketConfiguration"] = {"LocationConstraint": region}
    try:
        client.create_bucket(**options)
    except ClientError as exc:
        if exc.response["Error"]["Code"] != "BucketAlreadyOwnedByYou":
            raise  # BucketAlreadyExists: the name is another account's
        return f"S3 bucket {bucket} already exists"
    return f"created S3 bucket {bucket}"


@lru_cache(maxsize=8)
def memory_store(url: str) -> Any:
    """A LangGraph BaseStore in the thread table, for long-term memory such as a recall index.

    langgraph-checkpoint-aws's DynamoDBStore keys an item PK = the namespace joined by
    ":", SK = its key; namespaces starting "memory" never meet a checkpoint, index or lock
    key. It is a key-value store here (its `search` ranks only with a vector index, and
    reads one Query page), so ranking stays with the caller.
    """
    from langgraph_checkpoint_aws import DynamoDBStore

    target = parse_url(url)
    return DynamoDBStore(
        table_name=target.table,
        region_name=clients(target).region,
        endpoint_url=target.endpoint_url,
        boto_config=_BOTO,
    )
