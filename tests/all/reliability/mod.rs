//! Reliability of `hookhost serve` under load and misbehaving clients (issue 14):
//! bounded processes and requests in flight, queue time outside the timeout, every
//! request answered exactly once, nothing left behind after `kill -9`, the Unix
//! socket (private, per-client, fair, draining on SIGTERM), and the command
//! runner's edges (huge timeouts, non-UTF-8 project dirs).
//!
//! One file per subject:
//! * `bursts` — bursts bounded by the process and in-flight caps, queued guards that do
//!   not time out, a 64 MiB line;
//! * `kill` — `kill -9` of `serve` or `fire` leaves no hook process; a lost reaper is said;
//! * `socket` — the Unix socket: private, per client, fair to a good client, draining;
//! * `runner` — the command runner's edges: a huge Claude timeout, a non-UTF-8 project dir;
//! * `engine` — engine sizing: one big plugin does not size the pool, clamped memory limits.

mod bursts;
mod engine;
mod kill;
mod runner;
mod socket;
