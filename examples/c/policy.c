/*
 * A hookhost BeforeTool policy in C, compiled to a WASI preview-1 module with
 * clang and wasi-libc (./build.sh).
 *
 * It blocks tool calls that touch protected system directories (any string in
 * tool_input under a prefix listed in DENY_PREFIXES, colon-separated, default
 * /etc:/usr:/bin:/boot) and shell commands that use sudo; anything else is
 * allowed with {}. The same rules, order and reasons as examples/python,
 * examples/js, examples/go and examples/zig (only the c-policy: tag differs).
 */
#include "hookhost.h"

#define TAG "c-policy"

/* What each_string needs to check one string against the prefixes. */
struct scan {
    const char *deny;  /* the colon-separated prefixes */
    const char *tool;
    char *reason;      /* set on the first match */
};

/* Whether text is prefix (len bytes, trailing '/' dropped) or under it. */
static int under(const char *text, size_t text_len, const char *prefix, size_t len) {
    while (len > 0 && prefix[len - 1] == '/') len--;
    if (text_len < len || memcmp(text, prefix, len) != 0) return 0;
    return text_len == len || text[len] == '/';
}

static int check_string(const char *text, size_t text_len, void *ctx) {
    struct scan *s = (struct scan *)ctx;
    for (const char *p = s->deny; *p;) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        if (len > 0 && under(text, text_len, p, len)) {
            while (len > 0 && p[len - 1] == '/') len--;
            size_t size = strlen(TAG) + strlen(s->tool) + len + text_len + 64;
            s->reason = malloc(size);
            if (!s->reason) hh_fail(TAG ": out of memory");
            snprintf(s->reason, size, TAG ": %s may not touch %.*s/ (%.*s)", s->tool, (int)len, p,
                     (int)text_len, text);
            return 1;
        }
        p += len + (colon ? 1 : 0);
    }
    return 0;
}

int main(void) {
    hh_input in;
    if (hh_read_input(&in) != 0) hh_fail(TAG ": input is not a JSON object");
    char *event = hh_event(&in);
    char *tool = hh_tool_name(&in);
    if (!event || strcmp(event, "BeforeTool") != 0 || !tool) hh_allow();

    char *command = hh_shell_command(&in);
    if (command && strcmp(tool, "run_shell_command") == 0 &&
        hh_has_word(command, strlen(command), "sudo")) {
        char reason[256];
        snprintf(reason, sizeof reason, TAG ": %s may not use sudo", tool);
        hh_block(reason);
    }

    const char *deny = getenv("DENY_PREFIXES");
    struct scan scan = {deny ? deny : "/etc:/usr:/bin:/boot", tool, NULL};
    hh_each_string(hh_tool_input(&in), check_string, &scan);
    if (scan.reason) hh_block(scan.reason);
    hh_allow();
}
