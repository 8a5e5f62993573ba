//! Unit tests: the structure [`crate::parse`] gives, the download question, and
//! what [`crate::read`] says runs.

mod parse;
mod runs;
