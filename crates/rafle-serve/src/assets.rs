//! The page: HTML, CSS and JavaScript modules compiled into the binary
//! (plain modules, no build step), served with their content types.

use axum::http::header;
use axum::response::{IntoResponse, Response};

/// (path, content type, text) of every file of the page.
pub const FILES: [(&str, &str, &str); 5] = [
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("../assets/index.html"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("../assets/style.css"),
    ),
    (
        "/board.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/board.js"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/app.js"),
    ),
    (
        "/watch.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/watch.js"),
    ),
];

/// The file at `path`, if the page has one.
pub fn file(path: &str) -> Option<Response> {
    FILES
        .iter()
        .find(|(p, ..)| *p == path)
        .map(|(_, kind, text)| {
            (
                [
                    (header::CONTENT_TYPE, *kind),
                    // The page changes with the binary: always ask.
                    (header::CACHE_CONTROL, "no-cache"),
                ],
                *text,
            )
                .into_response()
        })
}
