//! `rafle moves --variant V --fen F`: one legal move per line, path notation.

use clap::Args;

#[derive(Args, Debug)]
pub struct MovesArgs {
    #[arg(long)]
    pub variant: String,
    /// Position as PDN FEN (the start position if omitted).
    #[arg(long)]
    pub fen: Option<String>,
}

pub fn run(a: MovesArgs) -> anyhow::Result<()> {
    let game = super::game(&a.variant, a.fen.as_deref())?;
    for m in game.legal_moves() {
        println!("{}", game.move_string(m));
    }
    Ok(())
}
