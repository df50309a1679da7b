//! From the robot to the page: an [`Observer`] that folds every event into the page's state and
//! passes it on to the pages watching (server-sent events), and a task that does the same for
//! changes of the robot's visible state (the board after a scan, what it waits for).

use std::sync::{Arc, Mutex};

use emotions::Millis;
use serde_json::json;
use tokio::sync::{broadcast, watch};

use super::page_state::PageStateTracker;
use crate::robot::{EventContext, Observer, VisibleState};
use crate::state::utc_date;
use host::LogEvent;

/// How many updates a slow page may fall behind before it is told to reload the whole state.
pub const BACKLOG: usize = 256;

/// One server-sent event: `log` (an event of the event log, as written there) or `state` (the
/// page's whole state).
#[derive(Debug, Clone)]
pub struct Update {
    /// The event name.
    pub kind: &'static str,
    /// Its JSON.
    pub data: Arc<str>,
}

/// The page's state and the pages that follow it.
#[derive(Debug)]
pub struct Hub {
    tracker: Mutex<PageStateTracker>,
    updates: broadcast::Sender<Update>,
}

impl Hub {
    /// A hub starting from `tracker`.
    pub fn new(tracker: PageStateTracker) -> Hub {
        Hub {
            tracker: Mutex::new(tracker),
            updates: broadcast::channel(BACKLOG).0,
        }
    }

    /// The state as JSON now.
    pub fn state_json(&self) -> String {
        let tracker = self
            .tracker
            .lock()
            .expect("the page state is never left half-written");
        serde_json::to_string(tracker.state()).expect("the page state serialises")
    }

    /// Updates from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Update> {
        self.updates.subscribe()
    }

    /// Changes the state with `change` and sends it to every page.
    fn change(&self, change: impl FnOnce(&mut PageStateTracker)) {
        let data = {
            let mut tracker = self
                .tracker
                .lock()
                .expect("the page state is never left half-written");
            change(&mut tracker);
            serde_json::to_string(tracker.state()).expect("the page state serialises")
        };
        self.send("state", data);
    }

    fn send(&self, kind: &'static str, data: String) {
        // No page watching is no error.
        let _ = self.updates.send(Update {
            kind,
            data: data.into(),
        });
    }
}

/// The robot's observer for the page.
#[derive(Debug)]
pub struct Feed(pub Arc<Hub>);

impl Observer for Feed {
    fn event(
        &mut self,
        now: Millis,
        event: &LogEvent,
        view: EventContext<'_>,
    ) -> anyhow::Result<()> {
        let mut value = serde_json::to_value(event)?;
        value["t"] = json!(now.0);
        self.0.send("log", value.to_string());
        let date = utc_date(std::time::SystemTime::now());
        self.0
            .change(|tracker| tracker.event(now, event, view, &date));
        Ok(())
    }
}

/// Follows the robot's visible state until the robot stops.
pub async fn follow_visible_state(hub: Arc<Hub>, mut stage: watch::Receiver<VisibleState>) {
    while stage.changed().await.is_ok() {
        let VisibleState {
            waiting,
            position,
            scan,
            stock,
            ..
        } = stage.borrow_and_update().clone();
        hub.change(|tracker| {
            tracker.stock_changed(stock.as_ref());
            tracker.visible_state_changed(position, waiting, scan);
        });
    }
}
