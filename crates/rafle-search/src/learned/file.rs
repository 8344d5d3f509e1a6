//! The evaluation file: safetensors, float32 tensors and string metadata.
//!
//! | key | value |
//! |---|---|
//! | `format` | `rafle-eval` |
//! | `version` | `1` |
//! | `variant` | the variant's name (`thai`) |
//! | `design` | `patterns` or `net` |
//! | `hidden`, `hidden2` | the net's widths H and H2 (net only) |
//! | anything else | provenance, kept and shown (config, commit, budget, scores) |
//!
//! Tensors: patterns `mg`, `eg` (each `[windows * 6561 + 7]`); net `w1`
//! `[4S, H]`, `b1` `[H]`, `w2` `[2H, H2]`, `b2` `[H2]`, `w3` `[H2]`, `b3`
//! `[1]` (read by their element count). A file written by Python
//! (`rafle.save_eval`) reads the same.

use super::{Design, EvalError, Learned};
use rafle_core::Variant;
use safetensors::tensor::{Dtype, SafeTensors, TensorView};
use std::collections::BTreeMap;
use std::path::Path;

pub const FORMAT: &str = "rafle-eval";
pub const VERSION: &str = "1";

/// The tensor names of a design, in file order.
pub fn tensor_names(design: Design) -> &'static [&'static str] {
    match design {
        Design::Patterns => &["mg", "eg"],
        Design::Net { .. } => &["w1", "b1", "w2", "b2", "w3", "b3"],
    }
}

/// Reads an evaluation file.
pub fn read(path: &Path) -> Result<Learned, EvalError> {
    let f = read_floats(path)?;
    Learned::from_floats(f.variant, f.design, &f.tensors, f.metadata)
        .map_err(|EvalError(e)| EvalError(format!("evaluation {}: {e}", path.display())))
}

/// Reads the bytes of an evaluation file.
pub fn from_bytes(raw: &[u8]) -> Result<Learned, EvalError> {
    let f = floats_from_bytes(raw)?;
    Learned::from_floats(f.variant, f.design, &f.tensors, f.metadata)
}

/// An evaluation file's content before it is turned into integers.
#[derive(Clone, Debug)]
pub struct Floats {
    pub variant: Variant,
    pub design: Design,
    pub tensors: BTreeMap<String, Vec<f32>>,
    pub metadata: BTreeMap<String, String>,
}

/// Reads an evaluation file's floats (a trainer resuming from them).
pub fn read_floats(path: &Path) -> Result<Floats, EvalError> {
    let raw = std::fs::read(path)
        .map_err(|e| EvalError(format!("evaluation {}: {e}", path.display())))?;
    floats_from_bytes(&raw)
        .map_err(|EvalError(e)| EvalError(format!("evaluation {}: {e}", path.display())))
}

/// The floats of the bytes of an evaluation file.
pub fn floats_from_bytes(raw: &[u8]) -> Result<Floats, EvalError> {
    let bad = |e: safetensors::SafeTensorError| EvalError(format!("not a safetensors file ({e})"));
    let (_, meta) = SafeTensors::read_metadata(raw).map_err(bad)?;
    let st = SafeTensors::deserialize(raw).map_err(bad)?;
    let metadata: BTreeMap<String, String> = meta
        .metadata()
        .clone()
        .unwrap_or_default()
        .into_iter()
        .collect();
    let field = |k: &str| {
        metadata.get(k).map(String::as_str).ok_or_else(|| {
            EvalError(format!(
                "no {k:?} in its metadata (is it a rafle evaluation?)"
            ))
        })
    };
    if field("format")? != FORMAT {
        return Err(EvalError(format!(
            "its format is {:?}, not {FORMAT:?}",
            field("format")?
        )));
    }
    if field("version")? != VERSION {
        return Err(EvalError(format!(
            "version {:?}; this rafle reads version {VERSION}",
            field("version")?
        )));
    }
    let variant: Variant = field("variant")?
        .parse()
        .map_err(|e| EvalError(format!("its variant: {e}")))?;
    let size = |k: &str| -> Result<usize, EvalError> {
        field(k)?
            .parse()
            .map_err(|_| EvalError(format!("{k} {:?} is not a size", field(k).unwrap_or(""))))
    };
    let design = match field("design")? {
        "patterns" => Design::Patterns,
        "net" => Design::Net {
            hidden: size("hidden")?,
            hidden2: size("hidden2")?,
        },
        d => return Err(EvalError(format!("unknown design {d:?} (patterns or net)"))),
    };
    let mut tensors = BTreeMap::new();
    for &name in tensor_names(design) {
        let t = st.tensor(name).map_err(|_| {
            EvalError(format!(
                "no tensor {name:?} (a {} evaluation has {:?})",
                design.name(),
                tensor_names(design)
            ))
        })?;
        if t.dtype() != Dtype::F32 {
            return Err(EvalError(format!(
                "tensor {name:?} is {:?}, not F32",
                t.dtype()
            )));
        }
        let floats: Vec<f32> = t
            .data()
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        if let Some(x) = floats.iter().find(|x| !x.is_finite()) {
            return Err(EvalError(format!("tensor {name:?} holds {x}")));
        }
        tensors.insert(name.to_string(), floats);
    }
    Ok(Floats {
        variant,
        design,
        tensors,
        metadata,
    })
}

/// The bytes of an evaluation file: `tensors` by name (each checked by
/// building the evaluation), `extra` metadata beside the required keys.
pub fn to_bytes(
    variant: Variant,
    design: Design,
    tensors: &BTreeMap<String, Vec<f32>>,
    extra: &BTreeMap<String, String>,
) -> Result<Vec<u8>, EvalError> {
    let mut meta = extra.clone();
    meta.insert("format".into(), FORMAT.into());
    meta.insert("version".into(), VERSION.into());
    meta.insert("variant".into(), variant.name().into());
    meta.insert("design".into(), design.name().into());
    if let Design::Net { hidden, hidden2 } = design {
        meta.insert("hidden".into(), hidden.to_string());
        meta.insert("hidden2".into(), hidden2.to_string());
    }
    // Built once: the same checks as a reader's.
    Learned::from_floats(variant, design, tensors, meta.clone())?;
    let bytes: Vec<(&str, Vec<u8>, usize)> = tensor_names(design)
        .iter()
        .map(|&n| {
            let t = &tensors[n];
            (n, t.iter().flat_map(|x| x.to_le_bytes()).collect(), t.len())
        })
        .collect();
    let views = bytes
        .iter()
        .map(|(n, b, len)| {
            let shape = match (design, *n) {
                (Design::Net { hidden, .. }, "w1") => vec![len / hidden, hidden],
                (Design::Net { hidden2, .. }, "w2") => vec![len / hidden2, hidden2],
                _ => vec![*len],
            };
            Ok((*n, TensorView::new(Dtype::F32, shape, b)?))
        })
        .collect::<Result<Vec<_>, safetensors::SafeTensorError>>()
        .map_err(|e| EvalError(e.to_string()))?;
    safetensors::serialize(views, Some(meta.into_iter().collect()))
        .map_err(|e| EvalError(e.to_string()))
}

/// Writes an evaluation file whole (see [`to_bytes`]).
pub fn write(
    path: &Path,
    variant: Variant,
    design: Design,
    tensors: &BTreeMap<String, Vec<f32>>,
    extra: &BTreeMap<String, String>,
) -> Result<(), EvalError> {
    let bytes = to_bytes(variant, design, tensors, extra)?;
    rafle_core::atomic::write(path, &bytes)
        .map_err(|e| EvalError(format!("evaluation {}: {e}", path.display())))
}

/// 64-bit FNV-1a of a file's bytes, as 16 hex digits: tells two files
/// apart (not a checksum against tampering).
pub fn fingerprint(raw: &[u8]) -> String {
    let h = raw.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("{h:016x}")
}
