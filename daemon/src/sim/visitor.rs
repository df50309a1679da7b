//! Simulated visitors: they act on the physical board and press the button, as people do.

use std::io::{BufRead, IsTerminal as _};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{Context as _, bail};
use rules::{Color, Direction, Move, Position, Variant, notation};
use search::{Limits, Searcher};
use tokio::sync::mpsc;

use super::world::PhysicalBoard;
use hal::device::ButtonId;
use hal::sim::board::SimBoardHandle;
use player::rng::SplitMix;

/// How the simulated visitor chooses what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VisitorKind {
    /// A careful player: alpha-beta at a small depth.
    Engine,
    /// Any legal move.
    Random,
    /// A person at the terminal, typing physical actions or moves.
    Stdin,
    /// Physical actions from a file.
    Script(String),
}

impl std::str::FromStr for VisitorKind {
    type Err = String;
    fn from_str(s: &str) -> Result<VisitorKind, String> {
        match s {
            "engine" => Ok(VisitorKind::Engine),
            "random" => Ok(VisitorKind::Random),
            "stdin" => Ok(VisitorKind::Stdin),
            _ => s
                .strip_prefix("script:")
                .filter(|path| !path.is_empty())
                .map(|path| VisitorKind::Script(path.to_owned()))
                .ok_or_else(|| format!("{s:?}: expected engine, random, stdin or script:PATH")),
        }
    }
}

/// What the visitor did at the end of its turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// Pressed the button.
    Pressed,
    /// Walked away (the script or the terminal input ended).
    Left,
}

/// One simulated visitor.
pub struct Visitor {
    kind: VisitorKind,
    rng: SplitMix,
    mistakes: f64,
    searcher: Searcher,
    script: Option<std::vec::IntoIter<String>>,
    /// Lines typed at the terminal, read by a thread so the robot keeps running meanwhile.
    typed: Option<mpsc::UnboundedReceiver<String>>,
    /// Lines read so far from the script or stdin, to name the line an error is on.
    lines_read: usize,
    /// The engine visitor's moves still to be drawn from the seed in this game's opening.
    opening_moves_left: u8,
    /// Probability per turn of asking for a hint.
    hints: f64,
    /// Probability of accepting an offered take-back.
    take_backs: f64,
}

/// How many of its first moves in a game the engine visitor draws from the seed, so that
/// another seed plays another game (the engine would otherwise open the same way every time).
/// One: any first move is sound, a random second one can hang a man.
const OPENING_MOVES: u8 = 1;

/// Whether `position` is the start or one move after it: the visitor's first move of a game.
fn is_opening(position: &Position) -> bool {
    let start = Position::new(position.variant());
    *position == start
        || start
            .legal_moves()
            .iter()
            .any(|mv| start.play(mv).is_ok_and(|next| next == *position))
}

impl std::fmt::Debug for Visitor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Visitor")
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

/// One way to get a turn wrong, done to the board.
type Slip<'a> = dyn Fn(&mut PhysicalBoard, &mut SplitMix) + 'a;

/// How long a visitor holds the button to ask for a hint: past the board controller driver's
/// long-press time, as a person holds it until the robot answers.
pub const HINT_HOLD: Duration = Duration::from_secs(2);

/// A physical action, as scripts, the terminal and `checkerbot sim-devices` write them.
pub enum Action {
    Lift(rules::Square),
    Place(rules::Square),
    Move(rules::Square, rules::Square),
    Press,
    /// Hold the button down for [`HINT_HOLD`]: a long press, which asks for a hint.
    Hold,
    Wait(Duration),
    Play(Move),
}

impl Visitor {
    /// A visitor of `kind` that errs with probability `mistakes` per turn.
    pub fn new(kind: VisitorKind, seed: u64, mistakes: f64) -> anyhow::Result<Visitor> {
        let script = match &kind {
            VisitorKind::Script(path) => Some(
                std::fs::read_to_string(path)
                    .with_context(|| format!("reading visitor script {path}"))?
                    .lines()
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
                    .into_iter(),
            ),
            _ => None,
        };
        Ok(Visitor {
            kind,
            rng: SplitMix::new(seed),
            mistakes,
            searcher: Searcher::new(4),
            script,
            typed: None,
            lines_read: 0,
            opening_moves_left: 0,
            hints: 0.0,
            take_backs: 0.0,
        })
    }

    /// The same visitor, asking for a hint with probability `hints` per turn and accepting an
    /// offered take-back with probability `take_backs`. People at the terminal and scripts
    /// decide for themselves.
    #[must_use]
    pub fn coached(mut self, hints: f64, take_backs: f64) -> Visitor {
        self.hints = hints;
        self.take_backs = take_backs;
        self
    }

    /// Whether the visitor asks for a hint (or its second step) now. A visitor who never asks
    /// draws nothing from the seed, so their games are those of a run without the option.
    pub fn wants_hint(&mut self) -> bool {
        self.follows_chances() && self.hints > 0.0 && self.rng.chance(self.hints)
    }

    /// Whether the visitor accepts the take-back on offer.
    pub fn takes_back(&mut self) -> bool {
        self.follows_chances() && self.take_backs > 0.0 && self.rng.chance(self.take_backs)
    }

    /// Whether the simulation chooses for the visitor (not a person or a script).
    pub fn follows_chances(&self) -> bool {
        matches!(self.kind, VisitorKind::Engine | VisitorKind::Random)
    }

    /// Whether a person types the moves.
    pub fn is_person(&self) -> bool {
        self.kind == VisitorKind::Stdin
    }

    /// Plays the visitor's turn in `position`: maybe a mistake first, then a legal move.
    pub async fn take_turn(
        &mut self,
        position: &Position,
        world: &mut PhysicalBoard,
        board: &SimBoardHandle,
    ) -> anyhow::Result<Turn> {
        match self.kind {
            VisitorKind::Stdin | VisitorKind::Script(_) => {
                return self.follow_actions(position, world, board).await;
            }
            VisitorKind::Engine | VisitorKind::Random => {}
        }
        if world.occupancy() != position.occupied() {
            // After a refused attempt: put everything back, then play properly.
            world.set(position);
        } else if self.rng.chance(self.mistakes) && self.make_mistake(position, world) {
            return Ok(Turn::Pressed);
        }
        let mv = self.choose(position);
        world.play(&mv);
        Ok(Turn::Pressed)
    }

    fn choose(&mut self, position: &Position) -> Move {
        let moves = position.legal_moves();
        if is_opening(position) {
            self.opening_moves_left = OPENING_MOVES;
        }
        match self.kind {
            // People open differently: the engine visitor's first move is the seed's.
            VisitorKind::Engine if self.opening_moves_left > 0 => {
                self.opening_moves_left -= 1;
                moves[self.rng.below(moves.len())]
            }
            VisitorKind::Engine => {
                let limits = Limits {
                    depth: 3,
                    nodes: 20_000,
                };
                self.searcher
                    .search(position, &[], limits, &AtomicBool::new(false))
                    .best
                    .unwrap_or(moves[0])
            }
            _ => moves[self.rng.below(moves.len())],
        }
    }

    /// Does one of the things visitors get wrong; returns false when none applies here.
    fn make_mistake(&mut self, position: &Position, world: &mut PhysicalBoard) -> bool {
        let geometry = position.variant().geometry();
        let me = position.turn();
        let empty = geometry.all() - position.occupied();
        let steps = |color: Color, dirs: [Direction; 2]| -> Vec<(rules::Square, rules::Square)> {
            position
                .men_of(color)
                .into_iter()
                .flat_map(|from| {
                    dirs.into_iter()
                        .filter_map(move |d| geometry.step(from, d).map(|to| (from, to)))
                })
                .filter(|(_, to)| empty.contains(*to))
                .collect()
        };
        let backward = |c: Color| Direction::forward(!c);
        let legal = position.legal_moves();
        let mut options: Vec<Box<Slip<'_>>> = Vec::new();
        // Press the button without moving.
        options.push(Box::new(|_, _| {}));
        let robot_steps = steps(!me, Direction::forward(!me));
        if !robot_steps.is_empty() {
            options.push(Box::new(move |w, r| {
                let (from, to) = robot_steps[r.below(robot_steps.len())];
                if w.lift(from) {
                    w.place(to);
                }
            }));
        }
        let quiet_steps = steps(me, Direction::forward(me));
        if legal.iter().any(Move::is_capture) && !quiet_steps.is_empty() {
            options.push(Box::new(move |w, r| {
                let (from, to) = quiet_steps[r.below(quiet_steps.len())];
                if w.lift(from) {
                    w.place(to);
                }
            }));
        }
        let back_steps = steps(me, backward(me));
        if !back_steps.is_empty() && !legal.iter().any(Move::is_capture) {
            options.push(Box::new(move |w, r| {
                let (from, to) = back_steps[r.below(back_steps.len())];
                if w.lift(from) {
                    w.place(to);
                }
            }));
        }
        let captures: Vec<Move> = legal.iter().filter(|m| m.is_capture()).copied().collect();
        if !captures.is_empty() {
            options.push(Box::new(move |w, r| {
                // The capture made, but the captured pieces left standing.
                let mv = captures[r.below(captures.len())];
                if w.lift(mv.from()) {
                    w.place(mv.to());
                }
            }));
        }
        // A piece placed off-centre: its sensor does not see it.
        let own: Vec<_> = position.pieces(me).into_iter().collect();
        options.push(Box::new(move |w, r| {
            w.lift(own[r.below(own.len())]);
        }));
        let pick = self.rng.below(options.len());
        options[pick](world, &mut self.rng);
        true
    }

    /// Runs script or terminal actions until the button is pressed.
    async fn follow_actions(
        &mut self,
        position: &Position,
        world: &mut PhysicalBoard,
        board: &SimBoardHandle,
    ) -> anyhow::Result<Turn> {
        loop {
            let Some(line) = self.next_line().await else {
                return Ok(Turn::Left);
            };
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            match Action::parse(position.variant(), Some(position), line) {
                Ok(action) => {
                    if action.act(world, board).await {
                        return Ok(Turn::Pressed);
                    }
                }
                // A person at a terminal reads the error and types the line again.
                Err(err) if self.is_person() && std::io::stdin().is_terminal() => {
                    eprintln!("line {}: {err:#}", self.lines_read);
                }
                Err(err) => bail!(
                    "{} line {} ({line:?}): {err:#}",
                    self.source(),
                    self.lines_read
                ),
            }
        }
    }

    /// The next script line or typed line; `None` when the script or the terminal input ended.
    async fn next_line(&mut self) -> Option<String> {
        let line = if let Some(script) = &mut self.script {
            script.next()
        } else {
            eprint!("your action (a move like c3-d4, or lift/place/move/press/hold): ");
            let typed = self.typed.get_or_insert_with(stdin_lines);
            typed.recv().await
        };
        self.lines_read += usize::from(line.is_some());
        line
    }

    /// Where the actions come from, for errors: `visitor script PATH` or `stdin`.
    fn source(&self) -> String {
        match &self.kind {
            VisitorKind::Script(path) => format!("visitor script {path}"),
            _ => "stdin".to_owned(),
        }
    }
}

/// Lines typed on stdin, read on their own thread so the robot keeps running meanwhile.
pub fn stdin_lines() -> mpsc::UnboundedReceiver<String> {
    let (send, lines) = mpsc::unbounded_channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if send.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

impl Action {
    /// Reads an action: `lift SQ`, `place SQ`, `move SQ SQ`, `press`, `hold` (a long press),
    /// `wait MS`, or a move's text when `position` is known.
    pub fn parse(
        variant: Variant,
        position: Option<&Position>,
        line: &str,
    ) -> anyhow::Result<Action> {
        let square =
            |name: &str| notation::parse_square(variant, name).map_err(anyhow::Error::from);
        let words: Vec<&str> = line.split_whitespace().collect();
        Ok(match (&words[..], position) {
            (&["press"], _) => Action::Press,
            (&["hold"], _) => Action::Hold,
            (&["wait", ms], _) => {
                let ms = ms.parse::<u64>().context("wait takes milliseconds")?;
                Action::Wait(Duration::from_millis(ms))
            }
            (&["lift", sq], _) => Action::Lift(square(sq)?),
            (&["place", sq], _) => Action::Place(square(sq)?),
            (&["move", from, to], _) => Action::Move(square(from)?, square(to)?),
            (&[text], Some(position)) => Action::Play(notation::parse_move(position, text)?),
            _ => bail!("expected lift SQ, place SQ, move SQ SQ, press, hold, wait MS or a move"),
        })
    }

    /// Does it with the hands on `world` (and a long press on `board`'s button); true when it
    /// was a press of the button (which the caller makes) or a whole move (after which the
    /// visitor presses).
    pub async fn act(&self, world: &mut PhysicalBoard, board: &SimBoardHandle) -> bool {
        match *self {
            Action::Press => return true,
            Action::Hold => {
                board.hold(ButtonId::CONFIRM, HINT_HOLD).await;
            }
            Action::Play(mv) => {
                world.play(&mv);
                return true;
            }
            Action::Lift(sq) => {
                world.lift(sq);
            }
            Action::Place(sq) => {
                // The piece in hand, or one from the box.
                world.place(sq);
            }
            Action::Move(from, to) => {
                if world.lift(from) {
                    world.place(to);
                }
            }
            Action::Wait(time) => tokio::time::sleep(time).await,
        }
        false
    }
}
