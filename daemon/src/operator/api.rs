//! The operator page's HTTP interface: the page itself, its state, a stream of updates, and the
//! control actions.
//!
//! Every request first passes the gate ([`super::gate`]): it must name the page's host and not
//! come from another site's page. Viewing then needs nothing more. A control action takes JSON
//! only (`Content-Type: application/json`, 415 otherwise, so another site's form cannot send
//! one) and needs `Authorization: Bearer <token>` when a token is configured: 401 without one,
//! 403 with a wrong one (answered slowly; 429 after many, see [`super::token`]). A body that is
//! not what the action takes is 400, an action that makes no sense now 409; each error is JSON
//! (`{"error": ...}`) that says what is wrong, and none of them changes anything.

use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Path, Request as HttpRequest, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures::Stream;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::json;
use tokio::sync::{broadcast, mpsc, oneshot};

use super::allowed_hosts::AllowedHosts;
use super::connection::ClientAddress;
use super::error_answer::error;
use super::feed::Hub;
use super::gate::gate;
use super::settings_file::write_back;
use super::token::{OperatorToken, WRONG_TOKEN_DELAY, WrongTokens};
use crate::robot::{Adjustment, OperatorCommand, Request};

/// What the handlers share.
#[derive(Debug)]
pub struct Api {
    /// The page's state.
    pub hub: Arc<Hub>,
    /// The robot's operator channel.
    pub commands: mpsc::UnboundedSender<Request>,
    /// The token control actions need, if any.
    pub token: Option<OperatorToken>,
    /// The wrong tokens each client sent.
    pub wrong_tokens: WrongTokens,
    /// The settings file settings are written back to, if the robot has one.
    pub settings_file: Option<PathBuf>,
    /// The hosts the page is served as.
    pub hosts: Arc<AllowedHosts>,
}

/// Every route of the page, behind the gate.
pub fn router(api: Arc<Api>) -> Router {
    let hosts = Arc::clone(&api.hosts);
    Router::new()
        .route("/", get(page))
        .route("/page.css", get(css))
        .route("/page.js", get(js))
        .route("/api/state", get(state))
        .route("/api/events", get(events))
        .route("/api/resolve", post(resolve))
        .route("/api/voice", post(voice))
        .route("/api/settings", post(settings))
        .route("/api/set-up", post(set_up))
        // new-game, pause, go-on, resign, take-back, park: actions without parameters.
        .route("/api/{action}", post(simple))
        .fallback(not_found)
        .method_not_allowed_fallback(wrong_method)
        .with_state(api)
        .layer(middleware::from_fn_with_state(hosts, gate))
}

/// A request refused before or by the robot; answered as [`error`].
#[derive(Debug)]
struct Rejection(StatusCode, String);

impl IntoResponse for Rejection {
    fn into_response(self) -> Response {
        error(self.0, self.1)
    }
}

type Answer = Result<Response, Rejection>;

async fn not_found() -> Response {
    error(
        StatusCode::NOT_FOUND,
        "no such page; the operator page is at /, its API under /api/",
    )
}

async fn wrong_method() -> Response {
    error(
        StatusCode::METHOD_NOT_ALLOWED,
        "wrong method: views are GET, control actions POST",
    )
}

async fn page() -> Response {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        include_str!("page.html"),
    )
        .into_response()
}

async fn css() -> Response {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("page.css"),
    )
        .into_response()
}

async fn js() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("page.js"),
    )
        .into_response()
}

async fn state(State(api): State<Arc<Api>>) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        api.hub.state_json(),
    )
        .into_response()
}

/// The state now, then every update; a page that falls behind gets the whole state again.
async fn events(State(api): State<Arc<Api>>) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let updates = api.hub.subscribe();
    let first = Event::default().event("state").data(api.hub.state_json());
    let hub = Arc::clone(&api.hub);
    let rest = futures::stream::unfold((updates, hub), |(mut updates, hub)| async move {
        let event = match updates.recv().await {
            Ok(update) => Event::default().event(update.kind).data(&*update.data),
            Err(broadcast::error::RecvError::Lagged(_)) => {
                Event::default().event("state").data(hub.state_json())
            }
            Err(broadcast::error::RecvError::Closed) => return None,
        };
        Some((Ok::<Event, Infallible>(event), (updates, hub)))
    });
    let stream = futures::StreamExt::chain(futures::stream::once(async { Ok(first) }), rest);
    Sse::new(stream).keep_alive(KeepAlive::default())
}

/// Refuses a control action that is not JSON, or without the right token; a wrong token is
/// answered after [`WRONG_TOKEN_DELAY`], and a client that sent too many waits.
async fn authorize(api: &Api, client: ClientAddress, headers: &HeaderMap) -> Result<(), Rejection> {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .map(|value| value.to_str().unwrap_or("(unreadable)"));
    let is_json = content_type.is_some_and(|value| {
        let essence = value.split(';').next().unwrap_or_default().trim();
        essence.eq_ignore_ascii_case("application/json")
    });
    if !is_json {
        let sent = content_type.map_or_else(|| "none".to_owned(), |value| format!("{value:?}"));
        return Err(Rejection(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!(
                "control actions take JSON: send `Content-Type: application/json` (this request \
                 sent {sent}), with a JSON object or nothing as the body"
            ),
        ));
    }
    let Some(token) = &api.token else {
        return Ok(());
    };
    let Some(given) = headers.get(header::AUTHORIZATION) else {
        return Err(Rejection(
            StatusCode::UNAUTHORIZED,
            "control actions need the operator token: send `Authorization: Bearer <token>` (the page asks for it)".to_owned(),
        ));
    };
    let ClientAddress(address) = client;
    if let Some(wait) = api.wrong_tokens.wait(address) {
        return Err(Rejection(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "too many wrong operator tokens from this address: try again in {} s",
                wait.as_secs().max(1)
            ),
        ));
    }
    let given = given.to_str().unwrap_or_default();
    let given = given.strip_prefix("Bearer ").unwrap_or_default();
    if !token.is(given) {
        api.wrong_tokens.strike(address);
        // In this request's task: the robot and every other request go on meanwhile.
        tokio::time::sleep(WRONG_TOKEN_DELAY).await;
        return Err(Rejection(
            StatusCode::FORBIDDEN,
            "wrong operator token: it is `operator.token` in the robot's settings file".to_owned(),
        ));
    }
    api.wrong_tokens.clear(address);
    Ok(())
}

/// The action's body: empty means `{}`; anything else must be the action's JSON object.
fn body<T: DeserializeOwned>(bytes: &Bytes) -> Result<T, Rejection> {
    let text: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        bytes
    };
    let mut json = serde_json::Deserializer::from_slice(text);
    serde_path_to_error::deserialize(&mut json).map_err(|err| {
        let path = err.path().to_string();
        let at = if path == "." {
            String::new()
        } else {
            format!(" at `{path}`")
        };
        Rejection(
            StatusCode::BAD_REQUEST,
            format!("malformed request body{at}: {}", err.inner()),
        )
    })
}

/// A control action's request, `T` its JSON body: extracting it is the check every control
/// action makes first ([`authorize`], then [`body`]), so no handler can forget it.
struct Control<T>(T);

impl<T: DeserializeOwned> FromRequest<Arc<Api>> for Control<T> {
    type Rejection = Rejection;

    async fn from_request(request: HttpRequest, api: &Arc<Api>) -> Result<Control<T>, Rejection> {
        let (mut parts, content) = request.into_parts();
        let Ok(client) = ClientAddress::from_request_parts(&mut parts, api).await;
        authorize(api, client, &parts.headers).await?;
        let bytes = Bytes::from_request(HttpRequest::from_parts(parts, content), api)
            .await
            .map_err(|err| Rejection(err.status(), err.body_text()))?;
        Ok(Control(body(&bytes)?))
    }
}

/// No fields: an action without parameters refuses any it is sent, so a typo is noticed.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Nothing {}

/// Sends `command` to the robot and answers with its outcome.
async fn ask(api: &Api, command: OperatorCommand) -> Result<crate::robot::Done, Rejection> {
    let (reply, answer) = oneshot::channel();
    let stopped = || {
        Rejection(
            StatusCode::SERVICE_UNAVAILABLE,
            "the robot's game loop has stopped".to_owned(),
        )
    };
    api.commands
        .send(Request { command, reply })
        .map_err(|_| stopped())?;
    match answer.await.map_err(|_| stopped())? {
        Ok(done) => Ok(done),
        Err(refused) => Err(Rejection(StatusCode::CONFLICT, refused.0)),
    }
}

fn ok(message: &str) -> Response {
    axum::Json(json!({ "ok": true, "message": message })).into_response()
}

/// The command of a control action without parameters, named by the last part of its path: an
/// unknown name is answered 404 before anything else is looked at.
struct SimpleAction(OperatorCommand);

impl FromRequestParts<Arc<Api>> for SimpleAction {
    type Rejection = Rejection;

    async fn from_request_parts(
        parts: &mut Parts,
        api: &Arc<Api>,
    ) -> Result<SimpleAction, Rejection> {
        let Path(action) = Path::<String>::from_request_parts(parts, api)
            .await
            .map_err(|err| Rejection(err.status(), err.body_text()))?;
        let command = match action.as_str() {
            "new-game" => OperatorCommand::NewGame,
            "pause" => OperatorCommand::Pause,
            "go-on" => OperatorCommand::GoOn,
            "resign" => OperatorCommand::Resign,
            "take-back" => OperatorCommand::TakeBack,
            "park" => OperatorCommand::Park,
            _ => {
                return Err(Rejection(
                    StatusCode::NOT_FOUND,
                    format!(
                        "no action {action:?}: the actions are new-game, pause, go-on, resign, \
                         take-back, park, resolve, voice, settings and set-up"
                    ),
                ));
            }
        };
        Ok(SimpleAction(command))
    }
}

/// A control action without parameters.
async fn simple(
    State(api): State<Arc<Api>>,
    SimpleAction(command): SimpleAction,
    Control(Nothing {}): Control<Nothing>,
) -> Answer {
    Ok(ok(&ask(&api, command).await?.message))
}

/// `{"move": "<label>"}`: one of the page's `choices`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Resolve {
    #[serde(rename = "move")]
    mv: String,
}

async fn resolve(State(api): State<Arc<Api>>, Control(request): Control<Resolve>) -> Answer {
    Ok(ok(&ask(&api, OperatorCommand::Resolve(request.mv))
        .await?
        .message))
}

/// `{"category": "idle"}`: a line category of the voice packs.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Voice {
    category: emotions::Category,
}

async fn voice(State(api): State<Arc<Api>>, Control(request): Control<Voice>) -> Answer {
    Ok(ok(&ask(&api, OperatorCommand::TestVoice(request.category))
        .await?
        .message))
}

/// The robot's colour in a game set up from a position.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Side {
    White,
    Black,
}

/// `{"fen": "W:Wc3,Kd4:Bf6,e5", "robot": "black"}`: the position for the next game, and the
/// robot's colour in it (by default the settings' colour, or the side not to move when colours
/// alternate).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SetUp {
    fen: String,
    robot: Option<Side>,
}

async fn set_up(State(api): State<Arc<Api>>, Control(request): Control<SetUp>) -> Answer {
    let robot = request.robot.map(|side| match side {
        Side::White => rules::Color::White,
        Side::Black => rules::Color::Black,
    });
    let command = OperatorCommand::SetUp {
        fen: request.fen,
        robot,
    };
    Ok(ok(&ask(&api, command).await?.message))
}

/// The settings to change (any of them), and whether to write them into the settings file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Settings {
    level: Option<checkerbot_config::PlayLevel>,
    attitude: Option<emotions::Attitude>,
    language: Option<sounds::Language>,
    volume: Option<f32>,
    announce_moves: Option<emotions::AnnounceMoves>,
    coach_enabled: Option<bool>,
    hints_per_game: Option<u32>,
    take_backs: Option<bool>,
    reset_board: Option<bool>,
    #[serde(default)]
    save: bool,
}

async fn settings(State(api): State<Arc<Api>>, Control(request): Control<Settings>) -> Answer {
    if request.save && api.settings_file.is_none() {
        return Err(Rejection(
            StatusCode::CONFLICT,
            "nothing changed: the robot runs without a settings file, so there is none to save \
             to (start it with --config FILE, or apply without saving)"
                .to_owned(),
        ));
    }
    let adjustment = Adjustment {
        level: request.level,
        attitude: request.attitude,
        language: request.language,
        volume: request.volume,
        announce_moves: request.announce_moves,
        coach_enabled: request.coach_enabled,
        hints_per_game: request.hints_per_game,
        take_backs: request.take_backs,
        reset_board: request.reset_board,
    };
    // Values out of range are the request's fault, whatever the robot runs with now.
    let problems = adjustment
        .applied_to(&checkerbot_config::Settings::default())
        .validate();
    if !problems.is_empty() {
        let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
        return Err(Rejection(StatusCode::BAD_REQUEST, text.join("; ")));
    }
    let done = ask(&api, OperatorCommand::Adjust(adjustment)).await?;
    let (Some(path), true, Some(applied)) = (&api.settings_file, request.save, &done.settings)
    else {
        return Ok(ok("applied (not saved to the settings file)"));
    };
    match write_back(path, applied) {
        Ok(()) => Ok(ok(&format!("applied and saved to {}", path.display()))),
        Err(err) => Err(Rejection(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("applied now, but not saved: {err:#}"),
        )),
    }
}
