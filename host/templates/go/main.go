// {{name}}: a hookhost BeforeTool policy in Go, compiled to a WASI preview-1
// module (GOOS=wasip1 GOARCH=wasm).
//
// It blocks tool calls that touch protected system directories (any string in
// tool_input under /etc, /usr, /bin or /boot, or under the colon-separated
// prefixes of DENY_PREFIXES when it is set) and shell commands that use sudo.
// Everything else is allowed.
package main

import (
	"fmt"
	"os"
	"strings"

	guest "hookhost/guest"
)

const defaultDeny = "/etc:/usr:/bin:/boot"

func main() {
	// Run reads the event from stdin, prints the answer and exits 0, or 2 when
	// it blocks (os.Exit(2) reaches hookhost as 2 in a preview-1 module).
	guest.Run(policy)
}

func policy(in *guest.Input) (guest.Output, error) {
	call, ok := in.ToolCall()
	if in.Event != "BeforeTool" || !ok {
		// Not our event: say nothing, which means "proceed".
		return guest.Allow(), nil
	}
	// ShellCommand reads run_shell_command (LLxprt, Gemini CLI) and Bash (Claude Code).
	if command, ok := call.ShellCommand(); ok {
		for _, word := range strings.Fields(command) {
			if word == "sudo" {
				return guest.Block(fmt.Sprintf("{{name}}: %s may not use sudo", call.Name)), nil
			}
		}
	}
	deny, set := os.LookupEnv("DENY_PREFIXES")
	if !set {
		deny = defaultDeny
	}
	for _, text := range call.Strings() {
		for _, prefix := range strings.Split(deny, ":") {
			prefix = strings.TrimRight(prefix, "/")
			if prefix != "" && (text == prefix || strings.HasPrefix(text, prefix+"/")) {
				return guest.Block(fmt.Sprintf("{{name}}: %s may not touch %s/ (%s)", call.Name, prefix, text)), nil
			}
		}
	}
	return guest.Allow(), nil
}
