//! A hookhost BeforeTool policy in Zig, compiled to a WASI preview-1 module.
//!
//! It blocks tool calls that touch protected system directories (any string
//! in `tool_input` under a prefix listed in the `DENY_PREFIXES` variable,
//! colon-separated, default `/etc:/usr:/bin:/boot`) and shell commands that
//! use `sudo`; anything else is allowed with `{}`. The same rules, the same
//! order and the same reasons as `examples/python/app.py` and
//! `examples/js/policy.js` (only the `zig-policy:` tag differs).
//!
//! Exit status: `main` returns a `u8`, which Zig's start code passes to
//! `proc_exit`, so `return 2` reaches hookhost as 2 (block).
//!
//! Build: `./build.sh` (Zig 0.17.1 from PyPI's `ziglang`). Test natively:
//! `python3 -m ziglang test policy.zig`.

const std = @import("std");
const json = std.json;
const Allocator = std.mem.Allocator;

const tag = "zig-policy";
const default_deny = "/etc:/usr:/bin:/boot";

pub fn main(init: std.process.Init) u8 {
    // Everything lives until exit: the arena is freed by the start code.
    const arena = init.arena.allocator();
    var err_buf: [1024]u8 = undefined;
    var stderr = std.Io.File.stderr().writerStreaming(init.io, &err_buf);
    var in_buf: [16 * 1024]u8 = undefined;
    var stdin = std.Io.File.stdin().readerStreaming(init.io, &in_buf);
    const text = stdin.interface.allocRemaining(arena, .unlimited) catch |e| {
        return fail(&stderr.interface, "cannot read stdin", e);
    };
    const event = json.parseFromSliceLeaky(json.Value, arena, text, .{}) catch |e| {
        return fail(&stderr.interface, "input is not JSON", e);
    };
    const deny = init.environ_map.get("DENY_PREFIXES") orelse default_deny;
    const reason = decide(arena, event, deny) catch |e| {
        return fail(&stderr.interface, "out of memory", e);
    };

    var out_buf: [4096]u8 = undefined;
    var stdout = std.Io.File.stdout().writerStreaming(init.io, &out_buf);
    const out = &stdout.interface;
    if (reason) |r| {
        out.print("{f}\n", .{json.fmt(.{ .decision = "block", .reason = r }, .{})}) catch return 1;
        out.flush() catch return 1;
        return 2; // proc_exit(2): block
    }
    out.writeAll("{}\n") catch return 1;
    out.flush() catch return 1;
    return 0;
}

fn fail(stderr: *std.Io.Writer, what: []const u8, err: anyerror) u8 {
    stderr.print(tag ++ ": {s}: {t}\n", .{ what, err }) catch {};
    stderr.flush() catch {};
    return 1; // a failed hook: hookhost proceeds (fail-open)
}

/// The block reason for an event, or null to allow it.
pub fn decide(arena: Allocator, event: json.Value, deny: []const u8) Allocator.Error!?[]const u8 {
    if (event != .object) return null;
    const obj = event.object;
    const name = obj.get("hook_event_name") orelse return null;
    if (name != .string or !std.mem.eql(u8, name.string, "BeforeTool")) return null;
    const tool: []const u8 = if (obj.get("tool_name")) |t| (if (t == .string) t.string else "") else "";
    // Python's `event.get("tool_input") or {}`: an empty string counts as absent.
    const tool_input: json.Value = blk: {
        const v = obj.get("tool_input") orelse break :blk .null;
        if (v == .string and v.string.len == 0) break :blk .null;
        break :blk v;
    };

    if (std.mem.eql(u8, tool, "run_shell_command") and tool_input == .object) {
        if (tool_input.object.get("command")) |command| {
            if (command == .string and hasWord(command.string, "sudo")) {
                return try std.fmt.allocPrint(arena, tag ++ ": {s} may not use sudo", .{tool});
            }
        }
    }

    // The prefixes, each without trailing slashes (an empty entry is skipped).
    var prefixes: std.ArrayList([]const u8) = .empty;
    var parts = std.mem.splitScalar(u8, deny, ':');
    while (parts.next()) |part| {
        if (part.len == 0) continue;
        try prefixes.append(arena, std.mem.trimEnd(u8, part, "/"));
    }
    var hit: ?Hit = null;
    firstHit(tool_input, prefixes.items, &hit);
    if (hit) |h| {
        return try std.fmt.allocPrint(arena, tag ++ ": {s} may not touch {s}/ ({s})", .{ tool, h.prefix, h.text });
    }
    return null;
}

const Hit = struct { prefix: []const u8, text: []const u8 };

/// Walks every string in `value`, depth first in document order, and records
/// the first one under a prefix.
fn firstHit(value: json.Value, prefixes: []const []const u8, hit: *?Hit) void {
    if (hit.* != null) return;
    switch (value) {
        .string => |text| for (prefixes) |prefix| {
            if (under(text, prefix)) {
                hit.* = .{ .prefix = prefix, .text = text };
                return;
            }
        },
        .array => |items| for (items.items) |item| firstHit(item, prefixes, hit),
        .object => |map| for (map.values()) |item| firstHit(item, prefixes, hit),
        else => {},
    }
}

/// `text` is `prefix` itself or lies below it.
fn under(text: []const u8, prefix: []const u8) bool {
    if (std.mem.eql(u8, text, prefix)) return true;
    return text.len > prefix.len and std.mem.startsWith(u8, text, prefix) and text[prefix.len] == '/';
}

/// Whether `word` is one of the whitespace-separated words of `text`
/// (Python's `word in text.split()`, with the same notion of whitespace).
fn hasWord(text: []const u8, word: []const u8) bool {
    var start: ?usize = null;
    var i: usize = 0;
    while (i <= text.len) {
        var len: usize = 1;
        const space = if (i == text.len) true else blk: {
            len = std.unicode.utf8ByteSequenceLength(text[i]) catch 1;
            if (i + len > text.len) len = 1;
            const cp = std.unicode.utf8Decode(text[i .. i + len]) catch break :blk false;
            break :blk isSpace(cp);
        };
        if (space) {
            if (start) |s| if (std.mem.eql(u8, text[s..i], word)) return true;
            start = null;
        } else if (start == null) {
            start = i;
        }
        i += len;
    }
    return false;
}

/// Python's `str.isspace()` for one code point.
fn isSpace(cp: u21) bool {
    return switch (cp) {
        '\t', '\n', 0x0b, 0x0c, '\r', 0x1c...0x20, 0x85, 0xa0, 0x1680, 0x2000...0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000 => true,
        else => false,
    };
}

fn decideText(arena: Allocator, text: []const u8) !?[]const u8 {
    const event = try json.parseFromSliceLeaky(json.Value, arena, text, .{});
    return decide(arena, event, default_deny);
}

test "blocks protected paths and sudo, allows the rest" {
    var arena_state = std.heap.ArenaAllocator.init(std.testing.allocator);
    defer arena_state.deinit();
    const a = arena_state.allocator();
    try std.testing.expectEqualStrings(
        "zig-policy: write_file may not touch /etc/ (/etc/passwd)",
        (try decideText(a, "{\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"write_file\",\"tool_input\":{\"file_path\":\"/etc/passwd\"}}")).?,
    );
    try std.testing.expectEqualStrings(
        "zig-policy: run_shell_command may not use sudo",
        (try decideText(a, "{\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"run_shell_command\",\"tool_input\":{\"command\":\"ls\\tsudo\"}}")).?,
    );
    try std.testing.expect(try decideText(a, "{\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"run_shell_command\",\"tool_input\":{\"command\":\"echo pseudo\"}}") == null);
    try std.testing.expect(try decideText(a, "{\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"write_file\",\"tool_input\":{\"file_path\":\"/etcetera\"}}") == null);
    try std.testing.expect(try decideText(a, "{\"hook_event_name\":\"AfterTool\",\"tool_name\":\"write_file\",\"tool_input\":{\"file_path\":\"/etc/passwd\"}}") == null);
}
