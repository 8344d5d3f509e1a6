//! `rafle show --variant V [--fen F]`: the board as text.

use clap::Args;
use rafle_core::{Color, Piece};

#[derive(Args, Debug)]
pub struct ShowArgs {
    #[arg(long)]
    pub variant: String,
    #[arg(long)]
    pub fen: Option<String>,
}

/// The board as text, White at the bottom: `w`/`b` men, `W`/`B` kings,
/// `.` empty dark squares, blanks for light squares.
pub fn board_text(game: &rafle_core::Game) -> String {
    let g = game.geometry();
    let pos = game.position();
    let mut out = String::new();
    for row in 0..g.n {
        out.push_str(&format!("{:>2} ", g.n - row));
        for col in 0..g.n {
            let c = match g.square_at(row, col) {
                None => ' ',
                Some(s) => match pos.piece_at(&g, s) {
                    None => '.',
                    Some(Piece::Man(Color::White)) => 'w',
                    Some(Piece::Man(Color::Black)) => 'b',
                    Some(Piece::King(Color::White)) => 'W',
                    Some(Piece::King(Color::Black)) => 'B',
                },
            };
            out.push(' ');
            out.push(c);
        }
        out.push('\n');
    }
    out.push_str("   ");
    for col in 0..g.n {
        out.push(' ');
        out.push((b'a' + col as u8) as char);
    }
    out.push('\n');
    out
}

pub fn run(a: ShowArgs) -> anyhow::Result<()> {
    let game = super::game(&a.variant, a.fen.as_deref())?;
    print!("{}", board_text(&game));
    println!("{} to move; FEN {}", game.turn(), game.fen());
    if let Some(o) = game.outcome() {
        println!("game over: {o}");
    }
    Ok(())
}
