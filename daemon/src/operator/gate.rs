//! The gate every request to the operator page passes before its route, and the headers every
//! answer carries.
//!
//! A request must name one of the hosts the page is served as ([`AllowedHosts`]), in its
//! `Host` and in its target when that is a whole URL: otherwise it is 421 on every route, views
//! included (DNS rebinding: a site that renamed itself to this machine still names itself). A
//! request a browser sends for another site's page (its `Origin` is not one of those hosts, or
//! `null`) is 403. Every answer, refusals included, forbids framing (clickjacking) and limits
//! the page to its own script, style and connections.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use checkerbot_config::HostName;

use super::allowed_hosts::AllowedHosts;
use super::connection::Connection;
use super::error_answer::error;

/// The page's own script, style, images and connections, nothing inline, no framing, no forms
/// sent elsewhere.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; \
     form-action 'self'; frame-ancestors 'none'";

/// Headers on every answer.
const SECURITY_HEADERS: [(&str, &str); 5] = [
    ("content-security-policy", CONTENT_SECURITY_POLICY),
    // For browsers older than `frame-ancestors`.
    ("x-frame-options", "DENY"),
    ("x-content-type-options", "nosniff"),
    // The page's address never travels to another site.
    ("referrer-policy", "no-referrer"),
    // Another site's page cannot load the state as a script or an image.
    ("cross-origin-resource-policy", "same-origin"),
];

/// The most of a refused `Host` a refusal repeats.
const SHOWN_HOST_LEN: usize = 100;

/// Lets a request through to its route when it names this page, and adds the security headers
/// to whatever answers it.
pub async fn gate(
    State(hosts): State<Arc<AllowedHosts>>,
    request: Request,
    next: Next,
) -> Response {
    let local = Connection::of(request.extensions()).and_then(|connection| connection.local);
    let mut response = match admit(&hosts, &request, local) {
        Ok(()) => next.run(request).await,
        Err((status, message)) => error(status, message),
    };
    let headers = response.headers_mut();
    for (name, value) in SECURITY_HEADERS {
        headers.insert(
            HeaderName::from_static(name),
            HeaderValue::from_static(value),
        );
    }
    response
}

/// A refusal's status and what it says.
type Refusal = (StatusCode, String);

/// The refusal of a request that does not name this page or comes from another site's page.
fn admit(
    hosts: &AllowedHosts,
    request: &Request,
    local: Option<std::net::SocketAddr>,
) -> Result<(), Refusal> {
    let headers = request.headers();
    let host = only_host(headers);
    let names_this_page =
        |text: &str| HostName::parse(text).is_ok_and(|host| hosts.allows(&host, 80, local));
    let target_ok = request
        .uri()
        .authority()
        .is_none_or(|authority| names_this_page(authority.as_str()));
    if !(host.is_some_and(names_this_page) && target_ok) {
        tracing::debug!("the operator page refused a request for host {host:?}");
        return Err(misdirected(hosts, host));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("(unreadable)");
        if !origin_is_this_page(hosts, origin, local) {
            return Err(foreign_origin(hosts, origin));
        }
    }
    Ok(())
}

/// The one `Host` header, as text; `None` when there is none, more than one, or it is not text.
fn only_host(headers: &HeaderMap) -> Option<&str> {
    let mut hosts = headers.get_all(header::HOST).iter();
    match (hosts.next(), hosts.next()) {
        (Some(host), None) => host.to_str().ok(),
        _ => None,
    }
}

/// Whether `origin` (`http://127.0.0.1:8080`) is one of the page's hosts.
fn origin_is_this_page(
    hosts: &AllowedHosts,
    origin: &str,
    local: Option<std::net::SocketAddr>,
) -> bool {
    let Some((scheme, host)) = origin.split_once("://") else {
        return false;
    };
    let default_port = match scheme.to_ascii_lowercase().as_str() {
        "http" => 80,
        "https" => 443,
        _ => return false,
    };
    HostName::parse(host).is_ok_and(|host| hosts.allows(&host, default_port, local))
}

fn misdirected(hosts: &AllowedHosts, host: Option<&str>) -> Refusal {
    let named = match host {
        Some(host) if !host.trim().is_empty() => {
            let shown: String = host.chars().take(SHOWN_HOST_LEN).collect();
            format!("is not served as {shown:?}")
        }
        _ => "needs a request that names its host (a `Host` header)".to_owned(),
    };
    (
        StatusCode::MISDIRECTED_REQUEST,
        format!(
            "this operator page {named}: it answers requests for {}, or for this machine's IP \
             address the request reached; to reach it by another name, add that name to \
             operator.hostnames in the robot's settings file",
            hosts.names()
        ),
    )
}

fn foreign_origin(hosts: &AllowedHosts, origin: &str) -> Refusal {
    let from = if origin == "null" {
        "a page without an origin of its own (`Origin: null`: a sandboxed frame, a local file \
         or a redirect)"
            .to_owned()
    } else {
        let shown: String = origin.chars().take(SHOWN_HOST_LEN).collect();
        format!("a page from {shown}")
    };
    (
        StatusCode::FORBIDDEN,
        format!(
            "{from} may not use the operator page: open the page itself, at {}",
            hosts.names()
        ),
    )
}
