//! Accepting TCP connections and serving HTTP/1.1 on them, upgrades included.
//!
//! Our own loop rather than `axum::serve` for one reason: a WebSocket upgrade must hand its
//! handler the connection's own `TcpStream` (see `ws/socket.rs`), and `axum::serve` wraps every
//! connection in a private type (it sniffs for HTTP/2 first), so the stream cannot be recovered.
//! Browsers reach us over HTTP/1.1 (HTTP/2 needs TLS, which a proxy in front terminates).
//!
//! Here too the node defends its descriptors: every connection is counted, in all and per client
//! (`admission.rs`), behind a trusted proxy the client is the one its PROXY header names
//! (`proxy_header.rs`), headers must arrive in time, and accept errors are logged without flooding.

mod admission;
mod proxy_header;

pub(crate) use admission::{client_key, connection_cap};
pub(crate) use proxy_header::is_listed;

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower_service::Service;

use admission::{Admission, Permit};

/// A client must send a request's headers within this time of the connection's start or of the
/// previous answer (an idle kept-alive connection is closed then too); its body has as long again
/// (`refusal::ApiBody`).
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// A trusted proxy must send its PROXY header within this time.
const PROXY_HEADER_TIMEOUT: Duration = Duration::from_secs(5);
/// After an accept error (out of file descriptors, say), wait this long before the next.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);
/// Accept errors are logged at most once in this time (with how many there were): a node out of
/// descriptors would otherwise write a line every `ACCEPT_BACKOFF`.
const ACCEPT_ERROR_LOG_EVERY: Duration = Duration::from_secs(10);

/// How connections are taken and set up.
#[derive(Clone, Debug)]
pub(crate) struct SocketOptions {
    /// The kernel's send buffer per socket, if not the system default.
    pub(crate) send_buffer: Option<usize>,
    /// Peers whose connections may begin with a PROXY protocol v2 header naming the client.
    pub(crate) trusted_proxies: Vec<ipnet::IpNet>,
    /// The most connections held at once (already below the descriptor limit).
    pub(crate) max_connections: usize,
    /// The most connections held at once for one client (`client_key`).
    pub(crate) max_connections_per_client: usize,
}

/// The descriptor limit of this process, raised to its hard limit first (a soft limit of 1,024
/// is common and far below what a node serves).
pub(crate) fn descriptor_limit() -> u64 {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => limit,
        Err(e) => {
            tracing::warn!(error = %e, "cannot read the descriptor limit; assuming 1,024");
            1024
        }
    }
}

/// Serves `router` until `stop` is cancelled; then stops accepting, lets the HTTP connections
/// finish their requests (at most `grace`) and returns. Upgraded connections are not waited
/// for: they belong to their handlers from the upgrade on.
pub(crate) async fn serve(
    listener: TcpListener,
    router: Router,
    options: SocketOptions,
    stop: CancellationToken,
    grace: Duration,
) {
    let connections = TaskTracker::new();
    let admission = Arc::new(Admission::new(
        options.max_connections,
        options.max_connections_per_client,
    ));
    let trusted: Arc<[ipnet::IpNet]> = options.trusted_proxies.clone().into();
    let mut accept_errors = ThrottledLog::default();
    tokio::spawn(report_open(admission.clone(), options.max_connections, stop.clone()));
    loop {
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    accept_errors.warn(&e);
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
            _ = stop.cancelled() => break,
        };
        let Some(permit) = admission.accept() else {
            refuse(tcp, Limit::Total);
            continue;
        };
        tune(&tcp, &options);
        let (admission, trusted, router, stop) = (admission.clone(), trusted.clone(), router.clone(), stop.clone());
        connections.spawn(async move {
            let Some((tcp, client)) = client_of(tcp, peer, &trusted).await else {
                return;
            };
            match admission.for_client(permit, client.ip()) {
                Some(permit) => serve_connection(tcp, client, permit, router, stop).await,
                None => refuse(tcp, Limit::Client),
            }
        });
    }
    connections.close();
    if tokio::time::timeout(grace, connections.wait()).await.is_err() {
        tracing::warn!("some HTTP connections did not finish in time");
    }
}

/// The connection's client: the peer, or the client a trusted proxy's header names. `None` when
/// a trusted proxy's connection did not say in time or said it wrongly (it is closed).
async fn client_of(mut tcp: TcpStream, peer: SocketAddr, trusted: &[ipnet::IpNet]) -> Option<(TcpStream, SocketAddr)> {
    if !is_listed(peer.ip(), trusted) {
        return Some((tcp, peer));
    }
    match tokio::time::timeout(PROXY_HEADER_TIMEOUT, proxy_header::client_of(&mut tcp, peer)).await {
        Ok(Ok(client)) => Some((tcp, client)),
        Ok(Err(e)) => {
            tracing::debug!(error = %e, %peer, "a proxy's connection refused");
            None
        }
        Err(_) => {
            tracing::debug!(%peer, "a proxy's connection sent no PROXY header in time");
            None
        }
    }
}

/// The limit a refused connection was past.
#[derive(Clone, Copy)]
enum Limit {
    Total,
    Client,
}

impl Limit {
    fn name(self) -> &'static str {
        match self {
            Limit::Total => "total",
            Limit::Client => "client",
        }
    }

    /// `429 rate_limited` with a sentence, as an HTTP/1.1 answer that closes the connection.
    fn answer(self) -> Vec<u8> {
        let message = match self {
            Limit::Total => "the server holds all the connections it can; try again soon",
            Limit::Client => "too many connections from your network; close some",
        };
        let body = evr_protocol::ApiErrorBody {
            code: evr_protocol::ErrorCode::RateLimited,
            message: message.to_string(),
        };
        let body = serde_json::to_string(&body).unwrap_or_default();
        format!(
            "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\nconnection: close\r\n\
             content-length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes()
    }
}

/// Answers a connection past a limit and closes it, without reading it or waiting on it.
fn refuse(tcp: TcpStream, limit: Limit) {
    metrics::counter!(crate::metrics_names::CONNECTIONS_REFUSED, "limit" => limit.name()).increment(1);
    // a fresh socket's send buffer takes the whole answer; one that does not is not waited for
    let _ = tcp.try_write(&limit.answer());
    // the end of the answer (FIN), then the descriptor is given back as `tcp` drops
    let _ = socket2::SockRef::from(&tcp).shutdown(std::net::Shutdown::Write);
}

/// The connections held, as a gauge, every second until `stop`.
async fn report_open(admission: Arc<Admission>, cap: usize, stop: CancellationToken) {
    let mut every = tokio::time::interval(Duration::from_secs(1));
    loop {
        tokio::select! {
            _ = every.tick() => {}
            _ = stop.cancelled() => return,
        }
        metrics::gauge!(crate::metrics_names::HTTP_CONNECTIONS).set(admission.open(cap) as f64);
    }
}

/// A warning logged at most once per `ACCEPT_ERROR_LOG_EVERY`, with the count it stands for.
#[derive(Default)]
struct ThrottledLog {
    last: Option<Instant>,
    unsaid: u64,
}

impl ThrottledLog {
    fn warn(&mut self, error: &std::io::Error) {
        self.unsaid += 1;
        if self.last.is_some_and(|at| at.elapsed() < ACCEPT_ERROR_LOG_EVERY) {
            return;
        }
        tracing::warn!(error = %error, times = self.unsaid, "cannot accept connections");
        self.last = Some(Instant::now());
        self.unsaid = 0;
    }
}

fn tune(tcp: &TcpStream, options: &SocketOptions) {
    // Small messages must leave at once: Nagle's algorithm would hold them for an ACK.
    if let Err(e) = tcp.set_nodelay(true) {
        tracing::debug!(error = %e, "cannot set TCP_NODELAY");
    }
    if let Some(bytes) = options.send_buffer
        && let Err(e) = socket2::SockRef::from(tcp).set_send_buffer_size(bytes)
    {
        tracing::debug!(error = %e, "cannot set the send buffer");
    }
}

/// Serves HTTP on `tcp` for `client`. The permit goes with each request too: a WebSocket upgrade
/// keeps it (`ws::upgrade`) for as long as the socket lives after this connection's task ends.
async fn serve_connection(tcp: TcpStream, remote: SocketAddr, permit: Permit, router: Router, stop: CancellationToken) {
    let permit = HeldConnection(Arc::new(permit));
    let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
        req.extensions_mut().insert(ConnectInfo(remote));
        req.extensions_mut().insert(permit.clone());
        let mut router = router.clone();
        async move { Ok::<_, Infallible>(router.call(req).await.unwrap_or_else(|e| match e {})) }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder.timer(TokioTimer::new()).header_read_timeout(HEADER_TIMEOUT);
    let conn = builder.serve_connection(TokioIo::new(tcp), service).with_upgrades();
    let mut conn = std::pin::pin!(conn);
    let result = tokio::select! {
        r = conn.as_mut() => r,
        _ = stop.cancelled() => {
            conn.as_mut().graceful_shutdown();
            conn.await
        }
    };
    if let Err(e) = result {
        tracing::debug!(error = %e, %remote, "HTTP connection ended with an error");
    }
}

/// A connection's place among the node's connections, as a request extension: whoever holds a
/// clone keeps the place taken (an upgraded WebSocket takes one along).
#[derive(Clone)]
pub(crate) struct HeldConnection(#[allow(dead_code)] Arc<Permit>);
