"""moto's DynamoDB and S3 served on a loopback port, as a real AWS endpoint for the store tests.

Its handlers run one request at a time. moto's DynamoDB checks a ConditionExpression and
then writes without a lock held across threads, so under moto's own threaded server two
concurrent conditional writes can both succeed: a lock test there lost 3-5 of 60
increments in every trial. Real DynamoDB is linearizable per item; serializing the
requests restores that, and connections still come and go concurrently.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

REGION = "us-east-1"
CREDENTIALS = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing"}
"""moto accepts any key; these keep boto3 from looking for real ones (files, instance roles)."""


class MotoServer:
    """A started server; `endpoint` is the URL boto3 clients are pointed at."""

    def __init__(self) -> None:
        from moto.moto_server.threaded_moto_server import MotoRequestHandler
        from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
        from werkzeug.serving import make_server

        logging.getLogger("werkzeug").setLevel(logging.ERROR)  # one access-log line a request
        app = DomainDispatcherApplication(create_backend_app)
        one_at_a_time = threading.Lock()

        def serialized(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
            with one_at_a_time:
                return list(app(environ, start_response))

        self._httpd = make_server(
            "127.0.0.1", 0, serialized, threaded=True, request_handler=MotoRequestHandler
        )
        host, port = self._httpd.server_address[:2]
        self.endpoint = f"http://{host}:{port}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()


@contextmanager
def running_moto() -> Iterator[MotoServer]:
    server = MotoServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


def aws_environment(tmp: str) -> dict[str, str]:
    """Variables that make boto3 use the test credentials and never read ~/.aws or the network."""
    return {
        **CREDENTIALS,
        "AWS_DEFAULT_REGION": REGION,
        "AWS_CONFIG_FILE": f"{tmp}/aws-config",
        "AWS_SHARED_CREDENTIALS_FILE": f"{tmp}/aws-credentials",
        "AWS_EC2_METADATA_DISABLED": "true",
    }
