//! `SpecPlayer` (a player that needs no network, by CLI spec) and
//! `NetworkAgent` (rafle's search over a Python network), and how any
//! Python object becomes an arena side. The Python class `rafle.Player`
//! (python/rafle/agents.py) wraps these two: `model:` specs load the
//! checkpoint with torch and become a NetworkAgent.

use crate::errors::{count, parse_variant, value_error};
use crate::evaluator::{check_callable, raise, ErrorSlot, Kind, PyEvaluator};
use crate::game::Game;
use crate::interrupt::{interruptible, interruptible_also};
use crate::settings::{search_params, to_py};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rafle_arena::{NetworkSide, Side};
use rafle_core::rng::Rng;
use rafle_core::Variant;
use rafle_engine::{EngineOptions, Level};
use rafle_search::network::{self, NetworkPlayer, SearchParams};
use rafle_search::{Checkpoint, PlayerFactory, PlayerSpec};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A player of a CLI spec that needs no network: "random", "greedy",
/// "alphabeta:4", "alphabeta:t=0.5s", "uct:400", and engines
/// ("hub:<command line>", "dxp:<host>:<port>") with their level and
/// parameters.
#[pyclass(module = "rafle", name = "SpecPlayer")]
pub struct SpecPlayer {
    spec: String,
    variant: Variant,
    seed: u64,
    factory: PlayerFactory,
    player: Mutex<Box<dyn rafle_search::Player>>,
    /// An engine's: its stop flag (raised on Ctrl-C) and games in flight.
    engine: Option<(Arc<AtomicBool>, usize)>,
}

impl std::fmt::Debug for SpecPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.__repr__())
    }
}

/// The game of `game` if it is of `variant` and not over.
fn playable(game: &Game, variant: Variant) -> PyResult<&rafle_core::Game> {
    let g = game.inner();
    if g.variant() != variant {
        return Err(value_error(format!(
            "the player plays {} but the game is {}",
            variant.name(),
            g.variant().name()
        )));
    }
    if g.is_over() {
        return Err(value_error("the game is over: there is no move to choose"));
    }
    Ok(g)
}

#[pymethods]
impl SpecPlayer {
    #[new]
    #[pyo3(signature = (spec, variant, seed = 0, *, level = None, params = None, timeout = 60.0,
        concurrency = 1, egtb = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        spec: &str,
        variant: &str,
        seed: u64,
        level: Option<&str>,
        params: Option<Vec<(String, String)>>,
        timeout: f64,
        concurrency: i64,
        egtb: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let v = parse_variant(variant)?;
        let players = rafle_search::PlayerOptions {
            egtb: crate::tablebase::Tablebase::from_arg(v, egtb)?,
        };
        let concurrency: usize = count("concurrency", concurrency)?;
        let parsed: PlayerSpec = spec.parse().map_err(value_error)?;
        let is_engine = matches!(parsed, PlayerSpec::Engine(_));
        if !is_engine && (level.is_some() || params.as_ref().is_some_and(|p| !p.is_empty())) {
            return Err(value_error(format!(
                "{spec:?}: level= and params= are for engine players (hub:..., dxp:...)"
            )));
        }
        if !(timeout > 0.0 && timeout <= 86_400.0) {
            return Err(value_error("timeout must be in (0, 86400] seconds"));
        }
        if concurrency == 0 {
            return Err(value_error("concurrency must be at least 1"));
        }
        let stop = Arc::new(AtomicBool::new(false));
        let opts = EngineOptions {
            level: level.map(Level::parse).transpose().map_err(value_error)?,
            params: params.unwrap_or_default(),
            timeout: Duration::from_secs_f64(timeout),
            stop: Some(stop.clone()),
            ..EngineOptions::default()
        };
        let factory =
            rafle_engine::build_player(&parsed, v, &opts, &players).map_err(value_error)?;
        Ok(SpecPlayer {
            spec: spec.trim().to_string(),
            variant: v,
            seed,
            player: Mutex::new(factory(seed)),
            factory,
            engine: is_engine.then_some((stop, concurrency)),
        })
    }

    #[getter]
    fn spec(&self) -> &str {
        &self.spec
    }

    #[getter]
    fn variant(&self) -> &'static str {
        self.variant.name()
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// A legal move of `game` (path notation).
    fn choose(&self, py: Python<'_>, game: PyRef<'_, Game>) -> PyResult<String> {
        let g = playable(&game, self.variant)?.clone();
        let player = &self.player;
        let flags: Vec<_> = self.engine.iter().map(|(f, _)| f.clone()).collect();
        let m = interruptible_also(py, &flags, |_| {
            let mut p = player.lock().unwrap_or_else(|e| e.into_inner());
            p.choose(&g)
        })?;
        let m = m.map_err(|f| {
            pyo3::exceptions::PyRuntimeError::new_err(format!("{}: {f}", self.spec))
        })?;
        Ok(g.move_string(&m))
    }

    fn __repr__(&self) -> String {
        format!(
            "rafle.SpecPlayer({:?}, {:?}, seed={})",
            self.spec,
            self.variant.name(),
            self.seed
        )
    }
}

/// rafle's tree search (Gumbel AlphaZero or PUCT) over a Python network.
#[pyclass(module = "rafle", name = "NetworkAgent")]
#[derive(Debug)]
pub struct NetworkAgent {
    evaluator: Py<PyAny>,
    pub(crate) params: SearchParams,
    pub(crate) simulations: usize,
    name: String,
    seed: u64,
}

/// The bound on a search's simulations (a typo like 10**9 would run for days).
pub fn check_simulations(simulations: usize) -> PyResult<()> {
    if simulations > 1_000_000 {
        return Err(value_error("simulations must be at most 1000000"));
    }
    Ok(())
}

/// Simulations per move: the keyword, else the `search` table's, else `default`.
pub fn simulations_of(
    keyword: Option<i64>,
    search: Option<&Bound<'_, PyDict>>,
    default: usize,
) -> PyResult<usize> {
    let from_table = match search {
        Some(d) => d
            .get_item("simulations")?
            .map(|x| x.extract::<i64>())
            .transpose()?,
        None => None,
    };
    let n = match keyword.or(from_table) {
        Some(n) => count("simulations", n)?,
        None => default,
    };
    check_simulations(n)?;
    Ok(n)
}

#[pymethods]
impl NetworkAgent {
    #[new]
    #[pyo3(signature = (evaluator, simulations = None, algorithm = None, *, search = None,
        name = None, seed = 0, **knobs))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        evaluator: Bound<'_, PyAny>,
        simulations: Option<i64>,
        algorithm: Option<&str>,
        search: Option<&Bound<'_, PyDict>>,
        name: Option<String>,
        seed: u64,
        knobs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        check_callable(&evaluator)?;
        let simulations = simulations_of(simulations, search, 64)?;
        let algorithm = algorithm.map(|a| a.into()).unwrap_or_default();
        let mut params = search_params(search, &[("algorithm", algorithm)], knobs)?;
        // The table given back says how many simulations this agent runs
        // (0, the policy's move, leaves the table's own number).
        if simulations > 0 {
            params.simulations = simulations;
        }
        Ok(NetworkAgent {
            evaluator: evaluator.unbind(),
            params,
            simulations,
            name: name.unwrap_or_else(|| format!("network:{simulations}")),
            seed,
        })
    }

    #[getter]
    fn evaluator(&self, py: Python<'_>) -> Py<PyAny> {
        self.evaluator.clone_ref(py)
    }

    #[getter]
    fn simulations(&self) -> usize {
        self.simulations
    }

    #[getter]
    fn algorithm(&self) -> &'static str {
        self.params.algorithm.name()
    }

    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The search settings as a dict (the `[search]` table; `simulations`
    /// there is self-play's, the agent's own is `simulations`).
    #[getter]
    fn search_settings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.params)
    }

    /// A legal move of `game` (path notation), searched with the network
    /// one game at a time (`rafle.evaluate` batches many games instead).
    fn choose(&self, py: Python<'_>, game: PyRef<'_, Game>) -> PyResult<String> {
        let g = game.inner();
        if g.is_over() {
            return Err(value_error("the game is over: there is no move to choose"));
        }
        let g = g.clone();
        let eval = PyEvaluator::new(self.evaluator.clone_ref(py), Kind::Network, g.variant());
        let error = eval.error.clone();
        let seed = Rng::stream(self.seed, g.ply() as u64).next_u64();
        let mut player = NetworkPlayer::new(
            self.name.clone(),
            eval,
            self.params.clone(),
            self.simulations,
            seed,
        );
        let m = interruptible(py, |_| player.try_choose(&g))?;
        match m {
            Ok(m) => Ok(g.move_string(&m)),
            Err(e) => Err(raise(&[&error], e)),
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "rafle.NetworkAgent(simulations={}, algorithm={:?}, name={:?})",
            self.simulations,
            self.params.algorithm.name(),
            self.name
        )
    }
}

/// Whether this CPU runs bf16 networks fast (AMX or AVX-512 BF16): where a
/// config's `run.inference_dtype = "auto"` means bf16.
#[pyfunction]
pub fn cpu_has_fast_bf16() -> bool {
    rafle_search::network::evaluator::cpu_has_fast_bf16()
}

/// `model:PATH[:sims]` as ("model", PATH, sims or None), `zoo:VARIANT[:sims]`
/// as ("zoo", variant name, sims or None); None for any other spec.
/// ValueError for a malformed network spec.
#[pyfunction]
pub fn model_spec(spec: &str) -> PyResult<Option<(&'static str, String, Option<usize>)>> {
    let parsed = rafle_search::spec::model_spec(spec)
        .transpose()
        .map_err(value_error)?;
    Ok(parsed.map(|(c, sims)| match c {
        Checkpoint::File(p) => ("model", p, sims),
        Checkpoint::Zoo(v) => ("zoo", v.name().to_string(), sims),
    }))
}

/// An engine side of a match: its stop flag and the games it may play at once.
pub type EngineSeat = (Arc<AtomicBool>, usize);

/// The arena side of a Python object (a spec string, a SpecPlayer, a
/// NetworkAgent or a policy callable); the error slots of its Python
/// evaluators go to `slots`, an engine's stop flag and concurrency to
/// `engines` (a spec string's engine runs with the default options, one
/// game at a time).
pub fn side_of(
    obj: &Bound<'_, PyAny>,
    variant: Variant,
    slots: &mut Vec<ErrorSlot>,
    engines: &mut Vec<EngineSeat>,
    players: &rafle_search::PlayerOptions,
) -> PyResult<Side> {
    if let Ok(text) = obj.extract::<String>() {
        let spec: PlayerSpec = text.parse().map_err(value_error)?;
        if let PlayerSpec::Network {
            checkpoint: Checkpoint::File(_),
            ..
        } = spec
        {
            return Err(value_error(format!(
                "{text:?}: model players load their checkpoint with torch: \
                 use rafle.evaluate or rafle.Player (python/rafle/agents.py)"
            )));
        }
        let stop = Arc::new(AtomicBool::new(false));
        let opts = EngineOptions {
            stop: Some(stop.clone()),
            ..EngineOptions::default()
        };
        if matches!(spec, PlayerSpec::Engine(_)) {
            engines.push((stop, 1));
        }
        return Ok(Side::Player(
            rafle_engine::build_player(&spec, variant, &opts, players).map_err(value_error)?,
        ));
    }
    if let Ok(p) = obj.cast::<SpecPlayer>() {
        let p = p.borrow();
        if p.variant != variant {
            return Err(value_error(format!(
                "player {:?} plays {} but the match is {}",
                p.spec,
                p.variant.name(),
                variant.name()
            )));
        }
        engines.extend(p.engine.clone());
        return Ok(Side::Player(p.factory.clone()));
    }
    let py = obj.py();
    let (callable, kind, name, params, sims) = if let Ok(a) = obj.cast::<NetworkAgent>() {
        let a = a.borrow();
        (
            a.evaluator.clone_ref(py),
            Kind::Network,
            a.name.clone(),
            a.params.clone(),
            a.simulations,
        )
    } else if obj.is_callable() {
        let name = obj
            .getattr("__name__")
            .and_then(|n| n.extract::<String>())
            .unwrap_or_else(|_| "policy".into());
        (
            obj.clone().unbind(),
            Kind::Policy,
            name,
            SearchParams::default(),
            0,
        )
    } else {
        return Err(value_error(format!(
            "a player is a spec string, a rafle.Player, a rafle.NetworkAgent or a \
             policy callable (obs, mask) -> actions; got {}",
            obj.get_type()
                .name()
                .map_or_else(|_| "?".into(), |n| n.to_string())
        )));
    };
    let eval = PyEvaluator::new(callable, kind, variant);
    slots.push(eval.error.clone());
    Ok(Side::Network(NetworkSide {
        name,
        evaluator: network::shared(eval),
        params,
        simulations: sims,
    }))
}
