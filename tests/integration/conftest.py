"""Services the batch-at-scale tests share, started once per session: S3 (moto) and Ray.

Both are real: moto's S3 API on a loopback port (tests/support/moto_server.py), and a local
`ray.init(num_cpus=2)` whose workers are other processes. Tests run `longdoc` in a child
process with the environment these give (`S3.env`, `Cluster.env`).
"""

from __future__ import annotations

import logging
import os
import sys
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.support import REPO


def need(module: str) -> None:
    """Skip without the ray extra here; under CI a missing extra is a failure."""
    try:
        __import__(module)
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"{module} is not installed (pip install -e '.[test,ray]')")


@dataclass(frozen=True)
class S3:
    """moto's S3 on a loopback port, and the environment that points boto3 (s3fs) at it."""

    endpoint: str
    env: dict[str, str]

    def filesystem(self) -> Any:
        import s3fs

        return s3fs.S3FileSystem(
            key="testing",
            secret="testing",
            client_kwargs={"endpoint_url": self.endpoint},
            skip_instance_cache=True,
        )


@pytest.fixture(scope="session")
def s3(tmp_path_factory: pytest.TempPathFactory) -> Iterator[S3]:
    need("moto")
    need("s3fs")
    from tests.support.moto_server import aws_environment, running_moto

    with running_moto() as server:
        env = aws_environment(str(tmp_path_factory.mktemp("aws")))
        env["AWS_ENDPOINT_URL"] = server.endpoint  # botocore reads it, so s3fs does
        yield S3(server.endpoint, env)


@dataclass(frozen=True)
class Cluster:
    """The session's Ray cluster, the environment its drivers run with, the fake's files."""

    address: str
    env: dict[str, str]
    state: Path
    in_flight: Path
    calls: Path
    started_s: float

    def reset(self) -> None:
        for path in (self.in_flight, self.calls):
            path.unlink(missing_ok=True)


def ray_environment() -> dict[str, str]:
    """Loopback only, and no token for a cluster nobody else can reach; read at import."""
    return {
        "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
        "RAY_AUTH_MODE": "disabled",
        "RAY_USAGE_STATS_ENABLED": "0",
    }


@pytest.fixture(scope="session")
def ray_cluster(s3: S3, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Workers inherit the environment the cluster starts with: the S3 endpoint, the
    repository on PYTHONPATH (for the fake model factory) and the fake model's files. It is
    set only while the cluster starts, so no other test sees it."""
    state = tmp_path_factory.mktemp("cluster")
    env = {
        **s3.env,
        **ray_environment(),
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]).rstrip(":"),
        "FAKE_STATE_DIR": str(state),
        "FAKE_INFLIGHT_FILE": str(state / "in_flight.json"),
        "FAKE_CALL_LOG": str(state / "calls.log"),
    }
    saved = {name: os.environ.get(name) for name in env}
    os.environ.update(env)
    try:
        need("ray")
        import ray

        started = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Ray's own deprecation noise at start-up
            ray.init(
                address="local",  # never a cluster some other process left running
                num_cpus=2,
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.WARNING,
                object_store_memory=100 * 2**20,
            )
        seconds = time.perf_counter() - started
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    print(f"\n[ray cluster up in {seconds:.1f} s]", file=sys.stderr)
    yield Cluster(
        address=ray.get_runtime_context().gcs_address,
        env=env,
        state=state,
        in_flight=state / "in_flight.json",
        calls=state / "calls.log",
        started_s=seconds,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ray.shutdown()
