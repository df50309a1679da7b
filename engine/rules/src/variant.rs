//! The variants and the rules that set them apart.

use std::fmt;
use std::str::FromStr;

use crate::color::Color;
use crate::geometry::{BOARD_8X8, BOARD_10X10, BOARD_12X12, Geometry};

/// A game of draughts that checkerbot can play.
#[derive(Debug, Copy, Clone, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Russian draughts (shashki): the primary variant.
    Russian,
    /// Brazilian draughts: International rules on an 8x8 board.
    Brazilian,
    /// International (FMJD) draughts on 10x10.
    International,
    /// Canadian draughts on 12x12.
    Canadian,
    /// English draughts / American checkers.
    English,
    /// Italian draughts.
    Italian,
    /// American pool checkers.
    Pool,
    /// Russian giveaway (poddavki): Russian moves, the goal is to lose every piece.
    RussianGiveaway,
}

/// How a player chooses among several captures.
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub enum CaptureChoice {
    /// Any capture sequence, completed to the end.
    Free,
    /// Only the sequences that take the most pieces.
    Majority,
    /// Majority, then capturing with a king, then most kings taken, then kings taken earliest.
    Italian,
}

/// What happens when a man reaches the crowning row during a capture.
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub enum CapturePromotion {
    /// It is crowned at once and continues capturing as a king (Russian).
    ContinueAsKing,
    /// It continues as a man if it can; it is crowned only if the move ends there.
    OnlyAtEnd,
    /// The move ends there and the man is crowned (English, Italian).
    EndsMove,
}

/// What winning means.
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub enum Goal {
    /// The side that cannot move loses.
    Win,
    /// The side that cannot move (no pieces or blocked) wins: giveaway.
    Lose,
}

/// Which set of automatic draw rules applies (see [`crate::game`]).
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub enum DrawRules {
    /// Russian federation rules 7.2.1-7.2.4.
    Russian,
    /// FMJD rules (International, and by extension Brazilian and Canadian).
    Fmjd,
    /// Threefold repetition plus 40 moves each without a capture or a man move.
    FortyMoves,
}

/// How squares are named in this variant's notation.
#[derive(Debug, Copy, Clone, PartialEq, Eq)]
pub enum SquareNotation {
    /// Files a.., ranks 1.. from White's left corner.
    Algebraic,
    /// 1..N row by row from the top-left dark square as White sees the board.
    Numeric,
}

/// The rules of one variant, as data the move generator and game logic read.
#[derive(Debug)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "each flag is an independent rule"
)]
pub struct Rules {
    /// The variant's name as used on the command line and in config.
    pub name: &'static str,
    /// The board.
    pub geometry: &'static Geometry,
    /// Rows of men each side starts with.
    pub men_rows: usize,
    /// The side that makes the first move.
    pub first: Color,
    /// Whether men may capture backwards.
    pub men_capture_backward: bool,
    /// Whether kings move and capture along whole diagonals.
    pub flying_kings: bool,
    /// Whether a man may capture a king (not in Italian).
    pub men_capture_kings: bool,
    /// How to choose among captures.
    pub capture_choice: CaptureChoice,
    /// Crowning during a capture.
    pub capture_promotion: CapturePromotion,
    /// Win or giveaway.
    pub goal: Goal,
    /// Automatic draws.
    pub draw_rules: DrawRules,
    /// The notation PDN uses for this variant.
    pub notation: SquareNotation,
    /// Whether the physical board is turned so that the dark corner is on White's right
    /// (Italian). The engine keeps its usual geometry; only square names are mirrored.
    pub mirrored: bool,
    /// The PDN `GameType` tag value.
    pub pdn_game_type: &'static str,
}

const RUSSIAN: Rules = Rules {
    name: "russian",
    geometry: &BOARD_8X8,
    men_rows: 3,
    first: Color::White,
    men_capture_backward: true,
    flying_kings: true,
    men_capture_kings: true,
    capture_choice: CaptureChoice::Free,
    capture_promotion: CapturePromotion::ContinueAsKing,
    goal: Goal::Win,
    draw_rules: DrawRules::Russian,
    notation: SquareNotation::Algebraic,
    mirrored: false,
    pdn_game_type: "25",
};

const BRAZILIAN: Rules = Rules {
    name: "brazilian",
    capture_choice: CaptureChoice::Majority,
    capture_promotion: CapturePromotion::OnlyAtEnd,
    draw_rules: DrawRules::Fmjd,
    pdn_game_type: "26",
    ..RUSSIAN
};

const INTERNATIONAL: Rules = Rules {
    name: "international",
    geometry: &BOARD_10X10,
    men_rows: 4,
    notation: SquareNotation::Numeric,
    pdn_game_type: "20",
    ..BRAZILIAN
};

const CANADIAN: Rules = Rules {
    name: "canadian",
    geometry: &BOARD_12X12,
    men_rows: 5,
    pdn_game_type: "27",
    ..INTERNATIONAL
};

const ENGLISH: Rules = Rules {
    name: "english",
    first: Color::Black,
    men_capture_backward: false,
    flying_kings: false,
    capture_promotion: CapturePromotion::EndsMove,
    draw_rules: DrawRules::FortyMoves,
    notation: SquareNotation::Numeric,
    pdn_game_type: "21",
    ..RUSSIAN
};

const ITALIAN: Rules = Rules {
    name: "italian",
    first: Color::White,
    men_capture_kings: false,
    capture_choice: CaptureChoice::Italian,
    mirrored: true,
    pdn_game_type: "22",
    ..ENGLISH
};

const POOL: Rules = Rules {
    name: "pool",
    first: Color::Black,
    capture_promotion: CapturePromotion::OnlyAtEnd,
    draw_rules: DrawRules::FortyMoves,
    notation: SquareNotation::Numeric,
    pdn_game_type: "23",
    ..RUSSIAN
};

const RUSSIAN_GIVEAWAY: Rules = Rules {
    name: "russian-giveaway",
    goal: Goal::Lose,
    ..RUSSIAN
};

impl Variant {
    /// Every variant, Russian first.
    pub const ALL: [Variant; 8] = [
        Variant::Russian,
        Variant::Brazilian,
        Variant::International,
        Variant::Canadian,
        Variant::English,
        Variant::Italian,
        Variant::Pool,
        Variant::RussianGiveaway,
    ];

    /// The rules of this variant.
    pub const fn rules(self) -> &'static Rules {
        match self {
            Variant::Russian => &RUSSIAN,
            Variant::Brazilian => &BRAZILIAN,
            Variant::International => &INTERNATIONAL,
            Variant::Canadian => &CANADIAN,
            Variant::English => &ENGLISH,
            Variant::Italian => &ITALIAN,
            Variant::Pool => &POOL,
            Variant::RussianGiveaway => &RUSSIAN_GIVEAWAY,
        }
    }

    /// The board of this variant.
    pub const fn geometry(self) -> &'static Geometry {
        self.rules().geometry
    }

    /// The command-line name.
    pub const fn name(self) -> &'static str {
        self.rules().name
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name that is not known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown variant {0:?}: expected one of russian, brazilian, international, canadian, english (or american), italian, pool, russian-giveaway"
)]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        let lower = s.trim().to_ascii_lowercase();
        if lower == "american" {
            return Ok(Variant::English);
        }
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == lower)
            .ok_or_else(|| UnknownVariant(s.to_owned()))
    }
}
