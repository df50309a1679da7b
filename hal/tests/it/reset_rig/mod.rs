//! What the reset tests and the reset benchmark share: positions as the arm sees them, a
//! calibration per board size with a rack for every piece, a model of the board and the stock
//! that carries out plans step by step (refusing a piece set down where one stands or picked up
//! where none is), and the end positions of seeded random games played through the planner.

use hal::arm::{
    ArmStep, Calibration, CaptureOrder, Layout, Piece, PieceColour, PieceKind, Plan, Point,
    RackSection, Spot, Stock, plan_move_with_stock,
};
use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rules::{Color, Position, Role, Variant};

use crate::planner_rig::robot_move;

const EXAMPLE: &str = include_str!("../../../data/calibration.example.toml");

/// Every variant, in the order seeds cycle through them.
pub const VARIANTS: [Variant; 8] = [
    Variant::Russian,
    Variant::International,
    Variant::Brazilian,
    Variant::Canadian,
    Variant::English,
    Variant::Italian,
    Variant::Pool,
    Variant::RussianGiveaway,
];

/// Spare kings of each colour in the test calibrations' reserve.
pub const KINGS_EACH: usize = 4;

/// Plies after which a random game is stopped: random kings can wander for ever.
const PLY_CAP: usize = 150;

/// The arm's colour for a player's.
pub fn colour(color: Color) -> PieceColour {
    match color {
        Color::White => PieceColour::White,
        Color::Black => PieceColour::Black,
    }
}

/// The pieces of `position` by (row, column).
pub fn layout(position: &Position) -> Layout {
    let geometry = position.variant().geometry();
    geometry
        .squares()
        .filter_map(|sq| {
            let piece = position.piece_at(sq)?;
            let (row, col) = geometry.coords(sq);
            let kind = match piece.role {
                Role::Man => PieceKind::Man,
                Role::King => PieceKind::King,
            };
            Some((
                hal::arm::BoardSquare::new(row as u8, col as u8),
                Piece {
                    colour: colour(piece.color),
                    kind,
                },
            ))
        })
        .collect()
}

/// The example calibration on a board of `side` squares (the same corners, smaller squares),
/// with a rack for every piece and every spare king, and eight spare-king slots.
pub fn calibration(side: usize) -> Calibration {
    let mut file = Calibration::from_toml(EXAMPLE)
        .expect("the example is valid")
        .to_file();
    let last = side.to_string();
    let far_file = char::from(b'a' + side as u8 - 1).to_string();
    let corner = |name: &str| file.board.corners[name];
    file.board.corners = [
        ("a1".to_owned(), corner("a1")),
        (format!("{far_file}1"), corner("h1")),
        (format!("a{last}"), corner("a8")),
        (format!("{far_file}{last}"), corner("h8")),
    ]
    .into_iter()
    .collect();
    file.board.side = side;
    file.board.overrides.clear();
    let (rows, columns, pitch, diameter, y) = match side {
        8 => (4, 8, 17.0, 15.0, 88.0),
        10 => (4, 12, 12.0, 11.0, 86.0),
        _ => (5, 14, 10.0, 9.5, 84.0),
    };
    file.pieces.diameter_mm = Some(diameter);
    file.rack = Some(RackSection {
        rows,
        columns,
        first: Point::new(150.0, y, 10.0),
        row_end: Some(Point::new(150.0 + pitch * (columns - 1) as f64, y, 10.0)),
        last_row: Some(Point::new(150.0, y + pitch * (rows - 1) as f64, 10.0)),
    });
    file.king_reserve = [-140.0, -160.0]
        .into_iter()
        .flat_map(|y| [190.0, 215.0, 240.0, 265.0].map(|x| Point::new(x, y, 15.0)))
        .collect();
    Calibration::from_file(file).expect("the test calibration is valid")
}

/// An empty rack and a reserve of [`KINGS_EACH`] white kings then as many black ones.
pub fn fresh_stock(calibration: &Calibration) -> Stock {
    let rack = calibration
        .rack()
        .expect("test calibrations have a rack")
        .len();
    let reserve = (0..2 * KINGS_EACH)
        .map(|i| {
            Some(Piece::king(if i < KINGS_EACH {
                PieceColour::White
            } else {
                PieceColour::Black
            }))
        })
        .collect();
    Stock::from_slots(vec![None; rack], reserve)
}

/// Carries out `plan` on the model, step by step; an error names the first impossible step.
/// A visitor asked to crown puts a king from elsewhere in place of the man.
pub fn simulate(plan: &Plan, board: &mut Layout, stock: &mut Stock) -> Result<(), String> {
    let mut held: Option<Piece> = None;
    for (i, step) in plan.steps().iter().enumerate() {
        match *step {
            ArmStep::Pick { spot, .. } => {
                if held.is_some() {
                    return Err(format!("step {i}: picks at {spot:?} while holding a piece"));
                }
                held = Some(match spot {
                    Spot::Square(square) => board
                        .remove(&square)
                        .ok_or_else(|| format!("step {i}: picks from the empty square {square}"))?,
                    Spot::Bin(_) => return Err(format!("step {i}: picks from a bin")),
                    slot => stock
                        .take(slot.slot().expect("slots are slots"))
                        .map_err(|error| format!("step {i}: picks from an empty slot: {error}"))?,
                });
            }
            ArmStep::Release { spot, .. } => {
                let piece = held
                    .take()
                    .ok_or_else(|| format!("step {i}: releases with nothing held"))?;
                match spot {
                    Spot::Square(square) => {
                        if let Some(there) = board.insert(square, piece) {
                            return Err(format!(
                                "step {i}: sets a {piece} down on {square}, where a {there} stands"
                            ));
                        }
                    }
                    Spot::Bin(_) => {}
                    slot => stock
                        .put(slot.slot().expect("slots are slots"), piece)
                        .map_err(|error| format!("step {i}: puts into a full slot: {error}"))?,
                }
            }
            ArmStep::Park { .. } => {
                if held.is_some() {
                    return Err(format!("step {i}: parks holding a piece"));
                }
            }
            ArmStep::AskVisitorToCrown { square } => match board.get_mut(&square) {
                Some(piece) if piece.kind == PieceKind::Man => piece.kind = PieceKind::King,
                _ => {
                    return Err(format!(
                        "step {i}: asks to crown {square}, with no man there"
                    ));
                }
            },
        }
    }
    Ok(())
}

/// A game's end as the arm finds it: the board and the stock beside it.
#[derive(Debug, Clone)]
pub struct EndOfGame {
    /// The variant played.
    pub variant: Variant,
    /// The pieces on the board.
    pub board: Layout,
    /// The rack's and the reserve's pieces.
    pub stock: Stock,
    /// Plies played.
    pub plies: usize,
}

/// Plays a random legal game of `variant` from `seed`, every move carried out by the planner
/// with the stock (captures into the rack, crownings from the reserve) on the model, and
/// checks after each move that the model's board is the game's and that the stock the plan
/// reports equals the one the model ends with.
pub fn end_of_game(variant: Variant, seed: u64, calibration: &Calibration) -> EndOfGame {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut position = Position::new(variant);
    let mut board = layout(&position);
    let mut stock = fresh_stock(calibration);
    let mut plies = 0;
    while plies < PLY_CAP {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
        let mover = colour(position.turn());
        let plan = plan_move_with_stock(
            calibration,
            &robot_move(&position, &mv),
            mover,
            &stock,
            CaptureOrder::Shortest,
            calibration.motion(),
        )
        .unwrap_or_else(|error| panic!("{variant:?} seed {seed} ply {plies}: {error}"));
        let mut recorded = stock.clone();
        recorded
            .apply(&plan)
            .unwrap_or_else(|error| panic!("{variant:?} seed {seed} ply {plies}: {error}"));
        simulate(&plan, &mut board, &mut stock)
            .unwrap_or_else(|error| panic!("{variant:?} seed {seed} ply {plies}: {error}"));
        assert_eq!(
            recorded, stock,
            "{variant:?} seed {seed} ply {plies}: stock changes"
        );
        position = position.play(&mv).expect("a legal move");
        assert_eq!(
            board,
            layout(&position),
            "{variant:?} seed {seed} ply {plies}: the board after the plan"
        );
        plies += 1;
    }
    EndOfGame {
        variant,
        board,
        stock,
        plies,
    }
}

/// The 100 end positions the tests and the benchmark reset: seeds 0 to 99, the variant
/// cycling through [`VARIANTS`].
pub fn end_positions() -> Vec<(EndOfGame, Calibration)> {
    (0..100u64)
        .map(|seed| {
            let variant = VARIANTS[seed as usize % VARIANTS.len()];
            let calibration = calibration(variant.geometry().side());
            (end_of_game(variant, seed, &calibration), calibration)
        })
        .collect()
}
