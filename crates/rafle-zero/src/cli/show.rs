//! `rafle show --variant V [--fen F]`: the board as text.

use clap::Args;

#[derive(Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    pub position: super::PositionArgs,
}

pub fn run(a: ShowArgs) -> anyhow::Result<()> {
    let game = a.position.game()?;
    println!(
        "{}",
        rafle_core::board_text(game.variant(), game.position())
    );
    println!("{} to move; FEN {}", game.turn(), game.fen());
    if let Some(o) = game.outcome() {
        println!("game over: {o}");
    }
    Ok(())
}
