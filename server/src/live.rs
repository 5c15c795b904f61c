//! Live pages: a server-sent event stream per session that says the session's length each
//! time it changes.
//!
//! An acknowledged write through this server is announced at once (`App::announce`). The
//! stream also looks at the journal's head every [`POLL`], so a write this server did not
//! make (another server sharing the store) still reaches the page, a moment later.
//! Announcements are only ever made after the journal acknowledged the write, so a page
//! never shows a record that could still be lost.

use crate::app::{blocking, Shared};
use crate::error::ApiError;
use crate::extract::{session_name, Params, PathArgs};
use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream};
use std::convert::Infallible;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;

/// How often a stream looks at the head for writes it was not told of.
pub const POLL: Duration = Duration::from_secs(2);

struct Watch {
    app: Shared,
    name: String,
    heads: tokio::sync::broadcast::Receiver<(String, u64)>,
    stopping: tokio::sync::watch::Receiver<bool>,
    /// The length last sent (`None` before the first event).
    sent: Option<u64>,
}

impl Watch {
    /// The session's length now, from the journal.
    async fn len(&self) -> Option<u64> {
        let (app, name) = (self.app.clone(), self.name.clone());
        blocking(move || Ok(app.journal.len(&name)?)).await.ok()
    }

    /// Wait for the next length to send; `None` ends the stream (the server is stopping).
    async fn next(&mut self) -> Option<u64> {
        loop {
            if self.sent.is_none() {
                return self.len().await;
            }
            let seen = tokio::select! {
                _ = self.stopping.changed() => return None,
                got = self.heads.recv() => match got {
                    Ok((name, len)) if name == self.name => Some(len),
                    Ok(_) => None,
                    // Missed announcements: the journal says where the session is.
                    Err(RecvError::Lagged(_)) => self.len().await,
                    Err(RecvError::Closed) => return None,
                },
                _ = tokio::time::sleep(POLL) => self.len().await,
            };
            if *self.stopping.borrow() {
                return None;
            }
            if let Some(len) = seen {
                if Some(len) != self.sent {
                    return Some(len);
                }
            }
        }
    }
}

/// `GET /api/sessions/NAME/live`: `event: head`, `data: {"records": N}` now and after every
/// change.
pub async fn session(
    State(app): State<Shared>,
    path: PathArgs,
    params: Params,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    params.only(&[])?;
    let name = session_name(path.at(0))?.to_string();
    // An unknown session is a 404 now, not an empty stream.
    let (journal, checked) = (app.journal.clone(), name.clone());
    blocking(move || Ok(journal.len(&checked)?)).await?;
    let watch = Watch { heads: app.heads.subscribe(), stopping: app.stopping.clone(), app, name, sent: None };
    let events = stream::unfold(watch, |mut watch| async move {
        let len = watch.next().await?;
        watch.sent = Some(len);
        let event = Event::default().event("head").data(format!("{{\"records\":{len}}}"));
        Some((Ok(event), watch))
    });
    Ok(Sse::new(events).keep_alive(KeepAlive::default()))
}
