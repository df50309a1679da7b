//! Reset plans: every plan, carried out step by step on a model of the board and the stock,
//! ends with exactly the target on the board (or the target less the squares it reports
//! empty), never sets a piece down where one stands and never picks from an empty slot; the
//! cases of `data/reset_cases.txt`, and the end positions of 100 seeded random games in every
//! variant, played through the planner with the rack.

use hal::arm::{
    BoardSquare, Calibration, Layout, Piece, PieceColour, PieceKind, ResetError, ResetOrder,
    ResetOutcome, Spot, Stock, plan_reset,
};
use rules::{Variant, fen};

use crate::reset_rig::{self, calibration, layout, simulate};

const CASES: &str = include_str!("../data/reset_cases.txt");

/// Plans the reset both ways and checks both plans on the model; returns the shortest's
/// outcome.
#[track_caller]
fn check_reset(
    what: &str,
    calibration: &Calibration,
    board: &Layout,
    stock: &Stock,
    target: &Layout,
) -> ResetOutcome {
    let mut outcomes = Vec::new();
    for order in [ResetOrder::Shortest, ResetOrder::BoardOrder] {
        let outcome = plan_reset(
            calibration,
            board,
            stock,
            target,
            order,
            calibration.motion(),
        )
        .unwrap_or_else(|error| panic!("{what}: {error}"));
        let reset = outcome.plan();
        let (mut after, mut beside) = (board.clone(), stock.clone());
        simulate(reset.plan(), &mut after, &mut beside)
            .unwrap_or_else(|error| panic!("{what} ({order:?}): {error}"));
        assert_eq!(
            &after,
            reset.board_after(),
            "{what}: the board the plan reports"
        );
        assert_eq!(
            &beside,
            reset.stock_after(),
            "{what}: the stock the plan reports"
        );
        let mut applied = stock.clone();
        applied.apply(reset.plan()).unwrap();
        assert_eq!(applied, beside, "{what}: the plan's stock changes");
        // The target exactly, less the squares reported empty, which are empty.
        let mut expected = target.clone();
        for (square, piece) in outcome.empty_squares() {
            assert_eq!(expected.remove(square), Some(*piece), "{what}: {square}");
        }
        assert_eq!(
            after, expected,
            "{what} ({order:?}): the board after the reset"
        );
        // A piece standing right is never touched.
        for (square, piece) in board {
            if target.get(square) == Some(piece) {
                assert!(
                    reset
                        .carries()
                        .iter()
                        .all(|carry| carry.from != Spot::Square(*square)),
                    "{what}: moves the {piece} already on {square}"
                );
            }
        }
        assert!(reset.duration_s() >= 0.0);
        outcomes.push(outcome);
    }
    let naive = outcomes.pop().unwrap();
    let best = outcomes.pop().unwrap();
    assert_eq!(best.empty_squares(), naive.empty_squares(), "{what}");
    assert!(
        best.plan().duration_s() <= naive.plan().duration_s() + 1e-9,
        "{what}: the shortest order takes {:.2} s, the board order {:.2} s",
        best.plan().duration_s(),
        naive.plan().duration_s()
    );
    best
}

fn square(name: &str) -> BoardSquare {
    BoardSquare::parse(name).unwrap()
}

/// `W`, `B`, `WK`, `BK`: a white or black man or king.
fn piece(code: &str) -> Piece {
    let colour = match &code[..1] {
        "W" => PieceColour::White,
        "B" => PieceColour::Black,
        _ => panic!("bad piece {code:?}"),
    };
    if code.len() > 1 {
        Piece::king(colour)
    } else {
        Piece::man(colour)
    }
}

/// `start` or a FEN, as the arm sees it.
fn position(variant: Variant, text: &str) -> Layout {
    if text == "start" {
        layout(&rules::Position::new(variant))
    } else {
        layout(&fen::parse(variant, text).unwrap_or_else(|error| panic!("{text}: {error}")))
    }
}

/// The stock from `rack: W W B; reserve: WK BK -` (a `-` is an empty slot, the rest empty).
fn stock(calibration: &Calibration, text: &str) -> Stock {
    let mut stock = Stock::empty(
        calibration.rack().unwrap().len(),
        calibration.king_slots().len(),
    );
    for part in text
        .split(';')
        .map(str::trim)
        .filter(|part| !part.is_empty())
    {
        let (area, pieces) = part.split_once(':').unwrap();
        for (i, code) in pieces.split_whitespace().enumerate() {
            if code == "-" {
                continue;
            }
            let slot = match area.trim() {
                "rack" => hal::arm::Slot::Rack(i),
                "reserve" => hal::arm::Slot::Reserve(i),
                other => panic!("bad area {other:?}"),
            };
            stock.put(slot, piece(code)).unwrap();
        }
    }
    stock
}

/// `a1 WK, c3 B` (or `-` for none).
fn pieces(text: &str) -> Vec<(BoardSquare, Piece)> {
    if text.trim() == "-" {
        return Vec::new();
    }
    text.split(',')
        .map(|entry| {
            let (at, code) = entry.trim().split_once(' ').unwrap();
            (square(at), piece(code.trim()))
        })
        .collect()
}

/// Each line: variant | board (start, a FEN or `empty`) plus pieces added by name | stock |
/// target | the target squares that stay empty.
#[test]
fn the_data_file_cases_reset_as_expected() {
    let mut count = 0;
    for line in CASES
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
    {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let variant: Variant = fields[0].parse().unwrap();
        let calibration = calibration(variant.geometry().side());
        let (base, added) = fields[1].split_once('+').unwrap_or((fields[1], "-"));
        let mut board = match base.trim() {
            "empty" => Layout::new(),
            text => position(variant, text),
        };
        for (at, piece) in pieces(added) {
            board.insert(at, piece);
        }
        let stock = stock(&calibration, fields[2]);
        let target = position(variant, fields[3]);
        let outcome = check_reset(line, &calibration, &board, &stock, &target);
        let mut expected = pieces(fields[4]);
        expected.sort_unstable();
        assert_eq!(outcome.empty_squares(), expected.as_slice(), "{line}");
        assert_eq!(
            matches!(outcome, ResetOutcome::Complete(_)),
            expected.is_empty(),
            "{line}"
        );
        count += 1;
    }
    assert!(count >= 8, "only {count} cases");
}

#[test]
fn kings_on_the_board_are_replaced_by_men() {
    let calibration = calibration(8);
    let target = position(Variant::Russian, "start");
    let mut board = target.clone();
    let crowned = [square("a1"), square("h8")];
    for at in crowned {
        board.get_mut(&at).unwrap().kind = PieceKind::King;
    }
    let stock = stock(&calibration, "rack: W B; reserve: - - - - - - - -");
    let outcome = check_reset("two kings", &calibration, &board, &stock, &target);
    let ResetOutcome::Complete(reset) = outcome else {
        panic!("the rack has the men: {outcome:?}")
    };
    assert_eq!(reset.carries().len(), 4, "{:?}", reset.carries());
    for at in crowned {
        let out = reset
            .carries()
            .iter()
            .find(|carry| carry.from == Spot::Square(at))
            .unwrap();
        assert!(
            matches!(out.to, Spot::KingSlot(_)),
            "a king goes to the reserve first"
        );
        assert_eq!(out.piece.kind, PieceKind::King);
    }
    assert_eq!(
        reset
            .stock_after()
            .reserve()
            .iter()
            .filter(|piece| piece.is_some())
            .count(),
        2
    );
}

#[test]
fn a_rack_short_of_men_names_the_squares_left_empty() {
    let calibration = calibration(8);
    let target = position(Variant::Russian, "start");
    // Everything in the rack but three white men and one black man.
    let mut rack = Vec::new();
    rack.extend(std::iter::repeat_n("W", 9));
    rack.extend(std::iter::repeat_n("B", 11));
    let stock = stock(&calibration, &format!("rack: {}", rack.join(" ")));
    let outcome = check_reset("short rack", &calibration, &Layout::new(), &stock, &target);
    let ResetOutcome::Short { plan, empty } = &outcome else {
        panic!("the rack lacks men: {outcome:?}")
    };
    assert_eq!(empty.len(), 4);
    let white = empty
        .iter()
        .filter(|(_, piece)| *piece == Piece::man(PieceColour::White))
        .count();
    assert_eq!(white, 3);
    for (at, _) in empty {
        assert!(!plan.board_after().contains_key(at));
        assert!(target.contains_key(at));
    }
    assert!(
        plan.stock_after().pieces().next().is_none(),
        "the rack is emptied"
    );
}

#[test]
fn pieces_that_must_swap_squares_pass_through_a_free_spot() {
    let calibration = calibration(8);
    // Every white man where a black one belongs and the other way round.
    let target = position(Variant::Russian, "start");
    let board: Layout = target
        .iter()
        .map(|(&at, &piece)| {
            let mirrored = BoardSquare::new(7 - at.row, 7 - at.col);
            (mirrored, piece)
        })
        .collect();
    let empty_stock = Stock::empty(
        calibration.rack().unwrap().len(),
        calibration.king_slots().len(),
    );
    let outcome = check_reset("swapped sides", &calibration, &board, &empty_stock, &target);
    assert!(matches!(outcome, ResetOutcome::Complete(_)));

    // A full board with every square wrong and no free square or slot cannot be done.
    let full = calibration.rack().unwrap().len();
    let full_stock = Stock::from_slots(
        vec![Some(Piece::man(PieceColour::White)); full],
        vec![Some(Piece::king(PieceColour::White)); calibration.king_slots().len()],
    );
    let crowded: Layout = calibration
        .dark_squares()
        .map(|at| {
            let colour = if at.row % 2 == 0 {
                PieceColour::White
            } else {
                PieceColour::Black
            };
            (at, Piece::man(colour))
        })
        .collect();
    let swapped: Layout = crowded
        .iter()
        .map(|(&at, &piece)| {
            let colour = piece.colour.opponent();
            (at, Piece::man(colour))
        })
        .collect();
    let calibration_without_bins = {
        let mut file = calibration.to_file();
        file.bins.clear();
        Calibration::from_file(file).unwrap()
    };
    let error = plan_reset(
        &calibration_without_bins,
        &crowded,
        &full_stock,
        &swapped,
        ResetOrder::Shortest,
        calibration.motion(),
    )
    .unwrap_err();
    assert!(matches!(error, ResetError::NoFreeSpot { .. }), "{error}");
}

#[test]
fn bad_input_is_refused_with_a_reason() {
    let calibration = calibration(8);
    let stock = reset_rig::fresh_stock(&calibration);
    let light = [(square("b1"), Piece::man(PieceColour::White))].into();
    let error = plan_reset(
        &calibration,
        &light,
        &stock,
        &Layout::new(),
        ResetOrder::Shortest,
        calibration.motion(),
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "square b1 of the board is not a dark square of the calibrated board"
    );
    let error = plan_reset(
        &calibration,
        &Layout::new(),
        &Stock::empty(3, 8),
        &Layout::new(),
        ResetOrder::Shortest,
        calibration.motion(),
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "the stock has 3 rack slot(s) but the calibration has 32"
    );
}

/// The end positions of 100 random games, 8 variants, each played move by move through the
/// planner with the rack: every one resets to its variant's start position exactly.
#[test]
fn one_hundred_game_ends_reset_to_the_start_position() {
    let mut total_carries = 0;
    for (seed, (end, calibration)) in reset_rig::end_positions().into_iter().enumerate() {
        let target = layout(&rules::Position::new(end.variant));
        let what = format!("{:?} seed {seed} after {} plies", end.variant, end.plies);
        let outcome = check_reset(&what, &calibration, &end.board, &end.stock, &target);
        assert!(
            matches!(outcome, ResetOutcome::Complete(_)),
            "{what}: {:?}",
            outcome.empty_squares()
        );
        total_carries += outcome.plan().carries().len();
    }
    assert!(total_carries > 1000, "only {total_carries} carries");
}
