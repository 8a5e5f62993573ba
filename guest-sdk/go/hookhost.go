// Package guest is the hookhost guest SDK for Go: plugin hooks compiled with
// GOOS=wasip1 GOARCH=wasm (a WASI preview-1 module), or natively as a command
// hook.
//
// A hook reads one JSON event on stdin and answers with JSON on stdout and an
// exit status: 0 proceeds, 2 blocks, anything else is a failed hook (which
// fails open unless the hook's failurePolicy says otherwise). Run does all of
// that around a policy function:
//
//	func main() { guest.Run(policy) }
//
//	func policy(in *guest.Input) (guest.Output, error) {
//		call, ok := in.ToolCall()
//		if ok && in.Event == "BeforeTool" {
//			if cmd, ok := call.ShellCommand(); ok && strings.Contains(cmd, "rm -rf /") {
//				return guest.Block("no"), nil
//			}
//		}
//		return guest.Allow(), nil
//	}
//
// Plugins always receive hookhost's canonical input, whatever settings file
// declares them: hook_event_name is BeforeTool, AfterTool, BeforeModel, …
// (never Claude's PreToolUse). Tool names are the agent's own (LLxprt and
// Gemini CLI: run_shell_command, write_file, replace; Claude Code: Bash, Write,
// Edit, MultiEdit); ToolCall's helpers read both.
//
// The SDK is one file with no dependencies outside the standard library;
// `hookhost new --lang go` vendors it into a new project.
package guest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// Exit statuses a hook answers with.
const (
	ExitOK    = 0 // proceed (the JSON on stdout is read)
	ExitBlock = 2 // block (the reason is read from the JSON, else from stderr)
	ExitError = 1 // a failed hook: fails open unless failurePolicy is "block"
)

// Input is one event as hookhost sends it to a plugin. The fields every event
// has are typed; the rest of the object is in Raw.
type Input struct {
	// Event is hookhost's canonical event name: BeforeTool, AfterTool,
	// BeforeModel, AfterModel, BeforeToolSelection, BeforeAgent, AfterAgent,
	// SessionStart, SessionEnd, PreCompress, Notification, …
	Event     string `json:"hook_event_name"`
	SessionID string `json:"session_id"`
	Cwd       string `json:"cwd"`
	// ToolName and ToolInput are set on tool events (BeforeTool, AfterTool,
	// PermissionRequest, …); ToolInput is the raw JSON object.
	ToolName  string          `json:"tool_name"`
	ToolInput json.RawMessage `json:"tool_input"`
	// Raw is the whole input object, for the fields this type does not name.
	Raw json.RawMessage `json:"-"`
}

// ParseInput reads an event from its JSON text.
func ParseInput(data []byte) (*Input, error) {
	var in Input
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, err
	}
	in.Raw = append(json.RawMessage(nil), data...)
	return &in, nil
}

// Field decodes the top-level field key of the input into v; it reports
// whether the field was there.
func (in *Input) Field(key string, v any) bool {
	var fields map[string]json.RawMessage
	if json.Unmarshal(in.Raw, &fields) != nil {
		return false
	}
	raw, ok := fields[key]
	return ok && json.Unmarshal(raw, v) == nil
}

// ToolCall is a tool call as a policy wants to see it, whatever agent sent it.
type ToolCall struct {
	Name  string          // the tool's name as the agent sent it
	Input json.RawMessage // its arguments, a JSON object
}

// ToolCall returns the event's tool call, when it has one.
func (in *Input) ToolCall() (ToolCall, bool) {
	if in.ToolName == "" {
		return ToolCall{}, false
	}
	input := in.ToolInput
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	return ToolCall{Name: in.ToolName, Input: input}, true
}

// fields is the call's arguments as an object (nil when they are not one).
func (c ToolCall) fields() map[string]json.RawMessage {
	var fields map[string]json.RawMessage
	if json.Unmarshal(c.Input, &fields) != nil {
		return nil
	}
	return fields
}

// str is the string argument key of fields.
func str(fields map[string]json.RawMessage, key string) (string, bool) {
	var s string
	raw, ok := fields[key]
	if !ok || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// ShellCommand returns the command line of a shell tool call
// (run_shell_command, Bash).
func (c ToolCall) ShellCommand() (string, bool) {
	if c.Name != "run_shell_command" && c.Name != "Bash" {
		return "", false
	}
	return str(c.fields(), "command")
}

// FileWrite is what a file-writing tool call puts into a file.
type FileWrite struct {
	Path      string // file_path, absolute_path, notebook_path or path, as given
	Content   string // the whole file, or an edit's new text
	WholeFile bool   // Content is the whole new file (write_file, Write)
}

// FileWrite returns the path and text of a file-writing call: write_file and
// Write (the whole file), replace, Edit and MultiEdit (the new text, one
// new_string per line), NotebookEdit (the cell's new source).
func (c ToolCall) FileWrite() (FileWrite, bool) {
	fields := c.fields()
	var w FileWrite
	found := false
	for _, key := range []string{"file_path", "absolute_path", "notebook_path", "path"} {
		if w.Path, found = str(fields, key); found {
			break
		}
	}
	if !found {
		return FileWrite{}, false
	}
	var ok bool
	switch c.Name {
	case "write_file", "Write":
		w.Content, ok = str(fields, "content")
		w.WholeFile = true
	case "replace", "Edit":
		w.Content, ok = str(fields, "new_string")
	case "NotebookEdit":
		w.Content, ok = str(fields, "new_source")
	case "MultiEdit":
		var input struct {
			Edits []struct {
				NewString *string `json:"new_string"`
			} `json:"edits"`
		}
		if json.Unmarshal(c.Input, &input) != nil || input.Edits == nil {
			return FileWrite{}, false
		}
		var texts []string
		for _, e := range input.Edits {
			if e.NewString != nil {
				texts = append(texts, *e.NewString)
			}
		}
		w.Content, ok = strings.Join(texts, "\n"), true
	}
	if !ok {
		return FileWrite{}, false
	}
	return w, true
}

// Strings returns every string value inside the call's arguments (not the
// keys), depth first, in the order the JSON has them.
func (c ToolCall) Strings() []string {
	return Strings(c.Input)
}

// Strings returns every string value inside a JSON value (not the object
// keys), depth first, in document order. Invalid JSON yields what was read
// before the error.
func Strings(raw json.RawMessage) []string {
	type level struct{ object, wantKey bool }
	dec := json.NewDecoder(bytes.NewReader(raw))
	var out []string
	var stack []level
	for {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		var top *level
		if len(stack) > 0 {
			top = &stack[len(stack)-1]
		}
		if _, ok := tok.(string); ok && top != nil && top.wantKey {
			top.wantKey = false
			continue
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			continue
		}
		// A value: after it, an object expects its next key.
		if top != nil && top.object {
			top.wantKey = true
		}
		switch t := tok.(type) {
		case json.Delim:
			stack = append(stack, level{object: t == '{', wantKey: t == '{'})
		case string:
			out = append(out, t)
		}
	}
}

// Output is a hook's answer. The zero value (printed as {}) proceeds.
type Output struct {
	Decision       string         `json:"decision,omitempty"` // "block", "deny", "allow", "ask"
	Reason         string         `json:"reason,omitempty"`
	SystemMessage  string         `json:"systemMessage,omitempty"` // shown to the user
	Continue       *bool          `json:"continue,omitempty"`      // false stops the agent
	StopReason     string         `json:"stopReason,omitempty"`
	SuppressOutput bool           `json:"suppressOutput,omitempty"`
	HookSpecific   map[string]any `json:"hookSpecificOutput,omitempty"`
}

// Allow proceeds and says nothing: {}.
func Allow() Output { return Output{} }

// Block blocks the event with a reason shown to the model and the user; Run
// exits with status 2.
func Block(reason string) Output { return Output{Decision: "block", Reason: reason} }

// IsBlock reports whether the output blocks.
func (o Output) IsBlock() bool { return o.Decision == "block" || o.Decision == "deny" }

// AdditionalContext adds text for the model (hookSpecificOutput.additionalContext).
func (o Output) AdditionalContext(text string) Output {
	if o.HookSpecific == nil {
		o.HookSpecific = map[string]any{}
	}
	o.HookSpecific["additionalContext"] = text
	return o
}

// JSON is the output as one line of JSON.
func (o Output) JSON() string {
	data, err := json.Marshal(o)
	if err != nil {
		return "{}"
	}
	return string(data)
}

// Outcome is what a hook run produces, for tests: stdout, stderr, exit status.
type Outcome struct {
	Stdout, Stderr string
	Code           int
}

// Handle runs policy on one event's JSON and returns what Run would print and
// the exit status, without I/O: unit tests call it natively.
func Handle(stdin []byte, policy func(*Input) (Output, error)) Outcome {
	in, err := ParseInput(stdin)
	if err != nil {
		return Outcome{Stderr: fmt.Sprintf("input is not JSON: %v\n", err), Code: ExitError}
	}
	out, err := policy(in)
	if err != nil {
		return Outcome{Stderr: err.Error() + "\n", Code: ExitError}
	}
	code := ExitOK
	if out.IsBlock() {
		code = ExitBlock
	}
	return Outcome{Stdout: out.JSON() + "\n", Code: code}
}

// Run reads the event from stdin, runs policy, prints its answer and exits:
// 0, 2 when the answer blocks, 1 (a failed hook, stderr says why) on an error.
func Run(policy func(*Input) (Output, error)) {
	stdin, err := io.ReadAll(os.Stdin)
	var o Outcome
	if err != nil {
		o = Outcome{Stderr: fmt.Sprintf("cannot read stdin: %v\n", err), Code: ExitError}
	} else {
		o = Handle(stdin, policy)
	}
	os.Stdout.WriteString(o.Stdout)
	os.Stderr.WriteString(o.Stderr)
	os.Exit(o.Code)
}
