//! The puzzles of puzzle mode, shipped as data (`data/puzzles-<variant>.txt`): a position with
//! a winning shot for the side to move, and its solution, the solver's moves with the forced
//! replies between them. Read once, checked against the rules; a line that does not read is a
//! bug in the shipped file, which a test catches.

use rules::{Move, Position, Variant, fen, notation};

/// One puzzle: where it starts and how it is solved.
#[derive(Debug, Clone, PartialEq)]
pub struct Puzzle {
    /// The position, the solver to move.
    pub position: Position,
    /// The solver's moves and the replies between them, starting with the solver's.
    pub solution: Vec<Move>,
    /// Where it came from and what it wins.
    pub note: String,
}

impl Puzzle {
    /// The solver's moves of the solution, with the position each is played in.
    pub fn solver_moves(&self) -> Vec<(Position, Move)> {
        let mut position = self.position;
        let mut out = Vec::new();
        for (i, mv) in self.solution.iter().enumerate() {
            if i % 2 == 0 {
                out.push((position, *mv));
            }
            position = position.play(mv).expect("checked when read");
        }
        out
    }

    /// The position after the whole solution.
    pub fn end(&self) -> Position {
        self.solution.iter().fold(self.position, |position, mv| {
            position.play(mv).expect("checked when read")
        })
    }
}

/// A line of a puzzle file that does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("puzzle line {line}: {problem}")]
pub struct PuzzleError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub problem: String,
}

/// The puzzles shipped for `variant`; none for a variant without a puzzle file.
pub fn shipped(variant: Variant) -> Result<Vec<Puzzle>, PuzzleError> {
    match variant {
        Variant::Russian => parse(variant, include_str!("../data/puzzles-russian.txt")),
        _ => Ok(Vec::new()),
    }
}

/// Reads a puzzle file: `FEN | moves | note` a line, `#` starting a comment.
pub fn parse(variant: Variant, text: &str) -> Result<Vec<Puzzle>, PuzzleError> {
    let mut puzzles = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let problem = |problem: String| PuzzleError {
            line: index + 1,
            problem,
        };
        let mut fields = line.split('|').map(str::trim);
        let (Some(fen_text), Some(moves), note) = (fields.next(), fields.next(), fields.next())
        else {
            return Err(problem("expected FEN | moves | note".to_owned()));
        };
        let start = fen::parse(variant, fen_text).map_err(|err| problem(err.to_string()))?;
        let mut position = start;
        let mut solution = Vec::new();
        for text in moves.split_whitespace() {
            let mv = notation::parse_move(&position, text)
                .map_err(|err| problem(format!("move {text}: {err}")))?;
            position = position
                .play(&mv)
                .map_err(|_| problem(format!("move {text} is illegal there")))?;
            solution.push(mv);
        }
        if solution.is_empty() {
            return Err(problem("no solution".to_owned()));
        }
        puzzles.push(Puzzle {
            position: start,
            solution,
            note: note.unwrap_or_default().to_owned(),
        });
    }
    Ok(puzzles)
}
