//! The Hub session in-process, over in-memory pipes: bad lines get `error` lines and the
//! session goes on, a search ends promptly on `stop`, keeps roughly to its time, ponders until
//! `ponder-hit`, and `quit` or the end of input end the session. Times are bounded generously:
//! these tests check behaviour, not speed.

use std::io;
use std::time::Duration;

use checkerbot::hub::serve;
use engine_protocols::hub::board_text::parse_move;
use rules::{Position, Variant};
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader, DuplexStream, Lines};
use tokio::task::JoinHandle;
use tokio::time::{Instant, timeout};

/// Long enough for any answer on a loaded machine; a test that waits this long has failed.
const PATIENCE: Duration = Duration::from_secs(20);

/// The GUI's side of an in-process session.
struct Gui {
    to_engine: Option<DuplexStream>,
    from_engine: Lines<BufReader<DuplexStream>>,
    session: JoinHandle<io::Result<()>>,
}

impl Gui {
    fn start() -> Gui {
        let (to_engine, engine_input) = tokio::io::duplex(1 << 16);
        let (engine_output, from_engine) = tokio::io::duplex(1 << 16);
        let session = tokio::spawn(serve(BufReader::new(engine_input), engine_output));
        Gui {
            to_engine: Some(to_engine),
            from_engine: BufReader::new(from_engine).lines(),
            session,
        }
    }

    async fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes()).await;
    }

    async fn send_bytes(&mut self, bytes: &[u8]) {
        let pipe = self.to_engine.as_mut().expect("input still open");
        pipe.write_all(bytes).await.unwrap();
    }

    async fn line(&mut self) -> String {
        timeout(PATIENCE, self.from_engine.next_line())
            .await
            .expect("the engine answers")
            .unwrap()
            .expect("the engine's output is open")
    }

    /// Reads up to and including the first line starting with `word`; returns every line read.
    async fn until(&mut self, word: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.line().await;
            let found = line.split_whitespace().next() == Some(word);
            lines.push(line);
            if found {
                return lines;
            }
        }
    }

    /// The lines that come within `wait`.
    async fn lines_within(&mut self, wait: Duration) -> Vec<String> {
        let mut lines = Vec::new();
        let end = Instant::now() + wait;
        while let Ok(Ok(Some(line))) =
            tokio::time::timeout_at(end, self.from_engine.next_line()).await
        {
            lines.push(line);
        }
        lines
    }

    /// Waits for the session to end.
    async fn ended(self) -> io::Result<()> {
        timeout(PATIENCE, self.session)
            .await
            .expect("the session ends")
            .unwrap()
    }
}

/// The move of a `done` line.
fn done_move(line: &str) -> &str {
    line.strip_prefix("done move=")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("a done with a move: {line}"))
}

#[tokio::test]
async fn the_handshake_names_the_engine_and_every_variant() {
    let mut gui = Gui::start();
    gui.send("hub").await;
    let lines = gui.until("wait").await;
    assert!(
        lines[0].starts_with("id name=checkerbot version="),
        "{lines:?}"
    );
    assert_eq!(
        lines[1],
        "param name=variant value=international type=enum \
         values=\"russian brazilian international canadian english italian pool russian-giveaway\""
    );
    assert_eq!(lines[2], "param name=strength value=5 type=int min=1 max=5");
    assert_eq!(lines.len(), 4, "{lines:?}");
    gui.send("init").await;
    assert_eq!(gui.line().await, "ready");
}

#[tokio::test]
async fn bad_lines_get_error_lines_and_the_engine_keeps_going() {
    let mut gui = Gui::start();
    for (line, error) in [
        ("dance", "unknown command dance"),
        ("", "missing command"),
        (
            "level time=soon",
            "time must be a non-negative number, not soon",
        ),
        ("set-param name=variant value=chess", "unknown variant"),
        ("set-param name=hash value=64", "unknown parameter hash"),
        (
            "set-param name=strength value=9",
            "strength is a level from 1 to 5, not 9",
        ),
        ("pos pos=Wbbb", "bad pos"),
        ("pos moves=\"32-29\"", "32-29 is not a legal move here"),
    ] {
        gui.send(line).await;
        let answer = gui.line().await;
        assert!(answer.starts_with("error message="), "{line}: {answer}");
        assert!(answer.contains(error), "{line}: {answer}");
    }
    // Bytes that are not text are a bad line like any other, and Windows line ends are fine.
    gui.send_bytes(b"go\xff\xfe think\n").await;
    assert!(gui.line().await.starts_with("error message="));
    gui.send_bytes(b"ping\r\n").await;
    assert_eq!(gui.line().await, "pong");
    // After a refused pos there is nothing to search, but the GUI still gets its done.
    gui.send("go think").await;
    assert!(gui.line().await.contains("no position to search"));
    assert_eq!(gui.line().await, "done");
    gui.send("ping").await;
    assert_eq!(gui.line().await, "pong");
    gui.send("pos moves=\"32-28\"").await;
    gui.send("level depth=3").await;
    gui.send("go think").await;
    let lines = gui.until("done").await;
    assert!(
        lines.iter().any(|l| l.starts_with("info depth=3 ")),
        "{lines:?}"
    );
    let after = parse_move(&Position::new(Variant::International), "32-28").unwrap();
    let position = Position::new(Variant::International).play(&after).unwrap();
    parse_move(&position, done_move(lines.last().unwrap())).expect("a legal reply");
}

#[tokio::test]
async fn the_variant_parameter_switches_board_and_numbering() {
    let mut gui = Gui::start();
    gui.send("set-param name=variant value=russian").await;
    gui.send("pos").await;
    gui.send("level depth=2").await;
    gui.send("go think").await;
    let done = gui.until("done").await.pop().unwrap();
    parse_move(&Position::new(Variant::Russian), done_move(&done)).expect("a Russian move");
}

#[tokio::test]
async fn stop_ends_an_infinite_search_promptly_with_a_move() {
    let mut gui = Gui::start();
    gui.send("pos").await;
    gui.send("level infinite").await;
    gui.send("go analyze").await;
    gui.until("info").await;
    // A search without a limit goes on until stopped.
    let meanwhile = gui.lines_within(Duration::from_millis(300)).await;
    assert!(
        !meanwhile.iter().any(|l| l.starts_with("done")),
        "{meanwhile:?}"
    );
    gui.send("ping").await;
    assert!(
        gui.until("pong")
            .await
            .iter()
            .all(|l| !l.starts_with("done"))
    );
    let stopped = Instant::now();
    gui.send("stop").await;
    let done = gui.until("done").await.pop().unwrap();
    assert!(stopped.elapsed() < Duration::from_secs(5));
    parse_move(&Position::new(Variant::International), done_move(&done)).expect("a legal move");
}

#[tokio::test]
async fn a_move_time_and_a_clock_are_kept_roughly() {
    let mut gui = Gui::start();
    gui.send("pos").await;
    gui.send("level move-time=0.3").await;
    let started = Instant::now();
    gui.send("go think").await;
    gui.until("done").await;
    let spent = started.elapsed();
    assert!(
        spent >= Duration::from_millis(300),
        "stopped early: {spent:?}"
    );
    assert!(spent < Duration::from_secs(5), "{spent:?}");
    // Three seconds of sudden death: a thirtieth of it, far from losing on time.
    gui.send("pos").await;
    gui.send("level time=3").await;
    let started = Instant::now();
    gui.send("go think").await;
    gui.until("done").await;
    let spent = started.elapsed();
    assert!(spent >= Duration::from_millis(50), "{spent:?}");
    assert!(spent < Duration::from_secs(3), "lost on time: {spent:?}");
}

#[tokio::test]
async fn a_forced_move_is_played_at_once_but_analysed_at_length() {
    // White's only move is the capture 28x19x23.
    let mut gui = Gui::start();
    // Its one iteration ends as soon as it starts, and is still told before the `done`, every
    // time (pydraughts' HubEngine reads the search's figures from the `info` lines).
    for _ in 0..50 {
        gui.send("pos moves=\"32-28 19-23\"").await;
        gui.send("level move-time=30").await;
        gui.send("go think").await;
        let mut lines = gui.until("done").await;
        let done = lines.pop().unwrap();
        assert_eq!(done_move(&done), "28x19x23");
        assert!(
            lines.iter().any(|l| l.starts_with("info depth=1 ")),
            "{lines:?}"
        );
    }
    gui.send("pos moves=\"32-28 19-23\"").await;
    gui.send("level move-time=30").await;
    gui.send("go analyze").await;
    let meanwhile = gui.lines_within(Duration::from_millis(300)).await;
    assert!(
        !meanwhile.iter().any(|l| l.starts_with("done")),
        "{meanwhile:?}"
    );
    gui.send("stop").await;
    gui.until("done").await;
}

#[tokio::test]
async fn a_ponder_search_waits_for_ponder_hit_then_keeps_to_its_time() {
    let mut gui = Gui::start();
    gui.send("pos moves=\"32-28\"").await;
    gui.send("level move-time=0.2").await;
    gui.send("go ponder").await;
    // On the opponent's time the clock does not run: no move after the move time.
    let meanwhile = gui.lines_within(Duration::from_millis(600)).await;
    assert!(
        !meanwhile.iter().any(|l| l.starts_with("done")),
        "{meanwhile:?}"
    );
    let hit = Instant::now();
    gui.send("ponder-hit").await;
    gui.until("done").await;
    let spent = hit.elapsed();
    assert!(spent >= Duration::from_millis(200), "{spent:?}");
    assert!(spent < Duration::from_secs(5), "{spent:?}");
}

#[tokio::test]
async fn commands_sent_right_after_stop_are_carried_out_after_done() {
    let mut gui = Gui::start();
    gui.send("pos").await;
    gui.send("level infinite").await;
    gui.send("go ponder").await;
    gui.until("info").await;
    // The GUI's ponder miss: stop, and the next search at once, before the engine's done.
    gui.send("stop").await;
    gui.send("pos moves=\"32-28\"").await;
    gui.send("level depth=2").await;
    gui.send("go think").await;
    gui.until("done").await;
    let done = gui.until("done").await.pop().unwrap();
    let start = Position::new(Variant::International);
    let after = start.play(&parse_move(&start, "32-28").unwrap()).unwrap();
    parse_move(&after, done_move(&done)).expect("Black's move after 32-28");
}

#[tokio::test]
async fn quit_ends_the_session_even_during_a_search() {
    let mut gui = Gui::start();
    gui.send("pos").await;
    gui.send("level infinite").await;
    gui.send("go think").await;
    gui.until("info").await;
    gui.send("quit").await;
    gui.ended().await.unwrap();
}

#[tokio::test]
async fn the_end_of_input_ends_the_session_even_during_a_search() {
    let mut gui = Gui::start();
    gui.send("pos").await;
    gui.send("level infinite").await;
    gui.send("go think").await;
    gui.until("info").await;
    gui.to_engine = None;
    gui.ended().await.unwrap();
    // Idle, too.
    let mut gui = Gui::start();
    gui.send("ping").await;
    assert_eq!(gui.line().await, "pong");
    gui.to_engine = None;
    gui.ended().await.unwrap();
}
