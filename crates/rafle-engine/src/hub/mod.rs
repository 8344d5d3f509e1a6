//! Hub, version 2 (Scan 3's protocol: a UCI-like line protocol on stdin
//! and stdout): the line [`syntax`], engines as rafle players
//! ([`client`], `hub:<command line>`) and rafle as an engine ([`server`],
//! `rafle hub`).

/// The longest line either end reads (a `pos` line with a whole game's
/// moves is a few kB); a longer one is an error, and never held whole.
pub const MAX_LINE: usize = 64 * 1024;

pub mod client;
pub mod server;
pub mod syntax;
