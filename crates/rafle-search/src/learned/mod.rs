//! Learned evaluations for alpha-beta: `alphabeta:d=6,eval=zoo` (the
//! variant's shipped evaluation), `alphabeta:d=6,eval=PATH` (a file);
//! `alphabeta:6` keeps the hand-written [`crate::eval`].
//!
//! An evaluation is data: float weights in a safetensors file with their
//! metadata ([`file`]), turned into integers when read so that a node costs
//! no float arithmetic and no allocation. Two designs ([`Design`]) read the
//! board in the side to move's [`frame`]:
//! - [`patterns`]: Scan's pattern tables over 8-square windows, material and
//!   tempo, interpolated by the game phase;
//! - [`net`]: a small network over piece-square inputs, its first layer
//!   updated incrementally along the search path (NNUE, GuiNN).
//!
//! Both return centi-logits of the mover's expected score (a logit of 1, a
//! 73% expected score, is 100), the scale of the hand-written evaluation's
//! centi-men. The trainer (`rafle train-eval`, tch) fits the floats; Python
//! reads the same sparse features and writes the same files.

pub mod file;
pub mod frame;
pub mod net;
pub mod patterns;

use frame::Frame;
use net::Net;
use patterns::Patterns;
use rafle_core::{Position, Rules, Variant};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// A learned evaluation that could not be read or built; the message says why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalError(pub String);

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EvalError {}

/// Which learned evaluation, with its sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Design {
    Patterns,
    Net { hidden: usize, hidden2: usize },
}

impl Design {
    /// The design's name in files and configs.
    pub fn name(self) -> &'static str {
        match self {
            Design::Patterns => "patterns",
            Design::Net { .. } => "net",
        }
    }
}

/// The weights at play time.
#[derive(Clone, Debug)]
enum Model {
    Patterns(Patterns),
    Net(Net),
}

/// A learned evaluation, ready for alpha-beta.
#[derive(Clone, Debug)]
pub struct Learned {
    frame: Frame,
    model: Model,
    /// The file's metadata (design, sizes and provenance: config, commit, budget).
    pub metadata: BTreeMap<String, String>,
}

impl Learned {
    /// Builds from float tensors by name (see [`file`] for names and shapes).
    pub fn from_floats(
        variant: Variant,
        design: Design,
        tensors: &BTreeMap<String, Vec<f32>>,
        metadata: BTreeMap<String, String>,
    ) -> Result<Learned, EvalError> {
        let frame = Frame::new(variant);
        let get = |name: &str| {
            tensors.get(name).map(Vec::as_slice).ok_or_else(|| {
                EvalError(format!("no tensor {name:?} for design {}", design.name()))
            })
        };
        let model = match design {
            Design::Patterns => Model::Patterns(Patterns::new(&frame, get("mg")?, get("eg")?)?),
            Design::Net { hidden, hidden2 } => {
                if !(1..=net::MAX_HIDDEN).contains(&hidden)
                    || !(1..=net::MAX_HIDDEN).contains(&hidden2)
                {
                    return Err(EvalError(format!(
                        "net sizes H={hidden}, H2={hidden2} must be in 1..={}",
                        net::MAX_HIDDEN
                    )));
                }
                let w = ["w1", "b1", "w2", "b2", "w3", "b3"].map(get);
                let [w1, b1, w2, b2, w3, b3] = w;
                Model::Net(Net::new(
                    &frame,
                    (hidden, hidden2),
                    [w1?, b1?, w2?, b2?, w3?, b3?],
                )?)
            }
        };
        Ok(Learned {
            frame,
            model,
            metadata,
        })
    }

    pub fn variant(&self) -> Variant {
        self.frame.variant
    }

    pub fn design(&self) -> Design {
        match &self.model {
            Model::Patterns(_) => Design::Patterns,
            Model::Net(n) => Design::Net {
                hidden: n.hidden,
                hidden2: n.hidden2,
            },
        }
    }

    /// Width of one position's accumulators (0 without a network).
    fn acc_width(&self) -> usize {
        match &self.model {
            Model::Patterns(_) => 0,
            Model::Net(n) => 2 * n.hidden,
        }
    }

    /// The value of `pos` for the side to move, centi-logits, from scratch
    /// (the search keeps a network's accumulators instead: [`Leaf`]).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let mut leaf = Leaf::new(Some(self), 1);
        leaf.root(pos);
        leaf.evaluate_at(0, pos)
    }
}

/// Sparse features of a position for a design (see [`patterns`] and [`net`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Features {
    /// patterns: (input, value) pairs; net: the mover's frame's inputs (value 1).
    pub indices: Vec<u32>,
    pub values: Vec<f32>,
    /// net: the opponent's frame's inputs; empty for patterns.
    pub them: Vec<u32>,
    /// The phase φ in [0, 1].
    pub phase: f32,
}

/// The features of `pos` for `design` in `frame`'s variant (see
/// [`patterns`] and [`net`]).
pub fn features_in(frame: &Frame, design: Design, pos: &Position) -> Features {
    let mut out = Features {
        phase: frame.phase(pos),
        ..Features::default()
    };
    match design {
        Design::Patterns => {
            let mut pairs = Vec::new();
            Patterns::features(frame, pos, &mut pairs);
            (out.indices, out.values) = pairs.into_iter().unzip();
        }
        Design::Net { .. } => {
            Net::features(frame, pos, &mut out.indices, &mut out.them);
            out.values = vec![1.0; out.indices.len()];
        }
    }
    out
}

/// Number of inputs of `design` on `variant` (per frame for a net).
pub fn inputs(variant: Variant, design: Design) -> usize {
    let f = Frame::new(variant);
    match design {
        Design::Patterns => Patterns::inputs(&f),
        Design::Net { .. } => Net::inputs(&f),
    }
}

/// The evaluation at the leaves of one search: the learned one, with a
/// network's accumulators for every ply of the path, or the hand-written one.
pub(crate) struct Leaf<'a> {
    eval: Option<&'a Learned>,
    /// `acc[ply * width..]`: the accumulators of the path's node at `ply`.
    acc: Vec<i32>,
    width: usize,
}

impl<'a> Leaf<'a> {
    /// Room for `plies` nodes on the path (allocated once per search).
    pub fn new(eval: Option<&'a Learned>, plies: usize) -> Leaf<'a> {
        let width = eval.map_or(0, Learned::acc_width);
        Leaf {
            eval,
            acc: vec![0; width * plies],
            width,
        }
    }

    /// The root of the path is `pos`.
    pub fn root(&mut self, pos: &Position) {
        if let Some(Model::Net(n)) = self.eval.map(|e| &e.model) {
            n.refresh(&self.eval.unwrap().frame, pos, &mut self.acc[..self.width]);
        }
    }

    /// The node at `ply` is `after`, reached from `before` (the node at `ply - 1`).
    #[inline]
    pub fn step(&mut self, ply: usize, before: &Position, after: &Position) {
        if let Some(e) = self.eval {
            if let Model::Net(n) = &e.model {
                let w = self.width;
                let (parent, child) = self.acc.split_at_mut(ply * w);
                n.update(
                    &e.frame,
                    (before, after),
                    &parent[(ply - 1) * w..],
                    &mut child[..w],
                );
            }
        }
    }

    /// The value of the node at `ply`, `pos`, for its side to move.
    #[inline]
    pub fn evaluate<R: Rules>(&self, ply: usize, pos: &Position) -> i32 {
        match self.eval {
            None => crate::eval::evaluate::<R>(pos),
            Some(_) => self.evaluate_at(ply, pos),
        }
    }

    fn evaluate_at(&self, ply: usize, pos: &Position) -> i32 {
        let e = self.eval.expect("a learned evaluation");
        let v = match &e.model {
            Model::Patterns(p) => p.evaluate(&e.frame, pos),
            Model::Net(n) => n.evaluate(
                pos.side,
                &self.acc[ply * self.width..(ply + 1) * self.width],
            ),
        };
        // Far from the search's forced-win scores.
        v.clamp(-LIMIT, LIMIT)
    }
}

/// The largest value a learned evaluation returns (200 logits).
pub const LIMIT: i32 = 20_000;

/// Where `eval=zoo` looks: `RAFLE_ZOO` if set, else [`set_zoo_dir`]'s
/// folder (the Python package's), else `python/rafle/zoo` of the source
/// tree this was built from; the evaluations are in its `eval/` folder.
pub fn zoo_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("RAFLE_ZOO") {
        return PathBuf::from(dir);
    }
    match ZOO.get().and_then(|d| d.lock().ok()?.clone()) {
        Some(d) => d,
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../python/rafle/zoo"),
    }
}

static ZOO: OnceLock<Mutex<Option<PathBuf>>> = OnceLock::new();

/// Points `eval=zoo` at `dir` (the Python package's own zoo folder).
pub fn set_zoo_dir(dir: Option<PathBuf>) {
    *ZOO.get_or_init(|| Mutex::new(None)).lock().unwrap() = dir;
}

/// The shipped evaluation file of `variant`.
pub fn zoo_path(variant: Variant) -> PathBuf {
    zoo_dir()
        .join("eval")
        .join(format!("{}.safetensors", variant.name()))
}

/// A fingerprint of `variant`'s shipped evaluation file (None where none
/// is shipped): what a ladder's `eval=zoo` rungs record they played, so a
/// newly shipped file shows their calibration is stale.
pub fn zoo_fingerprint(variant: Variant) -> Option<String> {
    std::fs::read(zoo_path(variant))
        .ok()
        .map(|raw| file::fingerprint(&raw))
}

/// The variants with a shipped evaluation, in the order of the variant list.
pub fn shipped() -> Vec<Variant> {
    Variant::ALL
        .into_iter()
        .filter(|&v| zoo_path(v).is_file())
        .collect()
}

/// Files read once per process: a match builds many players of one spec.
/// A file read: its path, its modification time, the evaluation.
type Cached = (PathBuf, std::time::SystemTime, Arc<Learned>);

static CACHE: OnceLock<Mutex<Vec<Cached>>> = OnceLock::new();

/// Reads the evaluation at `path` for `variant` (a file read again only when it changed).
pub fn load(path: &Path, variant: Variant) -> Result<Arc<Learned>, EvalError> {
    let modified = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .map_err(|e| EvalError(format!("evaluation {}: {e}", path.display())))?;
    let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
    if let Some((_, _, e)) = cache
        .lock()
        .unwrap()
        .iter()
        .find(|(p, t, _)| p == path && *t == modified)
    {
        return check_variant(e.clone(), path, variant);
    }
    let e = Arc::new(file::read(path)?);
    let mut c = cache.lock().unwrap();
    c.retain(|(p, _, _)| p != path);
    c.push((path.to_path_buf(), modified, e.clone()));
    check_variant(e, path, variant)
}

fn check_variant(
    e: Arc<Learned>,
    path: &Path,
    variant: Variant,
) -> Result<Arc<Learned>, EvalError> {
    if e.variant() != variant {
        return Err(EvalError(format!(
            "evaluation {} is for {}, the game is {variant}",
            path.display(),
            e.variant()
        )));
    }
    Ok(e)
}

#[cfg(test)]
mod tests;
