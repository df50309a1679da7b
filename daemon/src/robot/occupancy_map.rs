//! Between the sensors' numbering and the engine's squares.
//!
//! Both count dark squares the same way (dense index 0 is a1, along each row away from White),
//! so the mapping is the engine's geometry; it lives here because `hal` knows no rules and the
//! engine knows no sensors.

use hal::{BoardSize, Occupancy};
use rules::{Bitboard, Geometry};

/// The sensor array that covers a board of this geometry.
pub fn board_size(geometry: &Geometry) -> BoardSize {
    BoardSize::from_square_count(geometry.square_count())
        .expect("every variant's board has a sensor array size")
}

/// The squares a scan reports as occupied.
pub fn to_bitboard(geometry: &Geometry, scan: &Occupancy) -> Bitboard {
    scan.occupied().filter_map(|i| geometry.square(i)).collect()
}

/// The scan that healthy sensors would report for these squares.
pub fn to_occupancy(geometry: &Geometry, squares: Bitboard) -> Occupancy {
    Occupancy::from_squares(
        board_size(geometry),
        squares.into_iter().map(|sq| geometry.index(sq)),
    )
    .expect("a square of the geometry has a sensor")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::{Position, Variant};

    #[test]
    fn scans_and_bitboards_round_trip_on_every_board() {
        for variant in Variant::ALL {
            let geometry = variant.geometry();
            let start = Position::new(variant).occupied();
            let scan = to_occupancy(geometry, start);
            assert_eq!(scan.size().square_count(), geometry.square_count());
            assert_eq!(to_bitboard(geometry, &scan), start, "{variant:?}");
        }
    }

    #[test]
    fn sensor_zero_is_a1() {
        let geometry = Variant::Russian.geometry();
        let scan = Occupancy::from_squares(BoardSize::Squares32, [0]).unwrap();
        let squares: Vec<_> = to_bitboard(geometry, &scan).into_iter().collect();
        assert_eq!(squares.len(), 1);
        assert_eq!(
            rules::notation::square_name(Variant::Russian, squares[0]),
            "a1"
        );
    }
}
