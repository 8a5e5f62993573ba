//! `git-safety` as a hook of its own: the policy ([`hookhost_policy_git_safety::hook`]) on stdin, with
//! the hook's `args`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    hookhost_guest::run(|input| hookhost_policy_git_safety::hook(&input, &args))
}
