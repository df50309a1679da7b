//! The calibration wizard as a pure state machine: keys and the arm's reported pose go in,
//! arm requests and the screen's text come out.
//!
//! Nothing here touches the arm or the terminal, so a whole calibration can be scripted in a
//! test: [`super::session`] feeds it keys and the arm's answers, and carries out its
//! [`Request`]s. The points it teaches are exactly the ones [`CalibrationFile`] holds, and it
//! saves only what [`Calibration::from_file`] accepts; when that refuses, the message names
//! the point and the wizard puts the cursor on it so the operator can teach it again.

use std::fmt::Write as _;

use hal::arm::calibration::{BoardSection, Travel};
use hal::arm::kinematics::ReferenceArm;
use hal::arm::{
    ArmModel, BoardCorners, BoardShapeError, BoardSquare, Calibration, CalibrationError,
    CalibrationFile, Corner, FORMAT_VERSION, MotionModel, PieceHeights, Point, RackError,
    RackSection,
};

use super::joint_jog::{self, JOINT_STEPS_DEG, Joint};

/// The widest piece the wizard takes, mm: a draughts piece is 2-5 cm across; more is a typo.
const MAX_PIECE_MM: f64 = 100.0;

/// The jog steps the operator switches between, mm.
const STEPS_MM: [f64; 2] = [10.0, 1.0];

/// A key as the wizard understands it; the terminal adapter maps real key events to these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// Arrow up: jog forward, away from the arm's base (+x).
    Up,
    /// Arrow down: jog back (-x).
    Down,
    /// Arrow left: jog to the arm's left (+y).
    Left,
    /// Arrow right: jog to the arm's right (-y).
    Right,
    /// Page up: jog up (+z).
    PageUp,
    /// Page down: jog down (-z).
    PageDown,
    /// Record the tool's position for the current point, or finish typing a square.
    Enter,
    /// Next point.
    Tab,
    /// Previous point.
    BackTab,
    /// Cancel typing or quitting.
    Esc,
    /// Delete the last typed character.
    Backspace,
    /// A letter or digit: commands, or a square's name while typing one.
    Char(char),
}

impl Key {
    /// The joint a jog key turns in joint jogging, and which way: left and right the base,
    /// up and down the upper arm, PgUp/PgDn (or `u`/`d`) the forearm.
    pub fn joint(self) -> Option<(Joint, f64)> {
        match self {
            Key::Left => Some((Joint::Base, 1.0)),
            Key::Right => Some((Joint::Base, -1.0)),
            Key::PageUp | Key::Char('u') => Some((Joint::Forearm, 1.0)),
            Key::PageDown | Key::Char('d') => Some((Joint::Forearm, -1.0)),
            Key::Up => Some((Joint::UpperArm, 1.0)),
            Key::Down => Some((Joint::UpperArm, -1.0)),
            _ => None,
        }
    }

    /// Whether the key jogs the arm by one step (the arrows and PgUp/PgDn; the letters `u`
    /// and `d` also type square names).
    pub fn is_jog(self) -> bool {
        matches!(
            self,
            Key::Up | Key::Down | Key::Left | Key::Right | Key::PageUp | Key::PageDown
        )
    }
}

/// What the wizard asks of the arm or the program.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// Move the tool through these points in order, in straight lines, then report where it
    /// ended ([`Wizard::arrived`]) or why it could not ([`Wizard::arm_failed`]).
    Move(Vec<Point>),
    /// Turn every joint straight to the angles that put the tool on this point (a joint jog of
    /// the reference arm), then report as after a move.
    Turn(Point),
    /// Run the arm's homing (after power-up, so its positions are the ones the daemon will
    /// use), then report where the tool is, as after a move.
    Home,
    /// Save this calibration text, then report with [`Wizard::saved`] or
    /// [`Wizard::save_failed`].
    Save(String),
    /// The operator is done.
    Quit,
}

/// A point the wizard teaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A corner square's centre, the tool touching a man standing there.
    Corner(Corner),
    /// The travel height (only z counts).
    SafeHeight,
    /// A drop point over the trophy bin (index from 0; one past the last adds one).
    Bin(usize),
    /// One of the three rack slots taught; the others lie on the grid between them.
    RackSlot(RackPoint),
    /// A spare king's slot (index from 0; one past the last adds one).
    KingSlot(usize),
    /// The resting pose.
    Park,
}

/// The rack's slots that are taught, as `[rack]` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RackPoint {
    /// Slot 1: row 1, column 1 (`first`).
    First,
    /// The last slot of row 1 (`row_end`), when a row has more than one slot.
    RowEnd,
    /// The first slot of the last row (`last_row`), when there is more than one row.
    LastRow,
}

impl RackPoint {
    const ALL: [RackPoint; 3] = [RackPoint::First, RackPoint::RowEnd, RackPoint::LastRow];

    fn index(self) -> usize {
        self as usize
    }

    /// The point's key in `[rack]`, as refusals name it.
    fn key(self) -> &'static str {
        match self {
            RackPoint::First => "first",
            RackPoint::RowEnd => "row_end",
            RackPoint::LastRow => "last_row",
        }
    }
}

/// The rack as far as it is taught: its size, typed after `r`, and its three points.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct RackDraft {
    /// Rows and slots per row; `None` until given.
    size: Option<(usize, usize)>,
    /// Taught points, in [`RackPoint`] order.
    points: [Option<Point>; 3],
}

impl RackDraft {
    fn from_section(section: &RackSection) -> RackDraft {
        RackDraft {
            size: Some((section.rows, section.columns)),
            points: [Some(section.first), section.row_end, section.last_row],
        }
    }

    fn is_empty(&self) -> bool {
        self.size.is_none() && self.points.iter().all(Option::is_none)
    }

    /// The points this size needs: all three before the size is known, as the operator may
    /// teach them first.
    fn needed(&self) -> Vec<RackPoint> {
        RackPoint::ALL
            .into_iter()
            .filter(|point| match (point, self.size) {
                (RackPoint::RowEnd, Some((_, columns))) => columns > 1,
                (RackPoint::LastRow, Some((rows, _))) => rows > 1,
                _ => true,
            })
            .collect()
    }

    /// The `[rack]` table, once the size and slot 1 are given (the rest is checked by
    /// [`Calibration::from_file`]).
    fn section(&self) -> Option<RackSection> {
        let (rows, columns) = self.size?;
        let point = |p: RackPoint| self.points[p.index()].filter(|_| self.needed().contains(&p));
        Some(RackSection {
            rows,
            columns,
            first: point(RackPoint::First)?,
            row_end: point(RackPoint::RowEnd),
            last_row: point(RackPoint::LastRow),
        })
    }
}

/// What the wizard asks the operator to type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Question {
    /// The name of a square to touch (`t`).
    Square,
    /// The rack's size, `ROWSxCOLUMNS` (`r`).
    RackSize,
    /// A piece's diameter in mm (`w`), which the rack's slots must leave room for.
    PieceWidth,
}

impl Question {
    /// The screen's line while the operator types `text`.
    fn echo(self, text: &str) -> String {
        match self {
            Question::Square => format!("test-touch square: {text}"),
            Question::RackSize => format!("rack size: {text}"),
            Question::PieceWidth => format!("piece diameter: {text} mm"),
        }
    }

    /// Whether `c` can be part of an answer.
    fn accepts(self, c: char) -> bool {
        match self {
            Question::Square => c.is_ascii_alphanumeric(),
            Question::RackSize => c.is_ascii_digit() || c == 'x',
            Question::PieceWidth => c.is_ascii_digit() || c == '.',
        }
    }
}

/// What the operator is doing.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Mode {
    Jogging,
    /// Typing an answer to a question, so far.
    Typing(Question, String),
    /// Asked to confirm quitting without saving.
    ConfirmQuit,
}

/// The points taught so far, and the rest of the file kept as it was.
#[derive(Debug, Clone, PartialEq)]
struct Draft {
    corners: [Option<Point>; 4],
    safe_z: Option<f64>,
    bins: Vec<Point>,
    rack: RackDraft,
    king_reserve: Vec<Point>,
    park: Option<Point>,
    arm: ArmModel,
    pieces: PieceHeights,
    clearance_mm: f64,
    overrides: std::collections::BTreeMap<String, Point>,
    motion: MotionModel,
}

/// The wizard's whole state.
#[derive(Debug, Clone)]
pub struct Wizard {
    side: usize,
    draft: Draft,
    target: Target,
    /// The tool's position as the arm last reported it.
    pose: Point,
    step: usize,
    mode: Mode,
    /// Whether a request to the arm is in flight (keys that move it wait).
    moving: bool,
    /// Whether the jog keys turn the reference arm's joints one at a time (`j`) instead of
    /// moving the tool along x, y and z.
    joint_jogging: bool,
    unsaved: bool,
    message: String,
    /// The square last test-touched: `o` records the tool's position as its override.
    touched: Option<BoardSquare>,
}

impl Wizard {
    /// A wizard for a board of `side` squares, starting from `existing` (a previous file, whose
    /// points it keeps until they are taught again) when its board has that side.
    pub fn new(side: usize, existing: Option<CalibrationFile>) -> Wizard {
        let existing = existing.filter(|file| file.board.side == side);
        let draft = match existing {
            Some(file) => Draft {
                corners: Corner::ALL.map(|corner| {
                    file.board
                        .corners
                        .get(&corner.square(side).to_string())
                        .copied()
                }),
                safe_z: Some(file.travel.safe_z),
                bins: file.bins,
                rack: file
                    .rack
                    .as_ref()
                    .map_or_else(RackDraft::default, RackDraft::from_section),
                king_reserve: file.king_reserve,
                park: Some(file.park),
                arm: file.arm,
                pieces: file.pieces,
                clearance_mm: file.travel.clearance_mm,
                overrides: file.board.overrides,
                motion: file.motion,
            },
            None => Draft {
                corners: [None; 4],
                safe_z: None,
                bins: Vec::new(),
                rack: RackDraft::default(),
                king_reserve: Vec::new(),
                park: None,
                arm: ArmModel::default(),
                pieces: PieceHeights::default(),
                clearance_mm: 5.0,
                overrides: std::collections::BTreeMap::new(),
                motion: MotionModel::default(),
            },
        };
        let mut wizard = Wizard {
            side,
            draft,
            target: Target::Corner(Corner::NearLeft),
            pose: Point::default(),
            step: 0,
            mode: Mode::Jogging,
            moving: false,
            joint_jogging: false,
            unsaved: false,
            message: String::new(),
            touched: None,
        };
        wizard.target = wizard.first_untaught();
        wizard
    }

    /// Teaches the points for `arm`, whose kinematics say which points are in reach. A starting
    /// file for the same kind of arm keeps its own dimensions; one for another kind keeps its
    /// points on the screen, to be taught again, and the screen says so.
    pub fn for_arm(mut self, arm: ArmModel) -> Wizard {
        if std::mem::discriminant(&self.draft.arm) != std::mem::discriminant(&arm) {
            if self.draft.park.is_some() {
                self.message = format!(
                    "the file was taught for {}: teach every point again for {} (its points \
                     are shown until then)",
                    arm_name(&self.draft.arm),
                    arm_name(&arm)
                );
            }
            self.draft.arm = arm;
        }
        self
    }

    /// The arm reports where the tool is (at the start, and after every [`Request::Move`]).
    pub fn arrived(&mut self, pose: Point) {
        self.pose = pose;
        self.moving = false;
    }

    /// The arm could not carry out the last move; `pose` is where it stopped, when known.
    pub fn arm_failed(&mut self, why: &str, pose: Option<Point>) {
        if let Some(pose) = pose {
            self.pose = pose;
        }
        self.moving = false;
        self.message = format!("the arm did not finish the move: {why}");
    }

    /// The calibration was saved at `path`.
    pub fn saved(&mut self, path: &str) {
        self.unsaved = false;
        self.message =
            format!("saved to {path}; test-touch a few squares with t, or press q to finish");
    }

    /// Saving failed; nothing was lost (the draft stays).
    pub fn save_failed(&mut self, why: &str) {
        self.message = format!("not saved: {why}");
    }

    /// The point being taught.
    #[cfg(test)]
    pub fn target(&self) -> Target {
        self.target
    }

    /// The point taught for `target`, if any.
    #[cfg(test)]
    pub fn taught(&self, target: Target) -> Option<Point> {
        self.recorded(target)
    }

    /// The last message for the operator.
    #[cfg(test)]
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Handles one key; returns what to do.
    pub fn key(&mut self, key: Key) -> Option<Request> {
        match std::mem::replace(&mut self.mode, Mode::Jogging) {
            Mode::Typing(question, text) => self.typing(question, text, key),
            Mode::ConfirmQuit if key == Key::Char('q') => Some(Request::Quit),
            Mode::ConfirmQuit => {
                self.message = String::from("still calibrating");
                self.key(key)
            }
            Mode::Jogging => self.jogging(key),
        }
    }

    fn jogging(&mut self, key: Key) -> Option<Request> {
        if let (true, ArmModel::Reference(arm)) = (self.joint_jogging, self.draft.arm)
            && key.joint().is_some()
        {
            return self.turn_joint(&arm, key);
        }
        let step = STEPS_MM[self.step];
        let jog = |dx: f64, dy: f64, dz: f64| (dx * step, dy * step, dz * step);
        let delta = match key {
            Key::Up => Some(jog(1.0, 0.0, 0.0)),
            Key::Down => Some(jog(-1.0, 0.0, 0.0)),
            Key::Left => Some(jog(0.0, 1.0, 0.0)),
            Key::Right => Some(jog(0.0, -1.0, 0.0)),
            Key::PageUp | Key::Char('u') => Some(jog(0.0, 0.0, 1.0)),
            Key::PageDown | Key::Char('d') => Some(jog(0.0, 0.0, -1.0)),
            _ => None,
        };
        if let Some((dx, dy, dz)) = delta {
            let p = self.pose;
            return self.go(vec![Point::new(p.x + dx, p.y + dy, p.z + dz)]);
        }
        match key {
            Key::Char(' ') => {
                self.step = (self.step + 1) % STEPS_MM.len();
                self.message = format!("jog step {}", self.step_text());
                None
            }
            Key::Char('j') => {
                self.toggle_joint_jogging();
                None
            }
            Key::Enter => {
                self.record();
                None
            }
            Key::Tab | Key::Char('n') => {
                self.target = self.next(self.target);
                self.message.clear();
                None
            }
            Key::BackTab | Key::Char('p') => {
                self.target = self.previous(self.target);
                self.message.clear();
                None
            }
            Key::Char('x') => {
                self.delete();
                None
            }
            Key::Char('o') => {
                self.override_touched();
                None
            }
            Key::Char('g') => self.go_to_target(),
            Key::Char('t') => self.ask(
                Question::Square,
                "test-touch which square? type its name (c3) and Enter, Esc to cancel",
            ),
            Key::Char('r') => self.ask(
                Question::RackSize,
                "the rack's size: type rows x slots per row (4x8) and Enter, 0 for no rack, \
                 Esc to cancel",
            ),
            Key::Char('w') => self.ask(
                Question::PieceWidth,
                "a piece's diameter: type it in mm (16.5) and Enter, 0 for the squares' \
                 pitch, Esc to cancel",
            ),
            Key::Char('h') if !self.moving => {
                self.moving = true;
                self.message =
                    String::from("homing: the arm finds its reference positions (about 20 s)");
                Some(Request::Home)
            }
            Key::Char('s') => self.save(),
            Key::Char('q') | Key::Esc => {
                if self.unsaved {
                    self.mode = Mode::ConfirmQuit;
                    self.message = String::from(
                        "the calibration is not saved: press q again to quit \
                                    without saving, or s to save",
                    );
                    None
                } else {
                    Some(Request::Quit)
                }
            }
            _ => None,
        }
    }

    /// Starts typing an answer to `question`, with `prompt` on the screen.
    fn ask(&mut self, question: Question, prompt: &str) -> Option<Request> {
        self.mode = Mode::Typing(question, String::new());
        prompt.clone_into(&mut self.message);
        None
    }

    fn typing(&mut self, question: Question, mut text: String, key: Key) -> Option<Request> {
        match key {
            Key::Char(c) if question.accepts(c) => text.push(c.to_ascii_lowercase()),
            Key::Backspace => {
                text.pop();
            }
            Key::Esc => {
                self.message.clear();
                return None;
            }
            Key::Enter => {
                return match question {
                    Question::Square => self.touch(&text),
                    Question::RackSize => {
                        self.set_rack_size(&text);
                        None
                    }
                    Question::PieceWidth => {
                        self.set_piece_width(&text);
                        None
                    }
                };
            }
            _ => {}
        }
        self.message = question.echo(&text);
        self.mode = Mode::Typing(question, text);
        None
    }

    /// Takes a piece's diameter from `text` (mm, or `0` for the squares' pitch).
    fn set_piece_width(&mut self, text: &str) {
        match text.parse::<f64>() {
            Ok(0.0) => {
                self.draft.pieces.diameter_mm = None;
                self.message =
                    String::from("a piece is taken to be as wide as the squares are apart");
            }
            Ok(mm) if mm.is_finite() && mm > 0.0 && mm <= MAX_PIECE_MM => {
                self.draft.pieces.diameter_mm = Some(mm);
                self.message = format!("a piece is {mm:.1} mm across");
            }
            _ => {
                self.message = format!(
                    "{text:?} is not a piece's diameter: type it in mm, up to {MAX_PIECE_MM}, \
                     such as 16.5"
                );
                return;
            }
        }
        self.unsaved = true;
    }

    /// Takes the rack's size from `text` (`ROWSxCOLUMNS`, or `0` for no rack).
    fn set_rack_size(&mut self, text: &str) {
        if text == "0" {
            self.draft.rack = RackDraft::default();
            self.unsaved = true;
            self.message = String::from("no rack: captured pieces go to the bins");
            return;
        }
        let size = text
            .split_once('x')
            .and_then(|(rows, columns)| Some((rows.parse().ok()?, columns.parse().ok()?)))
            .filter(|&(rows, columns): &(usize, usize)| {
                rows > 0 && columns > 0 && rows * columns <= hal::arm::rack::MAX_SLOTS
            });
        let Some((rows, columns)) = size else {
            self.message = format!(
                "{text:?} is not a rack's size: type rows x slots per row, such as 4x8 (at most \
                 {} slots), or 0 for no rack",
                hal::arm::rack::MAX_SLOTS
            );
            return;
        };
        self.draft.rack.size = Some((rows, columns));
        self.unsaved = true;
        self.target = Target::RackSlot(RackPoint::First);
        self.message = format!("the rack has {rows} x {columns} slots; teach slot 1");
    }

    /// Sends the arm along `path` unless a point is out of its reach.
    fn go(&mut self, path: Vec<Point>) -> Option<Request> {
        if self.moving {
            return None;
        }
        if let Some((point, why)) = path
            .iter()
            .find_map(|p| self.draft.arm.unreachable(*p).map(|why| (*p, why)))
        {
            self.message = format!("not moving: {point} is out of the arm's reach ({why})");
            return None;
        }
        self.moving = true;
        Some(Request::Move(path))
    }

    /// Switches between Cartesian and joint jogging; only the reference arm's joints are
    /// jogged one by one (the Dobot's firmware moves in x, y and z).
    fn toggle_joint_jogging(&mut self) {
        if !matches!(self.draft.arm, ArmModel::Reference(_)) {
            self.message = format!(
                "joint jogging turns the reference arm's joints; {} is jogged in x, y and z",
                arm_name(&self.draft.arm)
            );
            return;
        }
        self.joint_jogging = !self.joint_jogging;
        self.message = if self.joint_jogging {
            String::from(
                "joint jogging: left/right turn the base, up/down the upper arm, PgUp/PgDn \
                 (u/d) the forearm; j for x, y, z again",
            )
        } else {
            String::from("jogging in x, y and z")
        };
    }

    /// A joint jog of the reference arm from where the tool is, refused with the joint and its
    /// range when it would leave them.
    fn turn_joint(&mut self, arm: &ReferenceArm, key: Key) -> Option<Request> {
        if self.moving {
            return None;
        }
        let (joint, sign) = key.joint()?;
        match joint_jog::jog(arm, self.pose, joint, sign * JOINT_STEPS_DEG[self.step]) {
            Ok(turned) => {
                self.moving = true;
                Some(Request::Turn(turned.tool))
            }
            Err(why) => {
                self.message = why;
                None
            }
        }
    }

    /// The jog step with its unit.
    fn step_text(&self) -> String {
        if self.joint_jogging {
            format!("{} deg", JOINT_STEPS_DEG[self.step])
        } else {
            format!("{} mm", STEPS_MM[self.step])
        }
    }

    /// The reference arm's joint angles where the tool is, for the screen in joint jogging.
    fn joints_text(&self) -> Option<String> {
        let ArmModel::Reference(arm) = self.draft.arm else {
            return None;
        };
        if !self.joint_jogging {
            return None;
        }
        Some(match joint_jog::joints_at(&arm, self.pose) {
            Ok(joints) => format!(
                "joints: theta0 {:.1} deg, theta1 {:.1} deg, theta2 {:.1} deg",
                joints.theta0, joints.theta1, joints.theta2
            ),
            Err(why) => why,
        })
    }

    /// A path that rises to the travel height (when known), crosses, and goes down onto
    /// `point`: the way to reach a point without sweeping pieces off the board.
    fn path_to(&self, point: Point) -> Vec<Point> {
        match self.draft.safe_z {
            Some(safe_z) => vec![
                self.pose.at_height(safe_z.max(self.pose.z)),
                point.at_height(safe_z.max(point.z)),
                point,
            ],
            None => vec![point],
        }
    }

    fn go_to_target(&mut self) -> Option<Request> {
        let Some(point) = self.recorded(self.target) else {
            self.message = format!("{} is not taught yet", self.name(self.target));
            return None;
        };
        let path = self.path_to(point);
        self.go(path)
    }

    fn touch(&mut self, name: &str) -> Option<Request> {
        let square = match BoardSquare::parse(name) {
            Some(square) if square.is_on(self.side) => square,
            _ => {
                self.message = format!(
                    "{name:?} is not a square of the {side}x{side} board",
                    side = self.side
                );
                return None;
            }
        };
        let board = match self.board() {
            Ok(board) => board,
            Err(why) => {
                self.message = format!("cannot touch {square}: {why}");
                return None;
            }
        };
        let Some(safe_z) = self.draft.safe_z else {
            self.message = format!(
                "cannot touch {square}: teach the travel height first, so the arm crosses \
                 above the pieces"
            );
            return None;
        };
        let centre = self
            .draft
            .overrides
            .get(&square.to_string())
            .copied()
            .unwrap_or_else(|| board.centre(square));
        let mut path = self.path_to(centre);
        path.push(centre.at_height(safe_z));
        self.message = format!(
            "touching {square} at {centre}; if it is off, jog onto the piece's centre and \
             press o to teach {square} on its own"
        );
        self.touched = Some(square);
        self.go(path)
    }

    /// Teaches the last touched square on its own, where the tool is now.
    fn override_touched(&mut self) {
        let Some(square) = self.touched else {
            self.message =
                String::from("test-touch a square first (t), then jog onto its piece and press o");
            return;
        };
        self.draft.overrides.insert(square.to_string(), self.pose);
        self.unsaved = true;
        self.message = format!(
            "{square} taught on its own at {}; the other squares still follow the corners",
            self.pose
        );
    }

    /// The board through the taught corners.
    fn board(&self) -> Result<BoardCorners, String> {
        let mut points = [Point::default(); 4];
        for (i, corner) in Corner::ALL.into_iter().enumerate() {
            points[i] = self.draft.corners[i]
                .ok_or_else(|| format!("corner {} is not taught yet", corner.square(self.side)))?;
        }
        BoardCorners::new(self.side, points).map_err(|e| e.to_string())
    }

    fn record(&mut self) {
        let pose = self.pose;
        let name = self.name(self.target);
        match self.target {
            Target::Corner(corner) => self.draft.corners[corner_index(corner)] = Some(pose),
            Target::SafeHeight => self.draft.safe_z = Some(pose.z),
            Target::Bin(i) => set_or_push(&mut self.draft.bins, i, pose),
            Target::RackSlot(point) => self.draft.rack.points[point.index()] = Some(pose),
            Target::KingSlot(i) => set_or_push(&mut self.draft.king_reserve, i, pose),
            Target::Park => self.draft.park = Some(pose),
        }
        self.unsaved = true;
        self.message = if self.target == Target::SafeHeight {
            format!("recorded the travel height: z {:.1} mm", pose.z)
        } else {
            format!("recorded {name} at {pose}")
        };
        self.target = self.next(self.target);
    }

    fn delete(&mut self) {
        let removed = match self.target {
            Target::Bin(i) if i < self.draft.bins.len() => Some(self.draft.bins.remove(i)),
            Target::KingSlot(i) if i < self.draft.king_reserve.len() => {
                Some(self.draft.king_reserve.remove(i))
            }
            Target::RackSlot(point) => self.draft.rack.points[point.index()].take(),
            _ => None,
        };
        let Some(removed) = removed else {
            self.message =
                String::from("only taught bins, rack slots and spare-king slots can be deleted");
            return;
        };
        self.unsaved = true;
        self.message = format!("deleted {} at {removed}", self.name(self.target));
    }

    /// Checks the draft as the daemon will, and asks to save it.
    fn save(&mut self) -> Option<Request> {
        let missing = if self.draft.safe_z.is_none() {
            Some(Target::SafeHeight)
        } else if self.draft.park.is_none() {
            Some(Target::Park)
        } else {
            None
        };
        if let Some(target) = missing {
            self.target = target;
            self.message = format!("not saved: {} is not taught yet", self.name(target));
            return None;
        }
        let rack = self.draft.rack;
        if !rack.is_empty() && rack.section().is_none() {
            let first = Target::RackSlot(RackPoint::First);
            self.target = first;
            self.message = if rack.size.is_none() {
                String::from(
                    "not saved: the rack's size is not given: press r and type rows x slots per \
                     row (4x8), or 0 for no rack",
                )
            } else {
                format!("not saved: {} is not taught yet", self.name(first))
            };
            return None;
        }
        match Calibration::from_file(self.file()) {
            Ok(calibration) => Some(Request::Save(calibration.to_toml())),
            Err(error) => {
                if let Some(target) = self.target_of(&error) {
                    self.target = target;
                }
                // The file's setting for the diameter is the wizard's `w`.
                let hint = match error {
                    CalibrationError::Rack(RackError::TooClose { .. }) => {
                        " (w gives a piece's diameter)"
                    }
                    _ => "",
                };
                self.message = format!("not saved: {error}{hint}");
                None
            }
        }
    }

    /// The draft as a file, with untaught corners left out (validation names them).
    fn file(&self) -> CalibrationFile {
        let side = self.side;
        CalibrationFile {
            version: FORMAT_VERSION,
            arm: self.draft.arm,
            board: BoardSection {
                side,
                corners: Corner::ALL
                    .into_iter()
                    .zip(self.draft.corners)
                    .filter_map(|(corner, point)| {
                        point.map(|p| (corner.square(side).to_string(), p))
                    })
                    .collect(),
                overrides: self.draft.overrides.clone(),
            },
            pieces: self.draft.pieces,
            travel: Travel {
                safe_z: self.draft.safe_z.unwrap_or_default(),
                clearance_mm: self.draft.clearance_mm,
            },
            park: self.draft.park.unwrap_or_default(),
            bins: self.draft.bins.clone(),
            rack: self.draft.rack.section(),
            king_reserve: self.draft.king_reserve.clone(),
            motion: self.draft.motion,
        }
    }

    /// The point to teach again for a refusal.
    fn target_of(&self, error: &CalibrationError) -> Option<Target> {
        let corner_named = |square: BoardSquare| {
            Corner::ALL
                .into_iter()
                .find(|corner| corner.square(self.side) == square)
                .map(Target::Corner)
        };
        match error {
            CalibrationError::MissingCorner { name, .. } => corner_named(*name),
            CalibrationError::Shape(shape) => match shape {
                BoardShapeError::TooSmall { first, .. }
                | BoardShapeError::Swapped { first, .. } => corner_named(*first),
                _ => Some(Target::Corner(Corner::NearLeft)),
            },
            CalibrationError::NoBin => Some(Target::Bin(0)),
            CalibrationError::Rack(error) => {
                let key = match error {
                    RackError::Missing { key, .. } | RackError::TooClose { key, .. } => *key,
                    _ => "first",
                };
                let point = RackPoint::ALL
                    .into_iter()
                    .find(|point| point.key() == key)
                    .unwrap_or(RackPoint::First);
                Some(Target::RackSlot(point))
            }
            CalibrationError::SafeHeightBelowBoard { .. }
            | CalibrationError::SafeHeightTooLow { .. } => Some(Target::SafeHeight),
            CalibrationError::Unreachable { points } => {
                let name = &points.0.first()?.name;
                let number = |prefix: &str| {
                    name.strip_prefix(prefix)?
                        .split_whitespace()
                        .next()?
                        .parse::<usize>()
                        .ok()
                        .map(|n| n - 1)
                };
                if name.starts_with("above") {
                    Some(Target::SafeHeight)
                } else if let Some(i) = number("bin ") {
                    Some(Target::Bin(i))
                } else if let Some(i) = number("king reserve slot ") {
                    Some(Target::KingSlot(i))
                } else if name.starts_with("[rack]") {
                    Some(Target::RackSlot(RackPoint::First))
                } else if name.contains("park") {
                    Some(Target::Park)
                } else {
                    Some(Target::Corner(Corner::NearLeft))
                }
            }
            _ => None,
        }
    }

    /// The points in teaching order: the corners, the travel height, the bins, the rack (slot
    /// 1 only until it is begun), the spare kings (each list of bins and kings with one place
    /// more, to add one), the park pose.
    fn targets(&self) -> Vec<Target> {
        let mut targets: Vec<Target> = Corner::ALL.into_iter().map(Target::Corner).collect();
        targets.push(Target::SafeHeight);
        targets.extend((0..=self.draft.bins.len()).map(Target::Bin));
        if self.draft.rack.is_empty() {
            targets.push(Target::RackSlot(RackPoint::First));
        } else {
            targets.extend(self.draft.rack.needed().into_iter().map(Target::RackSlot));
        }
        targets.extend((0..=self.draft.king_reserve.len()).map(Target::KingSlot));
        targets.push(Target::Park);
        targets
    }

    fn position(&self, target: Target) -> usize {
        let targets = self.targets();
        targets.iter().position(|t| *t == target).unwrap_or(0)
    }

    fn next(&self, target: Target) -> Target {
        let targets = self.targets();
        targets[(self.position(target) + 1) % targets.len()]
    }

    fn previous(&self, target: Target) -> Target {
        let targets = self.targets();
        targets[(self.position(target) + targets.len() - 1) % targets.len()]
    }

    fn first_untaught(&self) -> Target {
        self.targets()
            .into_iter()
            .find(|t| match t {
                Target::KingSlot(_) | Target::RackSlot(_) => false,
                Target::Bin(i) => *i == 0 && self.draft.bins.is_empty(),
                _ => self.recorded(*t).is_none(),
            })
            .unwrap_or(Target::Corner(Corner::NearLeft))
    }

    fn recorded(&self, target: Target) -> Option<Point> {
        match target {
            Target::Corner(corner) => self.draft.corners[corner_index(corner)],
            Target::SafeHeight => self.draft.safe_z.map(|z| self.pose.at_height(z)),
            Target::Bin(i) => self.draft.bins.get(i).copied(),
            Target::RackSlot(point) => self.draft.rack.points[point.index()],
            Target::KingSlot(i) => self.draft.king_reserve.get(i).copied(),
            Target::Park => self.draft.park,
        }
    }

    /// The operator's name for a point.
    pub fn name(&self, target: Target) -> String {
        match target {
            Target::Corner(corner) => format!("corner {}", corner.square(self.side)),
            Target::SafeHeight => "the travel height".to_owned(),
            Target::Bin(i) => format!("bin {}", i + 1),
            Target::RackSlot(RackPoint::First) => "rack slot 1".to_owned(),
            Target::RackSlot(RackPoint::RowEnd) => "rack: row 1's last".to_owned(),
            Target::RackSlot(RackPoint::LastRow) => "rack: last row's 1st".to_owned(),
            Target::KingSlot(i) => format!("spare-king slot {}", i + 1),
            Target::Park => "the park pose".to_owned(),
        }
    }

    /// What to do at a point, in a sentence.
    fn instruction(&self, target: Target) -> String {
        match target {
            Target::Corner(corner) => format!(
                "put a man on {square} ({place}) and jog the tool down onto the centre of its \
                 top, then press Enter",
                square = corner.square(self.side),
                place = corner.description()
            ),
            Target::SafeHeight => format!(
                "raise the tool to where it can carry a king over a king standing on the board \
                 (about {:.0} mm above the board: 2 x king height + clearance), then press Enter",
                2.0 * self.draft.pieces.king_mm + self.draft.clearance_mm
            ),
            Target::Bin(i) if i == self.draft.bins.len() => format!(
                "{}: jog the tool above the trophy bin and press Enter{}",
                self.name(target),
                if i == 0 {
                    ""
                } else {
                    " (optional: Tab to skip)"
                }
            ),
            Target::Bin(_) => "a drop point over the trophy bin".to_owned(),
            Target::RackSlot(point) => self.rack_instruction(point),
            Target::KingSlot(i) if i == self.draft.king_reserve.len() => format!(
                "{}: put a spare king there and jog the tool onto its top, then press Enter \
                 (optional: Tab to skip)",
                self.name(target)
            ),
            Target::KingSlot(_) => "a spare king, the tool touching its top".to_owned(),
            Target::Park => "jog the tool to where it rests between moves, out of the \
                             visitor's way, and press Enter"
                .to_owned(),
        }
    }

    /// What to do at a rack point: give the size first, then put a man in the slot.
    fn rack_instruction(&self, point: RackPoint) -> String {
        let Some((rows, columns)) = self.draft.rack.size else {
            return "the rack (optional: Tab to skip): press r and type its size, rows x slots \
                    per row (4x8)"
                .to_owned();
        };
        let slot = match point {
            RackPoint::First => "slot 1 (row 1, column 1)".to_owned(),
            RackPoint::RowEnd => format!("the last slot of row 1 (column {columns})"),
            RackPoint::LastRow => format!("the first slot of the last row (row {rows})"),
        };
        let width = self.draft.pieces.diameter_mm.map_or_else(
            || "as wide as a square".to_owned(),
            |mm| format!("{mm:.1} mm"),
        );
        format!(
            "the rack of {rows} x {columns} slots (r to change, 0 for none), pieces {width} \
             across (w to change): put a man in {slot} and jog the tool onto the centre of its \
             top, then press Enter"
        )
    }

    /// The whole screen.
    pub fn screen(&self) -> String {
        let mut text = String::new();
        let side = self.side;
        let _ = writeln!(
            text,
            "checkerbot calibrate: {side}x{side} board, {}",
            arm_name(&self.draft.arm)
        );
        let _ = writeln!(
            text,
            "tool at {}   jog step {}{}",
            self.pose,
            self.step_text(),
            if self.moving { "   (moving)" } else { "" }
        );
        if let Some(joints) = self.joints_text() {
            let _ = writeln!(text, "{joints}");
        }
        let _ = writeln!(text);
        for target in self.targets() {
            let marker = if target == self.target { ">" } else { " " };
            let value = match (target, self.recorded(target)) {
                (Target::SafeHeight, Some(p)) => format!("z {:.1}", p.z),
                (_, Some(p)) => p.to_string(),
                (_, None) => "-".to_owned(),
            };
            let _ = writeln!(text, "{marker} {:<20} {value}", self.name(target));
        }
        let _ = writeln!(text);
        let _ = writeln!(text, "{}", self.instruction(self.target));
        if !self.message.is_empty() {
            let _ = writeln!(text, "{}", self.message);
        }
        let _ = writeln!(
            text,
            "\nkeys: arrows jog x/y, PgUp/PgDn (or u/d) jog z, Space 1/10 mm, j joint jogging \
             (the reference arm: arrows turn the base and the upper arm, PgUp/PgDn the \
             forearm, Space 1/0.1 deg), Enter record, \
             Tab/n next, Shift-Tab/p previous, g go to the point, x delete, t test-touch a \
             square, o teach the touched square on its own, r the rack's size, w a piece's diameter, h \
             home the arm, s save, q quit"
        );
        text
    }
}

/// The arm as the screen names it.
fn arm_name(arm: &ArmModel) -> &'static str {
    match arm {
        ArmModel::Magician(_) => "Dobot Magician",
        ArmModel::Reference(_) => "the reference arm (on the board controller)",
    }
}

fn corner_index(corner: Corner) -> usize {
    Corner::ALL
        .iter()
        .position(|c| *c == corner)
        .expect("every corner is in ALL")
}

fn set_or_push(points: &mut Vec<Point>, i: usize, point: Point) {
    match points.get_mut(i) {
        Some(slot) => *slot = point,
        None => points.push(point),
    }
}
