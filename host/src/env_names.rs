//! The environment variables hookhost itself sets for, or keeps from, a hook.

/// Set in every command hook's environment to the process id of the hookhost that
/// runs it, so that `hookhost hook` run *as* a hook of hookhost notices and does not
/// recurse. Only a value naming the caller's parent (or, through `sh -c`, its
/// grandparent) counts: the variable is inherited by anything a hook starts, and an
/// agent started from a hook must not run with hookhost silently off.
pub const NESTED_ENV: &str = "HOOKHOST_ACTIVE";

/// The bearer token of `hookhost serve --http`. No hook gets it
/// (`runner/hook_env.rs`): not inherited, not through `${env:…}`, an `env` value or
/// an http hook's header — an agent that fills its HTTP hooks' `Authorization`
/// header from it has it in its own environment, and so would every hook below
/// it: a credential no hook needs.
pub const TOKEN_ENV: &str = "HOOKHOST_TOKEN";
