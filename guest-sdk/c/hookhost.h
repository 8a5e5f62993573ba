/*
 * hookhost.h: the hookhost guest SDK for C, one header, no dependencies
 * beyond the C standard library. Plugin hooks compile it to a WASI
 * preview-1 module with clang and wasi-libc:
 *
 *     clang --target=wasm32-wasi -O2 -o policy.wasm policy.c
 *
 * (Debian 12: apt install clang lld wasi-libc libclang-rt-14-dev-wasm32; with
 * clang 14 the target is spelled wasm32-wasi, not wasm32-wasip1.) The same
 * source builds natively as a command hook.
 *
 * A hook reads one JSON event on stdin and answers with JSON on stdout and an
 * exit status: 0 proceeds, 2 blocks, anything else is a failed hook (which
 * fails open unless the hook's failurePolicy says otherwise):
 *
 *     #include "hookhost.h"
 *     int main(void) {
 *         hh_input in;
 *         if (hh_read_input(&in) != 0) hh_fail("input is not JSON");
 *         char *cmd = hh_shell_command(&in);
 *         if (cmd && strstr(cmd, "rm -rf /")) hh_block("no");
 *         hh_allow();
 *     }
 *
 * Plugins always receive hookhost's canonical input, whatever settings file
 * declares them: hook_event_name is BeforeTool, AfterTool, BeforeModel, ...
 * Tool names are the agent's own (run_shell_command, write_file, replace from
 * LLxprt and Gemini CLI; Bash, Write, Edit, MultiEdit from Claude Code); the
 * tool-call helpers read both.
 *
 * JSON values are read in place: an hh_value is a span of the input text, and
 * hh_string() decodes a string value into a new buffer (free() it, or let the
 * process end: a hook runs once). Every function checks its input; malformed
 * JSON gives "not found", never a crash.
 */
#ifndef HOOKHOST_H
#define HOOKHOST_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HH_EXIT_OK = 0, HH_EXIT_FAIL = 1, HH_EXIT_BLOCK = 2 };

/* A JSON value: the span [start, end) of the input text. */
typedef struct {
    const char *start;
    const char *end;
} hh_value;

/* One event: the whole input text and its root value. */
typedef struct {
    char *text;
    size_t len;
    hh_value root;
} hh_input;

/* ---- JSON, read in place ------------------------------------------------ */

static inline const char *hh__ws(const char *p, const char *end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    return p;
}

/* The end of the string starting at p (a '"'), or NULL. */
static inline const char *hh__skip_string(const char *p, const char *end) {
    for (p++; p < end; p++) {
        if (*p == '\\') {
            p++;
        } else if (*p == '"') {
            return p + 1;
        } else if ((unsigned char)*p < 0x20) {
            return NULL;
        }
    }
    return NULL;
}

#define HH_MAX_DEPTH 512

/* The end of the value starting at p (after white space), or NULL. */
static inline const char *hh__skip_value(const char *p, const char *end, int depth) {
    p = hh__ws(p, end);
    if (p >= end || depth > HH_MAX_DEPTH) return NULL;
    if (*p == '"') return hh__skip_string(p, end);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        int object = *p == '{';
        p = hh__ws(p + 1, end);
        if (p < end && *p == close) return p + 1;
        for (;;) {
            if (object) {
                if (p >= end || *p != '"') return NULL;
                p = hh__skip_string(p, end);
                if (!p) return NULL;
                p = hh__ws(p, end);
                if (p >= end || *p != ':') return NULL;
                p++;
            }
            p = hh__skip_value(p, end, depth + 1);
            if (!p) return NULL;
            p = hh__ws(p, end);
            if (p >= end) return NULL;
            if (*p == close) return p + 1;
            if (*p != ',') return NULL;
            p = hh__ws(p + 1, end);
        }
    }
    /* A number, true, false or null: the run of their characters. */
    const char *start = p;
    while (p < end && ((*p && strchr("+-.eE", *p)) || (*p >= '0' && *p <= '9') ||
                       (*p >= 'a' && *p <= 'z')))
        p++;
    return p > start ? p : NULL;
}

/* Whether v is an object, array or string. */
static inline int hh_is_object(hh_value v) { return v.start && v.start < v.end && *v.start == '{'; }
static inline int hh_is_array(hh_value v) { return v.start && v.start < v.end && *v.start == '['; }
static inline int hh_is_string(hh_value v) { return v.start && v.start < v.end && *v.start == '"'; }

/* Calls fn on each member of an object (key, raw key length, value) or element
 * of an array (key NULL), in document order, until fn returns nonzero; returns
 * that value, or 0. */
typedef int (*hh_member_fn)(const char *key, size_t key_len, hh_value value, void *ctx);

static inline int hh_each(hh_value v, hh_member_fn fn, void *ctx) {
    int object = hh_is_object(v);
    if (!object && !hh_is_array(v)) return 0;
    const char *p = hh__ws(v.start + 1, v.end), *end = v.end;
    while (p < end && *p != '}' && *p != ']') {
        const char *key = NULL;
        size_t key_len = 0;
        if (object) {
            const char *after = hh__skip_string(p, end);
            if (!after) return 0;
            key = p + 1;
            key_len = (size_t)(after - 1 - key);
            p = hh__ws(after, end);
            if (p >= end || *p != ':') return 0;
            p = hh__ws(p + 1, end);
        }
        const char *after = hh__skip_value(p, end, 0);
        if (!after) return 0;
        hh_value item = {p, after};
        int stop = fn(key, key_len, item, ctx);
        if (stop) return stop;
        p = hh__ws(after, end);
        if (p < end && *p == ',') p = hh__ws(p + 1, end);
    }
    return 0;
}

struct hh__find {
    const char *key;
    hh_value found;
};

static inline int hh__find_member(const char *key, size_t key_len, hh_value value, void *ctx) {
    struct hh__find *f = (struct hh__find *)ctx;
    /* Keys are compared as written: the keys hookhost sends have no escapes. */
    if (key && strlen(f->key) == key_len && memcmp(f->key, key, key_len) == 0) {
        f->found = value;
        return 1;
    }
    return 0;
}

/* The member `key` of object v; .start is NULL when there is none. */
static inline hh_value hh_get(hh_value v, const char *key) {
    struct hh__find f = {key, {NULL, NULL}};
    hh_each(v, hh__find_member, &f);
    return f.found;
}

static inline size_t hh__utf8(unsigned long c, char *out) {
    if (c < 0x80) { out[0] = (char)c; return 1; }
    if (c < 0x800) { out[0] = (char)(0xC0 | c >> 6); out[1] = (char)(0x80 | (c & 0x3F)); return 2; }
    if (c < 0x10000) {
        out[0] = (char)(0xE0 | c >> 12); out[1] = (char)(0x80 | (c >> 6 & 0x3F));
        out[2] = (char)(0x80 | (c & 0x3F)); return 3;
    }
    out[0] = (char)(0xF0 | c >> 18); out[1] = (char)(0x80 | (c >> 12 & 0x3F));
    out[2] = (char)(0x80 | (c >> 6 & 0x3F)); out[3] = (char)(0x80 | (c & 0x3F)); return 4;
}

static inline long hh__hex4(const char *p, const char *end) {
    if (end - p < 4) return -1;
    long c = 0;
    for (int i = 0; i < 4; i++) {
        char h = p[i];
        c <<= 4;
        if (h >= '0' && h <= '9') c |= h - '0';
        else if (h >= 'a' && h <= 'f') c |= h - 'a' + 10;
        else if (h >= 'A' && h <= 'F') c |= h - 'A' + 10;
        else return -1;
    }
    return c;
}

/* A string value, decoded to UTF-8 in a new NUL-terminated buffer (its length
 * in *len when len is not NULL), or NULL when v is not a string or memory ran
 * out. A string holding NUL characters is cut at the first by strlen, not by
 * *len. A lone surrogate becomes U+FFFD. */
static inline char *hh_string(hh_value v, size_t *len) {
    if (!hh_is_string(v) || v.end - v.start < 2) return NULL;
    const char *p = v.start + 1, *end = v.end - 1;
    char *out = (char *)malloc((size_t)(end - p) + 1), *o = out;
    if (!out) return NULL;
    while (p < end) {
        if (*p != '\\') { *o++ = *p++; continue; }
        if (++p >= end) break;
        char e = *p++;
        switch (e) {
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            long c = hh__hex4(p, end);
            if (c < 0) { free(out); return NULL; }
            p += 4;
            if (c >= 0xD800 && c < 0xDC00 && end - p >= 6 && p[0] == '\\' && p[1] == 'u') {
                long low = hh__hex4(p + 2, end);
                if (low >= 0xDC00 && low < 0xE000) {
                    c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
                    p += 6;
                }
            }
            if (c >= 0xD800 && c < 0xE000) c = 0xFFFD;
            /* \uXXXX is 6 input bytes; its UTF-8 is at most 4 (a pair: 12 for 4). */
            o += hh__utf8((unsigned long)c, o);
            break;
        }
        default: *o++ = e; /* \" \\ \/ */
        }
    }
    *o = '\0';
    if (len) *len = (size_t)(o - out);
    return out;
}

/* The string member `key` of object v, decoded, or NULL. */
static inline char *hh_get_string(hh_value v, const char *key) {
    return hh_string(hh_get(v, key), NULL);
}

/* Calls fn on every string value inside v (not object keys), depth first, in
 * document order, until fn returns nonzero; returns that value, or 0. */
typedef int (*hh_string_fn)(const char *text, size_t len, void *ctx);

struct hh__strings {
    hh_string_fn fn;
    void *ctx;
    int depth;
};

static inline int hh__strings_member(const char *key, size_t key_len, hh_value value, void *ctx);

static inline int hh__strings(hh_value v, struct hh__strings *s) {
    if (hh_is_string(v)) {
        size_t len = 0;
        char *text = hh_string(v, &len);
        if (!text) return 0;
        int stop = s->fn(text, len, s->ctx);
        free(text);
        return stop;
    }
    if (s->depth >= HH_MAX_DEPTH) return 0;
    s->depth++;
    int stop = hh_each(v, hh__strings_member, s);
    s->depth--;
    return stop;
}

static inline int hh__strings_member(const char *key, size_t key_len, hh_value value, void *ctx) {
    (void)key;
    (void)key_len;
    return hh__strings(value, (struct hh__strings *)ctx);
}

static inline int hh_each_string(hh_value v, hh_string_fn fn, void *ctx) {
    struct hh__strings s = {fn, ctx, 0};
    return hh__strings(v, &s);
}

/* ---- The event ---------------------------------------------------------- */

/* Parses an event from text (which the input keeps; it is not copied).
 * Returns 0, or -1 when the text is not one JSON object. */
static inline int hh_parse_input(char *text, size_t len, hh_input *in) {
    in->text = text;
    in->len = len;
    const char *start = hh__ws(text, text + len);
    const char *end = hh__skip_value(start, text + len, 0);
    if (!end || *start != '{' || hh__ws(end, text + len) != text + len) return -1;
    in->root.start = start;
    in->root.end = end;
    return 0;
}

/* Reads the whole of stdin and parses it. Returns 0, or -1 (read error, out
 * of memory, not one JSON object). */
static inline int hh_read_input(hh_input *in) {
    size_t cap = 64 * 1024, len = 0;
    char *text = (char *)malloc(cap + 1);
    if (!text) return -1;
    for (;;) {
        size_t n = fread(text + len, 1, cap - len, stdin);
        len += n;
        if (len < cap) {
            if (ferror(stdin)) { free(text); return -1; }
            break;
        }
        char *bigger = (char *)realloc(text, cap * 2 + 1);
        if (!bigger) { free(text); return -1; }
        text = bigger;
        cap *= 2;
    }
    text[len] = '\0';
    return hh_parse_input(text, len, in);
}

/* hook_event_name (BeforeTool, AfterTool, ...), decoded, or NULL. */
static inline char *hh_event(const hh_input *in) { return hh_get_string(in->root, "hook_event_name"); }

/* tool_name, decoded, or NULL on events without a tool call. */
static inline char *hh_tool_name(const hh_input *in) { return hh_get_string(in->root, "tool_name"); }

/* tool_input, the call's arguments (an object); .start is NULL without one. */
static inline hh_value hh_tool_input(const hh_input *in) { return hh_get(in->root, "tool_input"); }

/* The command line of a shell tool call (run_shell_command, Bash), or NULL. */
static inline char *hh_shell_command(const hh_input *in) {
    char *tool = hh_tool_name(in);
    int shell = tool && (strcmp(tool, "run_shell_command") == 0 || strcmp(tool, "Bash") == 0);
    free(tool);
    return shell ? hh_get_string(hh_tool_input(in), "command") : NULL;
}

/* What a file-writing tool call puts into a file. */
typedef struct {
    char *path;    /* file_path, absolute_path, notebook_path or path */
    char *content; /* the whole file (write_file, Write) or an edit's new text */
    int whole_file;
} hh_file_write;

/* The path and text of write_file/Write (whole file), replace/Edit (new_string)
 * or NotebookEdit (new_source). Returns 0 and fills *w, or -1 for any other
 * call (MultiEdit: read tool_input's "edits" with hh_each). */
static inline int hh_get_file_write(const hh_input *in, hh_file_write *w) {
    static const char *const path_keys[] = {"file_path", "absolute_path", "notebook_path", "path"};
    char *tool = hh_tool_name(in);
    hh_value args = hh_tool_input(in);
    const char *content_key = NULL;
    w->whole_file = 0;
    if (tool && (strcmp(tool, "write_file") == 0 || strcmp(tool, "Write") == 0)) {
        content_key = "content";
        w->whole_file = 1;
    } else if (tool && (strcmp(tool, "replace") == 0 || strcmp(tool, "Edit") == 0)) {
        content_key = "new_string";
    } else if (tool && strcmp(tool, "NotebookEdit") == 0) {
        content_key = "new_source";
    }
    free(tool);
    if (!content_key) return -1;
    w->path = NULL;
    for (size_t i = 0; i < 4 && !w->path; i++) w->path = hh_get_string(args, path_keys[i]);
    w->content = hh_get_string(args, content_key);
    if (!w->path || !w->content) {
        free(w->path);
        free(w->content);
        return -1;
    }
    return 0;
}

/* ---- Answers ------------------------------------------------------------ */

/* Writes s as a JSON string (quoted, escaped) to f. */
static inline void hh_write_json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c == '\n') fputs("\\n", f);
        else if (c == '\r') fputs("\\r", f);
        else if (c == '\t') fputs("\\t", f);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

/* Proceeds: prints {} and exits 0. */
static inline _Noreturn void hh_allow(void) {
    fputs("{}\n", stdout);
    fflush(stdout);
    exit(HH_EXIT_OK);
}

/* Blocks with a reason shown to the model and the user: prints
 * {"decision":"block","reason":...} and exits 2. */
static inline _Noreturn void hh_block(const char *reason) {
    fputs("{\"decision\":\"block\",\"reason\":", stdout);
    hh_write_json_string(stdout, reason);
    fputs("}\n", stdout);
    fflush(stdout);
    exit(HH_EXIT_BLOCK);
}

/* A failed hook: the message on stderr, exit 1 (fails open unless the hook's
 * failurePolicy is "block"). */
static inline _Noreturn void hh_fail(const char *message) {
    fprintf(stderr, "%s\n", message);
    exit(HH_EXIT_FAIL);
}

/* ---- Text helpers ------------------------------------------------------- */

/* The length of the Unicode white space character at s (of n bytes), or 0:
 * ASCII space, tab, newline, CR, VT, FF and the White_Space characters above
 * ASCII (U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F,
 * U+205F, U+3000), as Python's str.split() and Go's strings.Fields see it. */
static inline size_t hh_space_at(const char *s, size_t n) {
    const unsigned char *u = (const unsigned char *)s;
    if (n >= 1 && (u[0] == ' ' || (u[0] >= '\t' && u[0] <= '\r'))) return 1;
    if (n >= 1 && u[0] >= 0x1C && u[0] <= 0x1F) return 1; /* Python splits these too */
    if (n >= 2 && u[0] == 0xC2 && (u[1] == 0x85 || u[1] == 0xA0)) return 2;
    if (n >= 3 && u[0] == 0xE1 && u[1] == 0x9A && u[2] == 0x80) return 3;
    if (n >= 3 && u[0] == 0xE2 && u[1] == 0x80 &&
        (u[2] <= 0x8A || u[2] == 0xA8 || u[2] == 0xA9 || u[2] == 0xAF)) return 3;
    if (n >= 3 && u[0] == 0xE2 && u[1] == 0x81 && u[2] == 0x9F) return 3;
    if (n >= 3 && u[0] == 0xE3 && u[1] == 0x80 && u[2] == 0x80) return 3;
    return 0;
}

/* Whether text (len bytes), split at white space (hh_space_at), has the word. */
static inline int hh_has_word(const char *text, size_t len, const char *word) {
    size_t wlen = strlen(word), i = 0;
    while (i < len) {
        size_t sp;
        while (i < len && (sp = hh_space_at(text + i, len - i)) > 0) i += sp;
        size_t start = i;
        while (i < len && hh_space_at(text + i, len - i) == 0) i++;
        if (i - start == wlen && memcmp(text + start, word, wlen) == 0) return 1;
    }
    return 0;
}

static const char *const hh__key_labels[] = {
    "PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY", "DSA PRIVATE KEY",
    "OPENSSH PRIVATE KEY", "ENCRYPTED PRIVATE KEY", "PGP PRIVATE KEY BLOCK",
};

/* The next line of text from *p (lines end at a newline or at the two
 * characters \n); returns 0 at the end (*p is NULL then). The line is
 * [*start, *stop). */
static inline int hh__next_line(const char **p, const char *end, const char **start, const char **stop) {
    if (!*p) return 0;
    *start = *p;
    const char *q = *p;
    while (q < end && *q != '\n' && !(q + 1 < end && q[0] == '\\' && q[1] == 'n')) q++;
    *stop = q;
    *p = q >= end ? NULL : q + (*q == '\n' ? 1 : 2);
    return 1;
}

static inline int hh__key_body(const char *p, const char *end, const char *label) {
    const char *start, *stop;
    size_t body = 0;
    int headers = 1;
    while (hh__next_line(&p, end, &start, &stop)) {
        while (start < stop && (*start == ' ' || *start == '\t' || *start == '\r')) start++;
        while (stop > start && (stop[-1] == ' ' || stop[-1] == '\t' || stop[-1] == '\r')) stop--;
        size_t n = (size_t)(stop - start);
        const char *marker = NULL;
        for (const char *q = start; q + 9 <= stop; q++)
            if (memcmp(q, "-----END ", 9) == 0) { marker = q + 9; break; }
        if (marker) {
            size_t l = strlen(label);
            return (size_t)(stop - marker) >= l + 5 && memcmp(marker, label, l) == 0 &&
                   memcmp(marker + l, "-----", 5) == 0 && body >= 64;
        }
        if (n == 0) continue;
        if (headers) {
            const char *colon = NULL;
            for (const char *q = start; q + 1 < stop; q++)
                if (q[0] == ':' && q[1] == ' ') { colon = q; break; }
            int header = colon && colon > start;
            for (const char *q = start; header && q < colon; q++)
                header = (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
                         (*q >= '0' && *q <= '9') || *q == '-';
            if (header) continue;
            headers = 0;
        }
        if (*start == '=') start++; /* PGP's checksum line */
        for (const char *q = start; q < stop; q++)
            if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
                  (*q >= '0' && *q <= '9') || *q == '+' || *q == '/' || *q == '='))
                return 0;
        body += (size_t)(stop - start);
    }
    return 0;
}

/* The PEM label of a whole private key in text ("OPENSSH PRIVATE KEY"), or
 * NULL: a -----BEGIN <label>----- line, optional "Name: value" headers, at
 * least 64 base64 characters and the matching -----END line. A bare marker
 * (a grep for it) is not a key. The rule of the Rust SDK's
 * secrets::find_private_key. */
static inline const char *hh_find_private_key(const char *text, size_t len) {
    const char *p = text, *end = text + len, *start, *stop;
    while (hh__next_line(&p, end, &start, &stop)) {
        for (const char *q = start; q + 11 <= stop; q++) {
            if (memcmp(q, "-----BEGIN ", 11) != 0) continue;
            const char *label = q + 11;
            for (size_t i = 0; i < sizeof hh__key_labels / sizeof *hh__key_labels; i++) {
                size_t l = strlen(hh__key_labels[i]);
                if ((size_t)(stop - label) >= l + 5 && memcmp(label, hh__key_labels[i], l) == 0 &&
                    memcmp(label + l, "-----", 5) == 0 && p && hh__key_body(p, end, hh__key_labels[i]))
                    return hh__key_labels[i];
            }
            break;
        }
    }
    return NULL;
}

#endif /* HOOKHOST_H */
