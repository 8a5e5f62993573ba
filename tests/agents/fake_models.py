"""Scripted fake model servers for the agent end-to-end suite.

One server speaks the three APIs the agents use, chosen by path:

* Anthropic Messages (`POST /v1/messages`, SSE when `"stream": true`; `count_tokens`),
* Gemini (`…:generateContent`, `…:streamGenerateContent[?alt=sse]`, `…:countTokens`),
* OpenAI Responses (`POST /v1/responses`, SSE), which Codex uses,
* OpenAI chat completions (`POST …/chat/completions`, SSE when `"stream": true`), which Copilot
  CLI, Qwen Code, Factory Droid, opencode, Kilo and LLxprt use with a custom base URL.

A call is abstract (`shell`, `write`, `edit`, `read`, or `tool` with an exact name and
arguments); each API turns it into the tool the agent offers (`Bash`, `run_shell_command`,
`bash`, `Execute`, …), filling the argument names that tool's schema asks for.

A `Script` decides the answers: the n-th *main* request (one that offers tools to the
model) after n tool-call turns answers with the n-th entry of `turns` (one or more tool
calls), later ones with the text `final`. Requests without tools (titles, next-speaker
checks, routing) get a harmless answer. Every request is recorded, so a test can assert
what reached the model. Binds 127.0.0.1 on a free port only.
"""

from __future__ import annotations

import gzip
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit


def shell(command: str) -> dict:
    return {"kind": "shell", "command": command}


def write(path: str, content: str) -> dict:
    return {"kind": "write", "path": path, "content": content}


def edit(path: str, old: str, new: str) -> dict:
    return {"kind": "edit", "path": path, "old": old, "new": new}


def read(path: str) -> dict:
    return {"kind": "read", "path": path}


def tool(name: str, args: dict) -> dict:
    """A call of the named tool with exactly these arguments."""
    return {"kind": "tool", "name": name, "args": args}


class Script:
    def __init__(self, turns=(), final: str = "done"):
        # each turn: one call (dict) or a list of calls made in the same model turn
        self.turns = [t if isinstance(t, list) else [t] for t in turns]
        self.final = final

    def calls_for(self, done_calls: int):
        """The calls of the next turn, given how many calls the history already holds."""
        seen = 0
        for turn in self.turns:
            if seen >= done_calls:
                return turn
            seen += len(turn)
        return None


class Recorded:
    def __init__(self, api: str, path: str, body, main: bool):
        self.api, self.path, self.body, self.main = api, path, body, main

    def text(self) -> str:
        """All strings of the request body, joined: what the model saw."""
        return "\n".join(strings(self.body))

    def __repr__(self):
        return f"Recorded({self.api} {self.path} main={self.main})"


def strings(value):
    """Every string in a JSON value, depth first."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


# ---------------------------------------------------------------- per-API helpers

def anthropic_done_calls(body) -> int:
    return sum(
        1
        for m in body.get("messages", [])
        if m.get("role") == "assistant" and isinstance(m.get("content"), list)
        for c in m["content"]
        if c.get("type") == "tool_use"
    )


def as_text(content) -> str:
    """A tool result's content as the model reads it: a string, the text of its parts, or JSON."""
    if isinstance(content, list):
        content = "".join(x.get("text", "") for x in content if isinstance(x, dict))
    return content if isinstance(content, str) else json.dumps(content)


def anthropic_tool_results(body) -> list[str]:
    out = []
    for m in body.get("messages", []):
        if isinstance(m.get("content"), list):
            for c in m["content"]:
                if c.get("type") == "tool_result":
                    out.append(as_text(c.get("content")))
    return out


def gemini_done_calls(body) -> int:
    return sum(
        1
        for c in body.get("contents", [])
        if c.get("role") == "model"
        for p in c.get("parts", [])
        if "functionCall" in p
    )


def gemini_tool_results(body) -> list[str]:
    out = []
    for c in body.get("contents", []):
        for p in c.get("parts", []):
            if "functionResponse" in p:
                out.append(json.dumps(p["functionResponse"].get("response"), sort_keys=True))
    return out


CALL_ITEMS = ("function_call", "custom_tool_call", "local_shell_call")


def responses_done_calls(body) -> int:
    items = body.get("input") if isinstance(body.get("input"), list) else []
    return sum(1 for item in items if item.get("type") in CALL_ITEMS)


def responses_tool_results(body) -> list[str]:
    out = []
    for item in body.get("input", []) if isinstance(body.get("input"), list) else []:
        if item.get("type", "").endswith("_call_output"):
            out.append(as_text(item.get("output")))
    return out


def chat_done_calls(body) -> int:
    return sum(len(m.get("tool_calls") or []) for m in body.get("messages", [])
               if m.get("role") == "assistant")


def chat_tool_results(body) -> list[str]:
    out = []
    for m in body.get("messages", []):
        if m.get("role") == "tool":
            out.append(as_text(m.get("content")))
    return out


def tool_results(rec: Recorded) -> list[str]:
    return {
        "anthropic": anthropic_tool_results,
        "gemini": gemini_tool_results,
        "responses": responses_tool_results,
        "chat": chat_tool_results,
    }[rec.api](rec.body)


# ---------------------------------------------------------------- chat completions tools

# tool names per abstract call, in order of preference; the first one the agent offers is used
CHAT_TOOLS = {
    "shell": ("run_shell_command", "bash", "Bash", "Execute", "shell", "execute_command"),
    "write": ("write_file", "write", "Write", "Create", "create", "create_file"),
    "edit": ("replace", "edit", "Edit", "edit_file", "str_replace"),
    "read": ("read_file", "read", "Read", "view", "Read_file"),
}

# values for argument names, whatever tool holds them
ARG_VALUES = {
    "command": lambda c: c["command"],
    "description": lambda c: "run it",
    "summary": lambda c: "Run the requested command",
    "riskLevel": lambda c: "low",
    "riskLevelReason": lambda c: "harmless test command",
    "file_path": lambda c: c["path"], "filePath": lambda c: c["path"],
    "path": lambda c: c["path"], "absolute_path": lambda c: c["path"],
    "content": lambda c: c["content"], "file_text": lambda c: c["content"],
    "old_string": lambda c: c["old"], "oldString": lambda c: c["old"], "old_str": lambda c: c["old"],
    "new_string": lambda c: c["new"], "newString": lambda c: c["new"], "new_str": lambda c: c["new"],
}


def chat_tool_schemas(body) -> dict:
    """name -> JSON schema of the parameters, for every function tool offered."""
    out = {}
    for t in body.get("tools") or []:
        f = t.get("function") if isinstance(t, dict) else None
        if isinstance(f, dict) and f.get("name"):
            out[f["name"]] = f.get("parameters") or {}
    return out


def chat_call(call: dict, schemas: dict) -> tuple[str, dict]:
    if call["kind"] == "tool":
        return call["name"], call["args"]
    name = next((n for n in CHAT_TOOLS[call["kind"]] if n in schemas), None)
    if name is None:
        raise KeyError(f"no {call['kind']} tool among {sorted(schemas)}")
    props = (schemas[name].get("properties") or {})
    required = schemas[name].get("required") or []
    args = {}
    for key in props:
        if key in ARG_VALUES:
            try:
                args[key] = ARG_VALUES[key](call)
            except KeyError:
                pass
    missing = [k for k in required if k not in args]
    if missing:
        raise KeyError(f"{name}: no value for required {missing}")
    return name, args


# ---------------------------------------------------------------- server

class FakeModels:
    def __init__(self, script: Script):
        self.script = script
        self.requests: list[Recorded] = []
        self.lock = threading.Lock()
        self.counter = 0
        handler = type("Handler", (_Handler,), {"models": self})
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()

    def next_id(self) -> int:
        with self.lock:
            self.counter += 1
            return self.counter

    def record(self, rec: Recorded):
        with self.lock:
            self.requests.append(rec)

    def main_requests(self) -> list[Recorded]:
        with self.lock:
            return [r for r in self.requests if r.main]


class _Handler(BaseHTTPRequestHandler):
    models: FakeModels
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    # -- plumbing
    def _body(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        if self.headers.get("Content-Encoding") == "gzip":
            raw = gzip.decompress(raw)
        try:
            return json.loads(raw or b"{}")
        except ValueError:
            return {"_raw": raw.decode("utf-8", "replace")}

    def _json(self, obj, status=200):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _sse(self, events, done=False):
        """events: list of (event name or None, data object); done: end with `data: [DONE]`"""
        chunks = []
        for name, data in events:
            s = (f"event: {name}\n" if name else "") + f"data: {json.dumps(data)}\n\n"
            chunks.append(s)
        if done:
            chunks.append("data: [DONE]\n\n")
        data = "".join(chunks).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        path = urlsplit(self.path).path
        if path.endswith("/models"):
            return self._json({"object": "list", "data": [], "models": []})
        return self._json({})

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        url = urlsplit(self.path)
        body = self._body()
        path = url.path
        if path.endswith("/count_tokens"):
            return self._json({"input_tokens": 10})
        if path.endswith("/v1/messages"):
            return self._anthropic(path, body)
        if ":countTokens" in path:
            return self._json({"totalTokens": 10})
        if ":generateContent" in path or ":streamGenerateContent" in path:
            return self._gemini(path, url.query, body)
        if path.endswith("/responses"):
            return self._responses(path, body)
        if path.endswith("/chat/completions"):
            return self._chat(path, body)
        self.models.record(Recorded("other", path, body, False))
        return self._json({})

    # -- Anthropic
    def _anthropic(self, path, body):
        main = bool(body.get("tools"))
        self.models.record(Recorded("anthropic", path, body, main))
        calls = self.models.script.calls_for(anthropic_done_calls(body)) if main else None
        mid = f"msg_{self.models.next_id()}"
        blocks = []
        for call in calls or []:
            tid = f"toolu_{self.models.next_id():04d}"
            if call["kind"] == "shell":
                blocks.append({"type": "tool_use", "id": tid, "name": "Bash",
                               "input": {"command": call["command"], "description": "run it"}})
            elif call["kind"] == "tool":
                blocks.append({"type": "tool_use", "id": tid, "name": call["name"],
                               "input": call["args"]})
            else:
                blocks.append({"type": "tool_use", "id": tid, "name": "Write",
                               "input": {"file_path": call["path"], "content": call["content"]}})
        if not blocks:
            blocks.append({"type": "text", "text": self.models.script.final})
        stop = "tool_use" if calls else "end_turn"
        model = body.get("model", "claude-fake")
        usage = {"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0,
                 "cache_read_input_tokens": 0}
        if not body.get("stream"):
            return self._json({"id": mid, "type": "message", "role": "assistant", "model": model,
                               "content": blocks, "stop_reason": stop, "stop_sequence": None,
                               "usage": usage})
        events = [("message_start", {"type": "message_start", "message": {
            "id": mid, "type": "message", "role": "assistant", "model": model, "content": [],
            "stop_reason": None, "stop_sequence": None, "usage": usage}})]
        for i, b in enumerate(blocks):
            if b["type"] == "text":
                events.append(("content_block_start", {"type": "content_block_start", "index": i,
                                                       "content_block": {"type": "text", "text": ""}}))
                events.append(("content_block_delta", {"type": "content_block_delta", "index": i,
                                                       "delta": {"type": "text_delta", "text": b["text"]}}))
            else:
                events.append(("content_block_start", {"type": "content_block_start", "index": i,
                                                       "content_block": {**b, "input": {}}}))
                events.append(("content_block_delta", {"type": "content_block_delta", "index": i,
                                                       "delta": {"type": "input_json_delta",
                                                                 "partial_json": json.dumps(b["input"])}}))
            events.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
        events.append(("message_delta", {"type": "message_delta",
                                         "delta": {"stop_reason": stop, "stop_sequence": None},
                                         "usage": {"output_tokens": 5}}))
        events.append(("message_stop", {"type": "message_stop"}))
        self._sse(events)

    # -- Gemini
    def _gemini(self, path, query, body):
        main = any("functionDeclarations" in t for t in body.get("tools", []) or [])
        self.models.record(Recorded("gemini", path, body, main))
        calls = self.models.script.calls_for(gemini_done_calls(body)) if main else None
        if calls:
            parts = []
            for call in calls:
                if call["kind"] == "shell":
                    parts.append({"functionCall": {"name": "run_shell_command",
                                                   "args": {"command": call["command"]}}})
                else:
                    parts.append({"functionCall": {"name": "write_file",
                                                   "args": {"file_path": call["path"],
                                                            "content": call["content"]}}})
        elif main:
            parts = [{"text": self.models.script.final}]
        else:
            # next-speaker check, model router, loop detection: JSON they accept
            parts = [{"text": json.dumps({"reasoning": "fake", "next_speaker": "user",
                                          "model_choice": "flash", "confidence": 0.0})}]
        answer = {"candidates": [{"content": {"role": "model", "parts": parts},
                                  "finishReason": "STOP", "index": 0}],
                  "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5,
                                    "totalTokenCount": 15},
                  "modelVersion": "gemini-fake"}
        if ":streamGenerateContent" not in path:
            return self._json(answer)
        if "alt=sse" in query:
            return self._sse([(None, answer)])
        return self._json([answer])

    # -- OpenAI Responses (Codex)
    def _responses(self, path, body):
        tools = body.get("tools") or []
        main = bool(tools)
        self.models.record(Recorded("responses", path, body, main))
        calls = self.models.script.calls_for(responses_done_calls(body)) if main else None
        rid = f"resp_{self.models.next_id()}"
        items = []
        names = {t.get("name") for t in tools}
        for call in calls or []:
            cid = f"call_{self.models.next_id():04d}"
            if call["kind"] == "shell":
                if "shell_command" in names:
                    name, args = "shell_command", {"command": call["command"]}
                elif "exec_command" in names:
                    name, args = "exec_command", {"cmd": call["command"]}
                else:
                    name, args = "shell", {"command": ["bash", "-lc", call["command"]]}
                items.append({"type": "function_call", "id": f"fc_{cid}", "call_id": cid,
                              "name": name, "arguments": json.dumps(args)})
            else:
                patch = (f"*** Begin Patch\n*** Add File: {call['path']}\n"
                         + "".join(f"+{line}\n" for line in call["content"].splitlines())
                         + "*** End Patch")
                if any(t.get("name") == "apply_patch" and t.get("type") == "custom" for t in tools):
                    items.append({"type": "custom_tool_call", "id": f"ctc_{cid}", "call_id": cid,
                                  "name": "apply_patch", "input": patch})
                else:
                    items.append({"type": "function_call", "id": f"fc_{cid}", "call_id": cid,
                                  "name": "apply_patch", "arguments": json.dumps({"input": patch})})
        if not items:
            items.append({"type": "message", "role": "assistant", "id": f"msg_{rid}",
                          "content": [{"type": "output_text", "text": self.models.script.final,
                                       "annotations": []}]})
        events = [("response.created", {"type": "response.created",
                                         "response": {"id": rid, "status": "in_progress"}})]
        for item in items:
            events.append(("response.output_item.done", {"type": "response.output_item.done",
                                                         "item": item}))
        events.append(("response.completed", {"type": "response.completed", "response": {
            "id": rid, "status": "completed",
            "usage": {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
                      "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0},
                      "total_tokens": 15}}}))
        self._sse(events)

    # -- OpenAI chat completions
    def _chat(self, path, body):
        schemas = chat_tool_schemas(body)
        main = bool(schemas)
        self.models.record(Recorded("chat", path, body, main))
        calls = self.models.script.calls_for(chat_done_calls(body)) if main else None
        cid = f"chatcmpl-{self.models.next_id()}"
        model = body.get("model") or "fake"
        tool_calls = []
        for i, call in enumerate(calls or []):
            name, args = chat_call(call, schemas)
            tool_calls.append({"index": i, "id": f"call_{self.models.next_id():04d}",
                               "type": "function",
                               "function": {"name": name, "arguments": json.dumps(args)}})
        if tool_calls:
            text, finish = None, "tool_calls"
        elif main:
            text, finish = self.models.script.final, "stop"
        else:
            # titles, summaries, next-speaker checks: JSON the Gemini-derived agents accept
            text, finish = json.dumps({"reasoning": "fake", "next_speaker": "user",
                                       "title": "fake"}), "stop"
        usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        created = 1700000000
        if not body.get("stream"):
            msg = {"role": "assistant", "content": text}
            if tool_calls:
                msg["tool_calls"] = [{k: v for k, v in tc.items() if k != "index"} for tc in tool_calls]
            return self._json({"id": cid, "object": "chat.completion", "created": created,
                               "model": model, "choices": [{"index": 0, "message": msg,
                                                            "finish_reason": finish}],
                               "usage": usage})

        def chunk(delta, finish_reason=None, **extra):
            return (None, {"id": cid, "object": "chat.completion.chunk", "created": created,
                           "model": model, "choices": [{"index": 0, "delta": delta,
                                                        "finish_reason": finish_reason}], **extra})
        events = [chunk({"role": "assistant", "content": ""})]
        if text is not None:
            events.append(chunk({"content": text}))
        for tc in tool_calls:
            events.append(chunk({"tool_calls": [tc]}))
        events.append(chunk({}, finish, usage=usage))
        self._sse(events, done=True)
