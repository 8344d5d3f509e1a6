//! The `rafle` command line. Each subcommand lives in `cli/<name>.rs`; this
//! file only parses arguments and turns every error into one line and a
//! non-zero exit.

mod cli;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "rafle",
    version,
    about = "Draughts rule engine, batched environment and self-play trainer",
    after_help = cli::variants_help()
)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

// Parsed once per process: the size of the largest variant does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaf nodes of the legal-move tree.
    Perft(cli::perft::PerftArgs),
    /// List the legal moves of a position, one per line, in path notation.
    Moves(cli::moves::MovesArgs),
    /// Print a position as text.
    Show(cli::show::ShowArgs),
    /// Measure speeds (perft, environment).
    Bench(cli::bench::BenchArgs),
    /// Search one position with a trained network (policy target, visits, value).
    #[cfg(feature = "torch")]
    Search(cli::search::SearchArgs),
    /// Play matches or a round robin between players; Elo, SPRT and PDN.
    Eval(cli::eval::EvalArgs),
    /// Train a network by self-play (Gumbel AlphaZero).
    #[cfg(feature = "torch")]
    Train(cli::train::TrainArgs),
    /// Train a learned alpha-beta evaluation by generations of self-play.
    #[cfg(feature = "torch")]
    TrainEval(cli::train_eval::TrainEvalArgs),
    /// Print a run config's settings: its bases merged, `--set` applied, defaults written out.
    Config(cli::config::ConfigArgs),
    /// Plot a run's metrics as PNG curves.
    Plot(cli::plot::PlotArgs),
    /// Read PDN files: replay every game, summarise, report the bad ones.
    Pdn(cli::pdn::PdnArgs),
    /// Be a Hub (v2) engine on stdin/stdout, for Hub GUIs.
    Hub(cli::hub::HubArgs),
    /// Be a DXP engine (follower) listening on a TCP port.
    Dxp(cli::dxp::DxpArgs),
    /// Endgame tablebases: build, probe, stats.
    Egtb(cli::egtb::EgtbArgs),
    /// Write the value head's held-out set: positions with known outcomes.
    Heldout(cli::heldout::HeldoutArgs),
    /// A player's Elo on the variant's ladder of reference players; calibrate, show.
    Ladder(cli::ladder::LadderArgs),
    /// Play, inspect and replay games in the browser (prints the URL).
    Serve(cli::serve::ServeArgs),
}

fn run(cmd: Command) -> anyhow::Result<()> {
    match cmd {
        Command::Perft(a) => cli::perft::run(a),
        Command::Moves(a) => cli::moves::run(a),
        Command::Show(a) => cli::show::run(a),
        Command::Bench(a) => cli::bench::run(a),
        #[cfg(feature = "torch")]
        Command::Search(a) => cli::search::run(a),
        Command::Eval(a) => cli::eval::run(a),
        #[cfg(feature = "torch")]
        Command::Train(a) => cli::train::run(a),
        #[cfg(feature = "torch")]
        Command::TrainEval(a) => cli::train_eval::run(a),
        Command::Config(a) => cli::config::run(a),
        Command::Plot(a) => cli::plot::run(a),
        Command::Pdn(a) => cli::pdn::run(a),
        Command::Hub(a) => cli::hub::run(a),
        Command::Dxp(a) => cli::dxp::run(a),
        Command::Egtb(a) => cli::egtb::run(a),
        Command::Heldout(a) => cli::heldout::run(a),
        Command::Ladder(a) => cli::ladder::run(a),
        Command::Serve(a) => cli::serve::run(a),
    }
}

/// `rafle ... | head` closes stdout early: end as Unix tools do, quietly with
/// the status of a SIGPIPE death (128 + 13), not with a panic. std keeps
/// SIGPIPE ignored, which the DXP sockets need, so `println!` panics instead.
fn quiet_on_closed_stdout() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .unwrap_or("");
        if msg.starts_with("failed printing to stdout") && msg.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info)
    }));
}

fn main() {
    rafle_zero::malloc::keep_freed_memory();
    quiet_on_closed_stdout();
    let args = match Args::try_parse() {
        Ok(a) => a,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
                || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            {
                let _ = e.print();
                std::process::exit(
                    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                        2
                    } else {
                        0
                    },
                );
            }
            // One line: clap's message up to its usage block (a missing
            // argument is named on the indented lines after the first).
            let msg = e.to_string();
            let line = msg
                .lines()
                .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more"))
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            eprintln!("{line} (see rafle --help)");
            std::process::exit(2);
        }
    };
    if let Err(e) = run(args.command) {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

/// The binary without the `torch` feature (no libtorch): the commands that
/// need no network run, a network player is a clear error, and the help
/// says what is missing. `tests/it/no_torch.rs` builds and runs these in
/// the same target folder with every trace of torch removed.
#[cfg(all(test, not(feature = "torch")))]
mod without_torch {
    use super::*;
    use clap::CommandFactory;

    fn parse(args: &[&str]) -> Result<Command, clap::Error> {
        Args::try_parse_from(std::iter::once("rafle").chain(args.iter().copied()))
            .map(|a| a.command)
    }

    #[test]
    fn what_needs_no_network_runs() {
        run(parse(&["perft", "--variant", "thai", "--depth", "3"]).unwrap()).unwrap();
        let eval = [
            "eval",
            "--variant",
            "thai",
            "--a",
            "greedy",
            "--b",
            "random",
        ];
        run(parse(&[&eval[..], &["--games", "2", "--quiet"]].concat()).unwrap()).unwrap();
    }

    #[test]
    fn a_network_player_is_a_clear_error() {
        let eval = [
            "eval",
            "--variant",
            "thai",
            "--a",
            "zoo:thai",
            "--b",
            "random",
        ];
        let err = run(parse(&eval).unwrap()).unwrap_err();
        assert!(format!("{err:#}").contains("`torch` feature"), "{err:#}");
    }

    #[test]
    fn the_help_says_what_is_missing_and_train_is_not_there() {
        let help = Args::command().render_long_help().to_string();
        assert!(help.contains("without the `torch` feature"), "{help}");
        assert!(parse(&["train", "--config", "configs/thai.toml"]).is_err());
    }
}
