//! What another web site, or someone guessing the token, tries against the operator page
//! (tower's `oneshot`; `daemon/tests/it/operator_attacks.rs` tries it over a real socket and in
//! a browser): a rebound `Host`, another site's `Origin`, a form or `text/plain` body, framing,
//! guessing. Each is refused, says why, and reaches the robot never.

use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::http::HeaderValue;
use checkerbot_config::HostName;
use tokio::time::Instant;

use super::super::connection::Connection;
use super::super::gate::CONTENT_SECURITY_POLICY;
use super::super::token::{FORGIVEN_EVERY, WRONG_TOKEN_DELAY, WRONG_TOKENS_ALLOWED};
use super::*;

/// Every route, with a request a browser could send to it.
const ROUTES: [(&str, &str); 12] = [
    ("GET", "/"),
    ("GET", "/page.js"),
    ("GET", "/page.css"),
    ("GET", "/api/state"),
    ("GET", "/api/events"),
    ("GET", "/favicon.ico"),
    ("POST", "/api/new-game"),
    ("POST", "/api/resign"),
    ("POST", "/api/park"),
    ("POST", "/api/settings"),
    ("POST", "/api/voice"),
    ("POST", "/api/resolve"),
];

/// The `Host`s of a rebinding attack, and of requests that name no host.
const REBOUND_HOSTS: [Option<&str>; 8] = [
    Some("evil.example:8080"),
    Some("evil.example"),
    Some("127.0.0.1.evil.example:8080"),
    Some("localhost.evil.example:8080"),
    // Another machine's address.
    Some("192.168.1.99:8080"),
    Some(""),
    Some("127.0.0.1:8080@evil.example"),
    None,
];

/// A control request as the page sends it, but for `host`.
fn for_host(method: &str, path: &str, host: Option<&str>) -> HttpRequest<Body> {
    let mut request = HttpRequest::builder()
        .method(method)
        .uri(path)
        .header(header::CONTENT_TYPE, "application/json");
    if let Some(host) = host {
        request = request.header(header::HOST, host);
    }
    request.body(Body::from("{}")).unwrap()
}

/// `request` as if it came from `client` to the page's address `local`.
fn over_connection(mut request: HttpRequest<Body>, client: &str, local: &str) -> HttpRequest<Body> {
    request.extensions_mut().insert(ConnectInfo(Connection {
        remote: client.parse::<SocketAddr>().unwrap(),
        local: Some(local.parse().unwrap()),
    }));
    request
}

#[tokio::test]
async fn a_rebound_or_missing_host_is_refused_on_every_route_with_the_names_it_accepts() {
    let (app, mut received) = setup(None, None);
    for host in REBOUND_HOSTS {
        for (method, path) in ROUTES {
            let (status, json) = answer(&app, for_host(method, path, host)).await;
            assert_eq!(
                status,
                StatusCode::MISDIRECTED_REQUEST,
                "{method} {path} for {host:?}: {json}"
            );
            let text = error_text(&json);
            assert!(
                text.contains("127.0.0.1:8080, localhost:8080, [::1]:8080"),
                "{text}"
            );
            assert!(text.contains("operator.hostnames"), "{text}");
        }
    }
    // Two `Host`s, or a whole URL naming another host, are no better.
    let mut twice = for_host("POST", "/api/park", Some(PAGE));
    twice
        .headers_mut()
        .append(header::HOST, HeaderValue::from_static("evil.example:8080"));
    assert_eq!(answer(&app, twice).await.0, StatusCode::MISDIRECTED_REQUEST);
    let whole_url = for_host("POST", "http://evil.example:8080/api/park", Some(PAGE));
    assert_eq!(
        answer(&app, whole_url).await.0,
        StatusCode::MISDIRECTED_REQUEST
    );
    assert!(received.try_recv().is_err(), "no command reached the robot");
}

#[tokio::test]
async fn the_page_answers_to_its_address_the_loopback_names_and_the_listed_names() {
    let (app, _) = setup(None, None);
    for host in [
        "127.0.0.1:8080",
        "localhost:8080",
        "LocalHost.:8080",
        "[::1]:8080",
    ] {
        let (status, json) = answer(&app, for_host("GET", "/api/state", Some(host))).await;
        assert_eq!(status, StatusCode::OK, "{host}: {json}");
    }
    // On every interface: the address the request reached, and the operator's names.
    let robot_local = HostName::parse("robot.local").unwrap();
    let hosts = AllowedHosts::new("0.0.0.0:8080".parse().unwrap(), &[robot_local]);
    let (app, mut received) = setup_served_as(hosts, None, None);
    let from_lan = |host| {
        over_connection(
            for_host("POST", "/api/park", Some(host)),
            "192.168.1.30:50000",
            "192.168.1.20:8080",
        )
    };
    for host in ["192.168.1.20:8080", "robot.local:8080", "localhost:8080"] {
        let (status, json) = answer(&app, from_lan(host)).await;
        assert_eq!(status, StatusCode::OK, "{host}: {json}");
        assert_eq!(received.try_recv().unwrap(), OperatorCommand::Park);
    }
    for host in [
        "192.168.1.99:8080",
        "robot.example:8080",
        "192.168.1.20:9090",
    ] {
        let (status, json) = answer(&app, from_lan(host)).await;
        assert_eq!(status, StatusCode::MISDIRECTED_REQUEST, "{host}: {json}");
        assert!(
            error_text(&json).contains("robot.local:8080"),
            "{host}: {json}"
        );
    }
    assert!(received.try_recv().is_err());
}

#[tokio::test]
async fn another_sites_origin_or_none_is_refused_on_every_route() {
    let (app, mut received) = setup(None, None);
    for origin in [
        "http://evil.example:8080",
        "http://127.0.0.1.evil.example:8080",
        // Another port on this machine is another site.
        "http://127.0.0.1:9090",
        "http://evil.example",
        "null",
        "file://",
    ] {
        for (method, path) in ROUTES {
            let mut request = for_host(method, path, Some(PAGE));
            request
                .headers_mut()
                .insert(header::ORIGIN, HeaderValue::from_str(origin).unwrap());
            let (status, json) = answer(&app, request).await;
            assert_eq!(
                status,
                StatusCode::FORBIDDEN,
                "{method} {path} from {origin}"
            );
            assert!(
                error_text(&json).contains("may not use the operator page"),
                "{json}"
            );
        }
    }
    assert!(received.try_recv().is_err(), "no command reached the robot");
    for origin in ["http://127.0.0.1:8080", "http://localhost:8080"] {
        let mut request = for_host("POST", "/api/pause", Some(PAGE));
        request
            .headers_mut()
            .insert(header::ORIGIN, HeaderValue::from_str(origin).unwrap());
        assert_eq!(answer(&app, request).await.0, StatusCode::OK, "{origin}");
        assert_eq!(received.try_recv().unwrap(), OperatorCommand::Pause);
    }
}

#[tokio::test]
async fn a_control_takes_json_only_so_a_form_or_text_is_refused_naming_the_type() {
    let (app, mut received) = setup(None, None);
    for content_type in [
        Some("text/plain"),
        Some("text/plain;charset=UTF-8"),
        Some("application/x-www-form-urlencoded"),
        Some("multipart/form-data; boundary=x"),
        Some("application/jsonp"),
        None,
    ] {
        for path in ["/api/settings", "/api/new-game", "/api/resign"] {
            let mut request = request("POST", path);
            if let Some(content_type) = content_type {
                request = request.header(header::CONTENT_TYPE, content_type);
            }
            let (status, json) =
                answer(&app, request.body(Body::from(r#"{"level": 2}"#)).unwrap()).await;
            assert_eq!(
                status,
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "{path} as {content_type:?}"
            );
            assert!(
                error_text(&json).contains("Content-Type: application/json"),
                "{json}"
            );
        }
    }
    assert!(received.try_recv().is_err(), "no command reached the robot");
    let request = request("POST", "/api/settings")
        .header(header::CONTENT_TYPE, "Application/JSON; charset=utf-8")
        .body(Body::from(r#"{"level": 2}"#))
        .unwrap();
    assert_eq!(answer(&app, request).await.0, StatusCode::OK);
}

#[tokio::test]
async fn every_answer_forbids_framing_and_foreign_scripts() {
    let (app, _) = setup(Some(TOKEN), None);
    let mut requests = Vec::new();
    for (method, path) in ROUTES {
        requests.push(for_host(method, path, Some(PAGE)));
        requests.push(for_host(method, path, Some("evil.example")));
    }
    // 405, 401, 415 and 200 answers.
    requests.push(for_host("GET", "/api/park", Some(PAGE)));
    requests.push(request("POST", "/api/park").body(Body::empty()).unwrap());
    let mut authorized = for_host("POST", "/api/pause", Some(PAGE));
    authorized.headers_mut().insert(
        header::AUTHORIZATION,
        HeaderValue::from_str(&format!("Bearer {TOKEN}")).unwrap(),
    );
    requests.push(authorized);
    let mut statuses = std::collections::BTreeSet::new();
    for request in requests {
        let said = format!("{} {}", request.method(), request.uri());
        let response = app.clone().oneshot(request).await.unwrap();
        statuses.insert(response.status().as_u16());
        let headers = response.headers();
        let policy = headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
        assert_eq!(policy, CONTENT_SECURITY_POLICY, "{said}");
        assert!(policy.contains("frame-ancestors 'none'"), "{said}");
        assert!(policy.contains("script-src 'self'"), "{said}");
        assert!(!policy.contains("unsafe-inline"), "{said}");
        assert_eq!(headers[header::X_FRAME_OPTIONS], "DENY", "{said}");
        assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff", "{said}");
        assert_eq!(headers[header::REFERRER_POLICY], "no-referrer", "{said}");
    }
    for status in [200, 401, 404, 405, 415, 421] {
        assert!(statuses.contains(&status), "no {status} among {statuses:?}");
    }
}

#[test]
fn the_page_has_nothing_inline_that_its_policy_would_block() {
    let html = include_str!("../page.html").to_ascii_lowercase();
    let js = include_str!("../page.js");
    for script in html.split("<script").skip(1) {
        let tag = &script[..script.find('>').unwrap()];
        assert!(
            tag.contains("src=\"/"),
            "an inline or foreign script: <script{tag}>"
        );
    }
    assert!(!html.contains("<style"), "an inline style sheet");
    assert!(!html.contains(" style="), "an inline style attribute");
    let handler = html.split(" on").skip(1).find(|rest| {
        let name_len = rest.bytes().take_while(u8::is_ascii_lowercase).count();
        name_len > 0 && rest[name_len..].starts_with('=')
    });
    assert_eq!(handler, None, "an inline event handler");
    assert!(!html.contains("http://") && !html.contains("https://"));
    for blocked in [
        "eval(",
        "new Function",
        "setAttribute(\"style\"",
        "cssText",
        "javascript:",
    ] {
        assert!(!js.contains(blocked), "page.js uses {blocked}");
    }
}

#[test]
fn the_token_never_travels_in_the_pages_address() {
    // The page keeps the token in the browser's storage and sends it in a header only.
    let js = include_str!("../page.js");
    assert!(js.contains("headers.Authorization = `Bearer ${token}`"));
    for leak in ["token=", "?token", "location", "history."] {
        assert!(!js.contains(leak), "page.js: {leak}");
    }
}

/// A settings change from `client` with `token`, and how long its answer took.
async fn from_client(app: &Router, client: &str, token: &str) -> (StatusCode, Value, Duration) {
    let request = request("POST", "/api/pause")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .body(Body::empty())
        .unwrap();
    let started = Instant::now();
    let (status, json) = answer(app, over_connection(request, client, PAGE)).await;
    (status, json, started.elapsed())
}

#[tokio::test(start_paused = true)]
async fn a_guessed_token_is_answered_slowly_then_not_at_all_and_others_go_on() {
    let (app, mut received) = setup(Some(TOKEN), None);
    let guesser = "127.0.0.1:40000";
    let mut guesses = 0;
    // One guess after another: each takes a second, and ten a minute are forgiven.
    loop {
        let guess = format!("guess-{guesses}-of-the-token");
        let (status, json, took) = from_client(&app, guesser, &guess).await;
        assert!(
            !json.to_string().contains(&guess),
            "the guess is not repeated"
        );
        if status == StatusCode::TOO_MANY_REQUESTS {
            assert!(error_text(&json).contains("try again in"), "{json}");
            assert!(took < WRONG_TOKEN_DELAY);
            break;
        }
        assert_eq!(status, StatusCode::FORBIDDEN, "{json}");
        assert!(took >= WRONG_TOKEN_DELAY, "answered after {took:?}");
        guesses += 1;
        assert!(
            guesses <= 2 * WRONG_TOKENS_ALLOWED,
            "never stopped guessing"
        );
    }
    assert!(guesses >= WRONG_TOKENS_ALLOWED, "stopped after {guesses}");
    // Now even the right token is not looked at from the guesser's address.
    let (status, json, _) = from_client(&app, guesser, TOKEN).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{json}");
    assert!(received.try_recv().is_err(), "no command reached the robot");
    // Another client is not held up.
    let (status, json, took) = from_client(&app, "192.168.1.30:50000", TOKEN).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert!(took < WRONG_TOKEN_DELAY);
    assert_eq!(received.try_recv().unwrap(), OperatorCommand::Pause);
    // Once a guess is forgiven the right token works again.
    tokio::time::advance(FORGIVEN_EVERY).await;
    let (status, json, _) = from_client(&app, guesser, TOKEN).await;
    assert_eq!(status, StatusCode::OK, "{json}");
}

#[tokio::test(start_paused = true)]
async fn while_a_wrong_token_waits_the_robot_and_other_clients_are_answered() {
    let (app, mut received) = setup(Some(TOKEN), None);
    let guessing = {
        let app = app.clone();
        tokio::spawn(async move { from_client(&app, "127.0.0.1:40000", "wrong-token").await })
    };
    tokio::task::yield_now().await;
    let (status, _, took) = from_client(&app, "127.0.0.1:40001", TOKEN).await;
    assert_eq!(status, StatusCode::OK);
    assert!(took < WRONG_TOKEN_DELAY, "answered after {took:?}");
    assert!(!guessing.is_finished(), "the guess is still waiting");
    assert_eq!(received.try_recv().unwrap(), OperatorCommand::Pause);
    assert_eq!(guessing.await.unwrap().0, StatusCode::FORBIDDEN);
}
