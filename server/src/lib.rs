//! `arbiter serve`: one process owns the journal and serves a JSON HTTP API and a web app,
//! so that many readers (other tables, an organiser, a referee's browser) work while someone
//! records.
//!
//! - [`config`]: the settings, and the rule that listening beyond loopback takes a token.
//! - [`app`]: the shared state (one `Journal`, a recorder per session being written) and the
//!   routes; [`reads`] and [`writes`] are the API ([`audit`] is `verify --all`), [`live`] the server-sent events,
//!   [`render`] the command line's exact outputs, [`guard`] the token and host checks,
//!   [`extract`] strict request parsing, [`web`] the compiled-in pages.
//!
//! **Invariant:** the server adds no rules and no storage logic: every request is an
//! `arbiter_verify` call (the same one the command line makes) on the shared journal, so an
//! answer over HTTP is the answer of the command line.

pub mod app;
pub mod audit;
pub mod config;
pub mod error;
pub mod extract;
pub mod guard;
pub mod live;
pub mod reads;
pub mod render;
pub mod routes;
pub mod web;
pub mod writes;

pub use config::{Config, ConfigError, DEFAULT_LISTEN};
pub use render::EXIT_HEADER;

use std::net::SocketAddr;
use std::sync::Arc;
use tokio::sync::watch;

/// Why the server could not start or stopped with an error; one sentence.
#[derive(Debug)]
pub struct ServeError(pub String);

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ServeError {}

/// A server running on its own threads (tests, embedding). Dropping it stops it.
pub struct Running {
    addr: SocketAddr,
    stop: Option<watch::Sender<bool>>,
    thread: Option<std::thread::JoinHandle<Result<(), ServeError>>>,
}

impl Running {
    /// The address it listens on (the real port when the config asked for port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://ADDR`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Stop accepting, let requests in flight finish, close the journal.
    pub fn stop(mut self) -> Result<(), ServeError> {
        self.shutdown()
    }

    fn shutdown(&mut self) -> Result<(), ServeError> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(true);
        }
        match self.thread.take().map(|t| t.join()) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(ServeError("the server thread failed".into())),
            None => Ok(()),
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.shutdown();
    }
}

/// The runtime every server runs on.
fn runtime() -> Result<tokio::runtime::Runtime, ServeError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("arbiter-serve")
        .build()
        .map_err(|e| ServeError(format!("cannot start the server's threads: {e}")))
}

/// Open the journal and bind the address: everything that can fail before serving.
fn prepare(
    config: &Config,
    runtime: &tokio::runtime::Runtime,
) -> Result<tokio::net::TcpListener, ServeError> {
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(config.listen))
        .map_err(|e| ServeError(format!("cannot listen on {}: {e}", config.listen)))?;
    Ok(listener)
}

fn open_journal(config: &Config) -> Result<arbiter_journal::Journal, ServeError> {
    arbiter_journal::Journal::open(&config.db).map_err(|e| ServeError(e.message().to_string()))
}

/// Serve until `stop` turns true, then close the journal (flushing it).
async fn serve(
    listener: tokio::net::TcpListener,
    journal: arbiter_journal::Journal,
    config: Config,
    stop: watch::Receiver<bool>,
) -> Result<(), ServeError> {
    let app = Arc::new(app::App::new(journal, &config, stop.clone()));
    let router = routes::router(Arc::clone(&app));
    let mut stopped = stop;
    let result = axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            let _ = stopped.wait_for(|s| *s).await;
        })
        .await
        .map_err(|e| ServeError(format!("the server stopped: {e}")));
    // Requests still on the blocking pool hold the journal until they finish.
    drop(app);
    result
}

/// Start a server on background threads and return once it listens.
pub fn spawn(config: Config) -> Result<Running, ServeError> {
    let runtime = runtime()?;
    let journal = open_journal(&config)?;
    let listener = prepare(&config, &runtime)?;
    let addr =
        listener.local_addr().map_err(|e| ServeError(format!("cannot read the bound address: {e}")))?;
    let (stop, stopping) = watch::channel(false);
    let thread = std::thread::Builder::new()
        .name("arbiter-serve".into())
        .spawn(move || {
            let result = runtime.block_on(serve(listener, journal, config, stopping));
            // Wait for blocking work still holding the journal, so it is closed on return.
            runtime.shutdown_timeout(std::time::Duration::from_secs(30));
            result
        })
        .map_err(|e| ServeError(format!("cannot start the server thread: {e}")))?;
    Ok(Running { addr, stop: Some(stop), thread: Some(thread) })
}

/// Serve in the foreground until Ctrl-C or SIGTERM; `ready` is called with the address once
/// the server listens.
pub fn run(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<(), ServeError> {
    let runtime = runtime()?;
    let journal = open_journal(&config)?;
    let listener = prepare(&config, &runtime)?;
    let addr =
        listener.local_addr().map_err(|e| ServeError(format!("cannot read the bound address: {e}")))?;
    ready(addr);
    let (stop, stopping) = watch::channel(false);
    runtime.spawn(async move {
        stop_signal().await;
        let _ = stop.send(true);
    });
    let result = runtime.block_on(serve(listener, journal, config, stopping));
    runtime.shutdown_timeout(std::time::Duration::from_secs(30));
    result
}

/// Ctrl-C, or SIGTERM on Unix.
async fn stop_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}
