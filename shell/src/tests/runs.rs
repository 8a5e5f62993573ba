//! What [`read`] says a line runs: the shapes issue 36 found an `if` rule
//! missing, and their relatives.

use crate::*;

/// The final program of every invocation (wrappers left out), and whether the
/// reading is sure.
fn runs(command: &str) -> (Vec<String>, bool) {
    let reading = read(command);
    let programs = reading
        .invocations
        .iter()
        .filter_map(|i| i.program().map(str::to_owned))
        .collect();
    (programs, reading.is_sure())
}

fn runs_rm(command: &str) -> bool {
    let reading = read(command);
    reading.programs().any(|p| p == "rm")
}

#[test]
fn seen_quoted_and_escaped_names_are_the_program() {
    for command in [
        "'rm' -rf x",
        "\"rm\" -rf x",
        "\\rm -rf x",
        "r''m -rf x",
        "r\"\"m -rf x",
        "$'rm' -rf x",
        "$'\\x72m' -rf x",
        "$'\\162\\155' -rf x",
        "/bin/rm -rf x",
        "./../usr/bin/rm -rf x",
    ] {
        assert!(runs_rm(command), "{command}");
        assert!(read(command).is_sure(), "{command}");
    }
}

#[test]
fn seen_arithmetic_is_not_a_here_document() {
    assert_eq!(runs("(( 1<<2 ))\nrm -rf x").0, ["rm"]);
    assert_eq!(runs("((x = 1 << 2)); rm -rf x").0, ["rm"]);
    assert_eq!(runs("echo $(( 1<<2 ))\nrm -rf x").0, ["echo", "rm"]);
    assert_eq!(runs("for ((i=0; i<2; i++)); do rm x; done").0, ["rm"]);
    // `((` that closes with a lone `)` is two subshells, as bash reads it.
    assert_eq!(runs("((cd /tmp) && rm x)").0, ["cd", "rm"]);
    assert_eq!(runs("echo $((cd /tmp) && rm x)").0, ["echo", "cd", "rm"]);
    // Command substitutions inside arithmetic run.
    assert!(runs_rm("(( $(rm -rf x) + 1 ))"));
    assert!(runs_rm("echo $(( `rm -rf x` + 1 ))"));
}

#[test]
fn seen_functions_coproc_exec_and_braces() {
    assert!(runs_rm("f() { rm -rf x; }; f"));
    assert!(runs_rm("function f { rm -rf x; }"));
    assert!(runs_rm("function f() ( rm -rf x )"));
    assert!(runs_rm("coproc rm -rf x"));
    assert!(runs_rm("coproc NAME { rm -rf x; }"));
    assert!(runs_rm("coproc ( rm -rf x )"));
    assert!(runs_rm("exec -a NAME rm -rf x"));
    assert!(runs_rm("exec -c -a x rm -rf x"));
    assert!(runs_rm("{rm,} -rf x"));
    assert!(runs_rm("{rm,ls} -rf x"));
    assert!(runs_rm("r{m,} -rf x"));
    assert!(runs_rm("sudo {rm,} -rf x"));
    assert_eq!(runs("coproc NAME { rm -rf x; }").0, ["rm"]);
    assert!(!runs_rm("echo {rm,}"));
}

#[test]
fn wrappers_are_followed() {
    for command in [
        "sudo rm -rf x",
        "sudo -u root -- rm -rf x",
        "doas rm x",
        "env -i A=1 rm x",
        "env -S 'rm -rf x'",
        "env -S'rm -rf x'",
        "env --split-string='rm -rf x'",
        "command rm x",
        "builtin command rm x",
        "nice -n 5 nohup rm x",
        "timeout -k 5 10 rm x",
        "stdbuf -o0 rm x",
        "setsid rm x",
        "time rm x",
        "time -p rm x",
        "! rm x",
        "echo x | xargs rm",
        "echo x | xargs -0 -n1 rm",
        "echo x | xargs -I{} rm {}",
        "find . -name '*.o' -exec rm {} \\;",
        "find . -execdir /bin/rm -f {} +",
        "sudo sh -c 'rm -rf x'",
        "bash -c \"rm -rf x\"",
        "bash -lc 'cd / && rm -rf x'",
        "eval 'rm -rf x'",
        "eval rm -rf x",
        "trap 'rm -rf x' EXIT",
        "bash <<EOF\nrm -rf x\nEOF",
        "bash <<< 'rm -rf x'",
        "cat <<EOF\n$(rm -rf x)\nEOF",
        "x=$(rm -rf y)",
        "echo ${x:-$(rm -rf y)}",
        "echo ${x:-`rm -rf y`}",
        "arr=($(rm -rf y))",
        "[[ -n $(rm -rf y) ]]",
        "case $(rm x) in *) ;; esac",
        "for f in $(rm x); do :; done",
        "find . -exec sh -c 'rm -rf \"$1\"' _ {} \\;",
        "find . -exec find . -exec rm {} + \\;",
        "su -c 'rm -rf x'",
        "su root -c 'rm -rf x'",
        "runuser -u u -- rm x",
        "sg wheel -c 'rm -rf x'",
        "flock /tmp/l -c 'rm -rf x'",
        "script -qc 'rm -rf x' /dev/null",
        "watch -n 1 rm -rf x",
        "strace -f -o log rm x",
        "unshare -r rm x",
        "systemd-run --user rm x",
        "fakeroot rm x",
    ] {
        assert!(runs_rm(command), "{command}");
    }
    // Not run: mentioned, printed, defined as data.
    for command in [
        "echo rm -rf x",
        "command -v rm",
        "grep 'rm -rf' notes",
        "cat <<'EOF'\n$(rm -rf x)\nEOF",
        "cat <<EOF\nrm -rf x\nEOF",
        "echo '$(rm -rf x)'",
        "[[ rm == x ]]",
    ] {
        assert!(!runs_rm(command), "{command}");
    }
}

#[test]
fn what_cannot_be_known_is_unsure() {
    for command in [
        "$CMD -rf x",
        "\"$CMD\" -rf x",
        "$(echo rm) -rf x",
        "r? -rf x",
        "/bin/r[m] -rf x",
        "sh -c \"$SCRIPT\"",
        "eval \"$x\"",
        "echo rm -rf x | bash",
        "bash < script.sh",
        "source <(echo rm -rf x)",
        "bash <(echo rm -rf x)",
        "shopt -s expand_aliases; alias ls=rm; ls x",
        "hash -p /bin/rm ls; ls x",
        "PS4='$(rm -rf x)' bash -x -c ls",
        "export BASH_ENV=./x",
        "echo 'unterminated",
        "echo $(unterminated",
        "{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b} x",
        "trap \"$x\" EXIT",
        "find . -exec $CMD {} \\;",
        "su -c \"$X\"",
    ] {
        assert!(!read(command).is_sure(), "{command}");
    }
    for command in ["rm -rf x", "echo $HOME", "ls | grep x", "cd /tmp && make"] {
        assert!(read(command).is_sure(), "{command}");
    }
}

#[test]
fn wrappers_are_programs_too() {
    let reading = read("sudo env A=1 timeout 5 rm -rf x");
    let programs: Vec<&str> = reading.programs().collect();
    assert_eq!(programs, ["sudo", "env", "timeout", "rm"]);
    let inv = &reading.invocations[0];
    assert_eq!(inv.line_from(3).as_deref(), Some("rm -rf x"));
    assert_eq!(inv.args(), ["-rf", "x"]);
}

#[test]
fn huge_lines_are_linear_and_bounded() {
    // The 192 KB of repeated wrappers.
    let wrappers = "sudo ".repeat(192 * 1024 / 5) + "rm -rf x";
    let reading = read(&wrappers);
    assert!(reading.programs().any(|p| p == "rm") || !reading.is_sure());
    // A mebibyte of words stops at the word bound and says so.
    let words = "a ".repeat(512 * 1024);
    let reading = read(&words);
    assert!(!reading.is_sure());
    // A mebibyte in one here-document is read whole.
    let doc = format!("cat <<EOF\n{}\nEOF\nrm x", "x".repeat(1 << 20));
    let (programs, sure) = runs(&doc);
    assert_eq!(programs, ["cat", "rm"]);
    assert!(sure);
    // Nested `$((` that is not arithmetic cannot make the parse exponential.
    let nested = "$((".repeat(40) + &")".repeat(40);
    let _ = read(&nested);
    let nested = "((".repeat(40) + &")".repeat(40);
    let _ = read(&nested);
}
