//! `rafle perft --variant V [--fen F] --depth D [--divide]`

use clap::Args;

#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pub position: super::PositionArgs,
    #[arg(long)]
    pub depth: u32,
    /// Print the count under each root move too.
    #[arg(long)]
    pub divide: bool,
}

pub fn run(a: PerftArgs) -> anyhow::Result<()> {
    let game = a.position.game()?;
    if a.depth > 30 {
        anyhow::bail!("depth {} is too deep (at most 30)", a.depth);
    }
    if a.divide {
        let v = game.variant();
        let pos = *game.position();
        let parts = rafle_core::with_rules!(v, R => rafle_core::perft::divide::<R>(&pos, a.depth));
        let mut total = 0;
        for (m, n) in parts {
            println!("{} {n}", game.move_string(&m));
            total += n;
        }
        println!("{total}");
    } else {
        println!("{}", game.perft(a.depth));
    }
    Ok(())
}
