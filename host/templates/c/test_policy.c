/* Unit tests of policy.c, natively (./build.sh runs them):
 *   cc -std=c11 -D_DEFAULT_SOURCE -o test_policy test_policy.c && ./test_policy */
#define POLICY_TEST
#include "policy.c"

static int failures;

static void expect(const char *json, const char *deny, const char *reason) {
    hh_input in;
    char *text = strdup(json);
    struct scan scan;
    const char *got = hh_parse_input(text, strlen(text), &in) == 0 ? decide(&in, deny, &scan) : "(not JSON)";
    if ((got == NULL) != (reason == NULL) || (got && strcmp(got, reason) != 0)) {
        fprintf(stderr, "%s with %s: got %s, want %s\n", json, deny, got ? got : "allow",
                reason ? reason : "allow");
        failures++;
    }
    free(text);
}

int main(void) {
    const char *d = "/etc:/usr:/bin:/boot";
    expect("{\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"write_file\",\"tool_input\":{\"file_path\":\"/etc/passwd\"}}",
           d, TAG ": write_file may not touch /etc/ (/etc/passwd)");
    expect("{\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls && sudo rm x\"}}",
           d, TAG ": Bash may not use sudo");
    expect("{\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"run_shell_command\",\"tool_input\":{\"command\":\"echo pseudo\"}}",
           d, NULL);
    expect("{\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"write_file\",\"tool_input\":{\"file_path\":\"/etcetera\"}}",
           d, NULL);
    expect("{\"hook_event_name\":\"AfterTool\",\"tool_name\":\"write_file\",\"tool_input\":{\"file_path\":\"/etc/x\"}}",
           d, NULL);
    expect("{\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"write_file\",\"tool_input\":{\"file_path\":\"/srv/www\"}}",
           "/srv/", TAG ": write_file may not touch /srv/ (/srv/www)");
    if (failures) return 1;
    puts("policy: all tests passed");
    return 0;
}
