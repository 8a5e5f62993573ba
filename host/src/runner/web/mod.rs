//! The HTTP requests of `http` and `prompt` hooks: one POST of a JSON body with the
//! runner's headers, its 2xx body captured like a command's stdout.
//!
//! This module is the only place that chooses between the builds with and without
//! the `http` feature: `with_http` (the default) sends the request with reqwest;
//! `without_http` (`default-features = false`, an agent that wants no HTTP client
//! in its binary) sends nothing, and every request fails saying the build has no
//! HTTP support. Both offer the same items; the runners use them without a `cfg`.
//!
//! A runner writes its headers as a plain list of [`Header`]s; [`Headers::new`]
//! checks and converts them apart from the request itself, so that each runner can
//! name a bad header in its own terms (an `http` hook the header, a `prompt` hook
//! the variable that held the key). A runner asks [`available`] before anything
//! else: in a build that can send nothing, that is the hook's one problem, not an
//! endpoint or header of its own.

#[cfg(feature = "http")]
mod with_http;
#[cfg(not(feature = "http"))]
mod without_http;

#[cfg(feature = "http")]
use with_http as imp;
#[cfg(not(feature = "http"))]
use without_http as imp;

pub(super) use imp::{HeaderError, Headers, available, post};

/// One request header as a runner writes it: its name, its value, and whether the
/// value is a secret (a key), which the client then never shows in a debug print
/// of the request.
///
/// A tuple, not a struct: a build without the `http` feature reads none of it.
pub(super) type Header = (String, String, bool);
