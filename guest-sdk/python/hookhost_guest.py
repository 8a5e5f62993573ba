"""hookhost guest helpers for Python plugins (componentize-py), standard library only.

One file: ``hookhost new --lang python`` copies it into a new project, and
``import hookhost_guest`` works natively (the unit tests) and inside the
component alike. It gives a policy what the Rust SDK (``hookhost-guest``) gives:

- :func:`tool_call`: the tool call of an event, with views that read every
  agent's tool names — :meth:`ToolCall.shell_command` (``run_shell_command``,
  ``Bash``), :meth:`ToolCall.file_write` (``write_file``/``Write``,
  ``replace``/``Edit``, ``MultiEdit``, ``NotebookEdit``) and
  :meth:`ToolCall.strings` (every string argument, in document order);
- :func:`find_private_key` and :func:`find_secret`: secret detectors that look
  for the secret, not for a mention of it (a ``grep`` for the PEM marker is not
  a key);
- :func:`download_into_shell`: whether a shell command line runs something
  downloaded as code (``curl … | sh``, ``bash <(curl …)``,
  ``sh -c "$(curl …)"``, ``c=curl; $c … | sh``), from a quote-aware parse of
  the command line, not a regular expression;
- :func:`log`: a structured log line for the host's trace (``wasi:logging``,
  every plugin may log), a ``[info] context: message`` line on stderr
  natively;
- :func:`open_bucket`: the plugin's private, persistent key-value store
  (``wasi:keyvalue``; the hook needs ``"state": true`` and the component must
  be built with ``-w hookhost:plugin/hook-with-state``), as a :class:`Bucket`
  with text, JSON and counter helpers; failures raise :class:`StateError`.

Plugins always receive hookhost's canonical input, whatever settings file
declares them: ``hook_event_name`` is ``BeforeTool``, ``AfterTool``, … and
tool names are LLxprt's (``run_shell_command``, ``write_file``). The views
read Claude Code's names too, for input that did not come through hookhost.

The shell parser follows POSIX ``sh`` and the bash extensions agents use; it
is a smaller cousin of the Rust SDK's ``shell`` module and is held to the
same table of commands (``guest-sdk/tests/download-into-shell.json``). It
never raises: unbalanced quotes and parentheses parse as far as they go.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field

# ---------------------------------------------------------------------------
# Tool calls

_PATH_KEYS = ("file_path", "absolute_path", "notebook_path", "path")


@dataclass(frozen=True)
class FileWrite:
    """What a file-writing tool call puts into a file."""

    path: str
    content: str
    whole_file: bool


@dataclass(frozen=True)
class ToolCall:
    """A tool call as a policy wants to see it, whatever agent sent it."""

    name: str
    input: dict

    def _str(self, key):
        value = self.input.get(key)
        return value if isinstance(value, str) else None

    def shell_command(self):
        """The command line of a shell call (``run_shell_command``, ``Bash``), or None."""
        if self.name in ("run_shell_command", "Bash"):
            return self._str("command")
        return None

    def file_write(self):
        """The :class:`FileWrite` of a file-writing call, or None."""
        path = next((p for p in map(self._str, _PATH_KEYS) if p is not None), None)
        if path is None:
            return None
        if self.name in ("write_file", "Write"):
            content, whole = self._str("content"), True
        elif self.name in ("replace", "Edit"):
            content, whole = self._str("new_string"), False
        elif self.name == "NotebookEdit":
            content, whole = self._str("new_source"), False
        elif self.name in ("MultiEdit", "multi_edit"):
            edits = self.input.get("edits")
            if not isinstance(edits, list):
                return None
            texts = [e.get("new_string") for e in edits if isinstance(e, dict)]
            content, whole = "\n".join(t for t in texts if isinstance(t, str)), False
        else:
            return None
        return None if content is None else FileWrite(path, content, whole)

    def strings(self):
        """Every string argument (not the keys), depth first, in document order."""
        return list(strings(self.input))


def tool_call(event):
    """The :class:`ToolCall` of an event that has ``tool_name``, or None."""
    if not isinstance(event, dict) or not isinstance(event.get("tool_name"), str):
        return None
    tool_input = event.get("tool_input")
    return ToolCall(event["tool_name"], tool_input if isinstance(tool_input, dict) else {})


def strings(value):
    """Every string inside a JSON value (not object keys), depth first."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


# ---------------------------------------------------------------------------
# Secrets

_KEY_LABELS = (
    "PRIVATE KEY",
    "RSA PRIVATE KEY",
    "EC PRIVATE KEY",
    "DSA PRIVATE KEY",
    "OPENSSH PRIVATE KEY",
    "ENCRYPTED PRIVATE KEY",
    "PGP PRIVATE KEY BLOCK",
)
_BASE64 = re.compile(r"[A-Za-z0-9+/=]*\Z")
_HEADER = re.compile(r"[A-Za-z0-9-]+: ")


def find_private_key(text):
    """The PEM label of a whole private key in text (``"OPENSSH PRIVATE KEY"``), or None.

    A ``-----BEGIN <label>-----`` line, optional ``Name: value`` headers, at
    least 64 base64 characters of body and the matching ``-----END`` line;
    lines end at newlines or at the two characters ``\\n`` (a key pasted into
    JSON or ``.env``). A bare marker is not a key.
    """
    if "PRIVATE KEY" not in text:
        return None
    lines = [part.rstrip("\r") for line in text.split("\n") for part in line.split("\\n")]
    for i, line in enumerate(lines):
        at = line.find("-----BEGIN ")
        if at < 0:
            continue
        after = line[at + len("-----BEGIN "):]
        end = after.find("-----")
        label = after[:end] if end >= 0 else None
        if label in _KEY_LABELS and _has_key_body(lines[i + 1:], label):
            return label
    return None


def _has_key_body(lines, label):
    body, headers = 0, True
    for line in lines:
        line = line.strip()
        at = line.find("-----END ")
        if at >= 0:
            return line[at + len("-----END "):].startswith(label + "-----") and body >= 64
        if not line:
            continue
        if headers and _HEADER.match(line):
            continue
        headers = False
        data = line[1:] if line.startswith("=") else line
        if not _BASE64.match(data):
            return False
        body += len(data)
    return False


_AWS_ID = re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])")
_AWS_SECRET = re.compile(r"(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])")
_GITHUB = re.compile(r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{70,})")
_SLACK = re.compile(r"(?<![A-Za-z0-9-])xox[baprs]-[0-9]{8,}-[0-9]{8,}[A-Za-z0-9-]*")


def find_secret(text):
    """A description of the first secret in text (``"an AWS access key"``), or None.

    Private keys (:func:`find_private_key`), an AWS access key ID *with* a
    40-character secret key, GitHub tokens, Slack tokens: the rules of the
    Rust SDK's ``secrets`` module.
    """
    if find_private_key(text):
        return "a private key"
    ids = [m.group(0) for m in _AWS_ID.finditer(text) if not m.group(0).endswith("EXAMPLE")]
    if ids:
        for m in _AWS_SECRET.finditer(text):
            s = m.group(0)
            if (re.search(r"[A-Z]", s) and re.search(r"[a-z]", s) and re.search(r"[0-9]", s)
                    and "EXAMPLE" not in s):
                return "an AWS access key"
    if _GITHUB.search(text):
        return "a GitHub token"
    m = _SLACK.search(text)
    if m and len(m.group(0)) >= 40:
        return "a Slack token"
    return None


# ---------------------------------------------------------------------------
# Shell command lines

MAX_DEPTH = 48

DOWNLOADERS = frozenset(
    "curl wget wget2 fetch aria2c http https xh xhs curlie lwp-request lwp-download GET".split())
SHELLS = frozenset("sh bash zsh dash ksh mksh pdksh ash yash fish csh tcsh".split())
_OTHER_INTERPRETERS = frozenset(
    "node nodejs pypy pypy3 tclsh wish pwsh powershell osascript source . eval".split())
# Wrappers that run the command after them: name -> options that take a value,
# positional arguments before the command.
_WRAPPERS = {
    "sudo": ({"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "-R"}, 0),
    "doas": ({"-u", "-C"}, 0),
    "run0": ({"-u", "-g", "-D"}, 0),
    "env": ({"-u", "-C", "-S", "--unset", "--chdir"}, 0),
    "nice": ({"-n", "--adjustment"}, 0),
    "ionice": ({"-c", "-n", "-p"}, 0),
    "nohup": (set(), 0),
    "setsid": (set(), 0),
    "time": ({"-f", "-o", "--format", "--output"}, 0),
    "command": (set(), 0),
    "builtin": (set(), 0),
    "exec": ({"-a"}, 0),
    "stdbuf": ({"-i", "-o", "-e"}, 0),
    "timeout": ({"-s", "-k", "--signal", "--kill-after"}, 1),
    "busybox": (set(), 0),
}
_RESERVED_OPEN = {"if": "fi", "while": "done", "until": "done", "for": "done", "select": "done",
                  "case": "esac"}
_RESERVED_SKIP = frozenset("then else elif do ! time in".split())
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=")
_REDIRECTION = re.compile(r"[0-9]*(<<<|<<-|<<|&>>|&>|>>|>&|<&|<>|>\||<|>)")
_OPERATORS = ("&&", "||", ";;", "|&", "|", ";", "&", "(", ")", "\n")


def is_interpreter(program):
    """Whether a program's base name runs code it is given (a shell, python*, perl*, node, …)."""
    if program in SHELLS or program in _OTHER_INTERPRETERS:
        return True
    for stem in ("python", "perl", "lua", "ruby", "php"):
        if program.startswith(stem) and all(c.isdigit() or c == "." for c in program[len(stem):]):
            return True
    return False


@dataclass
class Word:
    """A word with its quotes removed; ``dynamic`` when an expansion decides its value."""

    text: str = ""
    dynamic: bool = False
    subs: list = field(default_factory=list)  # command texts in $( ) ` ` <( ) >( )
    procsub: bool = False
    quoted: bool = False


def _close_paren(s, i):
    """The index of the ``)`` closing the ``(`` before ``i``, quote-aware; len(s) if none."""
    depth = 1
    while i < len(s):
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == "'":
            j = s.find("'", i + 1)
            i = len(s) if j < 0 else j + 1
            continue
        if c == '"':
            i += 1
            while i < len(s) and s[i] != '"':
                i += 2 if s[i] == "\\" else 1
            i += 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(s)


def _dollar(s, i, word):
    """Reads the expansion at ``s[i] == '$'`` into word; returns the index after it."""
    nxt = s[i + 1] if i + 1 < len(s) else ""
    if s.startswith("$((", i):
        end = _close_paren(s, i + 3)
        end = _close_paren(s, end + 1) if end < len(s) else end
        word.text += s[i:end + 1]
        word.dynamic = True
        return end + 1
    if nxt == "(":
        end = _close_paren(s, i + 2)
        word.subs.append(s[i + 2:end])
        word.text += s[i:end + 1]
        word.dynamic = True
        return end + 1
    if nxt == "{":
        end = s.find("}", i + 2)
        end = len(s) if end < 0 else end
        word.text += s[i:end + 1]
        word.dynamic = True
        return end + 1
    m = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-]").match(s, i + 1)
    if m:
        word.text += s[i:m.end()]
        word.dynamic = True
        return m.end()
    word.text += "$"
    return i + 1


def _backtick(s, i, word):
    j = i + 1
    while j < len(s) and s[j] != "`":
        j += 2 if s[j] == "\\" else 1
    word.subs.append(s[i + 1:j].replace("\\`", "`"))
    word.text += s[i:j + 1]
    word.dynamic = True
    return j + 1


def _tokens(s):
    """The tokens of a command line: ("w", Word), ("op", text), ("redir", op), ("heredoc", body)."""
    out, i, n = [], 0, len(s)
    pending = []  # here-documents waiting for the next newline: (delimiter, strip tabs)
    while i < n:
        c = s[i]
        if c in " \t":
            i += 1
            continue
        if s.startswith("\\\n", i):
            i += 2
            continue
        if c == "#":
            while i < n and s[i] != "\n":
                i += 1
            continue
        if c == "\n" and pending:
            i += 1
            for delimiter, strip in pending:
                lines = []
                while i < n:
                    j = s.find("\n", i)
                    j = n if j < 0 else j
                    line = s[i:j]
                    i = j + 1
                    if (line.lstrip("\t") if strip else line) == delimiter:
                        break
                    lines.append(line)
                out.append(("heredoc", "\n".join(lines)))
            pending = []
            out.append(("op", "\n"))
            continue
        if c in "<>" and s.startswith("(", i + 1):
            end = _close_paren(s, i + 2)
            out.append(("w", Word(s[i:end + 1], True, [s[i + 2:end]], True)))
            i = end + 1
            continue
        m = _REDIRECTION.match(s, i)
        if m and (m.group(0)[0] in "<>&" or m.end() > i + len(m.group(1))):
            op = m.group(1)
            out.append(("redir", op))
            i = m.end()
            if op in ("<<", "<<-"):
                while i < n and s[i] in " \t":
                    i += 1
                word, i = _word(s, i)
                out.append(("w", word))
                pending.append((word.text, op == "<<-"))
            continue
        op = next((o for o in _OPERATORS if s.startswith(o, i)), None)
        if op:
            out.append(("op", op))
            i += len(op)
            continue
        word, i = _word(s, i)
        out.append(("w", word))
    return out


def _word(s, i):
    word, n = Word(), len(s)
    while i < n:
        c = s[i]
        if c in " \t\n;&|()<>":
            break
        if c == "\\":
            word.text += s[i + 1:i + 2]
            word.quoted = True
            i += 2
        elif c == "'":
            j = s.find("'", i + 1)
            j = n if j < 0 else j
            word.text += s[i + 1:j]
            word.quoted = True
            i = j + 1
        elif s.startswith("$'", i):
            j = i + 2
            while j < n and s[j] != "'":
                j += 2 if s[j] == "\\" else 1
            body = s[i + 2:j]
            word.text += body
            word.dynamic = word.dynamic or "\\" in body
            word.quoted = True
            i = j + 1
        elif c == '"':
            word.quoted = True
            i += 1
            while i < n and s[i] != '"':
                if s[i] == "\\" and i + 1 < n and s[i + 1] in '$`"\\\n':
                    word.text += s[i + 1]
                    i += 2
                elif s[i] == "$":
                    i = _dollar(s, i, word)
                elif s[i] == "`":
                    i = _backtick(s, i, word)
                else:
                    word.text += s[i]
                    i += 1
            i += 1
        elif c == "$":
            i = _dollar(s, i, word)
        elif c == "`":
            i = _backtick(s, i, word)
        else:
            word.text += c
            i += 1
    return word, i


@dataclass
class Simple:
    """A simple command: its words (assignments first), redirections, here-document bodies."""

    words: list = field(default_factory=list)
    redirections: list = field(default_factory=list)  # (op, Word or None)
    heredocs: list = field(default_factory=list)


@dataclass
class Group:
    """A subshell (``kind`` "subshell"), a { } group or an if/while/until/for/case
    compound ("compound"): its body."""

    body: list = field(default_factory=list)  # pipelines
    kind: str = "compound"


class TooDeep(Exception):
    """Commands nest deeper than :data:`MAX_DEPTH`: the parse stopped."""


class _Parser:
    def __init__(self, tokens):
        self.tokens = tokens
        self.i = 0
        self.depth = 0

    def group(self, closer):
        """The body of a group up to closer, which is consumed."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise TooDeep()
        body = self.parse_list((closer,))
        self.depth -= 1
        self.i += 1
        self.trailing_redirections()
        return Group(body, "subshell" if closer == ")" else "compound")

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def word_is(self, token, *texts):
        return token and token[0] == "w" and not token[1].quoted and token[1].text in texts

    def parse_list(self, closers=()):
        """Pipelines until EOF or a closing token (a ")" op or a closing word) — not consumed."""
        pipelines, current = [], []
        while True:
            token = self.peek()
            if token is None or (token[0] == "op" and token[1] == ")" and ")" in closers):
                break
            if self.word_is(token, *[c for c in closers if c != ")"]) and not current:
                break
            if token[0] == "op" and token[1] in ("|", "|&"):
                self.i += 1
                continue
            if token[0] == "op" and token[1] == ")":
                self.i += 1  # a case pattern's ")" or a stray one
                if current:
                    pipelines.append(current)
                    current = []
                continue
            if token[0] == "op" and token[1] != "(":
                self.i += 1
                if current:
                    pipelines.append(current)
                    current = []
                continue
            command = self.parse_command(closers)
            if command is not None:
                current.append(command)
        if current:
            pipelines.append(current)
        return pipelines

    def parse_command(self, closers):
        token = self.peek()
        if token[0] == "op" and token[1] == "(":
            self.i += 1
            return self.group(")")
        if self.word_is(token, "{"):
            self.i += 1
            return self.group("}")
        if self.word_is(token, *_RESERVED_OPEN):
            closer = _RESERVED_OPEN[token[1].text]
            self.i += 1
            if closer in ("done", "esac") and token[1].text != "while" and token[1].text != "until":
                # for NAME in WORDS / case WORD in: the header is data.
                while self.peek() and not (self.peek()[0] == "op" and self.peek()[1] in (";", "\n")) \
                        and not self.word_is(self.peek(), "in" if closer == "esac" else "do"):
                    self.i += 1
                self.i += 1
            return self.group(closer)
        simple = Simple()
        while True:
            token = self.peek()
            if token is None or token[0] == "op":
                break
            if token[0] == "redir":
                self.i += 1
                target = self.peek()
                word = target[1] if target and target[0] == "w" else None
                if word is not None:
                    self.i += 1
                simple.redirections.append((token[1], word))
                continue
            if token[0] == "heredoc":
                simple.heredocs.append(token[1])
                self.i += 1
                continue
            if not simple.words and self.word_is(token, *_RESERVED_SKIP):
                self.i += 1
                continue
            if not simple.words and self.word_is(token, *[c for c in closers if c != ")"]):
                break
            if not simple.words and self.word_is(token, "fi", "done", "esac", "}"):
                self.i += 1
                continue
            simple.words.append(token[1])
            self.i += 1
            nxt = self.peek()
            if len(simple.words) == 1 and nxt and nxt[0] == "op" and nxt[1] == "(" and \
                    self.i + 1 < len(self.tokens) and self.tokens[self.i + 1] == ("op", ")"):
                self.i += 2  # NAME() — a function definition: its body follows
                return None
        # Here-document bodies arrive after the newline: attach any that follow.
        return simple if (simple.words or simple.redirections) else None

    def trailing_redirections(self):
        while self.peek() and self.peek()[0] == "redir":
            self.i += 1
            if self.peek() and self.peek()[0] == "w":
                self.i += 1


def parse(command):
    """The pipelines of a command line: lists of :class:`Simple` and :class:`Group`.

    Raises :class:`TooDeep` when commands nest deeper than :data:`MAX_DEPTH`.
    """
    tokens = _tokens(command)
    # A here-document's body follows the newline after its command: move each
    # body back to the command whose << introduced it.
    moved, waiting = [], 0
    for token in tokens:
        if token[0] == "redir" and token[1] in ("<<", "<<-"):
            waiting += 1
            moved.append(token)
        elif token[0] == "heredoc":
            insert = len(moved)
            count = 0
            for k in range(len(moved) - 1, -1, -1):
                if moved[k][0] == "redir" and moved[k][1] in ("<<", "<<-"):
                    count += 1
                    if count == waiting:
                        insert = k + 2
                        break
            moved.insert(insert, token)
            waiting -= 1
        else:
            moved.append(token)
    return _Parser(moved).parse_list()


def _walk(pipelines):
    """Every pipeline, at any depth of groups."""
    for pipeline in pipelines:
        yield pipeline
        for command in pipeline:
            if isinstance(command, Group):
                yield from _walk(command.body)


def _program_word(simple):
    """The word that names the program, after assignments and wrappers, or None."""
    words = _program_words(simple)
    return words[0] if words else None


def _program(simple):
    """(base name or None when dynamic, arguments) after assignments and wrappers."""
    words = _program_words(simple)
    if not words:
        return "", []
    if words[0].dynamic:
        return None, words[1:]
    return words[0].text.rsplit("/", 1)[-1], words[1:]


def _program_words(simple):
    """The program word and its arguments, after assignments and wrappers."""
    words = list(simple.words)
    while words and not words[0].quoted and _ASSIGNMENT.match(words[0].text):
        words = words[1:]
    while words:
        first = words[0]
        if first.dynamic:
            return words
        name = first.text.rsplit("/", 1)[-1]
        if name not in _WRAPPERS:
            return words
        takes_value, positional = _WRAPPERS[name]
        rest, k = words[1:], 0
        while k < len(rest):
            t = rest[k].text
            if t == "--":
                k += 1
                break
            if t.startswith("-") and len(t) > 1:
                k += 2 if t in takes_value else 1
            elif name == "env" and _ASSIGNMENT.match(t):
                k += 1
            else:
                break
        words = rest[k + positional:]
    return []


def _source(simple):
    """Where an interpreter gets its program: "stdin", "eval", ("inline", Word), ("file", Word)."""
    name, args = _program(simple)
    if not name or not is_interpreter(name):
        return None
    if name in ("source", "."):
        return _file(args[0]) if args else "stdin"
    if name == "eval":
        return "eval"
    if name in SHELLS:
        inline, stdin, values = "c", "s", {"-o", "+o", "-O", "+O"}
    elif name.startswith(("python", "pypy")):
        inline, stdin, values = "cm", "", {"-W", "-X", "-Q"}
    elif name.startswith("perl"):
        inline, stdin, values = "eE", "", {"-I", "-x"}
    elif name == "ruby":
        inline, stdin, values = "e", "", {"-r", "-I", "-C", "-E"}
    elif name in ("node", "nodejs"):
        inline, stdin, values = "ep", "", {"-r", "--require", "--import", "--loader"}
    elif name.startswith("php"):
        inline, stdin, values = "rRBEF", "", {"-d", "-c", "-z"}
    elif name.startswith("lua"):
        inline, stdin, values = "el", "", set()
    elif name in ("pwsh", "powershell"):
        inline, stdin, values = "c", "", set()
    else:
        inline, stdin, values = "e", "", set()
    k = 0
    while k < len(args):
        t = args[k].text
        if t == "--":
            return _file(args[k + 1]) if k + 1 < len(args) else "stdin"
        if t == "-":
            return "stdin"
        if args[k].dynamic or len(t) < 2 or t[0] not in "-+":
            return _file(args[k])
        if not t.startswith("--") and t[0] == "-":
            if any(ch in inline for ch in t[1:]):
                return ("inline", args[k + 1]) if k + 1 < len(args) else "stdin"
            if any(ch in stdin for ch in t[1:]):
                return "stdin"
        elif t in ("--command", "--eval", "--print"):
            return ("inline", args[k + 1]) if k + 1 < len(args) else "stdin"
        # A value-taking option, alone or last in a cluster (-o, -euo).
        k += 2 if t in values or (t[0] == "-" and t[1] != "-" and "-" + t[-1] in values) else 1
    return "stdin"


def _file(word):
    """A script file argument; the names of stdin itself read stdin."""
    if not word.dynamic and word.text in ("/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"):
        return "stdin"
    return ("file", word)


def _is_download(command, depth):
    if isinstance(command, Group):
        return any(_is_download(c, depth) for p in _walk(command.body) for c in p
                   if isinstance(c, Simple))
    name, _ = _program(command)
    return name is None or name in DOWNLOADERS


def _executes_stdin(command):
    if isinstance(command, Group):
        return any(p and _executes_stdin(p[0]) for p in command.body)
    name, args = _program(command)
    if name is None:
        return True
    source = _source(command)
    return source == "stdin" or (source == "eval" and any(w.dynamic for w in args))


def _subs_download(word, depth):
    return any(_has_download(sub, depth + 1) for sub in word.subs)


def _has_download(text, depth):
    if depth > MAX_DEPTH:
        return True
    try:
        pipelines = parse(text)
    except TooDeep:
        return True
    return any(_is_download(c, depth) for p in _walk(pipelines) for c in p)


def _name(command):
    """How a reason names a command: `curl`, the dynamic command `$c`, a subshell."""
    if isinstance(command, Group):
        return "a subshell" if command.kind == "subshell" else "a compound command"
    word = _program_word(command)
    if word is None:
        return "a command"
    if word.dynamic:
        return f"the dynamic command `{word.text}`"
    return "`" + word.text.rsplit("/", 1)[-1] + "`"


def _bare(command):
    """The program's base name for a reason (``bash``), or "a command"."""
    name, _ = _program(command)
    return name or "a command"


def download_into_shell(command, _depth=0):
    """Why a shell command line runs something downloaded as code, or None.

    A download is a command whose program is a downloader (``curl``, ``wget``,
    …) or is dynamic (``$c x``: unknown, so assumed to be one). It runs as code
    when it is piped into an interpreter that reads its program from stdin
    (``sh``, ``bash -s``, ``python3``, a subshell or loop whose first command
    does), given as an inline script (``sh -c "$(curl …)"``, ``eval``), as a
    process substitution (``bash <(curl …)``, ``sh < <(curl …)``), as a
    here-string, or as a dynamic program (``$(curl …)``). Scripts handed to a
    shell (``sh -c '…'``, here-documents) and substitutions are checked too.
    """
    too_deep = "the command nests too deeply to be checked"
    if _depth > MAX_DEPTH:
        return too_deep
    try:
        pipelines = parse(command)
    except TooDeep:
        return too_deep
    for pipeline in _walk(pipelines):
        for i, left in enumerate(pipeline):
            if not _is_download(left, _depth):
                continue
            for right in pipeline[i + 1:]:
                if _executes_stdin(right):
                    return f"a download ({_name(left)}) is piped into {_name(right)}"
    for pipeline in _walk(pipelines):
        for command in pipeline:
            if not isinstance(command, Simple):
                continue
            reason = _simple_runs_download(command, _depth)
            if reason:
                return reason
    return None


def _simple_runs_download(command, depth):
    name, args = _program(command)
    if name is None and _subs_download(_program_word(command), depth):
        return "the output of a download is run as a command"
    source = _source(command)
    if isinstance(source, tuple):
        kind, word = source
        if kind == "file" and _subs_download(word, depth):
            return f"{_bare(command)} runs a downloaded script"
        if kind == "inline" and _subs_download(word, depth):
            return f"{_bare(command)} runs downloaded code"
    if source == "eval" and any(_subs_download(w, depth) for w in args):
        return "eval runs downloaded code"
    if _executes_stdin(command) and any(
            op in ("<", "<<<", "<>") and target is not None and _subs_download(target, depth)
            for op, target in command.redirections):
        return f"{_bare(command)} reads a download as its program"
    # Anything nested: the script a shell is given (sh -c '…', eval, a here-string
    # or here-document), substitutions in every word and redirection.
    scripts = []
    if isinstance(source, tuple) and source[0] == "inline" and not source[1].dynamic:
        scripts.append(source[1].text)
    if source == "eval":
        static = [w.text for w in args if not w.dynamic]
        if static:
            scripts.append(" ".join(static))
    if source == "stdin":
        scripts.extend(t.text for op, t in command.redirections
                       if op == "<<<" and t is not None and not t.dynamic)
        scripts.extend(command.heredocs)
    for script in scripts:
        reason = download_into_shell(script, depth + 1)
        if reason:
            return reason
    for word in command.words + [t for _, t in command.redirections if t is not None]:
        for sub in word.subs:
            reason = download_into_shell(sub, depth + 1)
            if reason:
                return reason
    return None


# ---------------------------------------------------------------------------
# Logging and state (wasi:logging, wasi:keyvalue)

# The component's bindings, when this module runs inside a component whose
# world has them. componentize-py imports modules at build time and the
# component has no file system afterwards, so these imports must happen here,
# at the top level. Natively (the unit tests), or in a component whose world
# lacks the interface (`hook` has no state), they are None and nothing else is
# needed.
try:
    from wit_world.imports import logging as _wasi_logging
except ImportError:
    _wasi_logging = None
try:
    from wit_world.imports import store as _wasi_store
except ImportError:
    _wasi_store = None

LEVELS = ("trace", "debug", "info", "warn", "error", "critical")


def log_line(level, context, message):
    """The stderr line :func:`log` writes outside a component."""
    return f"[{level}] {context}: {message}\n" if context else f"[{level}] {message}\n"


def log(level, context, message):
    """Emits one log line: ``level`` is one of :data:`LEVELS`, ``context`` groups
    related lines (a rule name), ``message`` is the text.

    Inside a component it goes through ``wasi:logging`` to the host's trace
    (``hookhost fire --explain``); elsewhere it is a line on stderr.
    """
    if level not in LEVELS:
        raise ValueError(f"log level {level!r} is not one of {', '.join(LEVELS)}")
    if _wasi_logging is not None:
        _wasi_logging.log(getattr(_wasi_logging.Level, level.upper()), context, message)
    else:
        sys.stderr.write(log_line(level, context, message))


class StateError(Exception):
    """A state operation failed.

    ``kind`` is ``"access-denied"`` (the hook has no ``"state"`` grant),
    ``"quota"`` (the store is full), ``"no-such-store"``, ``"other"``,
    ``"decode"`` (a stored value is not what the accessor expected) or
    ``"unsupported"`` (no ``wasi:keyvalue`` in this build).
    """

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


def state_error(value):
    """The :class:`StateError` for a ``wasi:keyvalue/store.error`` value."""
    name = type(value).__name__
    if name.endswith("AccessDenied"):
        return StateError("access-denied", 'state access denied: the hook\'s settings must grant it '
                          'with "state": true (or "state": {"maxBytes": N})')
    if name.endswith("NoSuchStore"):
        return StateError("no-such-store", "state store not found")
    text = str(getattr(value, "value", value))
    if "quota" in text.lower():
        return StateError("quota", f"state store full: {text}")
    return StateError("other", f"state store error: {text}")


def _call(function, *args):
    """Calls a binding, turning its error result (componentize-py raises
    ``componentize_py_types.Err(value)``) into a :class:`StateError`."""
    try:
        return function(*args)
    except Exception as error:  # noqa: BLE001 - re-raised unless it is a WIT error
        if type(error).__name__ != "Err" or not hasattr(error, "value"):
            raise
        raise state_error(error.value) from None


class Bucket:
    """A named bucket of the plugin's store; values are bytes. Use
    :func:`open_bucket`."""

    def __init__(self, handle):
        self._handle = handle

    def get(self, key):
        """The value of ``key`` (bytes), or None."""
        return _call(self._handle.get, key)

    def set(self, key, value):
        """Sets ``key`` to ``value`` (bytes)."""
        _call(self._handle.set, key, bytes(value))

    def delete(self, key):
        """Removes ``key``; nothing happens if it has no value."""
        _call(self._handle.delete, key)

    def exists(self, key):
        """Whether ``key`` has a value."""
        return _call(self._handle.exists, key)

    def keys(self):
        """Every key of the bucket (all pages of ``list-keys``)."""
        keys, cursor = [], None
        while True:
            page = _call(self._handle.list_keys, cursor)
            keys.extend(page.keys)
            if page.cursor is None or page.cursor == cursor:
                return keys
            cursor = page.cursor

    def get_text(self, key):
        """The value of ``key`` as UTF-8 text, or None."""
        value = self.get(key)
        if value is None:
            return None
        try:
            return bytes(value).decode("utf-8")
        except UnicodeDecodeError:
            raise StateError("decode", f"state key {key!r}: the value is not UTF-8") from None

    def set_text(self, key, text):
        """Sets ``key`` to ``text`` (UTF-8)."""
        self.set(key, text.encode("utf-8"))

    def get_json(self, key, default=None):
        """The value of ``key`` decoded from JSON, or ``default``."""
        text = self.get_text(key)
        if text is None:
            return default
        try:
            return json.loads(text)
        except ValueError as error:
            raise StateError("decode", f"state key {key!r}: the value is not JSON: {error}") from None

    def set_json(self, key, value):
        """Sets ``key`` to ``value`` encoded as JSON."""
        self.set_text(key, json.dumps(value))

    def counter(self, key):
        """The counter at ``key`` (decimal text; 0 when unset)."""
        text = self.get_text(key)
        if text is None:
            return 0
        try:
            return int(text.strip())
        except ValueError:
            raise StateError("decode", f"state key {key!r}: the value is not a counter") from None

    def increment(self, key):
        """Adds one to the counter at ``key`` and returns the new value (not
        atomic across concurrent runs of the plugin)."""
        value = self.counter(key) + 1
        self.set_text(key, str(value))
        return value


def open_bucket(name="", store=None):
    """Opens the bucket ``name`` of the plugin's store (``""`` is the default).

    ``store`` is the ``wasi:keyvalue/store`` binding module; by default the
    component's own (``wit_world.imports.store``). Raises :class:`StateError`:
    ``access-denied`` without the hook's ``"state"`` grant, ``unsupported``
    when the component was not built against a world with state.
    """
    store = store if store is not None else _wasi_store
    if store is None:
        raise StateError("unsupported", "state needs a component built with "
                         "-w hookhost:plugin/hook-with-state (or hook-with-capabilities)")
    return Bucket(_call(store.open, name))
