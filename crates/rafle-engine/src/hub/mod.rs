//! Hub, version 2 (Scan 3's protocol: a UCI-like line protocol on stdin
//! and stdout): the line [`syntax`], engines as rafle players
//! ([`client`], `hub:<command line>`) and rafle as an engine ([`server`],
//! `rafle hub`).

pub mod client;
pub mod server;
pub mod syntax;
