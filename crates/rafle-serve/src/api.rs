//! The routes (listed in the crate docs) and their handlers. Bodies are
//! read as bytes and parsed here, so a malformed one is a JSON error like
//! every other; searches run on blocking threads, at most
//! [`ServeConfig::max_searches`] at once, each stopped when its request
//! is dropped.

use crate::board::{self, parse_variant, GameSpec};
use crate::error::{ApiError, ApiResult};
use crate::policy::move_policy;
use crate::roster::Roster;
use crate::think::{think, thought_json, BudgetSpec};
use crate::ServeConfig;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::Uri;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use rafle_arena::Side;
use rafle_core::{Color, Game, Variant};
use rafle_search::SearchControl;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The largest request body (a PDN file to read).
pub const MAX_BODY: usize = 8 << 20;

/// How often a watch stream sends what changed.
const WATCH_PERIOD: Duration = Duration::from_millis(150);

/// What the handlers share.
#[derive(Clone, Debug)]
pub struct AppState(Arc<Shared>);

#[derive(Debug)]
struct Shared {
    config: ServeConfig,
    roster: Roster,
    searches: tokio::sync::Semaphore,
    /// Searches running now (`/api/info`; the tests see a dropped request's
    /// search end through it).
    running: AtomicUsize,
    seeds: AtomicU64,
}

impl AppState {
    pub fn new(config: ServeConfig) -> AppState {
        let roster = Roster::new(config.players.clone(), config.resolve.clone());
        let searches = tokio::sync::Semaphore::new(config.max_searches.max(1));
        let seeds = AtomicU64::new(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64),
        );
        AppState(Arc::new(Shared {
            config,
            roster,
            searches,
            running: AtomicUsize::new(0),
            seeds,
        }))
    }
}

/// The router of every route.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/api/info", get(info))
        .route("/api/state", post(state_of))
        .route("/api/play", post(play))
        .route("/api/undo", post(undo))
        .route("/api/pdn", post(pdn_export))
        .route("/api/pdn/read", post(pdn_read))
        .route("/api/engine", post(engine))
        .route("/api/inspect", post(inspect))
        .route("/api/games", get(games))
        .route("/api/watch", get(watch))
        .fallback(page_or_404)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

/// A request body as bytes; a body too large or cut off is a JSON error too.
type Body = Result<Bytes, BytesRejection>;

fn parse<T: DeserializeOwned>(body: Body) -> ApiResult<T> {
    let body = body.map_err(|e| ApiError {
        status: e.status(),
        message: format!("bad request body: {}", e.body_text()),
    })?;
    serde_json::from_slice(&body).map_err(|e| ApiError::bad(format!("bad request body: {e}")))
}

async fn page_or_404(uri: Uri) -> Response {
    match crate::assets::file(uri.path()) {
        Some(r) => r,
        None => ApiError::not_found(format!("no such page or API route: {}", uri.path()))
            .into_response(),
    }
}

async fn info(State(s): State<AppState>) -> Json<Value> {
    let c = &s.0.config;
    let variants: Vec<Value> = Variant::ALL
        .iter()
        .map(|v| json!({"name": v.name(), "aliases": v.aliases(), "n": v.board_size()}))
        .collect();
    Json(json!({
        "version": env!("CARGO_PKG_VERSION"),
        "variant": c.variant.name(),
        "variants": variants,
        "players": s.0.roster.names(),
        "egtb": c.tables.as_ref().map(|t| t.variant().name()),
        "games": c.games.len(),
        "watch": c.watch.as_ref().map(|w| w.title().to_string()),
        "searches_running": s.0.running.load(Ordering::SeqCst),
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameReq {
    game: GameSpec,
}

async fn state_of(body: Body) -> ApiResult<Json<Value>> {
    let r: GameReq = parse(body)?;
    let g = r.game.replay()?;
    Ok(Json(board::state(&g, r.game.flipped)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayReq {
    game: GameSpec,
    #[serde(rename = "move")]
    mv: String,
}

async fn play(body: Body) -> ApiResult<Json<Value>> {
    let r: PlayReq = parse(body)?;
    let mut g = r.game.replay()?;
    g.play_str(&r.mv)
        .map_err(|e| ApiError::bad(format!("{}: {e}", r.mv.trim())))?;
    Ok(Json(board::state(&g, r.game.flipped)))
}

async fn undo(body: Body) -> ApiResult<Json<Value>> {
    let r: GameReq = parse(body)?;
    let mut g = r.game.replay()?;
    g.undo().map_err(|e| ApiError::bad(e.to_string()))?;
    Ok(Json(board::state(&g, r.game.flipped)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PdnReq {
    game: GameSpec,
    #[serde(default)]
    white: Option<String>,
    #[serde(default)]
    black: Option<String>,
}

/// The game as PDN (a FEN tag when it did not start at the start position).
pub fn pdn_of(g: &Game, white: &str, black: &str) -> String {
    let v = g.variant();
    let start = g.start_position();
    let mut tags = vec![
        ("Event", "rafle serve".to_string()),
        ("White", white.to_string()),
        ("Black", black.to_string()),
    ];
    let result = g.outcome().map_or("*", |o| v.pdn_result(o.winner));
    tags.push(("Result", result.to_string()));
    tags.push(("GameType", v.pdn_game_type().to_string()));
    tags.push(("Variant", v.name().to_string()));
    if *start != rafle_core::Position::start(v) {
        tags.push(("SetUp", "1".to_string()));
        tags.push(("FEN", rafle_core::to_fen(v, start)));
    }
    let moves: Vec<_> = g.history().copied().collect();
    tags.push(("PlyCount", moves.len().to_string()));
    rafle_arena::pdn::write_pdn(&tags, v, start.side, &moves, None, result)
}

async fn pdn_export(body: Body) -> ApiResult<Json<Value>> {
    let r: PdnReq = parse(body)?;
    let g = r.game.replay()?;
    let (w, b) = (
        r.white.as_deref().unwrap_or("?"),
        r.black.as_deref().unwrap_or("?"),
    );
    Ok(Json(json!({ "pdn": pdn_of(&g, w, b) })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PdnReadReq {
    pdn: String,
    #[serde(default)]
    variant: Option<String>,
}

/// A game read from PDN, as the page loads it: `game` is a [`GameSpec`].
fn replay_json(label: &str, g: &rafle_arena::pdn::PdnGame, v: Option<Variant>) -> ApiResult<Value> {
    let game = g
        .replay(v)
        .map_err(|e| ApiError::bad(format!("{label}: {e}")))?;
    let start = game.start_position();
    let variant = game.variant();
    let fen = (*start != rafle_core::Position::start(variant))
        .then(|| rafle_core::to_fen(variant, start));
    let moves: Vec<String> = game.history().map(|m| game.move_string(m)).collect();
    Ok(json!({
        "label": label,
        "white": g.tag("White"),
        "black": g.tag("Black"),
        "result": g.result.clone().or_else(|| g.tag("Result").map(str::to_string)),
        "game": {"variant": variant.name(), "fen": fen, "moves": moves},
    }))
}

async fn pdn_read(body: Body) -> ApiResult<Json<Value>> {
    let r: PdnReadReq = parse(body)?;
    let v = r.variant.as_deref().map(parse_variant).transpose()?;
    let games =
        rafle_arena::pdn::read_games(&r.pdn).map_err(|e| ApiError::bad(format!("PDN: {e}")))?;
    if games.is_empty() {
        return Err(ApiError::bad("PDN: no game in the text"));
    }
    let out = games
        .iter()
        .enumerate()
        .map(|(i, g)| replay_json(&g.label(i + 1), g, v))
        .collect::<ApiResult<Vec<_>>>()?;
    Ok(Json(json!({ "games": out })))
}

async fn games(State(s): State<AppState>) -> ApiResult<Json<Value>> {
    let out =
        s.0.config
            .games
            .iter()
            .map(|(label, g)| replay_json(label, g, None))
            .collect::<ApiResult<Vec<_>>>()?;
    Ok(Json(json!({ "games": out })))
}

/// Stops a search when the request that runs it is dropped.
struct StopOnDrop(Arc<SearchControl>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// Counts a search as running while it lives.
struct Running(Arc<Shared>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Runs `f` (a search, a model load) on a blocking thread, at most
/// `max_searches` at once, and stops its control if this request is dropped.
async fn searching<T: Send + 'static>(
    s: &AppState,
    f: impl FnOnce(Arc<SearchControl>) -> ApiResult<T> + Send + 'static,
) -> ApiResult<T> {
    let _permit =
        s.0.searches
            .acquire()
            .await
            .map_err(|_| ApiError::internal("the server is shutting down"))?;
    let control = Arc::new(SearchControl::new());
    let _stop = StopOnDrop(control.clone());
    s.0.running.fetch_add(1, Ordering::SeqCst);
    let running = Running(s.0.clone());
    tokio::task::spawn_blocking(move || {
        let _running = running;
        f(control)
    })
    .await
    .map_err(|e| ApiError::internal(format!("the search thread failed: {e}")))?
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EngineReq {
    game: GameSpec,
    player: String,
    #[serde(default)]
    budget: BudgetSpec,
    #[serde(default)]
    seed: Option<u64>,
}

impl EngineReq {
    fn seed(&self, s: &AppState) -> u64 {
        self.seed.unwrap_or_else(|| {
            s.0.seeds
                .fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed)
        })
    }
}

async fn engine(State(s): State<AppState>, body: Body) -> ApiResult<Json<Value>> {
    let r: EngineReq = parse(body)?;
    let game = r.game.replay()?;
    let budget = r.budget.budget()?;
    if game.is_over() {
        return Err(ApiError::bad(
            "the game is over: there is no move to search",
        ));
    }
    let seed = r.seed(&s);
    let shared = s.0.clone();
    let flipped = r.game.flipped;
    let out = searching(&s, move |control| {
        let side = shared.roster.side(&r.player, game.variant())?;
        let t = think(&side, &game, budget, seed, control)?;
        let mut after = game.clone();
        after
            .play(&t.best)
            .map_err(|e| ApiError::internal(e.to_string()))?;
        Ok(json!({
            "player": r.player,
            "move": game.move_string(&t.best),
            "search": thought_json(&game, &t),
            "state": board::state(&after, flipped),
        }))
    })
    .await?;
    Ok(Json(out))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InspectReq {
    game: GameSpec,
    /// The player to look into; none: the tables only.
    #[serde(default)]
    player: Option<String>,
    #[serde(default)]
    budget: BudgetSpec,
    /// Also run the player's search (default true).
    #[serde(default)]
    search: Option<bool>,
    #[serde(default)]
    seed: Option<u64>,
}

/// The tables' value of `game`'s position and of each legal move, where
/// they cover it.
fn tablebase_json(tb: &rafle_search::tables::Tables, game: &Game) -> Option<Value> {
    if tb.variant() != game.variant() || game.is_over() {
        return None;
    }
    let v = rafle_search::tables::probe(tb, game.position())?;
    let text = |v: rafle_egtb::Value| match v {
        rafle_egtb::Value::Draw => "draw".to_string(),
        w => format!("{} in {} plies", w.kind(), w.plies()),
    };
    let moves: Vec<Value> = tb
        .move_values(game.position())
        .map(|mv| {
            mv.iter()
                .map(|(m, val)| json!({"move": game.move_string(m), "value": val.kind(), "plies": val.plies(), "text": text(*val)}))
                .collect()
        })
        .unwrap_or_default();
    Some(json!({"value": v.kind(), "plies": v.plies(), "text": text(v), "moves": moves}))
}

fn network_json(game: &Game, side: &Side) -> Option<ApiResult<Value>> {
    let Side::Network(n) = side else {
        return None;
    };
    Some(
        move_policy(game, &n.evaluator)
            .map(|p| {
                let moves: Vec<Value> = p
                    .moves
                    .iter()
                    .map(|(m, prob)| json!({"move": game.move_string(m), "p": prob}))
                    .collect();
                json!({"value": p.value, "policy": moves, "simulations": n.simulations})
            })
            .map_err(|e| ApiError::internal(format!("{}: {e}", n.name))),
    )
}

async fn inspect(State(s): State<AppState>, body: Body) -> ApiResult<Json<Value>> {
    let r: InspectReq = parse(body)?;
    let game = r.game.replay()?;
    let budget = r.budget.budget()?;
    let mut out = json!({
        "fen": game.fen(),
        "turn": if game.turn() == Color::White { "white" } else { "black" },
        "tablebase": s.0.config.tables.as_deref().and_then(|tb| tablebase_json(tb, &game)),
    });
    let Some(player) = r.player.clone() else {
        return Ok(Json(out));
    };
    if game.is_over() {
        return Err(ApiError::bad(
            "the game is over: there is nothing to inspect",
        ));
    }
    let seed = r
        .seed
        .unwrap_or_else(|| s.0.seeds.fetch_add(1, Ordering::Relaxed));
    let shared = s.0.clone();
    let run_search = r.search.unwrap_or(true);
    let found = searching(&s, move |control| {
        let side = shared.roster.side(&player, game.variant())?;
        let network = network_json(&game, &side).transpose()?;
        let search = if run_search {
            let t = think(&side, &game, budget, seed, control)?;
            Some(thought_json(&game, &t))
        } else {
            None
        };
        Ok(json!({"player": player, "network": network, "search": search}))
    })
    .await?;
    for k in ["player", "network", "search"] {
        out[k] = found[k].clone();
    }
    Ok(Json(out))
}

/// The match as server-sent events: one `data:` JSON object per change
/// (see [`crate::watch::Watch::changes`]); the stream ends after the
/// match's final table.
async fn watch(State(s): State<AppState>) -> ApiResult<Response> {
    let Some(w) = s.0.config.watch.clone() else {
        return Err(ApiError::not_found(
            "no match is being watched here (rafle eval ... --watch PORT)",
        ));
    };
    // (the watch, the sequence number last sent, whether the end was sent;
    // the guard counts the stream as open until it is dropped)
    let guard = w.open_stream();
    let start = (w, None::<u64>, false, guard);
    let stream = futures_util::stream::unfold(start, |(w, last, ended, guard)| async move {
        if ended {
            return None;
        }
        if last.is_some() {
            tokio::time::sleep(WATCH_PERIOD).await;
        }
        loop {
            let since = last.unwrap_or(0);
            let (changes, seq, done) = w.changes(since);
            if last.is_none() || seq > since {
                let event = Event::default().data(changes.to_string());
                return Some((
                    Ok::<_, std::convert::Infallible>(event),
                    (w, Some(seq), done, guard),
                ));
            }
            tokio::time::sleep(WATCH_PERIOD).await;
        }
    });
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response())
}
