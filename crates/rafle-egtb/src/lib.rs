//! rafle-egtb: exact endgame tablebases for every variant of rafle, built by
//! rafle itself.
//!
//! A table holds one material *slice* ([`Material`]: men and kings of the
//! side to move and of the other side) and gives every position of it its
//! [`Value`] for the side to move: win, draw or loss, and the distance to
//! the end of the game in plies under perfect play (the winner the
//! shortest, the loser the longest), so a player can convert a win rather
//! than shuffle.
//!
//! Values follow the rules of play of the variant (moves, captures and
//! their precedence, crowning, the goal: antidraughts' inverted win,
//! breakthrough's first king) and the draw rules that depend on the
//! position alone (thai's one king each). Draw rules that count moves or
//! repetitions (the 25-, 16- and 5-move rules, russian's 15-move limits) are
//! left out, as Kingsrow's and Scan's databases leave them out: a table says
//! what a position is worth, not what a game's counters allow. Frisian's
//! king-move runs (rule book F6) are part of the position and of the index.
//! The rule book (`crates/rafle-core/RULES.md`, section "Endgame tables")
//! says this per variant.
//!
//! - [`build()`]: the retrograde builder ([`build`] module), pair of slices by
//!   pair, in parallel, writing one file per slice ([`file`]).
//! - [`Tablebase`]: thread-safe probes ([`Tablebase::probe`],
//!   [`Tablebase::best_moves`]) over a folder of tables, each loaded once.
//! - [`index`]: positions to indices and back.

pub mod build;
pub mod file;
pub mod index;
pub mod material;
pub mod probe;
pub mod value;

pub use build::{build, BuildEvent, BuildSummary, Selection};
pub use file::SliceStats;
pub use material::Material;
pub use probe::{EgtbError, Tablebase};
pub use value::{Code, Value};
