#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The reading against bash itself: generated commands run under `bash` with
//! `PATH` holding only stub programs that log their name (no real program in
//! the list runs), and every program bash started must be one [`read`] names,
//! or the reading must say it is unsure. A miss is a program a deny rule would
//! not have seen.
//!
//! Seeded and bounded: `HOOKHOST_DIFF_COUNT` commands (default 10,000),
//! `HOOKHOST_DIFF_SEED` (default fixed), each run killed after 10 s.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hookhost_shell::read;

/// Programs that exist only as logging stubs.
const STUBS: &[&str] = &[
    "rm", "mv", "cp", "shred", "curl", "wget", "dd", "touch", "git", "npm", "mk", "foo",
];

/// Real programs linked into the stub directory: wrappers and shells.
const REAL: &[&str] = &[
    "bash", "sh", "env", "nice", "nohup", "timeout", "xargs", "find", "stdbuf", "setsid", "flock",
];

/// A small deterministic generator (xorshift64*): no dependency, same commands
/// for the same seed on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// Generates commands from a grammar of the shapes issue 36 names.
struct Generator {
    rng: Rng,
    stub_dir: String,
}

impl Generator {
    /// A stub's name, spelt one of the ways the shell accepts.
    fn name(&mut self) -> String {
        let name = self.rng.pick(STUBS).to_owned();
        let (first, rest) = name.split_at(1);
        match self.rng.below(12) {
            0 => format!("'{name}'"),
            1 => format!("\"{name}\""),
            2 => format!("\\{name}"),
            3 => format!("{first}''{rest}"),
            4 => format!("{first}\"\"{rest}"),
            5 => {
                let hex: String = name.bytes().map(|b| format!("\\x{b:02x}")).collect();
                format!("$'{hex}'")
            }
            6 => {
                let oct: String = name.bytes().map(|b| format!("\\{b:03o}")).collect();
                format!("$'{oct}'")
            }
            7 => format!("{{{name},}}"),
            8 => format!("{}/{name}", self.stub_dir),
            9 => format!("{first}{{{rest},}}"),
            _ => name,
        }
    }

    fn arg(&mut self) -> String {
        self.rng
            .pick(&[
                "-rf", "x", "'a b'", "\"c d\"", "-f", "--", "y.txt", "$'\\t'", "1", "''",
            ])
            .to_owned()
    }

    fn simple(&mut self) -> String {
        let mut out = self.name();
        for _ in 0..self.rng.below(3) {
            out.push(' ');
            out.push_str(&self.arg());
        }
        out
    }

    /// A command, nested at most `depth` more levels.
    fn command(&mut self, depth: usize) -> String {
        if depth == 0 {
            return self.simple();
        }
        let d = depth - 1;
        match self.rng.below(52) {
            0 => format!("{} | {}", self.command(d), self.command(d)),
            1 => format!("{} && {}", self.command(d), self.command(d)),
            2 => format!("{} || {}", self.command(d), self.command(d)),
            3 => format!("{}; {}", self.command(d), self.command(d)),
            4 => format!("( {} )", self.command(d)),
            5 => format!("{{ {}; }}", self.command(d)),
            6 => format!("if {}; then {}; fi", self.command(d), self.command(d)),
            7 => format!("for i in a b; do {}; done", self.command(d)),
            8 => format!("f() {{ {}; }}; f", self.command(d)),
            9 => format!("function g {{ {}; }}\ng", self.command(d)),
            10 => format!("coproc {}\nwait", self.simple()),
            11 => format!("coproc C {{ {}; }}\nwait", self.command(d)),
            12 => format!("(( 1<<2 ))\n{}", self.command(d)),
            13 => format!("((x = 3 << 1)); {}", self.command(d)),
            14 => format!("echo $(( 1 << 2 )) && {}", self.command(d)),
            15 => format!("cat <<EOF\n{}\nEOF\n{}", self.simple(), self.command(d)),
            16 => format!("cat <<'EOF'\n$({})\nEOF", self.simple()),
            17 => format!("cat <<EOF\n$({})\nEOF", self.simple()),
            18 => format!("bash -c '{}'", self.simple()),
            19 => format!("sh -c \"{}\"", self.simple().replace('"', "'")),
            20 => format!("eval '{}'", self.simple()),
            21 => format!("trap '{}' EXIT", self.simple()),
            22 => format!("env -S '{}'", self.simple()),
            23 => format!("env A=1 {}", self.simple()),
            24 => format!("nice -n 1 nohup {}", self.simple()),
            25 => format!("timeout 5 {}", self.simple()),
            26 => format!("echo a | xargs {}", self.simple()),
            27 => format!("find . -maxdepth 0 -exec {} {{}} \\;", self.simple()),
            28 => format!("( exec -a NAME {} )", self.simple()),
            29 => format!("command {}", self.simple()),
            30 => format!("echo $({})", self.command(d)),
            31 => format!("echo `{}`", self.simple()),
            32 => format!("[[ -n $({}) ]]", self.simple()),
            33 => format!("x=$({}); echo \"$x\"", self.simple()),
            34 => format!(
                "find . -maxdepth 0 -exec sh -c '{}' \\;",
                self.simple().replace('\'', "")
            ),
            35 => format!("echo a | xargs sh -c '{}'", self.simple().replace('\'', "")),
            36 => format!("flock lock -c '{}'", self.simple().replace('\'', "")),
            37 => format!("bash <<< '{}'", self.simple().replace('\'', "")),
            38 => format!("bash <<EOF\n{}\nEOF", self.simple()),
            39 => format!("echo ${{x:-$({})}}", self.simple()),
            40 => format!("a=($({})); echo ${{a[0]}}", self.simple()),
            41 => format!("case $({}) in *) ;; esac", self.simple()),
            42 => format!("time {}", self.simple()),
            43 => format!("! {}", self.simple()),
            44 => format!("{} & wait", self.simple()),
            45 => format!("f() ( {} ); f", self.command(d)),
            46 => format!("until {}; do :; done", self.simple()),
            47 => format!("echo $((cd . ) && {})", self.simple()),
            48 => format!("( exec {} )", self.simple()),
            49 => format!("builtin command {}", self.simple()),
            50 => format!("stdbuf -o0 setsid {}", self.simple()),
            _ => format!("{{ {}; }} 2>/dev/null", self.command(d)),
        }
    }
}

fn setup(dir: &Path) -> (PathBuf, PathBuf) {
    let stubs = dir.join("stubs");
    let work = dir.join("work");
    std::fs::create_dir_all(&stubs).expect("stub dir");
    std::fs::create_dir_all(&work).expect("work dir");
    std::fs::write(work.join("file"), "").expect("a file for find");
    for stub in STUBS {
        let path = stubs.join(stub);
        std::fs::write(&path, "#!/bin/sh\necho \"${0##*/}\" >> \"$STUB_LOG\"\n").expect("stub");
        chmod_x(&path);
    }
    for real in REAL {
        let found = ["/usr/bin", "/bin"]
            .iter()
            .map(|d| Path::new(d).join(real))
            .find(|p| p.exists())
            .unwrap_or_else(|| panic!("{real} is not installed"));
        std::os::unix::fs::symlink(found, stubs.join(real)).expect("link");
    }
    (stubs, work)
}

fn chmod_x(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// Runs `command` under bash; the programs it started (from the stubs' log).
fn bash_ran(command: &str, stubs: &Path, work: &Path, log: &Path) -> BTreeSet<String> {
    let mut child = Command::new(stubs.join("bash"))
        .args(["--norc", "--noprofile", "-c", command])
        .env_clear()
        .env("PATH", stubs)
        .env("HOME", work)
        .env("STUB_LOG", log)
        .current_dir(work)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("bash starts");
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    // Background programs (`coproc`, `&`) may log a moment after bash exits.
    std::thread::sleep(Duration::from_millis(2));
    let ran = std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect();
    let _ = std::fs::remove_file(log);
    ran
}

#[test]
fn every_program_bash_runs_is_read_or_the_reading_is_unsure() {
    let count: usize = std::env::var("HOOKHOST_DIFF_COUNT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let seed: u64 = std::env::var("HOOKHOST_DIFF_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x005e_ed36);
    let dir = tempfile::tempdir().expect("temp dir");
    let (stubs, work) = setup(dir.path());
    let mut generator = Generator {
        rng: Rng(seed | 1),
        stub_dir: stubs.display().to_string(),
    };
    let commands: Vec<String> = (0..count)
        .map(|_| {
            let depth = generator.rng.below(3) + 1;
            generator.command(depth)
        })
        .collect();
    let misses = Arc::new(Mutex::new(Vec::new()));
    let stats = Arc::new(Mutex::new((0usize, 0usize, 0usize)));
    let threads = 2;
    std::thread::scope(|scope| {
        for t in 0..threads {
            let (commands, misses, stats) = (&commands, misses.clone(), stats.clone());
            let (stubs, work) = (stubs.clone(), work.join(format!("t{t}")));
            std::fs::create_dir_all(&work).expect("work");
            std::fs::write(work.join("file"), "").expect("file");
            let logs = dir.path().to_owned();
            scope.spawn(move || {
                for (i, command) in commands.iter().enumerate().skip(t).step_by(threads) {
                    // A log per command: a background stub of an earlier command
                    // (`coproc`, `&`) that logs late must not land in this one's.
                    let log = logs.join(format!("log{i}"));
                    let ran = bash_ran(command, &stubs, &work, &log);
                    let reading = read(command);
                    let read: BTreeSet<&str> = reading.programs().collect();
                    let missed: Vec<&String> =
                        ran.iter().filter(|p| !read.contains(p.as_str())).collect();
                    let mut s = stats.lock().expect("stats");
                    s.0 += 1;
                    s.1 += usize::from(!reading.is_sure());
                    if !reading.is_sure() && std::env::var_os("HOOKHOST_DIFF_SHOW").is_some() {
                        eprintln!("unsure {command:?}: {:?}", reading.unsure);
                    }
                    s.2 += usize::from(!ran.is_empty());
                    if !missed.is_empty() && reading.is_sure() {
                        misses
                            .lock()
                            .expect("misses")
                            .push(format!("{command:?}: bash ran {missed:?}, read {read:?}"));
                    }
                }
            });
        }
    });
    let (ran, unsure, started) = *stats.lock().expect("stats");
    let misses = misses.lock().expect("misses");
    let _ = writeln!(
        std::io::stderr(),
        "differential: {ran} commands, {started} started a stub, {unsure} read as unsure, {} missed",
        misses.len()
    );
    assert_eq!(ran, count);
    // The stubs must really run, or the comparison proves nothing.
    assert!(
        started * 10 >= count * 8,
        "only {started} of {count} commands ran a stub"
    );
    assert!(
        misses.is_empty(),
        "{} commands ran a program the reading did not name:\n{}",
        misses.len(),
        misses
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
