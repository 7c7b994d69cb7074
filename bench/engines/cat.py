"""`cat` of every file into `wc -c`: the I/O floor (page cache to a pipe)."""

from __future__ import annotations

import subprocess

from bench.engines.base import Engine, NotApplicable
from bench.truth import Answer


class Cat(Engine):
    family = "cat"
    description = "cat of all files piped to wc -c"

    def q0(self) -> Answer:
        files = [str(p) for p in self.files()]
        cat = subprocess.Popen(["cat", *files], stdout=subprocess.PIPE)
        out = subprocess.run(["wc", "-c"], stdin=cat.stdout, capture_output=True, check=True, text=True)
        if cat.stdout is not None:
            cat.stdout.close()
        if cat.wait() != 0:
            raise RuntimeError("cat failed")
        return {"bytes": int(out.stdout.split()[0])}

    def q1(self) -> Answer:
        raise NotApplicable("cat")

    def q2(self) -> Answer:
        raise NotApplicable("cat")

    def q2d(self) -> Answer:
        raise NotApplicable("cat")

    def q3(self) -> Answer:
        raise NotApplicable("cat")

    def q4(self) -> Answer:
        raise NotApplicable("cat")

    def q5(self) -> Answer:
        raise NotApplicable("cat")

    def q6(self) -> Answer:
        raise NotApplicable("cat")


class CatCsv(Cat):
    name = "cat-csv"
    fmt = data = "csv"


class CatJson(Cat):
    name = "cat-json"
    fmt = data = "json"
