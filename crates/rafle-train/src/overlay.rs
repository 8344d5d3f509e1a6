//! Config files that build on others, and settings changed from the command
//! line. An experiment arm names the recipe it changes and holds only what
//! it changes:
//!
//! ```toml
//! base = "../../thai.toml"   # relative to this file's folder
//! [net]
//! blocks = 6
//! ```
//!
//! A base may have a base of its own. Tables merge key by key; any other
//! value (a number, a string, an array) replaces the base's. `--set
//! key=value` (`rafle train`, `rafle config`, `python -m rafle.distributed`)
//! then changes one field: `key` is `table.field`, `value` is TOML (`16`,
//! `0.5`, `true`, `["random", "greedy"]`, `"text"`), and a value that is not
//! TOML (`runs/x`, `alphabeta:6`) is taken as a string. The merged table is
//! read and checked as one file is ([`crate::config::Config::parse`]): an
//! unknown field or a value of the wrong type is an error naming the field.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use toml::{Table, Value};

/// The key of a file's base recipe.
pub const BASE_KEY: &str = "base";

/// Bases deeper than this are an error (a loop is caught before).
const MAX_BASES: usize = 16;

/// A config file's table with its bases merged under it.
#[derive(Clone, Debug)]
pub struct Layered {
    /// The merged table, without `base` keys.
    pub table: Table,
    /// The files read (canonical paths), the given one first, then its
    /// base, its base's base...
    pub files: Vec<PathBuf>,
    /// The text of the given file (the whole config when it has no base).
    pub text: String,
}

/// Reads `path` and every base under it.
pub fn read(path: &Path) -> Result<Layered> {
    let mut files: Vec<PathBuf> = Vec::new();
    let mut layers: Vec<Table> = Vec::new();
    let mut text_of_first = None;
    let mut next = Some(path.to_path_buf());
    while let Some(file) = next.take() {
        let canonical = file
            .canonicalize()
            .with_context(|| format!("cannot read config {}", file.display()))?;
        if files.contains(&canonical) {
            bail!("config {}: its bases loop back to it", file.display());
        }
        if files.len() > MAX_BASES {
            bail!(
                "config {}: more than {MAX_BASES} bases under it",
                path.display()
            );
        }
        let text = std::fs::read_to_string(&file)
            .with_context(|| format!("cannot read config {}", file.display()))?;
        let mut table: Table = toml::from_str(&text).map_err(|e| {
            anyhow::anyhow!(
                "config {}: {}",
                file.display(),
                e.message().lines().next().unwrap_or("not TOML")
            )
        })?;
        if let Some(base) = table.remove(BASE_KEY) {
            let Value::String(base) = base else {
                bail!(
                    "config {}: {BASE_KEY} must be a path (a string)",
                    file.display()
                );
            };
            let dir = file.parent().unwrap_or(Path::new("."));
            next = Some(dir.join(base));
        }
        text_of_first.get_or_insert(text);
        files.push(canonical);
        layers.push(table);
    }
    let mut merged = Table::new();
    for layer in layers.into_iter().rev() {
        merge(&mut merged, layer);
    }
    Ok(Layered {
        table: merged,
        files,
        text: text_of_first.unwrap_or_default(),
    })
}

/// `over` onto `base`: tables merge key by key, other values replace.
pub fn merge(base: &mut Table, over: Table) {
    for (key, value) in over {
        match (base.get_mut(&key), value) {
            (Some(Value::Table(b)), Value::Table(o)) => merge(b, o),
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}

/// Applies one `key=value` (see the module docs) to `table`.
pub fn set(table: &mut Table, assignment: &str) -> Result<()> {
    let Some((key, value)) = assignment.split_once('=') else {
        bail!("--set {assignment}: expected table.field=value");
    };
    let key = key.trim();
    let path: Vec<&str> = key.split('.').map(str::trim).collect();
    if path.iter().any(|p| p.is_empty()) {
        bail!("--set {assignment}: expected table.field=value");
    }
    if key == BASE_KEY {
        bail!("--set {BASE_KEY}: the base is a file's, not a setting");
    }
    let value = parse_value(value.trim());
    let (last, parents) = path.split_last().expect("split gives one part at least");
    let mut at = table;
    for (i, part) in parents.iter().enumerate() {
        let entry = at
            .entry(part.to_string())
            .or_insert_with(|| Value::Table(Table::new()));
        at = match entry {
            Value::Table(t) => t,
            _ => bail!("--set {key}: {} is not a table", path[..=i].join(".")),
        };
    }
    at.insert(last.to_string(), value);
    Ok(())
}

/// A TOML value, or the text as a string where it is not one (or is a
/// date, which no field takes).
fn parse_value(text: &str) -> Value {
    let parsed = format!("v = {text}")
        .parse::<Table>()
        .ok()
        .and_then(|mut t| t.remove("v"));
    match parsed {
        Some(Value::Datetime(_)) | None => Value::String(text.to_string()),
        Some(v) => v,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &str) -> Table {
        text.parse().unwrap()
    }

    #[test]
    fn tables_merge_and_other_values_replace() {
        let mut base = table("[a]\nx = 1\ny = [1, 2]\n[b]\nz = \"s\"");
        merge(&mut base, table("[a]\ny = [3]\nw = 2"));
        assert_eq!(base, table("[a]\nx = 1\ny = [3]\nw = 2\n[b]\nz = \"s\""));
    }

    #[test]
    fn set_parses_toml_and_keeps_other_text_as_strings() {
        let mut t = Table::new();
        for s in [
            "run.seed=3",
            "train.lr = 0.5",
            "eval.opponents=[\"random\"]",
            "run.out_dir=runs/x",
            "bootstrap.player=alphabeta:d=6,eval=zoo",
            "run.note=2026-12-07",
        ] {
            set(&mut t, s).unwrap();
        }
        assert_eq!(
            t,
            table(
                "[run]\nseed = 3\nout_dir = \"runs/x\"\nnote = \"2026-12-07\"\n\
                 [train]\nlr = 0.5\n[eval]\nopponents = [\"random\"]\n\
                 [bootstrap]\nplayer = \"alphabeta:d=6,eval=zoo\""
            )
        );
    }

    #[test]
    fn set_refuses_what_is_not_an_assignment() {
        let mut t = table("[run]\nseed = 1");
        for bad in [
            "run.seed",
            "=1",
            "run..seed=1",
            "base=x.toml",
            "run.seed.x=1",
        ] {
            let err = set(&mut t, bad).unwrap_err().to_string();
            assert!(err.starts_with("--set"), "{bad}: {err}");
            assert!(!err.contains('\n'), "{err}");
        }
    }
}
