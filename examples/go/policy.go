// A hookhost BeforeTool policy in Go, compiled to a WASI preview-1 module
// (GOOS=wasip1 GOARCH=wasm).
//
// It blocks tool calls that touch protected system directories (any string in
// tool_input under a prefix listed in DENY_PREFIXES, colon-separated, default
// /etc:/usr:/bin:/boot) and shell commands that use sudo; anything else is
// allowed with {}. The same rules, order and reasons as examples/python,
// examples/js, examples/c and examples/zig (only the go-policy: tag differs).
package main

import (
	"fmt"
	"os"
	"strings"

	guest "hookhost/guest"
)

const (
	tag         = "go-policy"
	defaultDeny = "/etc:/usr:/bin:/boot"
)

func main() {
	guest.Run(func(in *guest.Input) (guest.Output, error) {
		deny, ok := os.LookupEnv("DENY_PREFIXES")
		if !ok {
			deny = defaultDeny
		}
		if reason, block := decide(in, deny); block {
			return guest.Block(reason), nil
		}
		return guest.Allow(), nil
	})
}

// decide returns the block reason for an event, if it is to be blocked.
func decide(in *guest.Input, deny string) (string, bool) {
	call, ok := in.ToolCall()
	if in.Event != "BeforeTool" || !ok {
		return "", false
	}
	if command, ok := call.ShellCommand(); ok && call.Name == "run_shell_command" {
		// strings.Fields splits at Unicode white space, as Python's split() does.
		for _, word := range strings.Fields(command) {
			if word == "sudo" {
				return fmt.Sprintf("%s: %s may not use sudo", tag, call.Name), true
			}
		}
	}
	var prefixes []string
	for _, p := range strings.Split(deny, ":") {
		if p != "" {
			prefixes = append(prefixes, strings.TrimRight(p, "/"))
		}
	}
	for _, text := range call.Strings() {
		for _, prefix := range prefixes {
			if text == prefix || strings.HasPrefix(text, prefix+"/") {
				return fmt.Sprintf("%s: %s may not touch %s/ (%s)", tag, call.Name, prefix, text), true
			}
		}
	}
	return "", false
}
