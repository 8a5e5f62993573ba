// hookhost guest helpers for JavaScript plugins (ComponentizeJS), no
// dependencies: `hookhost new --lang js` copies this file into a new project,
// and it runs natively under `node --test` and inside the component alike.
//
// It gives a policy what the Rust SDK (hookhost-guest) gives:
// - toolCall(event): the tool call of an event, with views that read every
//   agent's tool names: shellCommand() (run_shell_command, Bash), fileWrite()
//   (write_file/Write, replace/Edit, MultiEdit, NotebookEdit) and strings()
//   (every string argument, in document order);
// - findPrivateKey(text), findSecret(text): detectors that look for the
//   secret, not a mention of it (a grep for the PEM marker is not a key);
// - downloadIntoShell(command): why a shell command line runs something
//   downloaded as code (`curl … | sh`, `bash <(curl …)`, `sh -c "$(curl …)"`,
//   `c=curl; $c … | sh`), or null — from a quote-aware parse, not a regex.
//
// Plugins always receive hookhost's canonical input, whatever settings file
// declares them (hook_event_name BeforeTool, tool names run_shell_command,
// write_file, …); the views read Claude Code's names too.
//
// The shell parser is the Python helper's, line for line, held to the same
// table of commands as the Rust SDK (guest-sdk/tests/download-into-shell.json).
// It never throws on odd input.

// ---------------------------------------------------------------------------
// Tool calls

const PATH_KEYS = ['file_path', 'absolute_path', 'notebook_path', 'path'];

/** Every string inside a JSON value (not object keys), depth first. */
export function* strings(value) {
  if (typeof value === 'string') {
    yield value;
  } else if (Array.isArray(value)) {
    for (const item of value) yield* strings(item);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) yield* strings(item);
  }
}

/** A tool call as a policy wants to see it, whatever agent sent it. */
export class ToolCall {
  constructor(name, input) {
    this.name = name;
    this.input = input;
  }

  str(key) {
    const value = this.input[key];
    return typeof value === 'string' ? value : null;
  }

  /** The command line of a shell call (run_shell_command, Bash), or null. */
  shellCommand() {
    return this.name === 'run_shell_command' || this.name === 'Bash' ? this.str('command') : null;
  }

  /** {path, content, wholeFile} of a file-writing call, or null. */
  fileWrite() {
    const path = PATH_KEYS.map((k) => this.str(k)).find((p) => p !== null);
    if (path === undefined) return null;
    let content = null;
    let wholeFile = false;
    if (this.name === 'write_file' || this.name === 'Write') {
      content = this.str('content');
      wholeFile = true;
    } else if (this.name === 'replace' || this.name === 'Edit') {
      content = this.str('new_string');
    } else if (this.name === 'NotebookEdit') {
      content = this.str('new_source');
    } else if (this.name === 'MultiEdit' || this.name === 'multi_edit') {
      const edits = this.input.edits;
      if (!Array.isArray(edits)) return null;
      content = edits
        .map((e) => (e !== null && typeof e === 'object' ? e.new_string : null))
        .filter((t) => typeof t === 'string')
        .join('\n');
    } else {
      return null;
    }
    return content === null ? null : { path, content, wholeFile };
  }

  /** Every string argument (not the keys), depth first, in document order. */
  strings() {
    return [...strings(this.input)];
  }
}

/** The ToolCall of an event that has tool_name, or null. */
export function toolCall(event) {
  if (event === null || typeof event !== 'object' || typeof event.tool_name !== 'string') {
    return null;
  }
  const input = event.tool_input;
  const isObject = input !== null && typeof input === 'object' && !Array.isArray(input);
  return new ToolCall(event.tool_name, isObject ? input : {});
}

// ---------------------------------------------------------------------------
// Secrets

const KEY_LABELS = [
  'PRIVATE KEY',
  'RSA PRIVATE KEY',
  'EC PRIVATE KEY',
  'DSA PRIVATE KEY',
  'OPENSSH PRIVATE KEY',
  'ENCRYPTED PRIVATE KEY',
  'PGP PRIVATE KEY BLOCK',
];

/**
 * The PEM label of a whole private key in text ('OPENSSH PRIVATE KEY'), or
 * null: a -----BEGIN <label>----- line, optional `Name: value` headers, at
 * least 64 base64 characters and the matching -----END line; lines end at
 * newlines or at the two characters \n. A bare marker is not a key.
 */
export function findPrivateKey(text) {
  if (!text.includes('PRIVATE KEY')) return null;
  const lines = text.split('\n').flatMap((line) => line.split('\\n')).map((l) => l.replace(/\r+$/, ''));
  for (let i = 0; i < lines.length; i++) {
    const at = lines[i].indexOf('-----BEGIN ');
    if (at < 0) continue;
    const after = lines[i].slice(at + '-----BEGIN '.length);
    const end = after.indexOf('-----');
    const label = end >= 0 ? after.slice(0, end) : null;
    if (KEY_LABELS.includes(label) && hasKeyBody(lines.slice(i + 1), label)) return label;
  }
  return null;
}

function hasKeyBody(lines, label) {
  let body = 0;
  let headers = true;
  for (let line of lines) {
    line = line.trim();
    const at = line.indexOf('-----END ');
    if (at >= 0) return line.slice(at + '-----END '.length).startsWith(label + '-----') && body >= 64;
    if (line === '') continue;
    if (headers && /^[A-Za-z0-9-]+: /.test(line)) continue;
    headers = false;
    const data = line.startsWith('=') ? line.slice(1) : line;
    if (!/^[A-Za-z0-9+/=]*$/.test(data)) return false;
    body += data.length;
  }
  return false;
}

/**
 * A description of the first secret in text ('an AWS access key'), or null:
 * private keys, an AWS access key ID with a 40-character secret key, GitHub
 * tokens, Slack tokens — the rules of the Rust SDK's secrets module.
 */
export function findSecret(text) {
  if (findPrivateKey(text)) return 'a private key';
  const ids = [...text.matchAll(/(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g)]
    .map((m) => m[0])
    .filter((id) => !id.endsWith('EXAMPLE'));
  if (ids.length > 0) {
    for (const m of text.matchAll(/(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])/g)) {
      const s = m[0];
      if (/[A-Z]/.test(s) && /[a-z]/.test(s) && /[0-9]/.test(s) && !s.includes('EXAMPLE')) {
        return 'an AWS access key';
      }
    }
  }
  if (/(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{70,})/.test(text)) {
    return 'a GitHub token';
  }
  const slack = text.match(/(?<![A-Za-z0-9-])xox[baprs]-[0-9]{8,}-[0-9]{8,}[A-Za-z0-9-]*/);
  if (slack && slack[0].length >= 40) return 'a Slack token';
  return null;
}

// ---------------------------------------------------------------------------
// Shell command lines

export const MAX_DEPTH = 48;

const DOWNLOADERS = new Set(
  'curl wget wget2 fetch aria2c http https xh xhs curlie lwp-request lwp-download GET'.split(' '),
);
const SHELLS = new Set('sh bash zsh dash ksh mksh pdksh ash yash fish csh tcsh'.split(' '));
const OTHER_INTERPRETERS = new Set(
  'node nodejs pypy pypy3 tclsh wish pwsh powershell osascript source . eval'.split(' '),
);
// Wrappers that run the command after them: [options that take a value, positionals].
const WRAPPERS = {
  sudo: [['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-T', '-R'], 0],
  doas: [['-u', '-C'], 0],
  run0: [['-u', '-g', '-D'], 0],
  env: [['-u', '-C', '-S', '--unset', '--chdir'], 0],
  nice: [['-n', '--adjustment'], 0],
  ionice: [['-c', '-n', '-p'], 0],
  nohup: [[], 0],
  setsid: [[], 0],
  time: [['-f', '-o', '--format', '--output'], 0],
  command: [[], 0],
  builtin: [[], 0],
  exec: [['-a'], 0],
  stdbuf: [['-i', '-o', '-e'], 0],
  timeout: [['-s', '-k', '--signal', '--kill-after'], 1],
  busybox: [[], 0],
};
const RESERVED_OPEN = { if: 'fi', while: 'done', until: 'done', for: 'done', select: 'done', case: 'esac' };
const RESERVED_SKIP = new Set(['then', 'else', 'elif', 'do', '!', 'time', 'in']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
const REDIRECTION = /[0-9]*(<<<|<<-|<<|&>>|&>|>>|>&|<&|<>|>\||<|>)/y;
const OPERATORS = ['&&', '||', ';;', '|&', '|', ';', '&', '(', ')', '\n'];
const PARAMETER = /[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-]/y;

/** Whether a program's base name runs code it is given (a shell, python*, perl*, node, …). */
export function isInterpreter(program) {
  if (SHELLS.has(program) || OTHER_INTERPRETERS.has(program)) return true;
  return ['python', 'perl', 'lua', 'ruby', 'php'].some(
    (stem) => program.startsWith(stem) && /^[0-9.]*$/.test(program.slice(stem.length)),
  );
}

function newWord(text = '', dynamic = false, subs = [], procsub = false) {
  return { text, dynamic, subs, procsub, quoted: false };
}

/** The index of the `)` closing the `(` before i, quote-aware; s.length if none. */
function closeParen(s, i) {
  let depth = 1;
  while (i < s.length) {
    const c = s[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === "'") {
      const j = s.indexOf("'", i + 1);
      i = j < 0 ? s.length : j + 1;
      continue;
    }
    if (c === '"') {
      i += 1;
      while (i < s.length && s[i] !== '"') i += s[i] === '\\' ? 2 : 1;
      i += 1;
      continue;
    }
    if (c === '(') depth += 1;
    else if (c === ')') {
      depth -= 1;
      if (depth === 0) return i;
    }
    i += 1;
  }
  return s.length;
}

/** Reads the expansion at s[i] === '$' into word; returns the index after it. */
function dollar(s, i, word) {
  const next = s[i + 1];
  if (s.startsWith('$((', i)) {
    let end = closeParen(s, i + 3);
    if (end < s.length) end = closeParen(s, end + 1);
    word.text += s.slice(i, end + 1);
    word.dynamic = true;
    return end + 1;
  }
  if (next === '(') {
    const end = closeParen(s, i + 2);
    word.subs.push(s.slice(i + 2, end));
    word.text += s.slice(i, end + 1);
    word.dynamic = true;
    return end + 1;
  }
  if (next === '{') {
    let end = s.indexOf('}', i + 2);
    if (end < 0) end = s.length;
    word.text += s.slice(i, end + 1);
    word.dynamic = true;
    return end + 1;
  }
  PARAMETER.lastIndex = i + 1;
  const m = PARAMETER.exec(s);
  if (m) {
    word.text += s.slice(i, PARAMETER.lastIndex);
    word.dynamic = true;
    return PARAMETER.lastIndex;
  }
  word.text += '$';
  return i + 1;
}

function backtick(s, i, word) {
  let j = i + 1;
  while (j < s.length && s[j] !== '`') j += s[j] === '\\' ? 2 : 1;
  word.subs.push(s.slice(i + 1, j).replaceAll('\\`', '`'));
  word.text += s.slice(i, j + 1);
  word.dynamic = true;
  return j + 1;
}

function readWord(s, i) {
  const word = newWord();
  const n = s.length;
  while (i < n) {
    const c = s[i];
    if (' \t\n;&|()<>'.includes(c)) break;
    if (c === '\\') {
      word.text += s.slice(i + 1, i + 2);
      word.quoted = true;
      i += 2;
    } else if (c === "'") {
      let j = s.indexOf("'", i + 1);
      if (j < 0) j = n;
      word.text += s.slice(i + 1, j);
      word.quoted = true;
      i = j + 1;
    } else if (s.startsWith("$'", i)) {
      let j = i + 2;
      while (j < n && s[j] !== "'") j += s[j] === '\\' ? 2 : 1;
      const body = s.slice(i + 2, j);
      word.text += body;
      word.dynamic = word.dynamic || body.includes('\\');
      word.quoted = true;
      i = j + 1;
    } else if (c === '"') {
      word.quoted = true;
      i += 1;
      while (i < n && s[i] !== '"') {
        if (s[i] === '\\' && i + 1 < n && '$`"\\\n'.includes(s[i + 1])) {
          word.text += s[i + 1];
          i += 2;
        } else if (s[i] === '$') {
          i = dollar(s, i, word);
        } else if (s[i] === '`') {
          i = backtick(s, i, word);
        } else {
          word.text += s[i];
          i += 1;
        }
      }
      i += 1;
    } else if (c === '$') {
      i = dollar(s, i, word);
    } else if (c === '`') {
      i = backtick(s, i, word);
    } else {
      word.text += c;
      i += 1;
    }
  }
  return [word, i];
}

/** Tokens: ['w', word], ['op', text], ['redir', op], ['heredoc', body]. */
function tokens(s) {
  const out = [];
  let i = 0;
  const n = s.length;
  let pending = []; // here-documents waiting for the next newline: [delimiter, stripTabs]
  while (i < n) {
    const c = s[i];
    if (c === ' ' || c === '\t') {
      i += 1;
      continue;
    }
    if (s.startsWith('\\\n', i)) {
      i += 2;
      continue;
    }
    if (c === '#') {
      while (i < n && s[i] !== '\n') i += 1;
      continue;
    }
    if (c === '\n' && pending.length > 0) {
      i += 1;
      for (const [delimiter, strip] of pending) {
        const lines = [];
        while (i < n) {
          let j = s.indexOf('\n', i);
          if (j < 0) j = n;
          const line = s.slice(i, j);
          i = j + 1;
          if ((strip ? line.replace(/^\t+/, '') : line) === delimiter) break;
          lines.push(line);
        }
        out.push(['heredoc', lines.join('\n')]);
      }
      pending = [];
      out.push(['op', '\n']);
      continue;
    }
    if ((c === '<' || c === '>') && s[i + 1] === '(') {
      const end = closeParen(s, i + 2);
      out.push(['w', newWord(s.slice(i, end + 1), true, [s.slice(i + 2, end)], true)]);
      i = end + 1;
      continue;
    }
    REDIRECTION.lastIndex = i;
    const m = REDIRECTION.exec(s);
    if (m && ('<>&'.includes(m[0][0]) || m[0].length > m[1].length)) {
      const op = m[1];
      out.push(['redir', op]);
      i = REDIRECTION.lastIndex;
      if (op === '<<' || op === '<<-') {
        while (i < n && (s[i] === ' ' || s[i] === '\t')) i += 1;
        const [word, next] = readWord(s, i);
        i = next;
        out.push(['w', word]);
        pending.push([word.text, op === '<<-']);
      }
      continue;
    }
    const op = OPERATORS.find((o) => s.startsWith(o, i));
    if (op) {
      out.push(['op', op]);
      i += op.length;
      continue;
    }
    const [word, next] = readWord(s, i);
    out.push(['w', word]);
    i = next;
  }
  return out;
}

class TooDeep extends Error {}

class Parser {
  constructor(toks) {
    this.tokens = toks;
    this.i = 0;
    this.depth = 0;
  }

  peek() {
    return this.i < this.tokens.length ? this.tokens[this.i] : null;
  }

  wordIs(token, texts) {
    return token !== null && token[0] === 'w' && !token[1].quoted && texts.includes(token[1].text);
  }

  group(closer) {
    this.depth += 1;
    if (this.depth > MAX_DEPTH) throw new TooDeep();
    const body = this.parseList([closer]);
    this.depth -= 1;
    this.i += 1;
    this.trailingRedirections();
    return { kind: 'group', body, subshell: closer === ')' };
  }

  parseList(closers = []) {
    const pipelines = [];
    let current = [];
    const words = closers.filter((c) => c !== ')');
    for (;;) {
      const token = this.peek();
      if (token === null || (token[0] === 'op' && token[1] === ')' && closers.includes(')'))) break;
      if (this.wordIs(token, words) && current.length === 0) break;
      if (token[0] === 'op' && (token[1] === '|' || token[1] === '|&')) {
        this.i += 1;
        continue;
      }
      if (token[0] === 'op' && token[1] !== '(') {
        this.i += 1; // a separator, a case pattern's ")" or a stray one
        if (current.length > 0) pipelines.push(current);
        current = [];
        continue;
      }
      const command = this.parseCommand(words);
      if (command !== null) current.push(command);
    }
    if (current.length > 0) pipelines.push(current);
    return pipelines;
  }

  parseCommand(closerWords) {
    const token = this.peek();
    if (token[0] === 'op' && token[1] === '(') {
      this.i += 1;
      return this.group(')');
    }
    if (this.wordIs(token, ['{'])) {
      this.i += 1;
      return this.group('}');
    }
    if (this.wordIs(token, Object.keys(RESERVED_OPEN))) {
      const closer = RESERVED_OPEN[token[1].text];
      this.i += 1;
      if ((closer === 'done' || closer === 'esac') && token[1].text !== 'while' && token[1].text !== 'until') {
        // for NAME in WORDS / case WORD in: the header is data.
        const stop = closer === 'esac' ? 'in' : 'do';
        while (
          this.peek() !== null &&
          !(this.peek()[0] === 'op' && (this.peek()[1] === ';' || this.peek()[1] === '\n')) &&
          !this.wordIs(this.peek(), [stop])
        ) {
          this.i += 1;
        }
        this.i += 1;
      }
      return this.group(closer);
    }
    const simple = { kind: 'simple', words: [], redirections: [], heredocs: [] };
    for (;;) {
      const t = this.peek();
      if (t === null || t[0] === 'op') break;
      if (t[0] === 'redir') {
        this.i += 1;
        const target = this.peek();
        const word = target !== null && target[0] === 'w' ? target[1] : null;
        if (word !== null) this.i += 1;
        simple.redirections.push([t[1], word]);
        continue;
      }
      if (t[0] === 'heredoc') {
        simple.heredocs.push(t[1]);
        this.i += 1;
        continue;
      }
      if (simple.words.length === 0 && this.wordIs(t, [...RESERVED_SKIP])) {
        this.i += 1;
        continue;
      }
      if (simple.words.length === 0 && this.wordIs(t, closerWords)) break;
      if (simple.words.length === 0 && this.wordIs(t, ['fi', 'done', 'esac', '}'])) {
        this.i += 1;
        continue;
      }
      simple.words.push(t[1]);
      this.i += 1;
      const next = this.peek();
      const after = this.tokens[this.i + 1];
      if (simple.words.length === 1 && next && next[0] === 'op' && next[1] === '(' && after &&
          after[0] === 'op' && after[1] === ')') {
        this.i += 2; // NAME() — a function definition: its body follows
        return null;
      }
    }
    return simple.words.length > 0 || simple.redirections.length > 0 ? simple : null;
  }

  trailingRedirections() {
    while (this.peek() !== null && this.peek()[0] === 'redir') {
      this.i += 1;
      if (this.peek() !== null && this.peek()[0] === 'w') this.i += 1;
    }
  }
}

/** The pipelines of a command line. Throws TooDeep past MAX_DEPTH nesting. */
export function parse(command) {
  const toks = tokens(command);
  // A here-document's body follows the newline after its command: move each
  // body back to the command whose << introduced it.
  const moved = [];
  let waiting = 0;
  for (const token of toks) {
    if (token[0] === 'redir' && (token[1] === '<<' || token[1] === '<<-')) {
      waiting += 1;
      moved.push(token);
    } else if (token[0] === 'heredoc') {
      let insert = moved.length;
      let count = 0;
      for (let k = moved.length - 1; k >= 0; k--) {
        if (moved[k][0] === 'redir' && (moved[k][1] === '<<' || moved[k][1] === '<<-')) {
          count += 1;
          if (count === waiting) {
            insert = k + 2;
            break;
          }
        }
      }
      moved.splice(insert, 0, token);
      waiting -= 1;
    } else {
      moved.push(token);
    }
  }
  return new Parser(moved).parseList();
}

function* walk(pipelines) {
  for (const pipeline of pipelines) {
    yield pipeline;
    for (const command of pipeline) {
      if (command.kind === 'group') yield* walk(command.body);
    }
  }
}

/** The program word and its arguments, after assignments and wrappers. */
function programWords(simple) {
  let words = simple.words;
  while (words.length > 0 && !words[0].quoted && ASSIGNMENT.test(words[0].text)) words = words.slice(1);
  while (words.length > 0) {
    const first = words[0];
    if (first.dynamic) return words;
    const name = first.text.split('/').pop();
    if (!Object.hasOwn(WRAPPERS, name)) return words;
    const [takesValue, positional] = WRAPPERS[name];
    const rest = words.slice(1);
    let k = 0;
    while (k < rest.length) {
      const t = rest[k].text;
      if (t === '--') {
        k += 1;
        break;
      }
      if (t.startsWith('-') && t.length > 1) k += takesValue.includes(t) ? 2 : 1;
      else if (name === 'env' && ASSIGNMENT.test(t)) k += 1;
      else break;
    }
    words = rest.slice(k + positional);
  }
  return [];
}

/** [base name, or null when dynamic; arguments] after assignments and wrappers. */
function program(simple) {
  const words = programWords(simple);
  if (words.length === 0) return ['', []];
  if (words[0].dynamic) return [null, words.slice(1)];
  return [words[0].text.split('/').pop(), words.slice(1)];
}

function file(word) {
  if (!word.dynamic && ['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0'].includes(word.text)) return 'stdin';
  return ['file', word];
}

/** Where an interpreter gets its program: 'stdin', 'eval', ['inline', word], ['file', word], or null. */
function source(simple) {
  const [name, args] = program(simple);
  if (!name || !isInterpreter(name)) return null;
  if (name === 'source' || name === '.') return args.length > 0 ? file(args[0]) : 'stdin';
  if (name === 'eval') return 'eval';
  let inline = 'e';
  let stdin = '';
  let values = [];
  if (SHELLS.has(name)) [inline, stdin, values] = ['c', 's', ['-o', '+o', '-O', '+O']];
  else if (name.startsWith('python') || name.startsWith('pypy')) [inline, values] = ['cm', ['-W', '-X', '-Q']];
  else if (name.startsWith('perl')) [inline, values] = ['eE', ['-I', '-x']];
  else if (name === 'ruby') [inline, values] = ['e', ['-r', '-I', '-C', '-E']];
  else if (name === 'node' || name === 'nodejs') [inline, values] = ['ep', ['-r', '--require', '--import', '--loader']];
  else if (name.startsWith('php')) [inline, values] = ['rRBEF', ['-d', '-c', '-z']];
  else if (name.startsWith('lua')) inline = 'el';
  else if (name === 'pwsh' || name === 'powershell') inline = 'c';
  let k = 0;
  while (k < args.length) {
    const t = args[k].text;
    if (t === '--') return k + 1 < args.length ? file(args[k + 1]) : 'stdin';
    if (t === '-') return 'stdin';
    if (args[k].dynamic || t.length < 2 || !'-+'.includes(t[0])) return file(args[k]);
    if (!t.startsWith('--') && t[0] === '-') {
      if ([...t.slice(1)].some((ch) => inline.includes(ch))) {
        return k + 1 < args.length ? ['inline', args[k + 1]] : 'stdin';
      }
      if ([...t.slice(1)].some((ch) => stdin.includes(ch))) return 'stdin';
    } else if (['--command', '--eval', '--print'].includes(t)) {
      return k + 1 < args.length ? ['inline', args[k + 1]] : 'stdin';
    }
    // A value-taking option, alone or last in a cluster (-o, -euo).
    const takesValue = values.includes(t) || (t[0] === '-' && t[1] !== '-' && values.includes('-' + t.at(-1)));
    k += takesValue ? 2 : 1;
  }
  return 'stdin';
}

function isDownload(command) {
  if (command.kind === 'group') {
    for (const pipeline of walk(command.body)) {
      if (pipeline.some((c) => c.kind === 'simple' && isDownload(c))) return true;
    }
    return false;
  }
  const [name] = program(command);
  return name === null || DOWNLOADERS.has(name);
}

function executesStdin(command) {
  if (command.kind === 'group') return command.body.some((p) => p.length > 0 && executesStdin(p[0]));
  const [name, args] = program(command);
  if (name === null) return true;
  const src = source(command);
  return src === 'stdin' || (src === 'eval' && args.some((w) => w.dynamic));
}

function hasDownload(text, depth) {
  if (depth > MAX_DEPTH) return true;
  let pipelines;
  try {
    pipelines = parse(text);
  } catch (e) {
    if (e instanceof TooDeep) return true;
    throw e;
  }
  for (const pipeline of walk(pipelines)) {
    if (pipeline.some(isDownload)) return true;
  }
  return false;
}

function subsDownload(word, depth) {
  return word.subs.some((sub) => hasDownload(sub, depth + 1));
}

/** How a reason names a command: `curl`, the dynamic command `$c`, a subshell. */
function describe(command) {
  if (command.kind === 'group') return command.subshell ? 'a subshell' : 'a compound command';
  const word = programWords(command)[0];
  if (word === undefined) return 'a command';
  if (word.dynamic) return `the dynamic command \`${word.text}\``;
  return '`' + word.text.split('/').pop() + '`';
}

/** The program's base name for a reason (bash), or 'a command'. */
function bare(command) {
  return program(command)[0] || 'a command';
}

/**
 * Why a shell command line runs something downloaded as code, or null.
 *
 * A download is a command whose program is a downloader (curl, wget, …) or
 * is dynamic (`$c x`: unknown, so assumed to be one). It runs as code when
 * piped into an interpreter that reads its program from stdin (sh, bash -s,
 * python3, a subshell or loop whose first command does), given as an inline
 * script (`sh -c "$(curl …)"`, eval), as a process substitution
 * (`bash <(curl …)`, `sh < <(curl …)`), as a here-string, or as a dynamic
 * program (`$(curl …)`). Scripts handed to a shell (`sh -c '…'`,
 * here-documents) and substitutions are checked too.
 */
export function downloadIntoShell(command, depth = 0) {
  const tooDeep = 'the command nests too deeply to be checked';
  if (depth > MAX_DEPTH) return tooDeep;
  let pipelines;
  try {
    pipelines = parse(command);
  } catch (e) {
    if (e instanceof TooDeep) return tooDeep;
    throw e;
  }
  for (const pipeline of walk(pipelines)) {
    for (let i = 0; i < pipeline.length; i++) {
      if (!isDownload(pipeline[i])) continue;
      const right = pipeline.slice(i + 1).find(executesStdin);
      if (right) return `a download (${describe(pipeline[i])}) is piped into ${describe(right)}`;
    }
  }
  for (const pipeline of walk(pipelines)) {
    for (const command of pipeline) {
      if (command.kind !== 'simple') continue;
      const reason = simpleRunsDownload(command, depth);
      if (reason) return reason;
    }
  }
  return null;
}

function simpleRunsDownload(command, depth) {
  const [name, args] = program(command);
  if (name === null && subsDownload(programWords(command)[0], depth)) {
    return 'the output of a download is run as a command';
  }
  const src = source(command);
  if (Array.isArray(src)) {
    const [kind, word] = src;
    if (kind === 'file' && subsDownload(word, depth)) return `${bare(command)} runs a downloaded script`;
    if (kind === 'inline' && subsDownload(word, depth)) return `${bare(command)} runs downloaded code`;
  }
  if (src === 'eval' && args.some((w) => subsDownload(w, depth))) return 'eval runs downloaded code';
  if (
    executesStdin(command) &&
    command.redirections.some(
      ([op, target]) => ['<', '<<<', '<>'].includes(op) && target !== null && subsDownload(target, depth),
    )
  ) {
    return `${bare(command)} reads a download as its program`;
  }
  // Anything nested: the script a shell is given (sh -c '…', eval, a here-string
  // or here-document), substitutions in every word and redirection.
  const scripts = [];
  if (Array.isArray(src) && src[0] === 'inline' && !src[1].dynamic) scripts.push(src[1].text);
  if (src === 'eval') {
    const fixed = args.filter((w) => !w.dynamic).map((w) => w.text);
    if (fixed.length > 0) scripts.push(fixed.join(' '));
  }
  if (src === 'stdin') {
    for (const [op, t] of command.redirections) {
      if (op === '<<<' && t !== null && !t.dynamic) scripts.push(t.text);
    }
    scripts.push(...command.heredocs);
  }
  for (const script of scripts) {
    const reason = downloadIntoShell(script, depth + 1);
    if (reason) return reason;
  }
  const words = [...command.words, ...command.redirections.map(([, t]) => t).filter((t) => t !== null)];
  for (const word of words) {
    for (const sub of word.subs) {
      const reason = downloadIntoShell(sub, depth + 1);
      if (reason) return reason;
    }
  }
  return null;
}
