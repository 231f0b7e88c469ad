#!/usr/bin/env python3
"""Scripted stand-in for the Anthropic Messages API, for end-to-end tests of
Claude Code hooks.  Python 3.11 standard library only; listens on 127.0.0.1.

Usage:
    mock_model.py --scenario SCENARIO.json --log LOG.jsonl [--port 0]
                  [--timeout 600] [--full-bodies] [--port-file FILE]

On start it prints one line "PORT <n>" to stdout (and writes <n> to
--port-file if given).  It exits by itself after --timeout seconds.

Scenario file (JSON):

    {
      "side_text": "Mock title",          # answer to requests without tools
      "exhausted_text": "(scenario exhausted)",
      "threads": [
        {"name": "main", "turns": [TURN, ...]},
        {"name": "helper", "match": "UNIQUE-TOKEN", "turns": [TURN, ...]}
      ]
    }

A request that carries `tools` belongs to the first thread (in file order)
whose "match" string occurs in the text of the request's FIRST user message
(a subagent's first user message is the prompt its Agent call gave it).  If no
thread with "match" fits, the request belongs to the thread named "main".

The scenario file is re-read on every request, so a test may rewrite it
between client runs.

The turn to play is chosen statelessly from the request: it is the number of
assistant turns already in `messages` (consecutive assistant messages count
as one turn).  So client retries replay the same turn, and `--resume` runs
simply continue the list.

TURN is one of
    {"text": "final answer"}                         -> stop_reason end_turn
    {"text": "optional preamble",                    -> stop_reason tool_use
     "tool_uses": [{"name": "Bash", "input": {...}, "id": "optional"}]}
A tool_use without "id" gets "toolu_mock_<thread>_<turn>_<k>"; with "id": X
it gets "toolu_X" (unless X already starts with "toolu_").
A turn may also hold "wait_for": "/abs/path": the request is logged at once,
but the answer is sent only when that file exists (at most 60 s later), so a
test can change the world at a known point of a run.

Log file (JSONL, one object per line, appended in arrival order):
    {"type": "request", "seq", "method", "path", "kind": "messages" |
     "count_tokens" | "other", "thread" (messages with tools only),
     "side": bool, "turn", "model", "stream", "tools": [names],
     "first_user_text", "n_messages", "tool_results": [...new results...],
     "response": {...what was played...}, "body": {...} (--full-bodies)}
    {"type": "tool_result", "seq", "thread", "tool_use_id", "tool_name",
     "input", "is_error", "content": "<text>"}     (once per tool_use id)
    {"type": "proxy", "method": "CONNECT", "target": "host:443"}  (refused)
"""

import argparse
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
STATE = {
    "seq": 0,
    "seen_results": set(),
    "tool_uses": {},  # id -> {"name", "input", "thread", "turn"}
}


def log(obj):
    obj.setdefault("time", round(time.time(), 3))
    line = json.dumps(obj, ensure_ascii=False, sort_keys=True)
    with LOCK:
        with open(ARGS.log, "a", encoding="utf-8") as f:
            f.write(line + "\n")


def block_text(content):
    """Flatten a message content (string or list of blocks) to text."""
    if isinstance(content, str):
        return content
    out = []
    if isinstance(content, list):
        for b in content:
            if not isinstance(b, dict):
                continue
            if b.get("type") == "text":
                out.append(b.get("text", ""))
            elif b.get("type") == "tool_result":
                out.append(block_text(b.get("content", "")))
    return "\n".join(out)


def first_user_text(messages):
    for m in messages:
        if m.get("role") == "user":
            return block_text(m.get("content", ""))
    return ""


def assistant_turns(messages):
    n, prev = 0, None
    for m in messages:
        r = m.get("role")
        if r == "assistant" and prev != "assistant":
            n += 1
        prev = r
    return n


def tool_results(messages):
    res = []
    for m in messages:
        if m.get("role") != "user" or not isinstance(m.get("content"), list):
            continue
        for b in m["content"]:
            if isinstance(b, dict) and b.get("type") == "tool_result":
                res.append(
                    {
                        "tool_use_id": b.get("tool_use_id"),
                        "is_error": bool(b.get("is_error", False)),
                        "content": block_text(b.get("content", "")),
                    }
                )
    return res


def load_scenario():
    """Re-read the scenario file, so a test may change it between client
    runs; keep the last good copy if it is being rewritten right now."""
    global SCENARIO
    try:
        with open(ARGS.scenario, encoding="utf-8") as f:
            SCENARIO = json.load(f)
    except (OSError, ValueError):
        pass
    return SCENARIO


def pick_thread(first_text):
    threads = SCENARIO.get("threads", [])
    for t in threads:
        m = t.get("match")
        if m and m in first_text:
            return t
    for t in threads:
        if t.get("name") == "main":
            return t
    return {"name": "main", "turns": []}


def make_turn(thread, idx):
    turns = thread.get("turns", [])
    name = thread.get("name", "main")
    if idx >= len(turns):
        return {
            "text": SCENARIO.get("exhausted_text", "(scenario exhausted)"),
            "exhausted": True,
        }, []
    turn = turns[idx]
    blocks = []
    if turn.get("text"):
        blocks.append({"type": "text", "text": turn["text"]})
    uses = []
    for k, tu in enumerate(turn.get("tool_uses", [])):
        tid = tu.get("id")
        if tid is None:
            tid = "toolu_mock_%s_%d_%d" % (name, idx, k)
        elif not tid.startswith("toolu_"):
            tid = "toolu_" + tid
        b = {"type": "tool_use", "id": tid, "name": tu["name"], "input": tu.get("input", {})}
        blocks.append(b)
        uses.append(b)
    return turn, blocks


def sse_body(model, msg_id, blocks, stop_reason):
    ev = []

    def add(name, data):
        ev.append("event: %s\ndata: %s\n\n" % (name, json.dumps(data)))

    add(
        "message_start",
        {
            "type": "message_start",
            "message": {
                "id": msg_id,
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {
                    "input_tokens": 10,
                    "output_tokens": 1,
                    "cache_creation_input_tokens": 0,
                    "cache_read_input_tokens": 0,
                },
            },
        },
    )
    for i, b in enumerate(blocks):
        if b["type"] == "text":
            add("content_block_start", {"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}})
            add("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {"type": "text_delta", "text": b["text"]}})
        else:
            add(
                "content_block_start",
                {"type": "content_block_start", "index": i, "content_block": {"type": "tool_use", "id": b["id"], "name": b["name"], "input": {}}},
            )
            add(
                "content_block_delta",
                {"type": "content_block_delta", "index": i, "delta": {"type": "input_json_delta", "partial_json": json.dumps(b["input"])}},
            )
        add("content_block_stop", {"type": "content_block_stop", "index": i})
    add(
        "message_delta",
        {"type": "message_delta", "delta": {"stop_reason": stop_reason, "stop_sequence": None}, "usage": {"output_tokens": 5}},
    )
    add("message_stop", {"type": "message_stop"})
    return "".join(ev).encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "mock-model/1"

    def log_message(self, fmt, *a):  # keep stderr quiet
        if ARGS.verbose:
            sys.stderr.write("mock_model: " + (fmt % a) + "\n")

    def _send(self, code, body, ctype="application/json"):
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("request-id", "req_mock")
        self.end_headers()
        self.wfile.write(body)

    def _read_body(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            return json.loads(raw) if raw else {}
        except ValueError:
            return {"_unparsed": raw.decode("utf-8", "replace")}

    def _next_seq(self):
        with LOCK:
            STATE["seq"] += 1
            return STATE["seq"]

    # Anything that tries to use us as a proxy is refused and logged, so a
    # test can see what the client attempted to reach outside loopback.
    def do_CONNECT(self):
        log({"type": "proxy", "method": "CONNECT", "target": self.path, "seq": self._next_seq()})
        self.close_connection = True
        self._send(403, {"error": "mock_model refuses to proxy"})

    def do_GET(self):
        self._other("GET")

    def do_HEAD(self):
        self._other("HEAD")

    def _other(self, method):
        seq = self._next_seq()
        if self.path.startswith("http://") or self.path.startswith("https://"):
            log({"type": "proxy", "method": method, "target": self.path, "seq": seq})
            self.close_connection = True
            return self._send(403, {"error": "mock_model refuses to proxy"})
        log({"type": "request", "seq": seq, "method": method, "path": self.path, "kind": "other"})
        self._send(404, {"type": "error", "error": {"type": "not_found_error", "message": "mock"}})

    def do_POST(self):
        seq = self._next_seq()
        path = self.path.split("?", 1)[0]
        if self.path.startswith("http://") or self.path.startswith("https://"):
            self._read_body()
            log({"type": "proxy", "method": "POST", "target": self.path, "seq": seq})
            self.close_connection = True
            return self._send(403, {"error": "mock_model refuses to proxy"})
        body = self._read_body()
        entry = {"type": "request", "seq": seq, "method": "POST", "path": self.path}
        if ARGS.full_bodies:
            entry["body"] = body
            entry["headers"] = {k.lower(): v for k, v in self.headers.items() if k.lower() not in ("x-api-key", "authorization")}
        if path.endswith("/count_tokens"):
            entry["kind"] = "count_tokens"
            log(entry)
            return self._send(200, {"input_tokens": 100})
        if not path.endswith("/v1/messages"):
            entry["kind"] = "other"
            log(entry)
            return self._send(404, {"type": "error", "error": {"type": "not_found_error", "message": "mock"}})

        load_scenario()
        messages = body.get("messages", []) or []
        tools = body.get("tools") or []
        model = body.get("model", "claude-mock")
        stream = bool(body.get("stream"))
        first = first_user_text(messages)
        entry.update(
            {
                "kind": "messages",
                "model": model,
                "stream": stream,
                "tools": [t.get("name") for t in tools if isinstance(t, dict)],
                "first_user_text": first[:2000],
                "n_messages": len(messages),
                "side": not tools,
            }
        )
        msg_id = "msg_mock_%d" % seq
        turn = {}
        if not tools:
            blocks = [{"type": "text", "text": SCENARIO.get("side_text", "Mock reply")}]
            stop = "end_turn"
            entry["response"] = {"text": blocks[0]["text"], "stop_reason": stop}
        else:
            thread = pick_thread(first)
            tname = thread.get("name", "main")
            idx = assistant_turns(messages)
            # tool results in the new user message(s)
            results = tool_results(messages)
            new = []
            with LOCK:
                for r in results:
                    if r["tool_use_id"] not in STATE["seen_results"]:
                        STATE["seen_results"].add(r["tool_use_id"])
                        new.append(r)
            for r in new:
                tu = STATE["tool_uses"].get(r["tool_use_id"], {})
                log(
                    {
                        "type": "tool_result",
                        "seq": seq,
                        "thread": tname,
                        "tool_use_id": r["tool_use_id"],
                        "tool_name": tu.get("name"),
                        "input": tu.get("input"),
                        "is_error": r["is_error"],
                        "content": r["content"],
                    }
                )
            turn, blocks = make_turn(thread, idx)
            if not blocks:
                blocks = [{"type": "text", "text": turn.get("text", "")}]
            uses = [b for b in blocks if b["type"] == "tool_use"]
            with LOCK:
                for b in uses:
                    STATE["tool_uses"][b["id"]] = {"name": b["name"], "input": b["input"], "thread": tname, "turn": idx}
            stop = "tool_use" if uses else "end_turn"
            entry.update({"thread": tname, "turn": idx, "tool_results": new})
            entry["response"] = {
                "stop_reason": stop,
                "text": "".join(b.get("text", "") for b in blocks if b["type"] == "text"),
                "tool_uses": [{"id": b["id"], "name": b["name"], "input": b["input"]} for b in uses],
                "exhausted": bool(turn.get("exhausted")),
            }
        log(entry)
        wait_for = turn.get("wait_for") if tools else None
        if wait_for:
            deadline = time.monotonic() + 60
            while not os.path.exists(wait_for) and time.monotonic() < deadline:
                time.sleep(0.01)
        if stream:
            return self._send(200, sse_body(model, msg_id, blocks, stop), "text/event-stream")
        return self._send(
            200,
            {
                "id": msg_id,
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": blocks,
                "stop_reason": stop,
                "stop_sequence": None,
                "usage": {"input_tokens": 10, "output_tokens": 5},
            },
        )


def main():
    global ARGS, SCENARIO
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--scenario", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--port-file")
    p.add_argument("--timeout", type=float, default=600.0, help="exit after this many seconds")
    p.add_argument("--full-bodies", action="store_true", help="log full request bodies and headers")
    p.add_argument("--verbose", action="store_true")
    p.add_argument("--exit-on-stdin-eof", action="store_true", help="exit when stdin reaches EOF (parent died)")
    ARGS = p.parse_args()
    with open(ARGS.scenario, encoding="utf-8") as f:
        SCENARIO = json.load(f)
    httpd = ThreadingHTTPServer(("127.0.0.1", ARGS.port), Handler)
    httpd.daemon_threads = True
    port = httpd.server_address[1]
    if ARGS.port_file:
        tmp = ARGS.port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write(str(port))
        os.replace(tmp, ARGS.port_file)
    print("PORT %d" % port, flush=True)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    # Bounded lifetime: exit even if nobody stops us, and (optionally) as
    # soon as the parent closes our stdin or dies.
    if ARGS.exit_on_stdin_eof:

        def watch_stdin():
            try:
                while sys.stdin.buffer.read(4096):
                    pass
            finally:
                os._exit(0)

        threading.Thread(target=watch_stdin, daemon=True).start()
    deadline = time.monotonic() + ARGS.timeout
    while time.monotonic() < deadline:
        time.sleep(0.2)
    httpd.shutdown()
    os._exit(0)


if __name__ == "__main__":
    main()
