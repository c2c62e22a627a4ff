//! # evr-server — the EvR Online match server
//!
//! Private rooms, two seats and spectators over WebSocket; the server owns every match
//! (`evr-rules`) and sends each connection only its own view. Start it with [`run`] on any
//! listener (tests bind `127.0.0.1:0`).

mod accounts;
mod app;
pub mod chat;
mod client;
pub mod clock;
pub mod commands;
pub mod config;
mod deadlines;
mod defences;
pub mod fairness;
mod friends;
mod http;
mod listen;
pub mod mail;
mod metrics_names;
pub mod names;
pub mod notify;
mod outbox;
mod ratings;
mod refusal;
mod replay;
mod room;
mod same_origin;
mod seat_api;
pub mod secrets;
mod test_events;
mod ws;

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::Router;
use axum::routing::{get, post};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

pub use config::Config;

use crate::app::App;
use crate::room::Command;
use evr_store::{PostgresStore, SqliteStore, Store, StoreError};

// A server must never carry the engine's testing accessors (they read hidden zones): building it
// against such a build of `evr-rules` is a compile error, not a convention.
const _: () = assert!(
    !evr_rules::TESTING_ACCESSORS,
    "evr-server must not be built with the engine's testing accessors (crates/rules-testkit)"
);

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("serving: {0}")]
    Io(#[from] std::io::Error),
    #[error("reminders by email: {0}")]
    Mail(#[from] mail::MailError),
}

/// How long shutdown waits for connections to say goodbye.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// How often the metrics' histograms are folded into their summaries.
const METRICS_UPKEEP: Duration = Duration::from_secs(5);

/// The process-wide metrics recorder (installed once, shared by every server in a process).
pub(crate) fn prometheus() -> PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let recorder = PrometheusBuilder::new().build_recorder();
            let handle = recorder.handle();
            // Another recorder may already be installed (embedding); then our handle renders nothing.
            let _ = metrics::set_global_recorder(recorder);
            // A histogram keeps every observed value until upkeep folds it into its summary: without
            // this, a server nobody scrapes would keep 8 bytes per action forever.
            let upkeep = handle.clone();
            let started = std::thread::Builder::new()
                .name("evr-metrics-upkeep".into())
                .spawn(move || {
                    loop {
                        std::thread::sleep(METRICS_UPKEEP);
                        upkeep.run_upkeep();
                    }
                });
            if let Err(e) = started {
                tracing::warn!(error = %e, "no metrics upkeep thread: histograms grow until scraped");
            }
            handle
        })
        .clone()
}

/// The store `--store` names: PostgreSQL for a `postgres://` URL, else SQLite in `--data-dir`.
fn open_store(config: &Config) -> Result<Arc<dyn Store>, StoreError> {
    let url = config.store.trim();
    if url.is_empty() {
        return Ok(Arc::new(SqliteStore::open(&config.data_dir)?));
    }
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        // blocks this thread while it connects and migrates (on the store's own runtime): start-up
        return Ok(Arc::new(PostgresStore::open(url)?));
    }
    // only the scheme is repeated: the rest may hold a password
    let what = url
        .split_once("://")
        .map_or_else(|| "that value".to_string(), |(scheme, _)| format!("a {scheme}:// URL"));
    Err(StoreError::Open(format!(
        "--store: {what} is not a store: give a postgres://USER:PASSWORD@HOST:PORT/DATABASE URL (sslmode, \
         sslrootcert as for libpq), or nothing for SQLite in --data-dir"
    )))
}

/// When a server stops. Cancelling `begin` (SIGTERM) starts the shutdown: the server says it is
/// not ready and keeps serving for `--drain-secs`, then stops accepting, tells every room (and so
/// every client) to reconnect elsewhere, flushes the store and returns. Cancelling `now` as well (a
/// second SIGTERM) ends the drain early.
#[derive(Clone, Debug, Default)]
pub struct Stop {
    pub begin: CancellationToken,
    pub now: CancellationToken,
}

/// Serves until `shutdown` is cancelled, then stops as [`Stop`] says (the drain included).
pub async fn run(listener: TcpListener, config: Config, shutdown: CancellationToken) -> Result<(), ServerError> {
    run_until(
        listener,
        config,
        Stop {
            begin: shutdown,
            now: CancellationToken::new(),
        },
    )
    .await
}

/// [`run`], with reminders handed to `notifier` (`None`: the server's own choice).
pub async fn run_with(
    listener: TcpListener,
    config: Config,
    notifier: Option<Arc<dyn notify::Notifier>>,
    shutdown: CancellationToken,
) -> Result<(), ServerError> {
    let stop = Stop {
        begin: shutdown,
        now: CancellationToken::new(),
    };
    serve_with(listener, config, stop, notifier).await
}

/// Serves until `stop.begin` is cancelled; then drains (not ready, still serving), stops accepting,
/// tells clients to reconnect, flushes the store and returns.
pub async fn run_until(listener: TcpListener, config: Config, stop: Stop) -> Result<(), ServerError> {
    serve_with(listener, config, stop, None).await
}

async fn serve_with(
    listener: TcpListener,
    config: Config,
    stop: Stop,
    notifier: Option<Arc<dyn notify::Notifier>>,
) -> Result<(), ServerError> {
    let config = Arc::new(config);
    let store = open_store(&config)?;
    let mut app = App::new(config.clone(), store.clone(), prometheus());
    // reminders by email when `--smtp-url` is set (`mail/`); addresses are purged in any case
    if let Some(mailer) = mail::Mailer::from_config(&config)? {
        let mailer = Arc::new(mailer);
        app.notifier = Arc::new(mail::MailNotifier::new(
            mailer.clone(),
            store.clone(),
            app.tracker.clone(),
        ));
        app.mail = Some(mailer);
    }
    // a notifier given by the caller (in-process tests) wins
    if let Some(notifier) = notifier {
        app.notifier = notifier;
    }
    #[cfg(feature = "test-days")]
    if let Some(path) = &config.test_event_log {
        test_events::open(path)?;
    }
    // accounts with passkeys, for the public origin's host (else localhost on this port)
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(config.bind.port());
    app.accounts = accounts::Accounts::new(&config.public_origin, port).map(Arc::new);
    let app = Arc::new(app);
    // correspondence deadlines and reminders due in rooms nobody holds (`deadlines.rs`)
    tokio::spawn(deadlines::sweep(app.clone()));
    tokio::spawn(mail::sweep_periodically(store.clone(), app.shutdown.clone()));
    tokio::spawn(accounts::purge_periodically(store.clone(), app.shutdown.clone()));
    tokio::spawn(friends::purge_periodically(store.clone(), app.shutdown.clone()));
    if store.is_shared() {
        // other servers may claim our rooms: let go of those they take
        tokio::spawn(room::ownership::watch(room::ownership::Watch {
            store: app.store.clone(),
            rooms: app.rooms.clone(),
            reachable: app.store_reachable.clone(),
            every: Duration::from_millis(app.config.ownership_check_ms),
            shutdown: app.shutdown.clone(),
        }));
    }
    // Stored rooms are not loaded here: each comes back into memory when someone connects to it.
    match listener.local_addr() {
        Ok(addr) => tracing::info!("serving on http://{addr}"),
        Err(e) => tracing::info!(error = %e, "serving (address unknown)"),
    }

    let router = Router::new()
        .route("/api/rooms", post(http::create_room))
        .route("/api/rooms/{code}", get(http::room_status))
        .route("/api/rooms/{code}/join", post(seat_api::join_room))
        .route("/api/rooms/{code}/invite", post(seat_api::new_invite))
        .route("/api/rooms/{code}/transfer", post(seat_api::transfer))
        .route("/api/rooms/{code}/take", post(seat_api::take))
        .route("/api/rooms/{code}/devices", get(seat_api::devices))
        .route(
            "/api/rooms/{code}/devices/sign-out-others",
            post(seat_api::sign_out_others),
        )
        .route("/api/rooms/{code}/seat", get(replay::seat_summary))
        .route(
            "/api/rooms/{code}/account-seat",
            get(accounts::account_seat_summary).post(accounts::seat_on_this_device),
        )
        .merge(accounts::routes())
        .merge(friends::routes())
        .merge(ratings::routes())
        .merge(
            Router::new()
                .route("/api/rooms/{code}/games", get(replay::archive))
                .route("/api/rooms/{code}/games/{game}/replay", get(replay::replay))
                .route("/api/rooms/{code}/games/{game}/steps", get(replay::steps))
                .route_layer(axum::middleware::from_fn_with_state(app.clone(), replay::bounded)),
        )
        .route("/api/mail", get(mail::mail_status))
        .route(
            "/api/rooms/{code}/reminders",
            get(mail::get_reminders)
                .put(mail::put_reminders)
                .delete(mail::delete_reminders),
        )
        .route(
            "/mail/confirm/{secret}",
            get(mail::confirm_page).post(mail::confirm_post),
        )
        .route(
            "/mail/unsubscribe/{secret}",
            get(mail::unsubscribe_page).post(mail::unsubscribe_post),
        )
        .route("/ws/{code}", get(ws::upgrade))
        .route("/healthz", get(http::healthz))
        .route("/readyz", get(http::readyz))
        .route("/metrics", get(http::metrics))
        // every refusal is `{"code", "message"}` (refusal.rs): an address or a method the API
        // does not have too, and bodies past the protocol's limit
        .fallback(refusal::unknown_route)
        .method_not_allowed_fallback(refusal::method_not_allowed)
        .layer(axum::extract::DefaultBodyLimit::max(evr_protocol::MAX_FRAME_BYTES))
        // a page of another site changes nothing (same_origin.rs), its refusal `{"code", "message"}`
        .layer(axum::middleware::from_fn_with_state(app.clone(), same_origin::check))
        .layer(axum::middleware::map_response(defences::defend))
        .with_state(app.clone());

    let descriptors = listen::descriptor_limit();
    let max_connections = listen::connection_cap(config.max_connections, descriptors);
    if max_connections < config.max_connections {
        tracing::warn!(
            descriptors,
            max_connections,
            "connections limited below the descriptor limit (raise it with ulimit -n)"
        );
    }
    let options = listen::SocketOptions {
        send_buffer: config.socket_send_buffer,
        trusted_proxies: config.trusted_proxies.clone(),
        max_connections,
        max_connections_per_client: config.max_connections_per_client,
    };
    // stops the listener (and ends kept-alive HTTP connections) once the drain is over
    let stop_accepting = CancellationToken::new();
    tokio::spawn(drain(app.clone(), stop, stop_accepting.clone()));
    listen::serve(listener, router, options, stop_accepting, SHUTDOWN_GRACE).await;

    // Stop accepting is done; tell every room (and so every client), then wait for them.
    for room in app.rooms.all() {
        let _ = room.tx.send(Command::Shutdown).await;
    }
    app.rooms.clear();
    app.tracker.close();
    if tokio::time::timeout(SHUTDOWN_GRACE, app.tracker.wait()).await.is_err() {
        tracing::warn!("some connections did not close in time");
    }
    store.close();
    tracing::info!("stopped");
    Ok(())
}

/// From `stop.begin` on: not ready, still serving, for `--drain-secs` (or until `stop.now`). The
/// front door checks readiness and stops sending new connections here; one that closes a node's
/// sessions when it takes the node out (`on-marked-down shutdown-sessions`) also sends this node's
/// players elsewhere now. Then `stop_accepting`: the rest is told to reconnect.
async fn drain(app: Arc<App>, stop: Stop, stop_accepting: CancellationToken) {
    stop.begin.cancelled().await;
    app.draining.cancel();
    let period = app.config.drain();
    if !period.is_zero() && !stop.now.is_cancelled() {
        tracing::info!(seconds = period.as_secs(), "draining: not ready, still serving");
        tokio::select! {
            _ = tokio::time::sleep(period) => {}
            _ = stop.now.cancelled() => tracing::info!("drain cut short"),
        }
    }
    // from now on new rooms are refused
    app.shutdown.cancel();
    stop_accepting.cancel();
}
