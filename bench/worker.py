"""The worker subprocess: runs one library's workloads on request from the harness.

Protocol: one JSON object per line on stdin (``prepare``, ``sample``,
``finish``, ``quit``), one JSON reply per line on the original stdout. Anything
the libraries print goes to stderr, so it cannot break the protocol.

Usage: ``python -m bench.worker LIBRARY DEVICE`` (started by the harness).
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from typing import Any

from .sessions import LocalSession
from .timing import TimingConfig


def serve(name: str, device: str) -> None:
    """Answer requests for library ``name`` on ``device`` until ``quit`` or end of input.

    Example:
        >>> serve("numpy", "cpu")  # doctest: +SKIP
    """
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    session = LocalSession(name, device)
    for line in sys.stdin:
        request = json.loads(line)
        op = request.pop("op")
        reply: dict[str, Any]
        try:
            if op == "quit":
                replies.write(json.dumps({"result": None}) + "\n")
                replies.flush()
                break
            if op == "prepare":
                result: Any = session.prepare(request["case"], request["params"],
                                              TimingConfig(**request["timing"]))
            elif op == "sample":
                result = session.sample(int(request["count"]))
            elif op == "finish":
                result = session.finish()
            else:
                raise ValueError(f"unknown request {op!r}")
            reply = {"result": result}
        except Exception as exc:
            traceback.print_exc(file=sys.stderr)
            reply = {"fatal": f"{type(exc).__name__}: {exc}"}
        replies.write(json.dumps(reply) + "\n")
        replies.flush()
    session.close()


if __name__ == "__main__":
    serve(sys.argv[1], sys.argv[2])
