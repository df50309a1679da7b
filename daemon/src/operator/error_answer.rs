//! The one shape of every refusal the page answers, from the gate or a route: a status and a
//! JSON body (`{"error": ...}`) that says what is wrong.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// An error answer: the status and a JSON body naming what is wrong.
pub(super) fn error(status: StatusCode, message: impl Into<String>) -> Response {
    (status, axum::Json(json!({ "error": message.into() }))).into_response()
}
