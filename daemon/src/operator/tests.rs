//! The operator page's HTTP interface, request by request (tower's `oneshot`, no sockets), with
//! a stand-in for the game loop that records the commands it receives. `attacks.rs` is what
//! another web site or a guesser tries.

mod attacks;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request as HttpRequest, StatusCode, header};
use futures::StreamExt as _;
use rules::{Position, Variant};
use serde_json::Value;
use tokio::sync::mpsc;
use tower::ServiceExt as _;

use super::allowed_hosts::AllowedHosts;
use super::api::{Api, router};
use super::feed::Hub;
use super::page_state::PageStateTracker;
use super::token::{OperatorToken, WrongTokens};
use crate::robot::{Adjustment, Done, OperatorCommand, Request};
use host::Refused;

const TOKEN: &str = "s3cret-token";
/// The address the page is served on in these tests.
const PAGE: &str = "127.0.0.1:8080";

/// A request for `path` as a browser at the page's address sends it.
fn request(method: &str, path: &str) -> axum::http::request::Builder {
    HttpRequest::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, PAGE)
}

/// The router of a page on [`PAGE`], and the commands that reach the robot. The stand-in robot
/// refuses `Resign` (as a robot in the middle of its move would) and accepts the rest.
fn setup(
    token: Option<&str>,
    settings_file: Option<std::path::PathBuf>,
) -> (Router, mpsc::UnboundedReceiver<OperatorCommand>) {
    let hosts = AllowedHosts::new(PAGE.parse().unwrap(), &[]);
    setup_served_as(hosts, token, settings_file)
}

/// [`setup`] for a page served as `hosts`.
fn setup_served_as(
    hosts: AllowedHosts,
    token: Option<&str>,
    settings_file: Option<std::path::PathBuf>,
) -> (Router, mpsc::UnboundedReceiver<OperatorCommand>) {
    let settings = checkerbot_config::Settings::default();
    let tracker = PageStateTracker::new(
        &settings,
        Position::new(Variant::Russian),
        token.is_some(),
        settings_file.as_ref().map(|p| p.display().to_string()),
        "2026-11-30".to_owned(),
    );
    let (commands, mut requests) = mpsc::unbounded_channel::<Request>();
    let (seen, received) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Some(Request { command, reply }) = requests.recv().await {
            let outcome = match &command {
                OperatorCommand::Resign => {
                    Err(Refused("the arm is making the robot's move".to_owned()))
                }
                OperatorCommand::Adjust(adjustment) => Ok(Done {
                    message: "applied".to_owned(),
                    settings: Some(Box::new(
                        adjustment.applied_to(&checkerbot_config::Settings::default()),
                    )),
                }),
                _ => Ok(Done {
                    message: "done".to_owned(),
                    settings: None,
                }),
            };
            let _ = seen.send(command);
            let _ = reply.send(outcome);
        }
    });
    let mut api = api(tracker, commands, token, settings_file);
    api.hosts = Arc::new(hosts);
    (router(Arc::new(api)), received)
}

/// The handlers' state for a page on [`PAGE`].
fn api(
    tracker: PageStateTracker,
    commands: mpsc::UnboundedSender<Request>,
    token: Option<&str>,
    settings_file: Option<std::path::PathBuf>,
) -> Api {
    Api {
        hub: Arc::new(Hub::new(tracker)),
        commands,
        token: token.map(|token| OperatorToken::new(token.to_owned())),
        wrong_tokens: WrongTokens::default(),
        settings_file,
        hosts: Arc::new(AllowedHosts::new(PAGE.parse().unwrap(), &[])),
    }
}

/// Sends `method path` as the page does (JSON, with the token when given); the status and the
/// JSON answer.
async fn call(
    app: &Router,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &str,
) -> (StatusCode, Value) {
    let mut request = request(method, path).header(header::CONTENT_TYPE, "application/json");
    if let Some(token) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    answer(app, request.body(Body::from(body.to_owned())).unwrap()).await
}

/// `request`'s status and JSON answer (a string when it is not JSON).
async fn answer(app: &Router, request: HttpRequest<Body>) -> (StatusCode, Value) {
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap();
    let json = serde_json::from_slice(&bytes)
        .unwrap_or(Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, json)
}

fn error_text(json: &Value) -> &str {
    json["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error text in {json}"))
}

#[tokio::test]
async fn the_page_and_its_script_and_style_are_served() {
    let (app, _) = setup(None, None);
    for (path, kind, content) in [
        ("/", "text/html", "board-engine"),
        ("/page.js", "text/javascript", "EventSource"),
        ("/page.css", "text/css", ".board"),
    ] {
        let response = app
            .clone()
            .oneshot(request("GET", path).body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let content_type = response.headers()[header::CONTENT_TYPE].to_str().unwrap();
        assert!(content_type.starts_with(kind), "{path}: {content_type}");
        let body = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .unwrap();
        assert!(String::from_utf8_lossy(&body).contains(content), "{path}");
    }
}

#[tokio::test]
async fn the_state_shows_the_board_and_needs_no_token() {
    let (app, _) = setup(Some(TOKEN), None);
    let (status, state) = call(&app, "GET", "/api/state", None, "").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(state["board"]["side"], 8);
    assert_eq!(state["board"]["squares"].as_array().unwrap().len(), 32);
    assert_eq!(state["waiting"], "setup");
    assert_eq!(state["token_required"], true);
    assert_eq!(state["settings"]["level"], 3);
    assert!(
        state["status"]
            .as_str()
            .unwrap()
            .contains("Set up the board")
    );
}

#[tokio::test]
async fn the_event_stream_starts_with_the_whole_state() {
    let (app, _) = setup(None, None);
    let response = app
        .oneshot(request("GET", "/api/events").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "text/event-stream"
    );
    let mut body = response.into_body().into_data_stream();
    let first = tokio::time::timeout(Duration::from_secs(5), body.next())
        .await
        .expect("the first event comes at once")
        .unwrap()
        .unwrap();
    let text = String::from_utf8_lossy(&first);
    assert!(text.starts_with("event: state\ndata: {"), "{text}");
    assert!(text.contains("\"board\""), "{text}");
}

#[tokio::test]
async fn each_control_action_reaches_the_robot_as_its_command() {
    let (app, mut received) = setup(Some(TOKEN), None);
    let cases = [
        ("/api/new-game", "", OperatorCommand::NewGame),
        ("/api/pause", "{}", OperatorCommand::Pause),
        ("/api/go-on", "", OperatorCommand::GoOn),
        ("/api/take-back", "", OperatorCommand::TakeBack),
        ("/api/park", "", OperatorCommand::Park),
        (
            "/api/resolve",
            r#"{"move": "c3:e5 (taking d4)"}"#,
            OperatorCommand::Resolve("c3:e5 (taking d4)".to_owned()),
        ),
        (
            "/api/voice",
            r#"{"category": "idle"}"#,
            OperatorCommand::TestVoice(emotions::Category::Idle),
        ),
        (
            "/api/settings",
            r#"{"level": 2, "attitude": "rival", "language": "uk", "volume": 0.5,
                "announce_moves": "always", "coach_enabled": false, "hints_per_game": 5,
                "take_backs": false, "reset_board": true}"#,
            OperatorCommand::Adjust(Adjustment {
                level: Some(checkerbot_config::PlayLevel::Fixed(2)),
                attitude: Some(emotions::Attitude::Rival),
                language: Some(sounds::Language::Ukrainian),
                volume: Some(0.5),
                announce_moves: Some(emotions::AnnounceMoves::Always),
                coach_enabled: Some(false),
                hints_per_game: Some(5),
                take_backs: Some(false),
                reset_board: Some(true),
            }),
        ),
    ];
    for (path, body, command) in cases {
        let (status, json) = call(&app, "POST", path, Some(TOKEN), body).await;
        assert_eq!(status, StatusCode::OK, "{path}: {json}");
        assert_eq!(json["ok"], true, "{path}");
        assert_eq!(received.try_recv().unwrap(), command, "{path}");
    }
}

#[tokio::test(start_paused = true)]
async fn a_control_action_without_the_right_token_is_refused_and_changes_nothing() {
    let (app, mut received) = setup(Some(TOKEN), None);
    for path in [
        "/api/new-game",
        "/api/pause",
        "/api/resign",
        "/api/settings",
    ] {
        let (status, json) = call(&app, "POST", path, None, r#"{"level": 1}"#).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}");
        assert!(
            error_text(&json).contains("Authorization: Bearer"),
            "{json}"
        );
        let (status, json) = call(&app, "POST", path, Some("guessed-token"), "").await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{path}");
        assert!(error_text(&json).contains("operator.token"), "{json}");
    }
    assert!(received.try_recv().is_err(), "no command reached the robot");
}

#[tokio::test]
async fn another_sites_page_may_not_steer_the_robot() {
    let (app, mut received) = setup(None, None);
    let request = |origin: &str| {
        request("POST", "/api/new-game")
            .header(header::ORIGIN, origin)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::empty())
            .unwrap()
    };
    let refused = app
        .clone()
        .oneshot(request("http://evil.example"))
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    assert!(received.try_recv().is_err(), "no command reached the robot");
    let own = app.oneshot(request("http://127.0.0.1:8080")).await.unwrap();
    assert_eq!(own.status(), StatusCode::OK);
    assert_eq!(received.try_recv().unwrap(), OperatorCommand::NewGame);
}

#[tokio::test]
async fn without_a_configured_token_control_actions_are_open() {
    let (app, mut received) = setup(None, None);
    let (status, _) = call(&app, "POST", "/api/pause", None, "").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(received.try_recv().unwrap(), OperatorCommand::Pause);
}

#[tokio::test]
async fn malformed_requests_are_4xx_with_the_reason_and_change_nothing() {
    let (app, mut received) = setup(None, None);
    let cases = [
        ("/api/settings", "{level: 2", "malformed"),
        ("/api/settings", r#"{"levle": 2}"#, "levle"),
        ("/api/settings", r#"{"attitude": "nice"}"#, "friendly"),
        ("/api/settings", r#"{"language": "de"}"#, "en"),
        ("/api/settings", r#"{"level": "high"}"#, "level"),
        ("/api/settings", r#"{"level": 9}"#, "play.level"),
        ("/api/settings", r#"{"volume": 1.5}"#, "volume"),
        ("/api/new-game", r#"{"now": true}"#, "now"),
        ("/api/resolve", "{}", "move"),
        ("/api/voice", r#"{"category": "sing"}"#, "idle"),
    ];
    for (path, body, names) in cases {
        let (status, json) = call(&app, "POST", path, None, body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path} {body}: {json}");
        assert!(error_text(&json).contains(names), "{path} {body}: {json}");
    }
    let (status, json) = call(&app, "GET", "/api/new-game", None, "").await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert!(error_text(&json).contains("POST"), "{json}");
    let (status, json) = call(&app, "POST", "/api/reboot", None, "").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(error_text(&json).contains("new-game"), "{json}");
    let (status, json) = call(&app, "GET", "/api/secrets/list", None, "").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(error_text(&json).contains("/api/"), "{json}");
    assert!(received.try_recv().is_err(), "no command reached the robot");
}

#[tokio::test]
async fn a_command_the_robot_refuses_is_a_conflict_with_its_reason() {
    let (app, mut received) = setup(None, None);
    let (status, json) = call(&app, "POST", "/api/resign", None, "").await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(error_text(&json).contains("arm"), "{json}");
    assert_eq!(received.try_recv().unwrap(), OperatorCommand::Resign);
}

async fn settings(app: &Router, body: &str) -> (StatusCode, Value) {
    call(app, "POST", "/api/settings", None, body).await
}

#[tokio::test]
async fn settings_are_saved_only_when_asked_and_only_to_a_file() {
    // No file: saving is refused before anything is applied.
    let (app, mut received) = setup(None, None);
    let (status, json) = settings(&app, r#"{"level": 2, "save": true}"#).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(
        error_text(&json).contains("without a settings file"),
        "{json}"
    );
    assert!(received.try_recv().is_err());

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("checkerbot.toml");
    let original = "# the stand by the door\n[play]\nlevel = 3\nmove_time_ms = 1500\n";
    std::fs::write(&path, original).unwrap();
    let (app, _received) = setup(None, Some(path.clone()));
    // Applied without saving: the file stays as it was.
    let (status, json) = settings(&app, r#"{"level": 2}"#).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), original);
    // Saved: the page's keys change, the rest stays.
    let (status, json) = settings(&app, r#"{"level": 2, "save": true}"#).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(
        saved.starts_with("# the stand by the door\n[play]\nlevel = 2\nmove_time_ms = 1500\n"),
        "{saved}"
    );
    assert_eq!(
        checkerbot_config::load_with_env(Some(&path), [])
            .unwrap()
            .play
            .level,
        checkerbot_config::PlayLevel::Fixed(2)
    );
}

#[tokio::test]
async fn a_stopped_robot_is_reported() {
    let settings = checkerbot_config::Settings::default();
    let tracker = PageStateTracker::new(
        &settings,
        Position::new(Variant::Russian),
        false,
        None,
        String::new(),
    );
    let (commands, requests) = mpsc::unbounded_channel();
    drop(requests);
    let app = router(Arc::new(api(tracker, commands, None, None)));
    let (status, json) = call(&app, "POST", "/api/pause", None, "").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(error_text(&json).contains("stopped"), "{json}");
}
