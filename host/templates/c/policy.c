/*
 * {{name}}: a hookhost BeforeTool policy in C, compiled to a WASI preview-1
 * module with clang and wasi-libc (./build.sh).
 *
 * It blocks tool calls that touch protected system directories (any string in
 * tool_input under /etc, /usr, /bin or /boot, or under the colon-separated
 * prefixes of DENY_PREFIXES when it is set) and shell commands that use sudo.
 * Everything else is allowed.
 */
#include "hookhost.h"

#define TAG "{{name}}"

struct scan {
    const char *deny, *tool;
    char reason[1024];
};

/* Checks one string of tool_input against the prefixes; stops at the first match. */
static int check_string(const char *text, size_t text_len, void *ctx) {
    struct scan *s = (struct scan *)ctx;
    for (const char *p = s->deny; *p;) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p), stem = len;
        while (stem > 0 && p[stem - 1] == '/') stem--;
        if (stem > 0 && text_len >= stem && memcmp(text, p, stem) == 0 &&
            (text_len == stem || text[stem] == '/')) {
            snprintf(s->reason, sizeof s->reason, TAG ": %s may not touch %.*s/ (%.*s)", s->tool,
                     (int)stem, p, (int)text_len, text);
            return 1;
        }
        p += len + (colon ? 1 : 0);
    }
    return 0;
}

/* The block reason for an event, or NULL to allow it. */
static const char *decide(const hh_input *in, const char *deny, struct scan *scan) {
    char *event = hh_event(in), *tool = hh_tool_name(in);
    int before_tool = event && strcmp(event, "BeforeTool") == 0;
    free(event);
    if (!before_tool || !tool) {
        free(tool);
        return NULL;
    }
    /* hh_shell_command reads run_shell_command (LLxprt, Gemini CLI) and Bash (Claude Code). */
    char *command = hh_shell_command(in);
    if (command && hh_has_word(command, strlen(command), "sudo")) {
        snprintf(scan->reason, sizeof scan->reason, TAG ": %s may not use sudo", tool);
        free(command);
        free(tool);
        return scan->reason;
    }
    free(command);
    scan->deny = deny;
    scan->tool = tool;
    int found = hh_each_string(hh_tool_input(in), check_string, scan);
    free(tool);
    return found ? scan->reason : NULL;
}

#ifndef POLICY_TEST
int main(void) {
    hh_input in;
    if (hh_read_input(&in) != 0) hh_fail(TAG ": input is not a JSON object");
    const char *deny = getenv("DENY_PREFIXES");
    struct scan scan;
    const char *reason = decide(&in, deny ? deny : "/etc:/usr:/bin:/boot", &scan);
    if (reason) hh_block(reason); /* prints the decision, exits 2 */
    hh_allow();                   /* prints {}, exits 0 */
}
#endif
