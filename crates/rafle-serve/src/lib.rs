//! rafle-serve: play, watch and inspect players in the browser.
//!
//! A small HTTP server (axum on tokio) with the page's HTML, CSS and
//! JavaScript compiled into the binary ([`assets`]). It is its own crate
//! so that the HTTP stack stays out of the rules, search and arena crates;
//! it knows no tch and no Python: players come as arena
//! [`Side`](rafle_arena::Side)s from a
//! [`Resolve`] function the caller brings (`rafle serve` resolves model
//! and engine specs, `rafle.serve` Python agents).
//!
//! The JSON API ([`api`]) is stateless: every request carries its game
//! (variant, optional start FEN, moves in path notation), so undo, going
//! back in the move list and several tabs need no session on the server.
//!
//! ```text
//! GET  /                 the page (play, inspect; replay with --pdn; watch with --watch)
//! GET  /api/info         variants, players, tables, replay games, watch mode
//! POST /api/state        {game}                  -> the position (board, legal moves, outcome)
//! POST /api/play         {game, move}            -> the position after the move
//! POST /api/undo         {game}                  -> the position before the last move
//! POST /api/pdn          {game, white?, black?}  -> {pdn}
//! POST /api/pdn/read     {pdn}                   -> {games}   (every game replayed and checked)
//! POST /api/engine       {game, player, budget?} -> {move, search, state}
//! POST /api/inspect      {game, player, budget?} -> {network?, search?, tablebase?}
//! GET  /api/games        the games of --pdn
//! GET  /api/watch        server-sent events of a match (rafle eval --watch)
//! ```
//!
//! A `game` is `{"variant": "thai", "fen": null, "moves": ["22-18", ...]}`;
//! a `budget` `{"depth": 6}`, `{"nodes": 400}` or `{"time": 0.5}` (seconds).
//! Every error is `{"error": "..."}` with status 400 (bad input) or 404.
//! A search whose request is dropped (the tab closed) is stopped through
//! its [`rafle_search::SearchControl`].

pub mod api;
pub mod assets;
pub mod board;
pub mod error;
pub mod policy;
pub mod roster;
pub mod think;
pub mod watch;

use rafle_arena::pdn::PdnGame;
use rafle_core::Variant;
use rafle_search::tables::Tables;
use std::net::SocketAddr;
use std::sync::Arc;

pub use roster::{spec_resolver, Resolve};
pub use watch::Watch;

/// What a server offers.
#[derive(Clone)]
pub struct ServeConfig {
    /// The variant the page starts with.
    pub variant: Variant,
    /// The players the page offers (spec strings or names), in order.
    pub players: Vec<String>,
    /// Turns a name of `players` into a side for a variant.
    pub resolve: Resolve,
    /// Endgame tables (one variant's): their value in the inspect view.
    pub tables: Option<Arc<Tables>>,
    /// Games to replay (`rafle serve --pdn FILE`), each with its label.
    pub games: Vec<(String, PdnGame)>,
    /// The match being played (`rafle eval --watch`).
    pub watch: Option<Arc<Watch>>,
    /// Searches that may run at once (more wait their turn).
    pub max_searches: usize,
}

impl std::fmt::Debug for ServeConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServeConfig")
            .field("variant", &self.variant)
            .field("players", &self.players)
            .field("games", &self.games.len())
            .field("watch", &self.watch.is_some())
            .finish_non_exhaustive()
    }
}

impl ServeConfig {
    /// A server for `variant` offering `players` (rafle-search specs
    /// resolved by [`spec_resolver`]; no tables, no replay, no watch).
    pub fn new(variant: Variant, players: Vec<String>) -> ServeConfig {
        ServeConfig {
            variant,
            players,
            resolve: spec_resolver(Default::default()),
            tables: None,
            games: Vec::new(),
            watch: None,
            max_searches: std::thread::available_parallelism().map_or(2, |n| n.get()),
        }
    }
}

/// The players offered when none are named.
pub const DEFAULT_PLAYERS: [&str; 4] = ["alphabeta:4", "uct:400", "greedy", "random"];

/// A running server: its address, and the thread that runs it.
#[derive(Debug)]
pub struct Server {
    pub addr: SocketAddr,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<std::io::Result<()>>>,
}

impl Server {
    /// The page's address, `http://127.0.0.1:8000/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Blocks until the server ends (an I/O error; it does not end by itself).
    pub fn wait(mut self) -> std::io::Result<()> {
        match self.thread.take().map(std::thread::JoinHandle::join) {
            Some(Ok(r)) => r,
            Some(Err(_)) => Err(std::io::Error::other("the server thread panicked")),
            None => Ok(()),
        }
    }

    /// Stops accepting, lets requests under way finish, and returns.
    pub fn stop(mut self) {
        self.shut();
    }

    fn shut(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shut();
    }
}

/// Binds `host:port` (port 0: any free port) and serves `config` on a
/// thread of its own; returns once the socket is bound, so the address is
/// known (a busy port or a bad host is the error).
pub fn start(config: ServeConfig, host: &str, port: u16) -> std::io::Result<Server> {
    let listener = std::net::TcpListener::bind((host, port))?;
    listener.set_nonblocking(true)?;
    let addr = listener.local_addr()?;
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let app = api::router(api::AppState::new(config));
    let thread = std::thread::Builder::new()
        .name("rafle-serve".into())
        .spawn(move || -> std::io::Result<()> {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .thread_name("rafle-serve-io")
                .enable_all()
                .build()?;
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener)?;
                axum::serve(listener, app)
                    .with_graceful_shutdown(async move {
                        let _ = rx.await;
                    })
                    .await
            })
        })?;
    Ok(Server {
        addr,
        shutdown: Some(tx),
        thread: Some(thread),
    })
}
