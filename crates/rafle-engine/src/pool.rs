//! Idle engine processes and connections kept between games: a game takes
//! one (or starts a fresh one), and gives it back after the game unless it
//! failed. So a match starts an engine once per game in flight, and a
//! failed engine is replaced by a fresh one for the next game.

use std::sync::Mutex;

#[derive(Debug)]
pub struct Pool<T> {
    idle: Mutex<Vec<T>>,
}

impl<T> Default for Pool<T> {
    fn default() -> Self {
        Pool {
            idle: Mutex::new(Vec::new()),
        }
    }
}

impl<T> Pool<T> {
    pub fn take(&self) -> Option<T> {
        self.idle.lock().unwrap_or_else(|p| p.into_inner()).pop()
    }

    pub fn put(&self, t: T) {
        self.idle.lock().unwrap_or_else(|p| p.into_inner()).push(t);
    }
}
