"""S3A for real (`make test-s3`): moto_server on 127.0.0.1, boto3 to put the objects, and a Spark session of
this directory's own whose S3A client talks to that server.

tests/s3 runs in a pytest run of its own: the session of ../../conftest.py is started without the S3A jars,
and a running JVM cannot take more, so `spark` here overrides it with a session started with them
(`SPARK_DRILL_S3_JARS`: the classpath `dev/s3-jars` prints, or its directory).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

os.environ.setdefault("TZ", "UTC")

HOST = "127.0.0.1"
REGION = "us-east-1"
# moto accepts any credentials; "testing" is what its documentation uses.
ACCESS_KEY = "testing"
SECRET_KEY = "testing"
CREDENTIALS_PROVIDER = "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider"
START_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 10.0


def s3_jars() -> list[str]:
    """The S3A jars: SPARK_DRILL_S3_JARS is `dev/s3-jars`' classpath, or the directory it fills."""
    value = os.environ.get("SPARK_DRILL_S3_JARS", "").strip()
    if not value:
        pytest.fail(
            'SPARK_DRILL_S3_JARS is not set: run `make test-s3`, or SPARK_DRILL_S3_JARS="$(dev/s3-jars)" '
            "pytest tests/s3",
            pytrace=False,
        )
    jars: list[str] = []
    for entry in filter(None, value.split(os.pathsep)):
        path = Path(entry)
        if path.is_dir():
            jars.extend(str(p) for p in sorted(path.glob("*.jar")))
        else:
            jars.append(entry)
    missing = [j for j in jars if not Path(j).is_file()]
    if not jars or missing:
        pytest.fail(f"SPARK_DRILL_S3_JARS={value} names no jar, or jars that are not files: {missing}")
    return jars


def free_port() -> int:
    """A port nothing listens on now (the server binds it a moment later)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def moto_server_command() -> str:
    """moto_server of the venv running these tests (its bin directory), else the one on PATH."""
    beside = Path(sys.executable).parent / "moto_server"
    if beside.is_file():
        return str(beside)
    import shutil

    found = shutil.which("moto_server")
    if found is None:
        pytest.fail("moto_server not found: `make venv` installs moto[server] (pyproject's dev dependencies)")
    return found


def _answers(endpoint: str) -> bool:
    # No proxy: a proxy from the environment must not see requests to loopback.
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(endpoint + "/", timeout=2) as response:
            return int(response.status) < 500
    except urllib.error.HTTPError as e:
        return e.code < 500
    except OSError:
        return False


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Terminates the server and waits for it, killing it if it does not go within STOP_TIMEOUT_S."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=STOP_TIMEOUT_S)


@pytest.fixture(scope="session")
def moto_endpoint(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`http://127.0.0.1:<port>` of a moto_server started for this run and always stopped after it."""
    port = free_port()
    endpoint = f"http://{HOST}:{port}"
    log = tmp_path_factory.mktemp("moto") / "moto_server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [moto_server_command(), "-H", HOST, "-p", str(port)],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not _answers(endpoint):
            if process.poll() is not None:
                output = log.read_text(errors="replace")
                pytest.fail(f"moto_server exited with {process.returncode}:\n{output}")
            if time.monotonic() > deadline:
                pytest.fail(f"moto_server did not answer at {endpoint} within {START_TIMEOUT_S:.0f} s")
            time.sleep(0.2)
        # boto3 honours proxy variables; loopback must bypass them.
        with pytest.MonkeyPatch.context() as mp:
            for name in ("NO_PROXY", "no_proxy"):
                mp.setenv(name, ",".join(filter(None, [os.environ.get(name), HOST])))
            yield endpoint
    finally:
        _stop(process)


@pytest.fixture(scope="session")
def s3(moto_endpoint: str) -> Any:
    """A boto3 S3 client of the moto server (path-style, as S3A is configured)."""
    import boto3
    from botocore.config import Config

    return boto3.client(
        "s3",
        endpoint_url=moto_endpoint,
        region_name=REGION,
        aws_access_key_id=ACCESS_KEY,
        aws_secret_access_key=SECRET_KEY,
        config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 3}),
    )


def s3a_settings(endpoint: str) -> dict[str, str]:
    """Spark settings that point S3A at `endpoint` (SPARK-NOTES 11, as tried on a moto server)."""
    return {
        "spark.hadoop.fs.s3a.endpoint": endpoint,
        "spark.hadoop.fs.s3a.endpoint.region": REGION,
        "spark.hadoop.fs.s3a.path.style.access": "true",
        "spark.hadoop.fs.s3a.connection.ssl.enabled": "false",
        "spark.hadoop.fs.s3a.access.key": ACCESS_KEY,
        "spark.hadoop.fs.s3a.secret.key": SECRET_KEY,
        "spark.hadoop.fs.s3a.aws.credentials.provider": CREDENTIALS_PROVIDER,
    }


@pytest.fixture(scope="session")
def spark(moto_endpoint: str) -> Iterator[SparkSession]:
    """The session of tests/s3: that of ../../conftest.py, plus the S3A jars and settings. `sd.session`
    appends the spark-drill jar (`spark_drill.jar_path()`) to the `spark.jars` given here."""
    jars = s3_jars()
    import spark_drill as sd

    session = sd.session(
        master="local[2]",
        app_name="spark-drill-s3-tests",
        **{
            "spark.jars": ",".join(jars),
            "spark.ui.enabled": "false",
            "spark.sql.shuffle.partitions": "2",
            "spark.sql.session.timeZone": "UTC",
            "spark.driver.host": HOST,
            "spark.driver.bindAddress": HOST,
            **s3a_settings(moto_endpoint),
        },
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@dataclass(frozen=True)
class Tree:
    """The same files twice: under a local directory and in a bucket of its own. A local read of the same
    bytes is what an s3a:// read must give."""

    s3: Any
    bucket: str
    root: Path

    def put(self, files: Mapping[str, str | bytes]) -> None:
        """Writes each file (relative path -> content) locally and uploads the same bytes as an object."""
        for rel, content in files.items():
            data = content.encode("utf-8") if isinstance(content, str) else content
            path = self.root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            self.s3.put_object(Bucket=self.bucket, Key=rel, Body=data)

    def url(self, rel: str = "") -> str:
        """`s3a://bucket/rel`."""
        return f"s3a://{self.bucket}/{rel}"

    def local(self, rel: str = "") -> str:
        """The local copy of `rel`, as a path string."""
        return str(self.root / rel) if rel else str(self.root)


@pytest.fixture
def tree(s3: Any, tmp_path: Path) -> Iterator[Tree]:
    """A fresh bucket per test (and its local twin), emptied and removed afterwards."""
    bucket = f"drill-{uuid.uuid4().hex[:16]}"
    s3.create_bucket(Bucket=bucket)
    yield Tree(s3, bucket, tmp_path / "local")
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket):
        for obj in page.get("Contents", []):
            s3.delete_object(Bucket=bucket, Key=obj["Key"])
    s3.delete_bucket(Bucket=bucket)


@pytest.fixture(scope="session")
def sqs(moto_endpoint: str) -> Any:
    """A boto3 SQS client of the moto server."""
    import boto3

    return boto3.client(
        "sqs",
        endpoint_url=moto_endpoint,
        region_name=REGION,
        aws_access_key_id=ACCESS_KEY,
        aws_secret_access_key=SECRET_KEY,
    )


@dataclass
class Events:
    """A bucket's object-created notifications sent to a queue of its own (as docs/object-stores.md sets
    them up), and that queue."""

    tree: Tree
    sqs: Any
    queue_url: str
    queue_arn: str

    def notify(self, on: bool = True) -> None:
        """Turns the bucket's notifications to the queue on (S3 then sends its test event) or off."""
        config: dict[str, Any] = {}
        if on:
            config = {"QueueConfigurations": [{"QueueArn": self.queue_arn, "Events": ["s3:ObjectCreated:*"]}]}
        self.tree.s3.put_bucket_notification_configuration(
            Bucket=self.tree.bucket, NotificationConfiguration=config
        )

    def send(self, body: str) -> None:
        self.sqs.send_message(QueueUrl=self.queue_url, MessageBody=body)

    def counts(self) -> tuple[int, int]:
        """Messages waiting, and received but neither deleted nor visible again yet."""
        attributes = self.sqs.get_queue_attributes(
            QueueUrl=self.queue_url,
            AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
        )["Attributes"]
        return int(attributes["ApproximateNumberOfMessages"]), int(
            attributes["ApproximateNumberOfMessagesNotVisible"]
        )


@pytest.fixture
def events(tree: Tree, sqs: Any) -> Iterator[Events]:
    """A queue of its own for the test's bucket, its notifications on."""
    name = f"events-{uuid.uuid4().hex[:12]}"
    url = sqs.create_queue(QueueName=name)["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    found = Events(tree, sqs, url, arn)
    found.notify()
    yield found
    sqs.delete_queue(QueueUrl=url)
