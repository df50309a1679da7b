//! Which line category fits a game situation, and how strongly (which scales the chance of
//! saying it).

use crate::category::Category;
use crate::settings::ExpressionSettings;
use crate::signals::{Signals, Swing};
use crate::strength::{pieces, strength};

/// The line after the robot's search judged the visitor's move, most specific first: whose
/// doing a large swing was, then an unforeseen value, then the robot's own capture, then a
/// modest improvement.
pub(crate) fn after_robot_move(
    signals: &Signals,
    captures: u8,
    settings: &ExpressionSettings,
) -> Option<(Category, f32)> {
    let s = settings;
    let drop = strength(-signals.delta, s.swing, s.delta_full);
    match signals.swing {
        Swing::VisitorStrongMove => Some((Category::OpponentStrongMove, drop)),
        Swing::RobotBlunder => Some((Category::SelfBlunder, drop)),
        Swing::VisitorBlunder => Some((
            Category::OpponentBlunder,
            strength(signals.delta, s.swing, s.delta_full),
        )),
        _ if signals.surprise >= s.surprise => Some((
            Category::Surprise,
            strength(signals.surprise, s.surprise, s.surprise_full),
        )),
        _ if captures > 0 => Some((Category::Capture, pieces(captures, s.capture_full))),
        Swing::Better => Some((
            Category::GoodMoveSelf,
            strength(signals.delta, s.happy_delta, s.delta_full),
        )),
        Swing::Worse | Swing::Steady => None,
    }
}

/// The line when the visitor takes the robot's pieces.
pub(crate) fn after_visitor_move(
    captured: u8,
    settings: &ExpressionSettings,
) -> Option<(Category, f32)> {
    (captured > 0).then(|| (Category::LostPiece, pieces(captured, settings.capture_full)))
}
