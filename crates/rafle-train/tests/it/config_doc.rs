//! The run config's reference page, `docs/reference/config.md` (and
//! `docs/reference/eval-config.md`, `rafle train-eval`'s), is rendered
//! from the config structs' JSON schema (schemars: the field docs become
//! the descriptions, serde's defaults the defaults), so it cannot drift from
//! the code. This test renders it and compares it with the checked-in page;
//! `RAFLE_BLESS=1 cargo test --release -p rafle-train --test it config_doc`
//! rewrites the page. It also fails on a field without a doc comment.

use std::path::Path;

use rafle_train::config::Config;
use rafle_train::evaltrain::config::Config as EvalConfig;
use serde_json::{Map, Value};

const BLESS: &str = "RAFLE_BLESS=1 cargo test --release -p rafle-train --test it config_doc";

#[test]
fn the_config_reference_page_is_rendered_from_the_structs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let eval_toml = EvalConfig::load_with(&root.join("configs/eval/thai.toml"), &[])
        .unwrap()
        .to_toml();
    let pages = [
        (
            "docs/reference/config.md",
            render(
                schemars::schema_for!(Config).as_value(),
                &declaration_order(
                    &Config::load(&root.join("configs/thai.toml"))
                        .unwrap()
                        .to_toml(),
                ),
                HEADER,
            ),
        ),
        (
            "docs/reference/eval-config.md",
            render(
                schemars::schema_for!(EvalConfig).as_value(),
                &declaration_order(&eval_toml),
                EVAL_HEADER,
            ),
        ),
    ];
    for (page_path, page) in pages {
        let path = root.join(page_path);
        if std::env::var_os("RAFLE_BLESS").is_some() {
            std::fs::write(&path, &page).unwrap();
            continue;
        }
        let old = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            old == page,
            "{page_path} is not what the config structs' docs render; rewrite it with `{BLESS}`"
        );
    }
}

#[test]
fn every_config_and_experiment_arm_reads() {
    // The page's example values are the recipes of configs/; the arms of
    // configs/results/V/ are overlays on them: each must read.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs");
    let mut files = Vec::new();
    let mut dirs = vec![dir];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "toml") {
                files.push(path);
            }
        }
    }
    let arms = files
        .iter()
        .filter(|p| p.components().any(|c| c.as_os_str() == "results"));
    assert!(arms.count() >= 16, "{files:?}");
    for path in &files {
        // rafle train-eval's configs (configs/eval/ and the arms on them)
        // are told apart as `rafle config` does: by their tables.
        let table = rafle_train::overlay::read(path).unwrap().table;
        if ["games", "fit", "check"]
            .iter()
            .any(|k| table.contains_key(*k))
        {
            EvalConfig::load_with(path, &[])
                .unwrap_or_else(|e| panic!("{}: {e:#}", path.display()));
        } else {
            Config::load(path).unwrap_or_else(|e| panic!("{}: {e:#}", path.display()));
        }
    }
}

/// `table` and `table.key` in the order the structs declare them: serde
/// writes a config's TOML (`text`) in declaration order (the schema's maps are sorted).
fn declaration_order(text: &str) -> Vec<String> {
    let mut table = String::new();
    let mut order = Vec::new();
    for line in text.lines() {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            table = name.to_string();
            order.push(table.clone());
        } else if let Some((key, _)) = line.split_once(" = ") {
            order.push(format!("{table}.{key}"));
        }
    }
    order
}

/// Sorts `(name, _)` pairs by their place in `order` (unlisted names last, by name).
fn sorted<'a>(
    mut items: Vec<(&'a String, &'a Value)>,
    prefix: &str,
    order: &[String],
) -> Vec<(&'a String, &'a Value)> {
    let rank = |k: &str| {
        order
            .iter()
            .position(|o| *o == format!("{prefix}{k}"))
            .unwrap_or(usize::MAX)
    };
    items.sort_by_key(|(k, _)| rank(k));
    items
}

/// The markdown page: one section per table of the file, a row per field.
fn render(schema: &Value, order: &[String], header: &str) -> String {
    let defs = schema["$defs"]
        .as_object()
        .expect("schemars puts types in $defs");
    let mut out = String::from(header);
    let (fields, required) = properties(schema);
    for (table, field) in sorted(fields, "", order) {
        let def = resolve(field, defs);
        let what = description(field)
            .or_else(|| description(def))
            .unwrap_or_else(|| panic!("[{table}] has no doc comment"));
        let optional = if required.contains(table) {
            ""
        } else {
            " (optional table)"
        };
        out += &format!("\n## `[{table}]`{optional}\n\n{what}\n");
        if let Some(more) = description(def).filter(|d| Some(d) != description(field).as_ref()) {
            out += &format!("\n{more}\n");
        }
        out += "\n| field | type | default | meaning |\n|---|---|---|---|\n";
        let (keys, needed) = properties(def);
        for (key, spec) in sorted(keys, &format!("{table}."), order) {
            let doc = description(spec)
                .unwrap_or_else(|| panic!("{table}.{key} has no doc comment"))
                .replace('\n', " ");
            let default = match spec.get("default") {
                Some(v) => format!("`{}`", toml_value(v)),
                None if needed.contains(key) => "required".to_string(),
                None => "none".to_string(),
            };
            out += &format!(
                "| `{key}` | {} | {default} | {} |\n",
                type_name(spec, defs),
                doc.replace('|', "\\|")
            );
        }
    }
    out
}

const EVAL_HEADER: &str = "\
# Evaluation training config reference

<!-- Generated from the doc comments of crates/rafle-train/src/evaltrain/config.rs;
do not edit by hand: RAFLE_BLESS=1 cargo test --release -p rafle-train --test it config_doc -->

`rafle train-eval --config FILE` trains a learned alpha-beta evaluation
([Learned evaluations](../how-to/learned-eval.md)); `configs/eval/` holds
the recipes. The file reads as a run config does: unknown fields are
errors naming them, `base = \"...\"` builds on another file, and
`--set table.field=value` changes one field.
";

const HEADER: &str = "\
# Run config reference

<!-- Generated from the doc comments of crates/rafle-train/src/config.rs and
crates/rafle-search/src/network/params.rs; do not edit by hand:
RAFLE_BLESS=1 cargo test --release -p rafle-train --test it config_doc -->

A run is one TOML file (`configs/` holds one per variant and size), read by
`rafle train --config FILE`, `python -m rafle.distributed --config FILE`
and `rafle.SelfPlay.from_config`. An unknown table or field is an error
naming it, and so is a value out of its range or a choice outside its list.
\"required\" fields have no default; the others may be left out.

A file may build on another: `base = \"../../thai.toml\"` (a path relative to
the file's own folder) takes every setting of that file, and the file holds
only what it changes; tables merge field by field, any other value replaces
the base's. The experiment arms of `configs/results/V/` are such overlays on
their recipe. `--set table.field=value` (repeatable; `rafle train`,
`rafle config`, `python -m rafle.distributed`; `load_config(path, set=[...])`
in Python) changes one field after that, the value read as TOML (`16`,
`0.5`, `true`, `[\"a\", \"b\"]`) or else as a string (`runs/x`,
`alphabeta:6`), and checked as the file is. `rafle config FILE [--set ...]`
prints every setting a run of FILE trains with.
";

/// The properties of an object schema, in declaration order, and its required keys.
fn properties(schema: &Value) -> (Vec<(&String, &Value)>, Vec<String>) {
    let props = schema["properties"].as_object().expect("an object schema");
    let required = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(|k| k.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    (props.iter().collect(), required)
}

/// A schema's doc comment, rustdoc's intra-doc links (`` [`X`] ``) as plain code.
fn description(schema: &Value) -> Option<String> {
    let text = schema.get("description")?.as_str()?;
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("[`") {
        let Some(j) = rest[i..].find("`]").map(|j| i + j) else {
            break;
        };
        let linked = rest[j + 2..].starts_with('(');
        out += &rest[..i];
        out += if linked {
            &rest[i..j + 2]
        } else {
            &rest[i + 1..j + 1]
        };
        rest = &rest[j + 2..];
    }
    Some(out + rest)
}

/// The schema a `$ref` (bare or inside `allOf`/`anyOf`) points to, or the schema itself.
fn resolve<'a>(schema: &'a Value, defs: &'a Map<String, Value>) -> &'a Value {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        return &defs[r.trim_start_matches("#/$defs/")];
    }
    for key in ["allOf", "anyOf"] {
        if let Some(list) = schema.get(key).and_then(Value::as_array) {
            if let Some(inner) = list.iter().find(|s| s.get("$ref").is_some()) {
                return resolve(inner, defs);
            }
        }
    }
    schema
}

/// A field's type as a reader of the TOML file sees it.
fn type_name(spec: &Value, defs: &Map<String, Value>) -> String {
    let s = resolve(spec, defs);
    let choices = choices(s);
    if !choices.is_empty() {
        return choices
            .iter()
            .map(|c| format!("`\"{c}\"`"))
            .collect::<Vec<_>>()
            .join(" or ");
    }
    let of = |t: &str, s: &Value| match t {
        "string" => "string".to_string(),
        "boolean" => "bool".to_string(),
        "number" => "float".to_string(),
        "integer" if s.get("minimum").and_then(Value::as_f64) == Some(0.0) => "integer >= 0".into(),
        "integer" => "integer".to_string(),
        "array" => format!("list of {}", type_name(&s["items"], defs)),
        other => other.to_string(),
    };
    match &s["type"] {
        Value::String(t) => of(t, s),
        // An Option<T>: ["integer", "null"].
        Value::Array(ts) => ts
            .iter()
            .filter_map(Value::as_str)
            .filter(|t| *t != "null")
            .map(|t| of(t, s))
            .collect::<Vec<_>>()
            .join(" or "),
        _ => panic!("no type in {s}"),
    }
}

/// The names an enum schema allows (`enum`, or `oneOf` of `const`s and `enum`s).
fn choices(s: &Value) -> Vec<String> {
    let strs = |v: &Value| -> Vec<String> {
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut out = strs(&s["enum"]);
    if let Some(list) = s.get("oneOf").and_then(Value::as_array) {
        for alt in list {
            out.extend(alt.get("const").and_then(Value::as_str).map(str::to_string));
            out.extend(strs(&alt["enum"]));
        }
    }
    out
}

fn toml_value(v: &Value) -> String {
    match v {
        Value::String(s) => format!("\"{s}\""),
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(toml_value).collect::<Vec<_>>().join(", ")
        ),
        Value::Null => "none".to_string(),
        other => other.to_string(),
    }
}
