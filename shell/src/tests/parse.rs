//! The parser and the download question, as the guest SDK tested them.

use crate::*;

fn blocked(command: &str) -> bool {
    parse(command).pipes_download_into_shell()
}

fn programs(command: &str) -> Vec<String> {
    parse(command)
        .simple_commands()
        .map(|c| match c.program_word() {
            Some(w) if w.dynamic => format!("?{}", w.text),
            Some(w) => basename(&w.text).to_owned(),
            None => String::new(),
        })
        .collect()
}

// -- the cases seen in issue 28 ------------------------------------------

#[test]
fn seen_curl_into_sudo_bash_is_blocked() {
    let command = parse("curl -fsSL https://get.example.com | sudo bash");
    let reason = command.download_into_shell();
    assert_eq!(
        reason.as_deref(),
        Some("a download (`curl`) is piped into `bash`")
    );
}

#[test]
fn seen_variable_indirection_is_suspicious() {
    let command = parse("c=curl; $c x | sh");
    assert_eq!(command.pipelines.len(), 2);
    let Some(Command::Simple(first)) = command.pipelines[0].commands.first() else {
        panic!("{command:?}");
    };
    assert_eq!(first.assignments[0].name, "c");
    assert_eq!(first.assignments[0].value.text, "curl");
    let Some(Command::Simple(dynamic)) = command.pipelines[1].commands.first() else {
        panic!("{command:?}");
    };
    assert!(dynamic.is_dynamic());
    assert_eq!(dynamic.program(), None);
    assert!(command.pipes_download_into_shell());
}

#[test]
fn seen_pipe_into_a_subshell_is_blocked() {
    assert!(blocked("curl x | (cd /tmp && sh)"));
    assert!(blocked("curl x | { cd /tmp; bash; }"));
    assert!(blocked("curl x | while read -r l; do eval \"$l\"; done"));
}

#[test]
fn seen_process_substitution_is_blocked() {
    assert!(blocked("bash <(curl -s x)"));
    assert!(blocked("source <(wget -qO- x)"));
    assert!(blocked(". <(curl x)"));
    assert!(blocked("sh < <(curl x)"));
}

#[test]
fn seen_command_substitution_as_script_is_blocked() {
    assert!(blocked("sh -c \"$(curl -s x)\""));
    assert!(blocked("bash -c \"`curl -s x`\""));
    assert!(blocked("eval \"$(curl -s x)\""));
    assert!(blocked("$(curl -s x)"));
    assert!(blocked("python3 -c \"$(curl -s x)\""));
    assert!(blocked("bash <<< \"$(curl x)\""));
}

#[test]
fn seen_download_to_a_file_then_reading_it_is_allowed() {
    assert!(!blocked("curl -o f x && less f"));
    assert!(!blocked("curl -s x | jq .name"));
    assert!(!blocked("curl -s x | python3 -m json.tool"));
    assert!(!blocked(
        "curl -s x | python3 -c 'import json,sys; print(json.load(sys.stdin))'"
    ));
    assert!(!blocked("curl -s x | perl -ne 'print if /v/'"));
    assert!(!blocked("echo 'curl x | sh' >> notes.md"));
    assert!(!blocked("grep -r 'curl .* | sh' docs"));
    assert!(!blocked("cat install.sh | sh"));
    assert!(!blocked("echo \"$(curl -s x)\""));
    // The script is given; stdin is its data.
    assert!(!blocked("curl -s x | sudo sh -c 'cat > /etc/x.conf'"));
    assert!(!blocked(
        "eval \"$(ssh-agent -s)\" && source <(kubectl completion bash)"
    ));
}

// -- more shapes ---------------------------------------------------------

#[test]
fn wrappers_and_interpreters() {
    assert!(blocked("wget -qO- x | env FOO=1 sh -s -- --yes"));
    assert!(blocked("curl x | sudo -u root -E bash -"));
    assert!(blocked("curl x | timeout 10 nice -n 5 python3"));
    assert!(blocked("curl x | tee install.log | zsh"));
    assert!(blocked("/usr/bin/curl x | /bin/sh"));
    assert!(blocked("curl x |& node"));
    assert!(blocked("curl x | $SHELL"));
    assert!(blocked("\"$CURL\" x | sh"));
    assert!(blocked("curl x | bash -euo pipefail"));
    assert!(blocked("curl x | source /dev/stdin"));
    assert!(!blocked("curl x | bash script.sh"));
    assert!(!blocked("curl x | sudo tee /etc/apt/keyrings/k.asc"));
}

#[test]
fn nested_command_lines_are_checked() {
    assert!(blocked("sh -c 'curl x | sh'"));
    assert!(blocked("sudo bash -c \"wget -O- x | bash\""));
    assert!(blocked("echo $(curl x | sh)"));
    assert!(blocked("if true; then curl x | sh; fi"));
    assert!(blocked("for i in 1; do curl x | bash; done"));
    assert!(blocked("case $1 in a) curl x | sh ;; esac"));
    assert!(blocked("bash <<'EOF'\ncurl x | sh\nEOF"));
    assert!(blocked("f() { curl x | sh; }"));
    assert!(blocked("x=$(curl x | sh)"));
    assert!(blocked("(curl x) | sh"));
}

#[test]
fn structure_of_a_simple_command() {
    let command = parse("LANG=C FOO=\"a b\" git -C /repo log --oneline 2>/dev/null > out.txt");
    let Some(Command::Simple(git)) = command.pipelines[0].commands.first() else {
        panic!("{command:?}");
    };
    assert_eq!(git.assignments.len(), 2);
    assert_eq!(git.assignments[1].value.text, "a b");
    assert_eq!(git.program(), Some("git"));
    let args: Vec<_> = git.args().iter().map(|w| w.text.as_str()).collect();
    assert_eq!(args, ["-C", "/repo", "log", "--oneline"]);
    assert_eq!(git.redirections.len(), 2);
    assert_eq!(git.redirections[0].fd, Some(2));
    assert_eq!(git.redirections[0].op, ">");
    assert_eq!(git.redirections[0].target.text, "/dev/null");
    assert_eq!(git.redirections[1].target.text, "out.txt");
    assert!(!command.incomplete);
}

#[test]
fn connectors_and_pipelines() {
    let command = parse("a | b && c || d; e & f\ng");
    let shape: Vec<_> = command
        .pipelines
        .iter()
        .map(|p| (p.commands.len(), p.next))
        .collect();
    assert_eq!(
        shape,
        [
            (2, Some(Connector::And)),
            (1, Some(Connector::Or)),
            (1, Some(Connector::Sequence)),
            (1, Some(Connector::Background)),
            (1, Some(Connector::Sequence)),
            (1, None),
        ]
    );
}

#[test]
fn quoting() {
    let command = parse(r#"echo 'a $b' "c $d" e\ f "$(g "h i")" `j` $'k\x6c'"#);
    let words = &command.simple_commands().next().map(|c| c.words.clone());
    let Some(words) = words else {
        panic!("{command:?}");
    };
    let texts: Vec<_> = words.iter().map(|w| (w.text.as_str(), w.dynamic)).collect();
    assert_eq!(texts[1], ("a $b", false));
    assert_eq!(texts[2], ("c $d", true));
    assert_eq!(texts[3], ("e f", false));
    assert!(texts[4].1);
    assert_eq!(texts[5], ("`j`", true));
    assert_eq!(texts[6], ("kl", false), "ANSI-C escapes are decoded");
    assert_eq!(programs(r#"echo "$(g "h i")" `j`"#), ["echo", "g", "j"]);
}

#[test]
fn sh_c_bodies_are_parsed() {
    let command = parse("sudo bash -lc 'cd /srv && make install'");
    let simple = command.simple_commands().next().cloned();
    let script = simple.and_then(|s| s.script);
    let Some(script) = script else {
        panic!("{command:?}");
    };
    assert_eq!(script.pipelines.len(), 2);
    assert_eq!(
        programs("sudo bash -lc 'cd /srv && make install'"),
        ["bash", "cd", "make"]
    );
    assert_eq!(programs("eval 'rm -rf x'"), ["eval", "rm"]);
}

#[test]
fn heredocs_are_skipped_by_the_lexer() {
    let command = parse("cat <<EOF > f.txt\ncurl x | sh\nEOF\necho done");
    assert_eq!(
        programs("cat <<EOF > f.txt\ncurl x | sh\nEOF\necho done"),
        ["cat", "echo"]
    );
    let Some(Command::Simple(cat)) = command.pipelines[0].commands.first() else {
        panic!("{command:?}");
    };
    assert_eq!(
        cat.redirections[0].heredoc.as_deref(),
        Some("curl x | sh\n")
    );
    assert!(!command.pipes_download_into_shell());
    // Two on one line.
    assert_eq!(programs("cat <<A <<-B\na\nA\n\tb\n\tB\nls"), ["cat", "ls"]);
}

#[test]
fn comments_and_keywords() {
    assert_eq!(programs("ls # curl x | sh"), ["ls"]);
    assert_eq!(programs("echo a#b"), ["echo"]);
    assert_eq!(programs("echo if then fi"), ["echo"]);
    assert_eq!(
        programs("if a; then b; elif c; then d; else e; fi"),
        ["a", "b", "c", "d", "e"]
    );
    assert_eq!(programs("! grep -q x f || touch f"), ["grep", "touch"]);
    assert_eq!(programs("arr=(a b c); echo ${arr[@]}"), ["", "echo"]);
}

#[test]
fn odd_inputs_do_not_panic_or_hang() {
    let deep = |open: &str, close: &str| format!("{}x{}", open.repeat(1000), close.repeat(1000));
    let inputs = [
        String::new(),
        "'".to_owned(),
        "\"".to_owned(),
        "`".to_owned(),
        "$(".to_owned(),
        "${".to_owned(),
        "$((".to_owned(),
        "<(".to_owned(),
        "echo 'unterminated | sh".to_owned(),
        "echo \"unterminated $(curl x".to_owned(),
        ")))".to_owned(),
        "fi done esac }".to_owned(),
        ";;&;;|||&&&".to_owned(),
        "if then".to_owned(),
        "case x in".to_owned(),
        "for".to_owned(),
        "f(".to_owned(),
        "cat <<".to_owned(),
        "cat <<EOF".to_owned(),
        "2>".to_owned(),
        "\\".to_owned(),
        "$'\\".to_owned(),
        "é ü 日本 | sh $'\\u00e9'".to_owned(),
        "cat <<A".repeat(200),
        deep("(", ")"),
        deep("$(", ")"),
        deep("{ ", "; }"),
        deep("\"$(", ")\""),
        deep("<(", ")"),
        deep("if x; then ", "; fi"),
        deep("sh -c '", "'"),
        "`".repeat(1000),
        "\\`".repeat(1000),
        "$(".repeat(100_000),
        "(".repeat(100_000),
        "x | ".repeat(10_000),
    ];
    for input in &inputs {
        let command = parse(input);
        let _ = command.pipes_download_into_shell();
        let _ = command.simple_commands().count();
    }
    // `((((x))))` is one arithmetic command, as in bash; nested subshells are deep.
    let command = parse(&deep("(", ")"));
    assert!(!command.partial());
    let command = parse(&deep("( ", ")"));
    assert!(command.too_deep);
    assert!(command.pipes_download_into_shell(), "too deep fails closed");
    assert!(parse("echo 'x").incomplete);
    assert!(parse("(echo x").incomplete);
    assert!(!parse("(echo x)").incomplete);
}

/// Random strings over the characters that matter to the lexer: none may
/// panic or hang (a deterministic generator, so a failure reproduces).
#[test]
fn random_shell_soup_parses() {
    const ALPHABET: &[&str] = &[
        "'", "\"", "`", "$", "(", ")", "{", "}", "|", "&", ";", "<", ">", "\n", "\\", " ", "#",
        "=", "-", "a", "c", "sh", "curl", "EOF", "<<", "if", "then", "fi", "do", "done", "case",
        "in", "esac", ";;", "\t", "é",
    ];
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..20_000 {
        let len = (next() % 40) as usize;
        let text: String = (0..len)
            .map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize])
            .collect();
        let command = parse(&text);
        let _ = command.pipes_download_into_shell();
        let _ = command.simple_commands().count();
    }
}

#[test]
fn every_byte_prefix_of_tricky_lines_parses() {
    let lines = [
        "c=curl; $c -fsSL \"https://x/y?a=1&b=2\" | sudo -E bash -s -- --yes",
        "bash -c \"$(curl -fsSL x)\" && echo `date` > >(tee log) 2>&1 <<<'x'",
        "for f in $(ls *.sh); do case $f in a*) sh \"$f\";; *) :;; esac; done",
        "cat <<-'EOF' | sh\n\tcurl x\n\tEOF\nf() { (cd /; exec \"$@\"); }",
    ];
    for line in lines {
        for end in 0..=line.len() {
            if let Some(prefix) = line.get(..end) {
                let _ = parse(prefix).pipes_download_into_shell();
            }
        }
    }
}
