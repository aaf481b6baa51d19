"""Batch summaries at corpus scale: S3 locations and the Ray executor, as a user runs them.

Every run is the `longdoc` command in a child process; the Ray runs join the session's
cluster (tests/integration/conftest.py) by address, or start their own instance.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.integration.conftest import S3, Cluster, need
from tests.integration.test_batch import make_corpus, manifest, outputs
from tests.support import LONGDOC

pytestmark = pytest.mark.slow  # a Ray cluster and child processes: seconds each

FAKE = "tests.support.fakes:cluster_model"


def longdoc(
    *args: str, env: dict[str, str], timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LONGDOC), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **env},
    )


def summarize(
    docs: str, out: str, *extra: str, env: dict[str, str], **more: str
) -> subprocess.CompletedProcess[str]:
    return longdoc("summarize", docs, "--out", out, "--words", "40", *extra, env={**env, **more})


def on_ray(cluster: Cluster) -> tuple[str, ...]:
    return ("--executor", "ray", "--ray-address", cluster.address)


@pytest.fixture
def bucket(s3: S3) -> tuple[Any, str]:
    fs = s3.filesystem()
    name = f"t-{uuid.uuid4().hex[:10]}"
    fs.mkdir(name)
    return fs, name


def upload(fs: Any, local: Path, url: str) -> None:
    for path in sorted(local.rglob("*.txt")):
        fs.pipe_file(f"{url}/{path.relative_to(local).as_posix()}", path.read_bytes())


def s3_outputs(fs: Any, root: str) -> dict[str, bytes]:
    fs.invalidate_cache()
    return {
        path[len(root) + 1 :]: fs.cat_file(path)
        for path in fs.find(root)
        if not path.endswith("manifest.jsonl")
    }


def s3_manifest(fs: Any, root: str) -> list[dict[str, Any]]:
    text = fs.cat_file(f"{root}/manifest.jsonl").decode()
    return [json.loads(line) for line in text.splitlines()]


def by_status(records: list[dict[str, Any]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for record in records:
        counts[record["status"]] = counts.get(record["status"], 0) + 1
    return counts


def test_ray_writes_what_local_writes_byte_for_byte(ray_cluster: Cluster, tmp_path: Path) -> None:
    docs = make_corpus(tmp_path / "docs", 12)
    (docs / "part0" / "empty.txt").write_text("   \n")
    local, ray = tmp_path / "local", tmp_path / "ray"
    # The chunk cache off: JSON outputs count cached readings, and local and Ray runs keep
    # their caches in different places (a worker's data_dir is its own cwd's), where a write
    # lost to a busy SQLite file is a miss by design, so the counts could differ by one.
    env = {**ray_cluster.env, "LONGDOC_CACHE": "off"}
    for fmt in ("md", "json"):
        first = summarize(str(docs), str(local), "--format", fmt, env=env)
        second = summarize(str(docs), str(ray), "--format", fmt, *on_ray(ray_cluster), env=env)
        assert first.returncode == second.returncode == 1, second.stderr  # the empty file
        assert "empty.txt" in second.stdout
    assert outputs(ray) == outputs(local)
    json_files = sorted(p.relative_to(ray) for p in ray.rglob("*.json"))
    assert len(json_files) == 12
    for name in json_files:
        # JSON outputs carry usage; the built-in engine makes no calls, so they match too.
        assert (ray / name).read_bytes() == (local / name).read_bytes()

    def lines(out: Path) -> list[tuple[object, ...]]:
        return sorted(
            (r["source"], Path(str(r["output"])).relative_to(out), r["status"], r["sha256"])
            for r in manifest(out)
        )

    assert lines(ray) == lines(local)
    # Progress from both workers on the driver's display: one line per file, k of 13.
    plain = [line for line in second.stdout.splitlines() if line.startswith("[")]
    assert sorted(int(line[1:].split("/")[0]) for line in plain) == list(range(1, 14))

    rerun = summarize(
        str(docs), str(ray), "--format", "json", *on_ray(ray_cluster), env=ray_cluster.env
    )
    assert rerun.returncode == 1
    assert by_status(manifest(ray)[-13:]) == {"skipped": 12, "failed": 1}


def test_s3_inputs_and_outputs_with_the_local_executor(
    s3: S3, bucket: tuple[Any, str], tmp_path: Path
) -> None:
    fs, name = bucket
    docs = make_corpus(tmp_path / "docs", 6)
    upload(fs, docs, f"{name}/in")
    src, out = f"s3://{name}/in", f"s3://{name}/out"
    first = summarize(src, out, env=s3.env)
    assert first.returncode == 0, first.stderr
    written = s3_outputs(fs, f"{name}/out")
    assert sorted(written) == sorted(
        f"{p.removesuffix('.txt')}.summary.md" for p in outputs_of(docs)
    )
    local = tmp_path / "local"
    assert summarize(str(docs), str(local), env=s3.env).returncode == 0
    # The same summaries; only the stamp's sources differ: a path here, a URL there.
    assert {k: v.decode() for k, v in written.items()} == outputs(local)
    dry = longdoc("summarize", src, "--out", out, "--words", "40", "--dry-run", env=s3.env)
    assert dry.stdout.count("up to date") == 6
    again = summarize(src, out, env=s3.env)
    assert again.returncode == 0
    records = s3_manifest(fs, f"{name}/out")
    assert by_status(records) == {"done": 6, "skipped": 6}, "kept and extended, on the store"
    assert records[0]["source"].startswith(f"s3://{name}/in/")
    pattern = summarize(f"s3://{name}/in/part1/*.txt", f"s3://{name}/glob", env=s3.env)
    assert pattern.returncode == 0
    assert sorted(s3_outputs(fs, f"{name}/glob")) == ["doc001.summary.md", "doc004.summary.md"]


def test_s3_names_moves_older_names_lists_files_not_read_and_skips_its_out_folder(
    s3: S3, bucket: tuple[Any, str], tmp_path: Path
) -> None:
    fs, name = bucket
    docs = make_corpus(tmp_path / "docs", 3)
    upload(fs, docs, f"{name}/in")
    fs.pipe_file(f"{name}/in/photo.png", b"\x89PNG\r\n\x1a\n")
    src, out = f"s3://{name}/in", f"s3://{name}/in/summaries"  # --out inside the input
    first = summarize(src, out, env=s3.env)
    assert first.returncode == 0, first.stderr
    assert f"not read (not a document type): {src}/photo.png" in first.stderr
    written = s3_outputs(fs, f"{name}/in/summaries")
    assert sorted(written) == [f"part{i}/doc00{i}.summary.md" for i in range(3)]
    # As the previous release named them: x.txt.md, in the store and in its manifest.
    for path in written:
        fs.mv(f"{name}/in/summaries/{path}", f"{name}/in/summaries/{path[:-11]}.txt.md")
    kept = fs.cat_file(f"{name}/in/summaries/manifest.jsonl").decode()
    fs.pipe_file(
        f"{name}/in/summaries/manifest.jsonl", kept.replace(".summary.md", ".txt.md").encode()
    )
    again = summarize(src, out, env=s3.env)
    assert again.returncode == 0, again.stderr
    assert s3_outputs(fs, f"{name}/in/summaries") == written, "moved, not redone or left"
    last_run = s3_manifest(fs, f"{name}/in/summaries")[-3:]
    assert [r["status"] for r in last_run] == ["skipped"] * 3, "no summary of a summary"
    assert all(str(r["renamed_from"]).endswith(".txt.md") for r in last_run)


def outputs_of(docs: Path) -> list[str]:
    return sorted(p.relative_to(docs).as_posix() for p in docs.rglob("*.txt"))


def test_s3_with_ray_matches_local_and_resumes(
    ray_cluster: Cluster, bucket: tuple[Any, str], tmp_path: Path
) -> None:
    fs, name = bucket
    docs = make_corpus(tmp_path / "docs", 10)
    upload(fs, docs, f"{name}/in")
    run = summarize(
        f"s3://{name}/in",
        f"s3://{name}/out",
        "--executor",
        "ray",
        env=ray_cluster.env,
        LONGDOC_RAY_ADDRESS=ray_cluster.address,  # the setting, not the flag
    )
    assert run.returncode == 0, run.stderr
    local = summarize(f"s3://{name}/in", f"s3://{name}/local", env=ray_cluster.env)
    assert local.returncode == 0
    assert s3_outputs(fs, f"{name}/out") == s3_outputs(fs, f"{name}/local")
    again = summarize(
        f"s3://{name}/in", f"s3://{name}/out", *on_ray(ray_cluster), env=ray_cluster.env
    )
    assert again.returncode == 0
    assert by_status(s3_manifest(fs, f"{name}/out")) == {"done": 10, "skipped": 10}


def test_a_worker_killed_mid_file_is_retried_and_leaves_no_partial_output(
    ray_cluster: Cluster, tmp_path: Path
) -> None:
    docs = make_corpus(tmp_path / "docs", 8)
    victim = docs / "part1" / "doc004.txt"
    victim.write_text(victim.read_text() + " KILL_WORKER_ONCE is written here.")
    out = tmp_path / "out"
    run = summarize(
        str(docs),
        str(out),
        *on_ray(ray_cluster),
        "--concurrency",
        "1",
        env=ray_cluster.env,
        LONGDOC_MODEL_FACTORY=FAKE,
        LONGDOC_CHUNK_SIZE="200",
        LONGDOC_CHUNK_OVERLAP="0",
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert list(ray_cluster.state.glob("killed-*")), "a worker really died mid-file"
    records = manifest(out)
    assert sorted(Path(str(r["source"])).name for r in records) == sorted(
        f"doc{i:03}.txt" for i in range(8)
    ), "each file recorded once"
    assert {r["status"] for r in records} == {"done"}
    assert not list(out.rglob("*.longdoc-tmp-*"))
    for text in outputs(out).values():
        assert text.startswith("<!-- longdoc sha256=")
        assert text.endswith("\n")
    assert "doc004" in "".join(outputs(out))


def test_one_model_call_limit_holds_across_the_cluster(
    ray_cluster: Cluster, tmp_path: Path
) -> None:
    ray_cluster.reset()
    docs = make_corpus(tmp_path / "docs", 8)
    out = tmp_path / "out"
    run = summarize(
        str(docs),
        str(out),
        *on_ray(ray_cluster),
        "--concurrency",
        "4",
        env=ray_cluster.env,
        LONGDOC_MODEL_FACTORY=FAKE,
        FAKE_LATENCY="0.2",  # long beside an actor round trip: both workers want slots at once
        LONGDOC_MAX_CONCURRENCY="3",
        LONGDOC_CHUNK_SIZE="120",
        LONGDOC_CHUNK_OVERLAP="0",
        LONGDOC_CACHE="off",
    )
    assert run.returncode == 0, run.stderr
    # Two workers with 4 files and a per-process cap of 3 each could send 6 at once.
    seen = json.loads(ray_cluster.in_flight.read_text())
    assert len(seen["pids"]) >= 2, "both workers called the model"
    assert 0 < seen["peak"] <= 3
    calls = len(ray_cluster.calls.read_text().splitlines())
    assert calls == sum(int(r["usage"]["calls"]) for r in manifest(out)) > 40


def test_a_killed_driver_resumes_on_rerun_each_file_done_once(
    ray_cluster: Cluster, tmp_path: Path
) -> None:
    docs = make_corpus(tmp_path / "docs", 40)
    out = tmp_path / "out"
    env = {
        **os.environ,
        **ray_cluster.env,
        "LONGDOC_MODEL_FACTORY": FAKE,
        "FAKE_LATENCY": "0.05",
        "LONGDOC_CHUNK_SIZE": "200",
        "LONGDOC_CHUNK_OVERLAP": "0",
    }
    args = ["summarize", str(docs), "--out", str(out), *on_ray(ray_cluster), "--concurrency", "1"]
    child = subprocess.Popen(
        [str(LONGDOC), *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 240
    while len(list(out.rglob("*.md"))) < 5 and time.monotonic() < deadline:
        time.sleep(0.05)
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    first = manifest(out) if (out / "manifest.jsonl").exists() else []
    time.sleep(3)
    written = len(list(out.rglob("*.md")))
    time.sleep(2)
    assert len(list(out.rglob("*.md"))) == written, "the dead driver's tasks stopped"
    assert written < 40

    rerun = subprocess.run(
        [str(LONGDOC), *args], env=env, capture_output=True, text=True, timeout=300
    )
    assert rerun.returncode == 0, rerun.stderr
    second = manifest(out)[len(first) :]
    done_first = {r["source"] for r in first if r["status"] == "done"}
    done_second = {r["source"] for r in second if r["status"] == "done"}
    assert not done_first & done_second, "no file done twice"
    assert {r["source"] for r in second} == {str(p.resolve()) for p in docs.rglob("*.txt")}
    assert len(done_second) >= 40 - written
    for text in outputs(out).values():
        assert text.startswith("<!-- longdoc sha256=")


def test_without_an_address_a_local_ray_instance_is_started(tmp_path: Path) -> None:
    need("ray")
    docs = make_corpus(tmp_path / "docs", 4)
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    result = subprocess.run(
        [str(LONGDOC), "summarize", str(docs), "--out", str(tmp_path / "out"), "--executor", "ray"],
        capture_output=True,
        text=True,
        timeout=400,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    assert len(outputs(tmp_path / "out")) == 4


def worker_pids(ray: Any) -> set[int]:
    from pipeline.batch import ray_pool

    assert ray_pool._warm is not None
    calls = [w.__ray_call__.remote(lambda self: os.getpid()) for w in ray_pool._warm.workers]
    return set(ray.get(calls))


def test_a_process_running_batches_keeps_its_workers_warm(
    ray_cluster: Cluster, tmp_path: Path
) -> None:
    """A library caller's second batch reuses the first one's worker processes (each
    costs seconds to start); a batch with other settings gets workers of its own."""
    import asyncio

    import ray

    from pipeline import Settings
    from pipeline.batch import ray_pool
    from pipeline.batch.items import BatchOptions
    from pipeline.batch.plan import plan
    from pipeline.batch.runner import run_batch

    settings = Settings(data_dir=tmp_path / "data", cache="off")

    def batch(docs: Path, name: str, words: int | None = None) -> None:
        out = str(tmp_path / name)
        items = plan([str(docs)], out, "md").items
        options = BatchOptions(executor="ray", concurrency=2, words=words)
        events: list[dict[str, Any]] = []
        outcomes = asyncio.run(
            run_batch(items, out, options, settings=settings, on_event=events.append)
        )
        assert [o.status for o in outcomes] == ["done"] * 6
        # Only this batch's files on its display, never what a warm worker held from before.
        assert {e["source"] for e in events} == {item.source for item in items}

    try:
        batch(make_corpus(tmp_path / "docs", 6), "first")
        first = worker_pids(ray)
        batch(make_corpus(tmp_path / "other", 6), "second")
        assert worker_pids(ray) == first
        assert outputs(tmp_path / "second") == outputs(tmp_path / "first")
        batch(tmp_path / "docs", "shorter", words=20)
        assert worker_pids(ray).isdisjoint(first)
    finally:
        ray_pool.forget(ray)  # the session's other tests need the cluster's CPUs


def test_the_call_limiter_starts_without_importing_longdoc(ray_cluster: Cluster) -> None:
    """The limiter starts at every model-reading batch: importing longdoc would cost it
    seconds of CPU beside the workers."""
    import sys

    import ray

    from pipeline.batch.ray_limiter import start_limiter

    limiter = start_limiter(2, 1.0)
    try:
        imported = ray.get(
            limiter.__ray_call__.remote(
                lambda self: sorted(m for m in sys.modules if m.split(".")[0] == "pipeline")
            )
        )
        assert imported == []
        lease = ray.get(limiter.acquire.remote())
        ray.get(limiter.release.remote(lease))
    finally:
        ray.kill(limiter)
