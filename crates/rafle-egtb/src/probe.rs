//! Probing: the tables of one variant in one folder, loaded slice by slice
//! on first use and shared by every thread.

use crate::file::{self, SliceStats, Table};
use crate::index::{Indexer, SliceIndex};
use crate::material::Material;
use crate::value::Value;
use rafle_core::draws::outcome_of;
use rafle_core::movegen;
use rafle_core::{Counters, Move, MoveList, Position, Rules, Variant};
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// Why a probe or an open gave no value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EgtbError {
    /// The folder holds no tables of the variant (or does not exist).
    NoTables(String),
    /// The position's slice has no table here (too many pieces, or not built).
    NotCovered(String),
    /// A table file that cannot be read (missing, truncated, corrupted,
    /// another variant's).
    BadFile(String),
}

impl fmt::Display for EgtbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EgtbError::NoTables(s) | EgtbError::NotCovered(s) | EgtbError::BadFile(s) => {
                f.write_str(s)
            }
        }
    }
}

impl std::error::Error for EgtbError {}

/// Hashes a [`Material`] (four small counts) in one multiply.
#[derive(Debug, Default)]
struct MaterialHasher(u64);

impl std::hash::Hasher for MaterialHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u8(&mut self, b: u8) {
        self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type Slots = HashMap<Material, Slot, std::hash::BuildHasherDefault<MaterialHasher>>;

#[derive(Debug)]
struct Slot {
    index: SliceIndex,
    table: OnceLock<Result<Arc<Table>, String>>,
}

/// The endgame tables of one variant in one folder. Probes are `&self` and
/// thread-safe; each slice's file is read and checked once, when a probe
/// first needs it.
#[derive(Debug)]
pub struct Tablebase {
    variant: Variant,
    dir: PathBuf,
    indexer: Indexer,
    slots: Slots,
    /// Every slice with this many pieces or fewer has a table.
    complete_up_to: u32,
    /// The most pieces of any slice with a table.
    most: u32,
}

impl Tablebase {
    /// The tables of `variant` in `dir` (the files `<slice>.egtb` that
    /// `rafle egtb build` writes). Fails when the folder holds none of this
    /// variant's tables, or holds another variant's.
    pub fn open(variant: Variant, dir: impl AsRef<Path>) -> Result<Tablebase, EgtbError> {
        let dir = dir.as_ref().to_path_buf();
        let entries = std::fs::read_dir(&dir).map_err(|e| {
            EgtbError::NoTables(format!(
                "no endgame tables in {}: {e} (build them with: rafle egtb build --variant {variant} --pieces N --dir {})",
                dir.display(),
                dir.display()
            ))
        })?;
        let mut tb = Tablebase::empty(variant, &dir);
        let mut other = None;
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            let Some(m) = name.strip_suffix(".egtb").and_then(|n| n.parse().ok()) else {
                continue;
            };
            match file::read_stats(&dir, variant, m) {
                Ok(_) => tb.add_slot(m).map_err(EgtbError::BadFile)?,
                Err(e) if e.contains("a table of") => other = Some(e),
                Err(e) => return Err(EgtbError::BadFile(e)),
            }
        }
        if tb.slots.is_empty() {
            return Err(EgtbError::NoTables(match other {
                Some(e) => format!("no {variant} tables in {}: {e}", dir.display()),
                None => format!(
                    "no {variant} tables in {} (build them with: rafle egtb build --variant {variant} --pieces N --dir {})",
                    dir.display(),
                    dir.display()
                ),
            }));
        }
        tb.complete_up_to = tb.count_complete();
        Ok(tb)
    }

    /// A tablebase with no tables yet (the builder fills it).
    pub(crate) fn empty(variant: Variant, dir: &Path) -> Tablebase {
        Tablebase {
            variant,
            dir: dir.to_path_buf(),
            indexer: Indexer::new(variant),
            slots: Slots::default(),
            complete_up_to: 0,
            most: 0,
        }
    }

    fn add_slot(&mut self, m: Material) -> Result<(), String> {
        let index = self.indexer.slice(m)?;
        self.most = self.most.max(m.pieces());
        self.slots.insert(
            m,
            Slot {
                index,
                table: OnceLock::new(),
            },
        );
        Ok(())
    }

    /// Adds a slice whose table is in the folder (read on first use).
    pub(crate) fn insert_lazy(&mut self, m: Material) -> Result<(), String> {
        self.add_slot(m)?;
        self.complete_up_to = self.count_complete();
        Ok(())
    }

    /// Adds a table the builder has just made (already written to disk).
    pub(crate) fn insert(&mut self, m: Material, table: Arc<Table>) -> Result<(), String> {
        self.add_slot(m)?;
        let _ = self.slots[&m].table.set(Ok(table));
        self.complete_up_to = self.count_complete();
        Ok(())
    }

    fn count_complete(&self) -> u32 {
        (2..=64)
            .take_while(|&n| {
                Material::all_up_to(self.variant, n)
                    .iter()
                    .all(|m| self.slots.contains_key(m))
            })
            .last()
            .unwrap_or(0)
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub(crate) fn indexer(&self) -> &Indexer {
        &self.indexer
    }

    /// The largest piece count up to which every slice has a table.
    pub fn max_pieces(&self) -> u32 {
        self.complete_up_to
    }

    /// The slices with a table, in build order.
    pub fn slices(&self) -> Vec<Material> {
        let mut out: Vec<Material> = self.slots.keys().copied().collect();
        out.sort_by_key(|m| m.build_key());
        out
    }

    /// The header figures of every slice's table.
    pub fn stats(&self) -> Result<Vec<SliceStats>, EgtbError> {
        self.slices()
            .into_iter()
            .map(|m| file::read_stats(&self.dir, self.variant, m).map_err(EgtbError::BadFile))
            .collect()
    }

    /// The most pieces of any slice with a table here.
    pub fn most_pieces(&self) -> u32 {
        self.most
    }

    /// Do the tables give a value for `pos` (without reading a file)? A
    /// position with more pieces than any table is answered at once.
    #[inline]
    pub fn covers(&self, pos: &Position) -> bool {
        if pos.occupied().count_ones() > self.most {
            return false;
        }
        let m = Material::of(pos);
        self.slots.contains_key(&m) || m.by_rule(self.variant)
    }

    fn table(&self, slot: &Slot) -> Result<Arc<Table>, EgtbError> {
        slot.table
            .get_or_init(|| file::read(&self.dir, self.variant, slot.index.material).map(Arc::new))
            .clone()
            .map_err(EgtbError::BadFile)
    }

    /// The value of `pos` for its side to move. The draw rules that count
    /// moves or repetitions are not part of it (see the module docs).
    pub fn probe(&self, pos: &Position) -> Result<Value, EgtbError> {
        let m = Material::of(pos);
        if m.by_rule(self.variant) {
            return rafle_core::with_rules!(self.variant, R => self.by_rule::<R>(pos));
        }
        let Some(slot) = self.slots.get(&m) else {
            return Err(EgtbError::NotCovered(format!(
                "{} pieces ({m}): outside the {} tables in {} (complete up to {} pieces)",
                m.pieces(),
                self.variant,
                self.dir.display(),
                self.complete_up_to
            )));
        };
        let table = self.table(slot)?;
        let code = table.code(self.indexer.index(&slot.index, pos));
        Value::from_code(code).ok_or_else(|| {
            EgtbError::BadFile(format!(
                "{}: no position at the index of this one (a corrupted table?)",
                file::path(&self.dir, m).display()
            ))
        })
    }

    /// The value of a position of a slice valued by rule: a finished game,
    /// or (a set-up position only) an opponent without pieces, one ply from
    /// a finished game.
    fn by_rule<R: Rules>(&self, pos: &Position) -> Result<Value, EgtbError> {
        let moves = movegen::legal_moves::<R>(pos);
        if let Some(o) = outcome_of::<R>(pos, moves.len(), &Counters::default(), 1) {
            return Ok(terminal_value(pos, o.winner));
        }
        let mut best = None;
        for m in &moves {
            let mut next = *pos;
            next.apply::<R>(m);
            let v = self.probe(&next)?.before();
            best = Some(best.map_or(v, |b: Value| b.max(v)));
        }
        best.ok_or_else(|| EgtbError::NotCovered("no legal move".into()))
    }

    /// Every legal move of `pos` with its value for the side to move, best
    /// first (the moves that keep the position's value come first).
    pub fn move_values(&self, pos: &Position) -> Result<Vec<(Move, Value)>, EgtbError> {
        rafle_core::with_rules!(self.variant, R => {
            let moves: MoveList = movegen::legal_moves::<R>(pos);
            let mut out = Vec::with_capacity(moves.len());
            for m in moves {
                let mut next = *pos;
                next.apply::<R>(&m);
                out.push((m, self.probe(&next)?.before()));
            }
            out.sort_by_key(|m| std::cmp::Reverse(m.1));
            Ok(out)
        })
    }

    /// The moves that keep the value of `pos`, best first: the quickest
    /// wins, every draw, or the slowest losses.
    pub fn best_moves(&self, pos: &Position) -> Result<Vec<(Move, Value)>, EgtbError> {
        let all = self.move_values(pos)?;
        let best = all.first().map(|b| b.1);
        Ok(all.into_iter().filter(|m| Some(m.1) == best).collect())
    }
}

/// The value of a finished game for the side to move.
pub(crate) fn terminal_value(pos: &Position, winner: Option<rafle_core::Color>) -> Value {
    match winner {
        None => Value::Draw,
        Some(c) if c == pos.side => Value::Win(0),
        Some(_) => Value::Loss(0),
    }
}
