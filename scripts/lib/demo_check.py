"""Check a running `scripts/demo` server the way JupyterLab uses it (run by `scripts/demo --check`).

Starts a kernel through the server's REST API and runs, over the kernel's websocket, what a
notebook's first cells run: ``%load_ext ipy_istring`` must print nothing (the kernel did not
load it already: no "already loaded" message), then the README's first example must work as
written (``sh`` is in the namespace).  Also checks that the server serves the demo copies of
the notebooks, not the tracked ones.  Prints what it saw; exits non-zero on any failure.

    python demo_check.py http://127.0.0.1:PORT TOKEN
"""

from __future__ import annotations

import json
import sys
import time
import urllib.request
import uuid
from typing import Any

import websocket  # websocket-client, a dependency of jupyter_server

FIRST_CELL = "%load_ext ipy_istring"

CELL = """\
import json
_ip = get_ipython()
_n = 3
file = "notes.txt"
print(json.dumps({
    "loaded": "ipy_istring" in _ip.extension_manager.loaded,
    "rendered": format(i"{_n} items"),
    "readme": sh(i'cat {file}'),
}))
"""


def api(base: str, token: str, method: str, path: str) -> Any:
    request = urllib.request.Request(
        f"{base}{path}", method=method, headers={"Authorization": f"token {token}"}
    )
    if method == "POST":
        request.data = b"{}"
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as response:
        body = response.read()
    return json.loads(body) if body else None


def execute(base: str, token: str, kernel_id: str, code: str) -> tuple[str, list[str]]:
    """Run code in the kernel; return (stdout, errors)."""
    ws_url = base.replace("http", "ws", 1) + f"/api/kernels/{kernel_id}/channels?token={token}"
    ws = websocket.create_connection(ws_url, timeout=60)
    msg_id = uuid.uuid4().hex
    ws.send(
        json.dumps(
            {
                "header": {
                    "msg_id": msg_id,
                    "username": "demo-check",
                    "session": uuid.uuid4().hex,
                    "msg_type": "execute_request",
                    "version": "5.3",
                },
                "parent_header": {},
                "metadata": {},
                "content": {
                    "code": code,
                    "silent": False,
                    "store_history": False,
                    "user_expressions": {},
                    "allow_stdin": False,
                    "stop_on_error": True,
                },
                "channel": "shell",
                "buffers": [],
            }
        )
    )
    out: list[str] = []
    errors: list[str] = []
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            msg = json.loads(ws.recv())
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind = msg["header"]["msg_type"]
            if kind == "stream":
                (out if msg["content"]["name"] == "stdout" else errors).append(
                    msg["content"]["text"]
                )
            elif kind == "error":
                errors.append("\n".join(msg["content"]["traceback"]))
            elif kind == "status" and msg["content"]["execution_state"] == "idle":
                # (idle comes after every output; execute_reply, on another channel, may not)
                return "".join(out), errors
        errors.append("the kernel did not finish within 60 s")
        return "".join(out), errors
    finally:
        ws.close()


def main() -> int:
    base, token = sys.argv[1].rstrip("/"), sys.argv[2]
    listed = {item["name"] for item in api(base, token, "GET", "/api/contents")["content"]}
    if "01-tour.ipynb" not in listed:
        print(f"demo check: the server does not serve the demo notebooks: {sorted(listed)}")
        return 1
    kernel = api(base, token, "POST", "/api/kernels")
    print(f"demo check: kernel {kernel['name']} started ({kernel['id']})")
    try:
        first_out, errors = execute(base, token, kernel["id"], FIRST_CELL)
        stdout, more_errors = execute(base, token, kernel["id"], CELL)
    finally:
        api(base, token, "DELETE", f"/api/kernels/{kernel['id']}")
    if errors or more_errors:
        print("demo check: a cell failed:\n" + "".join(errors + more_errors))
        return 1
    if first_out.strip():
        print(f"demo check: %load_ext printed {first_out.strip()!r}")
        return 1
    seen = json.loads(stdout.strip().splitlines()[-1])
    print(f"demo check: {seen}")
    ok = seen == {"loaded": True, "rendered": "3 items", "readme": "cat notes.txt"}
    print("demo check: ok" if ok else "demo check: FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
