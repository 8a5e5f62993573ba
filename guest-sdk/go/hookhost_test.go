package guest

import (
	"reflect"
	"strings"
	"testing"
)

func TestStringsAreValuesInDocumentOrder(t *testing.T) {
	got := Strings([]byte(`{"from":"/usr/x","to":"/etc/x","n":1,"k":{"a":["p",{"b":"q"},null],"c":"r"},"z":"s"}`))
	want := []string{"/usr/x", "/etc/x", "p", "q", "r", "s"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got := Strings([]byte(`{"a":"x","b":`)); !reflect.DeepEqual(got, []string{"x"}) {
		t.Fatalf("truncated JSON: %q", got)
	}
}

func TestToolCallViewsReadBothDialects(t *testing.T) {
	for _, name := range []string{"run_shell_command", "Bash"} {
		in, err := ParseInput([]byte(`{"hook_event_name":"BeforeTool","tool_name":"` + name + `","tool_input":{"command":"ls"}}`))
		if err != nil {
			t.Fatal(err)
		}
		call, _ := in.ToolCall()
		if cmd, ok := call.ShellCommand(); !ok || cmd != "ls" {
			t.Fatalf("%s: %q %v", name, cmd, ok)
		}
	}
	call := ToolCall{Name: "MultiEdit", Input: []byte(`{"file_path":"a","edits":[{"new_string":"x"},{"new_string":"y"}]}`)}
	if w, ok := call.FileWrite(); !ok || w.Content != "x\ny" || w.WholeFile || w.Path != "a" {
		t.Fatalf("%+v %v", w, ok)
	}
	call = ToolCall{Name: "write_file", Input: []byte(`{"absolute_path":"/p","content":"c"}`)}
	if w, ok := call.FileWrite(); !ok || w != (FileWrite{Path: "/p", Content: "c", WholeFile: true}) {
		t.Fatalf("%+v %v", w, ok)
	}
	if _, ok := (ToolCall{Name: "read_file", Input: []byte(`{"file_path":"a"}`)}).FileWrite(); ok {
		t.Fatal("read_file is not a write")
	}
}

const key = "-----BEGIN OPENSSH PRIVATE KEY-----\n" +
	"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n" +
	"QyNTUxOQAAACBo3mAVmVzo9pDNLlVYcQNiKmpWgPxEwq0Dl9Q2x9QHZwAAAJg3Vh5BN1Ye\n" +
	"-----END OPENSSH PRIVATE KEY-----\n"

func TestFindPrivateKeyNeedsAWholeKey(t *testing.T) {
	if label, ok := FindPrivateKey(key); !ok || label != "OPENSSH PRIVATE KEY" {
		t.Fatalf("%q %v", label, ok)
	}
	if _, ok := FindPrivateKey(strings.ReplaceAll(key, "\n", `\n`)); !ok {
		t.Fatal("a key pasted with \\n escapes")
	}
	for _, text := range []string{
		"grep -- '-----BEGIN RSA PRIVATE KEY-----' src > leaks.txt",
		"-----BEGIN RSA PRIVATE KEY-----\nnot base64 at all!\n-----END RSA PRIVATE KEY-----",
		strings.Replace(key, "-----END OPENSSH", "-----END RSA", 1),
	} {
		if _, ok := FindPrivateKey(text); ok {
			t.Fatalf("not a key: %q", text)
		}
	}
}

func TestHandleExitsTwoOnABlockAndOneOnBadInput(t *testing.T) {
	block := func(*Input) (Output, error) { return Block(`say "no"`), nil }
	if o := Handle([]byte(`{}`), block); o.Code != ExitBlock || o.Stdout != "{\"decision\":\"block\",\"reason\":\"say \\\"no\\\"\"}\n" {
		t.Fatalf("%+v", o)
	}
	allow := func(*Input) (Output, error) { return Allow(), nil }
	if o := Handle([]byte(`{}`), allow); o.Code != ExitOK || o.Stdout != "{}\n" {
		t.Fatalf("%+v", o)
	}
	if o := Handle([]byte(`not json`), allow); o.Code != ExitError || !strings.Contains(o.Stderr, "not JSON") {
		t.Fatalf("%+v", o)
	}
}
