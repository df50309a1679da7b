//! `checkerbot-lab match`: games between two players, to measure playing strength.
//!
//! Colours alternate every game and each pair of games starts from the same randomly chosen
//! opening (a few random plies from the seed), so both players get both sides of it. With
//! `--endgame-pieces N` the pair starts instead where that opening, played on by depth-4
//! alpha-beta, first has no more than N pieces and no capture pending: endings, to measure
//! the endgame tables.
//!
//! A `level:N` player is the robot's own [`Brain`] at that level, with the settings from the
//! environment (`CHECKERBOT_PATHS__MODELS_DIR`, ...) and a clock that raises its stop flag at
//! `--move-time-ms`, as the daemon does. `--v-log` writes each of its win probabilities with
//! the game's final result, for the calibration table in `models/README.md`.
//!
//! A `hub:COMMAND ARGS` player is another engine behind the Hub protocol, and a `dxp:HOST:PORT`
//! one an engine listening for DXP games (International only), as the robot plays them with
//! `play.engine` at every level: a level-5 [`Brain`] with the engine set, told
//! `--move-time-ms` a move, which falls back to its own move when the engine fails (each fault
//! is printed, and counted in the summary).
//!
//! `--first-ponders` makes the first player (level 5 or the adaptive level) think on the
//! second's time as the robot does on the visitor's (`play.ponder`): [`Brain::ponder`] runs on
//! its own thread, stopped when the second has chosen. With `--second-move-time-ms` the second
//! takes longer than the first, as a visitor does: the two measure what pondering gains.

use std::fmt;
use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::Context as _;

use crate::search::with_deadline;
use search::{Limits, Searcher};

use checkerbot_config::{EngineSpec, PlayLevel};
use player::Brain;
use player::rng::SplitMix;
use rules::{Game, GameResult, Move, Variant};

/// Arguments of `checkerbot-lab match`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Variant whose rules apply.
    #[arg(long)]
    variant: Variant,
    /// First player: `random`, `depth:N`, `nodes:N` or `time:MS` (alpha-beta; `time:MS/T` on
    /// T threads), `level:N` (the
    /// robot), `level:adaptive` (the robot choosing its strength against its opponent, with
    /// `play.adaptive_target` from the environment), `level:N@DIR` (the robot with the networks
    /// in DIR, to compare a new one), `hub:COMMAND ARGS` (another engine behind the Hub
    /// protocol, as the robot's `play.engine`), `dxp:HOST:PORT` (an engine listening for DXP
    /// games, International only), `roottables:N` (the level with the endgame tables of
    /// `play.egdb_dir` at its root only, not probed in its search), `handeval:N` (the level with
    /// the hand-written evaluation in its search, where level 5 reads a learned one).
    #[arg(long)]
    first: PlayerSpec,
    /// Second player, same forms.
    #[arg(long)]
    second: PlayerSpec,
    /// Games to play (colours alternate).
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Random plies at the start of each pair of games.
    #[arg(long, default_value_t = 4)]
    opening_plies: u32,
    /// Start each pair of games where its opening, played on by depth-4 alpha-beta, first
    /// has at most this many pieces and no capture pending (an ending).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(2..))]
    endgame_pieces: Option<u32>,
    /// Seed for openings and random players.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Longest game in plies before it is called a draw.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
    /// Move time of `level:N` players in milliseconds (their stop flag is raised then).
    #[arg(long, default_value_t = 2_000)]
    move_time_ms: u64,
    /// Move time of the second player, where a `level:N` or engine player, when it differs
    /// from `--move-time-ms` (a visitor who thinks longer than the robot).
    #[arg(long, value_name = "MS")]
    second_move_time_ms: Option<u64>,
    /// The first player, level 5 or the adaptive level, thinks on the second's time as the
    /// robot does on the visitor's (`play.ponder`).
    #[arg(long)]
    first_ponders: bool,
    /// Writes one JSON line per move of a `level:N` player: its v, its raw v and the game's
    /// result for it.
    #[arg(long)]
    v_log: Option<PathBuf>,
}

/// A player in a match.
#[derive(Debug, Clone)]
pub enum PlayerSpec {
    /// Uniformly random legal moves.
    Random,
    /// Alpha-beta to a fixed depth.
    Depth(u32),
    /// Alpha-beta with a node budget.
    Nodes(u64),
    /// Alpha-beta until a move time in milliseconds (for "equal time" comparisons), on
    /// this many threads (`time:MS/T`, Lazy SMP; `time:MS` is one thread).
    Time(u64, usize),
    /// The robot's [`Brain`] at a difficulty level (1..=5), with the networks of another
    /// folder than the settings' when one is given (a candidate network measured as the level
    /// would play it); `exact:N` is the level always playing its most visited move, without
    /// its variety among near-equal moves (to measure what the variety costs);
    /// `roottables:N` is the level with its endgame tables at the root only, not probed
    /// below it in its search (to measure what the probes add); `handeval:N` is the level
    /// with the hand-written evaluation even where a learned one is read (to measure what the
    /// learned one adds).
    Level {
        /// The level.
        level: PlayLevel,
        /// The folder of the networks, if not the settings'.
        dir: Option<PathBuf>,
        /// The level as it plays, or with one part left out.
        form: LevelForm,
    },
    /// Another engine (`hub:COMMAND ARGS`, `dxp:HOST:PORT`), with a level-5 brain's move where
    /// it fails.
    Engine(EngineSpec),
}

/// How a `level:N` player differs from the level the robot plays, if it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LevelForm {
    /// `level:N`: as the robot plays it.
    AsPlayed,
    /// `exact:N`: without the level's variety among near-equal moves.
    Exact,
    /// `roottables:N`: with the endgame tables at the root only, not in its search.
    RootTables,
    /// `handeval:N`: with the hand-written evaluation, not the learned one.
    HandEvaluation,
}

impl LevelForm {
    /// The player form's name before the colon.
    fn name(self) -> &'static str {
        match self {
            LevelForm::AsPlayed => "level",
            LevelForm::Exact => "exact",
            LevelForm::RootTables => "roottables",
            LevelForm::HandEvaluation => "handeval",
        }
    }
}

impl FromStr for PlayerSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<PlayerSpec, String> {
        let bad = || {
            format!(
                "{s:?}: expected random, depth:N, nodes:N, time:MS, time:MS/T (T: 1 to 64), level:1..5, level:adaptive, \
                 level:N@DIR, exact:N, exact:N@DIR, roottables:N, handeval:N, hub:COMMAND ARGS or \
                 dxp:HOST:PORT"
            )
        };
        if s.starts_with("hub:") || s.starts_with("dxp:") {
            return EngineSpec::parse(s)
                .map(PlayerSpec::Engine)
                .map_err(|error| format!("{s:?} {error}"));
        }
        match s.split_once(':') {
            None if s == "random" => Ok(PlayerSpec::Random),
            Some(("depth", n)) => n.parse().map(PlayerSpec::Depth).map_err(|_| bad()),
            Some(("nodes", n)) => n.parse().map(PlayerSpec::Nodes).map_err(|_| bad()),
            Some(("time", n)) => {
                let (ms, threads) = n.split_once('/').unwrap_or((n, "1"));
                match (ms.parse(), threads.parse()) {
                    // As many threads as `play.threads` allows the robot.
                    (Ok(ms), Ok(threads @ 1..=64)) => Ok(PlayerSpec::Time(ms, threads)),
                    _ => Err(bad()),
                }
            }
            Some((kind @ ("level" | "exact" | "roottables" | "handeval"), n)) => {
                let (n, dir) = match n.split_once('@') {
                    Some((_, "")) => return Err(bad()),
                    Some((n, dir)) => (n, Some(PathBuf::from(dir))),
                    None => (n, None),
                };
                let form = match kind {
                    "exact" => LevelForm::Exact,
                    "roottables" => LevelForm::RootTables,
                    "handeval" => LevelForm::HandEvaluation,
                    _ => LevelForm::AsPlayed,
                };
                match n.parse() {
                    // The adaptive level has no variety to leave out.
                    Ok(PlayLevel::Adaptive) if form == LevelForm::Exact => Err(bad()),
                    Ok(level) => Ok(PlayerSpec::Level { level, dir, form }),
                    Err(_) => Err(bad()),
                }
            }
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Depth(d) => write!(f, "depth:{d}"),
            PlayerSpec::Nodes(n) => write!(f, "nodes:{n}"),
            PlayerSpec::Time(ms, 1) => write!(f, "time:{ms}"),
            PlayerSpec::Time(ms, threads) => write!(f, "time:{ms}/{threads}"),
            PlayerSpec::Level { level, dir, form } => {
                write!(f, "{}:{level}", form.name())?;
                match dir {
                    Some(dir) => write!(f, "@{}", dir.display()),
                    None => Ok(()),
                }
            }
            PlayerSpec::Engine(spec) => write!(f, "{spec}"),
        }
    }
}

struct Player {
    spec: PlayerSpec,
    searcher: Searcher,
    brain: Option<Brain>,
    /// Time spent choosing moves, and the moves chosen.
    thinking: Duration,
    longest: Duration,
    chosen: u32,
    /// The `level:N` player's v of each move in the current game, and the raw v it came from.
    vs: Vec<(f32, f32)>,
    /// The opponent's expected score a `level:adaptive` player aims at.
    target: f32,
    /// Over every move of a `level:adaptive` player: the sum of |the opponent's expected score
    /// (1 - v) - target| and the moves.
    off_target: (f64, u32),
    /// A `hub:` or `dxp:` player's faults (each once an episode): the moves its brain played
    /// instead.
    faults: u32,
    /// With `--first-ponders`: its ponderings, and the nodes they searched.
    pondered: (u32, u64),
}

impl Player {
    /// The player of `spec`, a `level:N` or engine player moving in `move_time_ms`.
    fn new(spec: &PlayerSpec, args: &Args, move_time_ms: u64, seed: u64) -> anyhow::Result<Player> {
        let mut target = 0.5;
        let brain = match spec {
            PlayerSpec::Level { level, dir, form } => {
                let mut settings = checkerbot_config::load(None)
                    .context("reading the settings from the environment")?;
                settings.game.variant = args.variant;
                settings.play.level = *level;
                if let Some(dir) = dir {
                    anyhow::ensure!(dir.is_dir(), "{spec}: {} is not a folder", dir.display());
                    settings.paths.models_dir = Some(dir.clone());
                }
                settings.play.move_time_ms = move_time_ms;
                let mut brain = Brain::new(&settings, seed);
                target = settings.play.adaptive_target;
                brain = match form {
                    LevelForm::AsPlayed => brain,
                    LevelForm::Exact => brain.without_variety(),
                    LevelForm::RootTables => brain.without_search_tables(),
                    LevelForm::HandEvaluation => brain.with_hand_evaluation(),
                };
                eprintln!("{spec}: {}", brain.describe());
                Some(brain)
            }
            PlayerSpec::Engine(engine) => {
                if let EngineSpec::Dxp { .. } = engine {
                    anyhow::ensure!(
                        args.variant == Variant::International,
                        "{spec}: DXP plays international only, not {}",
                        args.variant
                    );
                }
                let mut settings = checkerbot_config::load(None)
                    .context("reading the settings from the environment")?;
                settings.game.variant = args.variant;
                settings.play.level = PlayLevel::Fixed(5);
                settings.play.move_time_ms = move_time_ms;
                let mut brain = Brain::new(&settings, seed);
                let move_time = Duration::from_millis(move_time_ms);
                brain.set_engine(Some(external_engines::start(engine, move_time)));
                eprintln!("{spec}: {}", brain.describe());
                Some(brain)
            }
            _ => None,
        };
        Ok(Player {
            spec: spec.clone(),
            searcher: match spec {
                PlayerSpec::Time(_, threads) => Searcher::new(8).with_threads(*threads),
                _ => Searcher::new(8),
            },
            brain,
            thinking: Duration::ZERO,
            longest: Duration::ZERO,
            chosen: 0,
            vs: Vec::new(),
            target,
            off_target: (0.0, 0),
            faults: 0,
            pondered: (0, 0),
        })
    }

    /// `chooser`'s move while this player, a level that ponders, thinks on its time.
    fn choose_while_pondering(
        &mut self,
        chooser: &mut Player,
        game: &Game,
        rng: &mut SplitMix,
        move_time: Duration,
    ) -> Move {
        let Some(brain) = &mut self.brain else {
            return chooser.choose(game, rng, move_time);
        };
        let positions = game.positions();
        let history = &positions[..positions.len() - 1];
        let stop = AtomicBool::new(false);
        let (mv, done) = thread::scope(|scope| {
            let pondering = scope.spawn(|| brain.ponder(game.position(), history, &stop));
            // Raised however the choice ends, a panic included: the pondering would otherwise
            // run on to its node cap before the panic could leave the scope.
            let raise = RaiseOnDrop(&stop);
            let mv = chooser.choose(game, rng, move_time);
            drop(raise);
            let done = pondering
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (mv, done)
        });
        self.pondered.0 += 1;
        self.pondered.1 += done.nodes;
        mv
    }

    fn choose(&mut self, game: &Game, rng: &mut SplitMix, move_time: Duration) -> Move {
        let started = Instant::now();
        let mv = self.choose_untimed(game, rng, move_time);
        let spent = started.elapsed();
        self.thinking += spent;
        self.longest = self.longest.max(spent);
        self.chosen += 1;
        mv
    }

    fn choose_untimed(&mut self, game: &Game, rng: &mut SplitMix, move_time: Duration) -> Move {
        let moves = game.position().legal_moves();
        if let Some(brain) = &mut self.brain {
            let positions = game.positions();
            let history = &positions[..positions.len() - 1];
            let thought = with_deadline(Some(move_time), |stop| {
                brain.think(game.position(), history, stop)
            });
            for fault in brain.take_engine_faults() {
                eprintln!("{fault}; its brain played the move");
                self.faults += 1;
            }
            return match thought {
                Some(thought) => {
                    self.vs.push((thought.v, thought.raw_v));
                    if brain.level() == PlayLevel::Adaptive {
                        let off = f64::from((1.0 - thought.v - self.target).abs());
                        self.off_target.0 += off;
                        self.off_target.1 += 1;
                    }
                    thought.mv
                }
                None => moves[0],
            };
        }
        let limits = match &self.spec {
            PlayerSpec::Random | PlayerSpec::Level { .. } | PlayerSpec::Engine(_) => {
                return moves[rng.below(moves.len())];
            }
            PlayerSpec::Depth(depth) => Limits {
                depth: *depth,
                nodes: u64::MAX,
            },
            PlayerSpec::Nodes(nodes) => Limits {
                depth: 64,
                nodes: *nodes,
            },
            PlayerSpec::Time(..) => Limits::default(),
        };
        let positions = game.positions();
        let history = &positions[..positions.len() - 1];
        let searcher = &mut self.searcher;
        let mut search =
            |stop: &AtomicBool| searcher.search(game.position(), history, limits, stop);
        match &self.spec {
            PlayerSpec::Time(ms, _) => with_deadline(Some(Duration::from_millis(*ms)), search),
            _ => search(&AtomicBool::new(false)),
        }
        .best
        .unwrap_or(moves[0])
    }
}

/// Raises its stop flag when dropped.
struct RaiseOnDrop<'a>(&'a AtomicBool);

impl Drop for RaiseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Runs the command and prints one line per game and a summary.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let mut rng = SplitMix::new(args.seed);
    let second_move_time_ms = args.second_move_time_ms.unwrap_or(args.move_time_ms);
    let mut players = [
        Player::new(
            &args.first,
            args,
            args.move_time_ms,
            args.seed.wrapping_mul(2),
        )?,
        Player::new(
            &args.second,
            args,
            second_move_time_ms,
            args.seed.wrapping_mul(2).wrapping_add(1),
        )?,
    ];
    if args.first_ponders {
        anyhow::ensure!(
            players[0].brain.as_ref().is_some_and(Brain::ponders),
            "--first-ponders: {} does not ponder (level 5 and the adaptive level do)",
            args.first
        );
    }
    let move_times = [args.move_time_ms, second_move_time_ms].map(Duration::from_millis);
    let mut v_log = match &args.v_log {
        Some(path) => Some(BufWriter::new(
            File::create(path).with_context(|| format!("creating {}", path.display()))?,
        )),
        None => None,
    };
    let mut tally = [0u32; 3]; // first wins, draws, second wins
    let mut opening = Vec::new();
    for index in 0..args.games {
        if index % 2 == 0 {
            opening = match args.endgame_pieces {
                Some(pieces) => ending(args.variant, args.opening_plies, pieces, &mut rng)?,
                None => random_opening(args.variant, args.opening_plies, &mut rng),
            };
        }
        // Even games: the first player takes the side that moves first.
        let first_side = args.variant.rules().first;
        let sides = if index % 2 == 0 {
            [first_side, !first_side]
        } else {
            [!first_side, first_side]
        };
        let mut game = Game::new(args.variant);
        for mv in &opening {
            game.play(mv)?;
        }
        for player in &mut players {
            player.searcher.clear();
        }
        while game.outcome().is_none() && game.moves().len() < args.max_plies {
            let turn = game.position().turn();
            let who = usize::from(sides[1] == turn);
            let mv = match &mut players {
                [first, second] if who == 1 && args.first_ponders => {
                    first.choose_while_pondering(second, &game, &mut rng, move_times[1])
                }
                _ => players[who].choose(&game, &mut rng, move_times[who]),
            };
            game.play(&mv)?;
        }
        // Index into the tally: 0 the first player won, 1 draw, 2 the second player won.
        let (verdict, label) = match game.outcome().map_or(GameResult::Draw, |o| o.result) {
            GameResult::Win(color) if color == sides[0] => (0, "first wins"),
            GameResult::Win(_) => (2, "second wins"),
            GameResult::Draw => (1, "draw"),
        };
        tally[verdict] += 1;
        if let Some(out) = &mut v_log {
            write_v_log(out, index + 1, &players, sides, verdict)?;
        }
        for player in &mut players {
            player.vs.clear();
        }
        println!(
            "game {:>3}: first plays {:<5} {label} after {} plies",
            index + 1,
            sides[0].name(),
            game.moves().len()
        );
    }
    let first_score = f64::from(tally[0]) + f64::from(tally[1]) / 2.0;
    println!(
        "{} vs {} in {}: {} wins, {} draws, {} losses for the first; score {first_score:.1}-{:.1}",
        args.first,
        args.second,
        args.variant,
        tally[0],
        tally[1],
        tally[2],
        f64::from(args.games) - first_score
    );
    println!("{}", elo_line(tally));
    report(&players);
    if let Some(out) = &mut v_log {
        out.flush().context("writing the v log")?;
    }
    Ok(())
}

/// The first player's score as an Elo difference with its 95% interval, from the games'
/// wins, draws and losses (`tally`): the interval is the score's normal approximation
/// (1.96 standard errors of the mean game result) carried through the logistic curve, so a
/// ladder says how far its figure can be trusted.
///
/// A clean sweep has no spread for that approximation to measure, so it gets a one-sided bound
/// instead: the chance of winning a game at which a run of that many wins would happen only one
/// time in twenty, `0.05^(1/games)` (and the same for a run of losses).
fn elo_line(tally: [u32; 3]) -> String {
    let [wins, draws, losses] = tally;
    let games = f64::from(wins + draws + losses);
    if games == 0.0 {
        return "no games, no Elo".to_owned();
    }
    let score = (f64::from(wins) + f64::from(draws) / 2.0) / games;
    let head = format!("score {:.1}% over {games} games", score * 100.0);
    if draws == 0 && (wins == 0 || losses == 0) {
        let bound = 0.05_f64.powf(1.0 / games);
        let (what, bound) = if wins > 0 {
            ("won", format!("at least {}", signed(elo(bound))))
        } else {
            ("lost", format!("at most {}", signed(-elo(bound))))
        };
        return format!(
            "{head}: Elo difference for the first {} (95%: {bound}; every game {what})",
            signed(elo(score))
        );
    }
    let variance = (f64::from(wins) * (1.0 - score).powi(2)
        + f64::from(draws) * (0.5 - score).powi(2)
        + f64::from(losses) * score.powi(2))
        / games;
    let margin = 1.96 * (variance / games).sqrt();
    let (elo, low, high) = (elo(score), elo(score - margin), elo(score + margin));
    // With few games the interval can reach a certain result, where no half-width means much.
    let width = if low.is_finite() && high.is_finite() {
        format!("; ±{:.0} at this score", (high - low) / 2.0)
    } else {
        String::new()
    };
    format!(
        "{head}: Elo difference for the first {} (95%: {} to {}{width})",
        signed(elo),
        signed(low),
        signed(high),
    )
}

/// The Elo difference a score (0 to 1) stands for; infinite at 0 and 1.
fn elo(score: f64) -> f64 {
    -400.0 * (1.0 / score.clamp(0.0, 1.0) - 1.0).log10()
}

fn signed(elo: f64) -> String {
    // An even score's -0.0 prints as 0.
    let elo = elo + 0.0;
    if elo.is_finite() {
        format!("{elo:+.0}")
    } else if elo > 0.0 {
        "+inf".to_owned()
    } else {
        "-inf".to_owned()
    }
}

/// What each player spent, and what a `hub:` player's engine and an adaptive player did.
fn report(players: &[Player; 2]) {
    for player in players {
        if player.chosen > 0 {
            println!(
                "{}: {} moves, {:.1} ms a move on average, longest {:.1} ms",
                player.spec,
                player.chosen,
                player.thinking.as_secs_f64() * 1e3 / f64::from(player.chosen),
                player.longest.as_secs_f64() * 1e3
            );
        }
        if let (times @ 1.., nodes) = player.pondered {
            println!(
                "{}: pondered {times} times, {:.0} nodes each on average",
                player.spec,
                nodes as f64 / f64::from(times)
            );
        }
        if let PlayerSpec::Engine(_) = player.spec {
            println!(
                "{}: {} faults (each once until it answered well again)",
                player.spec, player.faults
            );
        }
        if let Some(brain) = &player.brain
            && let (Some(cost), (sum, moves @ 1..)) =
                (brain.adaptive_visitor_cost(), player.off_target)
        {
            println!(
                "{}: the opponent's expected score {:.2} off the target {:.2} on average over \
                 its moves; the opponent's moves cost {cost:.0} hundredths of a man on average \
                 at the end",
                player.spec,
                sum / f64::from(moves),
                player.target,
            );
        }
    }
}

/// One JSON line per move of each `level:N` player in game `game`: its v (as the emotions read
/// it), its raw v (before the level's calibration) and its final score.
fn write_v_log(
    out: &mut impl std::io::Write,
    game: u32,
    players: &[Player; 2],
    sides: [rules::Color; 2],
    verdict: usize,
) -> anyhow::Result<()> {
    for (who, player) in players.iter().enumerate() {
        let score = match verdict {
            1 => 0.5,
            0 if who == 0 => 1.0,
            2 if who == 1 => 1.0,
            _ => 0.0,
        };
        for (i, (v, raw)) in player.vs.iter().enumerate() {
            writeln!(
                out,
                r#"{{"game":{game},"player":"{}","side":"{}","move":{},"moves":{},"v":{v:.4},"raw":{raw:.4},"result":{score}}}"#,
                player.spec,
                sides[who].name(),
                i + 1,
                player.vs.len()
            )
            .context("writing the v log")?;
        }
    }
    Ok(())
}

/// The moves to an ending of at most `pieces` pieces with no capture pending: a random
/// opening of `plies` played on by depth-4 alpha-beta until it first gets there (another
/// opening when the game ends or runs past 300 plies before).
/// Openings tried for an ending before `match --endgame-pieces` gives up.
const ENDING_TRIES: u32 = 100;

fn ending(
    variant: Variant,
    plies: u32,
    pieces: u32,
    rng: &mut SplitMix,
) -> anyhow::Result<Vec<Move>> {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: 4,
        nodes: u64::MAX,
    };
    for _ in 0..ENDING_TRIES {
        let mut moves = random_opening(variant, plies, rng);
        let mut game = Game::new(variant);
        for mv in &moves {
            game.play(mv).expect("a legal move");
        }
        let mut searcher = Searcher::new(1);
        while game.outcome().is_none() && moves.len() < 300 {
            let position = *game.position();
            if position.occupied().count() <= pieces && !position.has_capture() {
                return Ok(moves);
            }
            let positions = game.positions();
            let history = &positions[..positions.len() - 1];
            let Some(mv) = searcher.search(&position, history, limits, &stop).best else {
                break;
            };
            game.play(&mv).expect("a legal move");
            moves.push(mv);
        }
    }
    anyhow::bail!(
        "--endgame-pieces {pieces}: none of {ENDING_TRIES} openings, played on by depth-4 \
         alpha-beta, reached {pieces} pieces or fewer without a capture pending before the game \
         ended; try more pieces"
    )
}

fn random_opening(variant: Variant, plies: u32, rng: &mut SplitMix) -> Vec<Move> {
    let mut game = Game::new(variant);
    let mut moves = Vec::new();
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let legal = game.position().legal_moves();
        let mv = legal[rng.below(legal.len())];
        game.play(&mv).expect("a legal move");
        moves.push(mv);
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::{PlayerSpec, elo_line};

    /// Checked against the usual formulas: 64% is +100 Elo; an even score is 0 with an
    /// interval that narrows as draws replace wins and losses.
    #[test]
    fn elo_lines_give_the_difference_and_its_interval() {
        let line = elo_line([64, 0, 36]);
        assert!(line.contains("score 64.0% over 100 games"), "{line}");
        assert!(line.contains("first +100 (95%: +32 to +176"), "{line}");
        let even = elo_line([25, 50, 25]);
        assert!(even.contains("first +0 (95%: -48 to +48; ±48"), "{even}");
        // A clean sweep: no spread to measure, so a one-sided bound (0.05^(1/50) = 94.2%).
        let swept = elo_line([50, 0, 0]);
        assert!(
            swept.ends_with("first +inf (95%: at least +484; every game won)"),
            "{swept}"
        );
        let lost = elo_line([0, 0, 20]);
        assert!(
            lost.ends_with("first -inf (95%: at most -317; every game lost)"),
            "{lost}"
        );
        // An interval that reaches a certain result has no half-width worth printing.
        let few = elo_line([1, 1, 2]);
        assert!(few.ends_with("(95%: -inf to +221)"), "{few}");
        assert_eq!(elo_line([0, 0, 0]), "no games, no Elo");
    }

    #[test]
    fn player_forms_parse_and_print_back() {
        for text in [
            "random",
            "depth:4",
            "nodes:5000",
            "time:200",
            "time:200/2",
            "level:1",
            "level:5",
            "level:3@target/candidate",
            "level:adaptive",
            "exact:3",
            "exact:4@target/candidate",
            "roottables:5",
            "handeval:5",
            "handeval:5@target/candidate",
            "hub:checkerbot hub",
            "hub:\"/opt/my engine/scan\" hub",
        ] {
            let spec: PlayerSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
        }
        for bad in [
            "level:0",
            "level:6",
            "level:x",
            "time:",
            "time:200/0",
            "time:200/65",
            "deep:3",
            "level:3@",
            "level:@dir",
            "exact:9",
            "exact:adaptive",
        ] {
            let err = bad.parse::<PlayerSpec>().unwrap_err();
            assert!(err.contains("level:1..5"), "{err}");
        }
        let err = "hub: ".parse::<PlayerSpec>().unwrap_err();
        assert!(err.contains("names no command"), "{err}");
    }
}
