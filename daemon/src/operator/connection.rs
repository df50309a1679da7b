//! The TCP connection a request came over: the client's address (whose wrong tokens are
//! counted) and this machine's address it reached (which a `Host` may name).

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};

use axum::extract::connect_info::Connected;
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::Extensions;
use axum::http::request::Parts;
use axum::serve::IncomingStream;
use tokio::net::TcpListener;

/// Both ends of a request's connection; requests made without a server (tower's `oneshot`)
/// have none.
#[derive(Debug, Clone, Copy)]
pub struct Connection {
    /// The client.
    pub remote: SocketAddr,
    /// This machine's address and port the client connected to.
    pub local: Option<SocketAddr>,
}

impl Connection {
    /// The connection of the request holding `extensions`.
    pub fn of(extensions: &Extensions) -> Option<Connection> {
        extensions
            .get::<ConnectInfo<Connection>>()
            .map(|info| info.0)
    }
}

impl Connected<IncomingStream<'_, TcpListener>> for Connection {
    fn connect_info(stream: IncomingStream<'_, TcpListener>) -> Connection {
        Connection {
            remote: *stream.remote_addr(),
            local: stream.io().local_addr().ok(),
        }
    }
}

/// The client's address, when the request came over a connection.
#[derive(Debug, Clone, Copy)]
pub struct ClientAddress(pub Option<IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddress {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<ClientAddress, Infallible> {
        Ok(ClientAddress(
            Connection::of(&parts.extensions).map(|connection| connection.remote.ip()),
        ))
    }
}
