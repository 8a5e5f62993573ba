package main

import (
	"testing"

	guest "hookhost/guest"
)

// run is the policy as the plugin runs it: stdout and exit status, no I/O.
func run(t *testing.T, input string) guest.Outcome {
	t.Helper()
	return guest.Handle([]byte(input), policy)
}

func TestBlocksProtectedDirectories(t *testing.T) {
	o := run(t, `{"hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"file_path":"/etc/passwd"}}`)
	want := `{"decision":"block","reason":"{{name}}: write_file may not touch /etc/ (/etc/passwd)"}` + "\n"
	if o.Code != guest.ExitBlock || o.Stdout != want {
		t.Fatalf("%+v", o)
	}
}

func TestBlocksSudoAsAWordInEitherDialect(t *testing.T) {
	for _, tool := range []string{"run_shell_command", "Bash"} {
		o := run(t, `{"hook_event_name":"BeforeTool","tool_name":"`+tool+`","tool_input":{"command":"ls && sudo rm x"}}`)
		if o.Code != guest.ExitBlock {
			t.Fatalf("%s: %+v", tool, o)
		}
	}
	o := run(t, `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"echo pseudo"}}`)
	if o.Code != guest.ExitOK || o.Stdout != "{}\n" {
		t.Fatalf("%+v", o)
	}
}

func TestAllowsEverythingElse(t *testing.T) {
	for _, input := range []string{
		`{"hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"file_path":"src/app.go"}}`,
		`{"hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"file_path":"/etcetera"}}`,
		`{"hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{}}`,
		`{"hook_event_name":"AfterTool","tool_name":"write_file","tool_input":{"p":"/etc"}}`,
	} {
		if o := run(t, input); o.Code != guest.ExitOK {
			t.Fatalf("%s: %+v", input, o)
		}
	}
}

func TestDenyPrefixesReplaceTheDefault(t *testing.T) {
	t.Setenv("DENY_PREFIXES", "/srv/")
	if o := run(t, `{"hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"file_path":"/etc/x"}}`); o.Code != guest.ExitOK {
		t.Fatalf("%+v", o)
	}
	if o := run(t, `{"hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"file_path":"/srv/www"}}`); o.Code != guest.ExitBlock {
		t.Fatalf("%+v", o)
	}
}
