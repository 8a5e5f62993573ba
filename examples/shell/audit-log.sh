#!/bin/sh
# AfterTool: append one JSON line per tool call to an audit log; never influences the
# agent (prints nothing). HOOKHOST_AUDIT_LOG chooses the file.
log=${HOOKHOST_AUDIT_LOG:-${TMPDIR:-/tmp}/hookhost-audit.jsonl}
{ cat; echo; } >> "$log"
