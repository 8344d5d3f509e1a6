//! `rafle moves --variant V --fen F`: one legal move per line, path notation.

use clap::Args;

#[derive(Args, Debug)]
pub struct MovesArgs {
    #[command(flatten)]
    pub position: super::PositionArgs,
}

pub fn run(a: MovesArgs) -> anyhow::Result<()> {
    let game = a.position.game()?;
    for m in game.legal_moves() {
        println!("{}", game.move_string(m));
    }
    Ok(())
}
