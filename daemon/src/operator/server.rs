//! Starting the operator page beside a robot: the channel for commands, the observer for the
//! page's state, and the HTTP server on its own task.

use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context as _;
use checkerbot_config::HostName;
use hal::device::{BoardLights, BoardSensor, Face};
use tokio::sync::mpsc;

use super::allowed_hosts::AllowedHosts;
use super::api::{Api, router};
use super::connection::Connection;
use super::feed::{Feed, Hub, follow_visible_state};
use super::page_state::PageStateTracker;
use super::token::{OperatorToken, WrongTokens};
use crate::robot::{PieceMover, Robot};
use crate::state::utc_date;

/// Where and how the page is served.
#[derive(Clone)]
pub struct PageConfig {
    /// Address and port (port 0: any free one).
    pub bind: SocketAddr,
    /// The token control actions need, if any.
    pub token: Option<String>,
    /// The other names the page is reached by (`operator.hostnames`).
    pub hostnames: Vec<String>,
    /// The settings file to write settings back to, if the robot has one.
    pub settings_file: Option<PathBuf>,
}

/// Written without the token.
impl fmt::Debug for PageConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PageConfig")
            .field("bind", &self.bind)
            .field("token", &self.token.as_ref().map(|_| "(set)"))
            .field("hostnames", &self.hostnames)
            .field("settings_file", &self.settings_file)
            .finish()
    }
}

/// Serves the operator page for `robot`, whose settings are `settings`; returns the address it
/// listens on. Refused without a token on an address other machines can reach.
pub async fn serve_page<B, M>(
    robot: &mut Robot<B, M>,
    settings: &checkerbot_config::Settings,
    config: PageConfig,
) -> anyhow::Result<SocketAddr>
where
    B: BoardSensor + BoardLights + Face + Send,
    M: PieceMover,
{
    if !config.bind.ip().is_loopback() && config.token.is_none() {
        anyhow::bail!(
            "the operator page on {} would let anyone on the network steer the robot: set \
             operator.token in the settings file, or serve it on 127.0.0.1",
            config.bind
        );
    }
    let hostnames = config
        .hostnames
        .iter()
        .map(|name| {
            HostName::parse(name)
                .map_err(|err| anyhow::anyhow!("operator.hostnames: {name:?} {err}"))
        })
        .collect::<anyhow::Result<Vec<HostName>>>()?;
    let listener = tokio::net::TcpListener::bind(config.bind)
        .await
        .with_context(|| format!("serving the operator page on {}", config.bind))?;
    let address = listener.local_addr()?;
    let hosts = Arc::new(AllowedHosts::new(address, &hostnames));
    let stage = robot.visible_state();
    let position = stage.borrow().position;
    let tracker = PageStateTracker::new(
        settings,
        position,
        config.token.is_some(),
        config
            .settings_file
            .as_ref()
            .map(|path| path.display().to_string()),
        utc_date(std::time::SystemTime::now()),
    );
    let hub = Arc::new(Hub::new(tracker));
    let (commands, requests) = mpsc::unbounded_channel();
    robot.operate_from(requests, settings.clone());
    robot.observe(Box::new(Feed(Arc::clone(&hub))));
    tokio::spawn(follow_visible_state(Arc::clone(&hub), stage));
    let api = Arc::new(Api {
        hub,
        commands,
        token: config.token.map(OperatorToken::new),
        wrong_tokens: WrongTokens::default(),
        settings_file: config.settings_file,
        hosts,
    });
    let app = router(api).into_make_service_with_connect_info::<Connection>();
    tokio::spawn(async move {
        if let Err(err) = axum::serve(listener, app).await {
            tracing::warn!("the operator page stopped: {err}");
        }
    });
    Ok(address)
}
