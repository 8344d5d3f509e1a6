//! The players a server offers: names the page may pick, each turned into
//! an arena [`Side`] for a variant by the caller's [`Resolve`] function
//! (once per name and variant: a model is loaded once).

use crate::error::{ApiError, ApiResult};
use rafle_arena::Side;
use rafle_core::Variant;
use rafle_search::PlayerOptions;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Turns a player name into a side for a variant, or says why it cannot
/// (a model trained for another variant, an unknown spec).
pub type Resolve = Arc<dyn Fn(&str, Variant) -> Result<Side, String> + Send + Sync>;

/// rafle-search's players by spec (`random`, `greedy`, `alphabeta:D`,
/// `uct:N`, `egtb`), with `opts`' tables in their variant. Network and
/// engine specs need a resolver that knows them (`rafle serve`'s).
pub fn spec_resolver(opts: PlayerOptions) -> Resolve {
    Arc::new(move |spec: &str, v: Variant| {
        let opts = match &opts.egtb {
            Some(tb) if tb.variant() != v => PlayerOptions::default(),
            _ => opts.clone(),
        };
        rafle_search::parse_player_with(spec, v, &opts)
            .map(Side::Player)
            .map_err(|e| e.to_string())
    })
}

/// The offered players and the sides built so far.
pub struct Roster {
    names: Vec<String>,
    resolve: Resolve,
    built: Mutex<HashMap<(String, Variant), Result<Side, String>>>,
}

impl std::fmt::Debug for Roster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Roster")
            .field("names", &self.names)
            .finish_non_exhaustive()
    }
}

impl Roster {
    pub fn new(names: Vec<String>, resolve: Resolve) -> Roster {
        Roster {
            names,
            resolve,
            built: Mutex::new(HashMap::new()),
        }
    }

    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The side of offered player `name` in variant `v` (built on first
    /// use; may load a model, so call it off the async threads).
    pub fn side(&self, name: &str, v: Variant) -> ApiResult<Side> {
        if !self.names.iter().any(|n| n == name) {
            return Err(ApiError::bad(format!(
                "player {name:?} is not offered here (offered: {})",
                self.names.join(", ")
            )));
        }
        let key = (name.to_string(), v);
        let mut built = self.built.lock().unwrap_or_else(|p| p.into_inner());
        let side = built
            .entry(key)
            .or_insert_with(|| (self.resolve)(name, v))
            .clone();
        side.map_err(ApiError::bad)
    }
}
