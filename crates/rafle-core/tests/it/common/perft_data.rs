//! The perft tables of `tests/data/perft.toml` (the file documents the
//! fields), for the test crates that check against them: rafle-core's
//! `perft` and `reference`, rafle-zero's `cli` (which includes this file by
//! path). Each uses part of it.
#![allow(dead_code)]

use rafle_core::{parse_fen, Position, Variant};
use serde::Deserialize;

/// Whether a table's numbers are published or computed by this project.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    Published,
    Computed,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table {
    /// The variant's name (see [`Table::variant`]).
    pub variant: String,
    pub name: String,
    pub fen: String,
    /// Leaves at depth 1, 2, ...
    pub counts: Vec<u64>,
    /// Leaves at depth 1, 2, ... counting every capture path (may be empty).
    #[serde(default)]
    pub paths: Vec<u64>,
    pub origin: Origin,
    pub source: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    table: Vec<Table>,
}

impl Table {
    pub fn variant(&self) -> Variant {
        self.variant.parse().expect("a variant name")
    }

    pub fn position(&self) -> Position {
        parse_fen(self.variant(), &self.fen).expect("a valid FEN")
    }

    /// (depth, leaves) for the depths whose count is at most `max_leaves`.
    pub fn depths_within(&self, max_leaves: u64) -> impl Iterator<Item = (u32, u64)> + '_ {
        within(&self.counts, max_leaves)
    }

    /// As [`Table::depths_within`], for the `paths` series.
    pub fn path_depths_within(&self, max_leaves: u64) -> impl Iterator<Item = (u32, u64)> + '_ {
        within(&self.paths, max_leaves)
    }

    /// A label for assertion messages.
    pub fn label(&self) -> String {
        format!("{} {} ({})", self.variant, self.name, self.source)
    }
}

fn within(counts: &[u64], max_leaves: u64) -> impl Iterator<Item = (u32, u64)> + '_ {
    (1..)
        .zip(counts.iter().copied())
        .take_while(move |&(_, n)| n <= max_leaves)
}

/// Every table of the file.
pub fn tables() -> Vec<Table> {
    let text = include_str!("../../data/perft.toml");
    toml::from_str::<File>(text)
        .expect("perft.toml parses")
        .table
}
