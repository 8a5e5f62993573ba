/* Tests of hookhost.h, natively:
 *   cc -std=c11 -Wall -Wextra -Werror -fsanitize=address,undefined test_hookhost.c && ./a.out */
#include "hookhost.h"

#include <assert.h>

static int failures;

#define CHECK(cond)                                                      \
    do {                                                                 \
        if (!(cond)) {                                                   \
            fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                  \
        }                                                                \
    } while (0)

static hh_input parse(const char *json) {
    hh_input in;
    char *text = strdup(json);
    int rc = hh_parse_input(text, strlen(text), &in);
    CHECK(rc == 0);
    return in;
}

struct collected {
    char all[512];
};

static int collect(const char *text, size_t len, void *ctx) {
    struct collected *c = (struct collected *)ctx;
    strncat(c->all, text, len);
    strcat(c->all, "|");
    return 0;
}

static void strings_are_values_in_document_order(void) {
    hh_input in = parse("{\"from\":\"/usr/x\",\"to\":\"/etc/x\",\"n\":-1.5e3,\"k\":{\"a\":[\"p\",{\"b\":\"q\"},null,true],\"c\":\"r\"},\"z\":\"\\u00fc\\ud83d\\ude00\\n\"}");
    struct collected c = {""};
    hh_each_string(in.root, collect, &c);
    CHECK(strcmp(c.all, "/usr/x|/etc/x|p|q|r|\xc3\xbc\xf0\x9f\x98\x80\n|") == 0);
    free(in.text);
}

static void malformed_json_is_refused_without_a_crash(void) {
    const char *bad[] = {"", "{", "{\"a\":}", "{\"a\":\"x", "[1,2]", "{\"a\":1} {}", "{\"a\":\"\\u12\"}x",
                         "{\"a\":1,}", "\"s\"", "{\"a\x01\":1}"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        hh_input in;
        char *text = strdup(bad[i]);
        CHECK(hh_parse_input(text, strlen(text), &in) == -1);
        free(text);
    }
    /* Deep nesting stops at HH_MAX_DEPTH instead of overflowing the stack. */
    size_t n = 100000;
    char *deep = malloc(2 * n + 8);
    strcpy(deep, "{\"a\":");
    memset(deep + 5, '[', n);
    memset(deep + 5 + n, ']', n);
    strcpy(deep + 5 + 2 * n, "}");
    hh_input in;
    CHECK(hh_parse_input(deep, strlen(deep), &in) == -1);
    free(deep);
    /* A string value that is not valid \u text decodes to NULL. */
    hh_value v = {"\"\\uZZZZ\"", NULL};
    v.end = v.start + strlen(v.start);
    CHECK(hh_string(v, NULL) == NULL);
}

static void tool_call_views_read_both_dialects(void) {
    const char *shells[] = {
        "{\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"run_shell_command\",\"tool_input\":{\"command\":\"ls \\\"a\\\"\"}}",
        "{\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"Bash\",\"tool_input\":{\"description\":\"d\",\"command\":\"ls \\\"a\\\"\"}}",
    };
    for (int i = 0; i < 2; i++) {
        hh_input in = parse(shells[i]);
        char *cmd = hh_shell_command(&in);
        CHECK(cmd && strcmp(cmd, "ls \"a\"") == 0);
        free(cmd);
        free(in.text);
    }
    hh_input in = parse("{\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"/p\",\"content\":\"c\"}}");
    hh_file_write w;
    CHECK(hh_get_file_write(&in, &w) == 0 && strcmp(w.path, "/p") == 0 && strcmp(w.content, "c") == 0 && w.whole_file);
    free(w.path);
    free(w.content);
    free(in.text);
    in = parse("{\"tool_name\":\"replace\",\"tool_input\":{\"absolute_path\":\"a\",\"new_string\":\"n\"}}");
    CHECK(hh_get_file_write(&in, &w) == 0 && strcmp(w.path, "a") == 0 && strcmp(w.content, "n") == 0 && !w.whole_file);
    free(w.path);
    free(w.content);
    free(in.text);
    in = parse("{\"tool_name\":\"read_file\",\"tool_input\":{\"file_path\":\"a\"}}");
    CHECK(hh_get_file_write(&in, &w) == -1);
    CHECK(hh_shell_command(&in) == NULL);
    free(in.text);
}

static const char *KEY =
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
    "QyNTUxOQAAACBo3mAVmVzo9pDNLlVYcQNiKmpWgPxEwq0Dl9Q2x9QHZwAAAJg3Vh5BN1Ye\n"
    "-----END OPENSSH PRIVATE KEY-----\n";

static void a_private_key_needs_a_whole_key(void) {
    const char *label = hh_find_private_key(KEY, strlen(KEY));
    CHECK(label && strcmp(label, "OPENSSH PRIVATE KEY") == 0);
    char escaped[512] = "";
    for (const char *p = KEY; *p; p++) strncat(escaped, *p == '\n' ? "\\n" : (char[]){*p, 0}, 2);
    CHECK(hh_find_private_key(escaped, strlen(escaped)) != NULL);
    const char *not_keys[] = {
        "grep -- '-----BEGIN RSA PRIVATE KEY-----' src > leaks.txt",
        "-----BEGIN RSA PRIVATE KEY-----\nnot base64 at all!\n-----END RSA PRIVATE KEY-----",
        "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----",
        "-----BEGIN OPENSSH PRIVATE KEY-----",
    };
    for (size_t i = 0; i < sizeof not_keys / sizeof *not_keys; i++)
        CHECK(hh_find_private_key(not_keys[i], strlen(not_keys[i])) == NULL);
}

static void words_split_at_unicode_space(void) {
    const char *t = "echo hi;\xc2\xa0sudo\xe2\x80\x83id";
    CHECK(hh_has_word(t, strlen(t), "sudo"));
    t = "echo pseudo sudoku";
    CHECK(!hh_has_word(t, strlen(t), "sudo"));
    t = "ls -la &&\tsudo";
    CHECK(hh_has_word(t, strlen(t), "sudo"));
}

int main(void) {
    strings_are_values_in_document_order();
    malformed_json_is_refused_without_a_crash();
    tool_call_views_read_both_dialects();
    a_private_key_needs_a_whole_key();
    words_split_at_unicode_space();
    if (failures) {
        fprintf(stderr, "%d failed\n", failures);
        return 1;
    }
    puts("hookhost.h: all tests passed");
    return 0;
}
