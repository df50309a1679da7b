//! Every position of up to 4 pieces against its own moves: a win must have a move to a
//! position lost for the opponent, a loss must have only moves to positions won for the
//! opponent (or none), and a draw neither. The brute-force solver covers 3 pieces; this
//! covers 4, where the tables' values are otherwise only checked at a few known positions.
//!
//! The distances likewise: a win's is one more than the shortest of its moves to a loss, a
//! loss's one more than the longest of its moves to a win, a position without moves 0 and a
//! draw 0, read back from the tables themselves (across captures and promotions too, since
//! the children's distances come from the tables they reach).

use egdb::{SATURATED, Wdl, build};
use rules::Variant;

#[test]
fn every_value_up_to_four_pieces_agrees_with_the_values_its_moves_reach() {
    let egdb = build(Variant::Russian, 4, None, &mut |_| {}).unwrap();
    let mut positions = 0u64;
    let mut longest = 0u32;
    for table in egdb.tables() {
        for i in 0..table.len() {
            let position = table.position(i);
            let value = table.get(i);
            let distance = u32::from(table.distance(i).unwrap());
            assert_ne!(distance, u32::from(SATURATED));
            assert_eq!(egdb.probe(&position), Some(value));
            assert_eq!(egdb.probe_distance(&position), Some((value, distance)));
            let mut any_lost = false;
            let mut all_won = true;
            let mut shortest_loss: Option<u32> = None;
            let mut longest_win = 0u32;
            let mut moves = 0;
            for mv in position.legal_moves() {
                let next = position.play(&mv).unwrap();
                let (child, d) = egdb.probe_distance(&next).unwrap();
                match child {
                    Wdl::Loss => {
                        any_lost = true;
                        shortest_loss = Some(shortest_loss.map_or(d, |s| s.min(d)));
                    }
                    Wdl::Draw => all_won = false,
                    Wdl::Win => longest_win = longest_win.max(d),
                }
                moves += 1;
            }
            let (expected, expected_distance) = if any_lost {
                (Wdl::Win, 1 + shortest_loss.unwrap())
            } else if all_won {
                (Wdl::Loss, if moves == 0 { 0 } else { 1 + longest_win })
            } else {
                (Wdl::Draw, 0)
            };
            let text = rules::fen::write(&position);
            assert_eq!(value, expected, "{text}");
            assert_eq!(distance, expected_distance, "{text}");
            longest = longest.max(distance);
            positions += 1;
        }
    }
    assert_eq!(positions, 6_408_836);
    // Measured: the longest game up to 4 pieces (86 plies); a change in it is a change in
    // the build.
    assert_eq!(longest, 86);
}
