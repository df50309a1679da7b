//! Every position of up to 4 pieces against its own moves: a win must have a move to a
//! position lost for the opponent, a loss must have only moves to positions won for the
//! opponent (or none), and a draw neither. The brute-force solver covers 3 pieces; this
//! covers 4, where the tables' values are otherwise only checked at a few known positions.

use egdb::{Wdl, build};
use rules::Variant;

#[test]
fn every_value_up_to_four_pieces_agrees_with_the_values_its_moves_reach() {
    let egdb = build(Variant::Russian, 4, None, &mut |_| {}).unwrap();
    let mut positions = 0u64;
    for table in egdb.tables() {
        for i in 0..table.len() {
            let position = table.position(i);
            let value = table.get(i);
            assert_eq!(egdb.probe(&position), Some(value));
            let mut any_lost = false;
            let mut all_won = true;
            for mv in position.legal_moves() {
                let next = position.play(&mv).unwrap();
                match egdb.probe(&next).unwrap() {
                    Wdl::Loss => any_lost = true,
                    Wdl::Draw => all_won = false,
                    Wdl::Win => {}
                }
            }
            let expected = if any_lost {
                Wdl::Win
            } else if all_won {
                Wdl::Loss
            } else {
                Wdl::Draw
            };
            assert_eq!(value, expected, "{}", rules::fen::write(&position));
            positions += 1;
        }
    }
    assert_eq!(positions, 6_408_836);
}
