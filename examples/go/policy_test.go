package main

import (
	"testing"

	guest "hookhost/guest"
)

func event(t *testing.T, json string) *guest.Input {
	t.Helper()
	in, err := guest.ParseInput([]byte(json))
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func TestDecide(t *testing.T) {
	cases := []struct {
		input, deny, reason string
	}{
		{`{"hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"file_path":"/etc/passwd"}}`, defaultDeny,
			"go-policy: write_file may not touch /etc/ (/etc/passwd)"},
		{`{"hook_event_name":"BeforeTool","tool_name":"copy","tool_input":{"from":"/usr/lib/x","to":"/etc/x"}}`, defaultDeny,
			"go-policy: copy may not touch /usr/ (/usr/lib/x)"},
		{`{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"echo hi;\u00a0sudo\u2003id"}}`, defaultDeny,
			"go-policy: run_shell_command may not use sudo"},
		{`{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"echo pseudo sudoku"}}`, defaultDeny, ""},
		{`{"hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"file_path":"/etcetera"}}`, defaultDeny, ""},
		{`{"hook_event_name":"AfterTool","tool_name":"write_file","tool_input":{"file_path":"/etc/passwd"}}`, defaultDeny, ""},
		{`{"hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"file_path":"/etc/passwd"}}`, "/srv/:/opt", ""},
		{`{"hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"file_path":"/srv/www"}}`, "/srv/:/opt",
			"go-policy: write_file may not touch /srv/ (/srv/www)"},
	}
	for _, c := range cases {
		reason, _ := decide(event(t, c.input), c.deny)
		if reason != c.reason {
			t.Errorf("%s with %s: got %q, want %q", c.input, c.deny, reason, c.reason)
		}
	}
}
