//! Accepting TCP connections and serving HTTP/1.1 on them, upgrades included.
//!
//! Our own loop rather than `axum::serve` for one reason: a WebSocket upgrade must hand its
//! handler the connection's own `TcpStream` (see `ws/socket.rs`), and `axum::serve` wraps every
//! connection in a private type (it sniffs for HTTP/2 first), so the stream cannot be recovered.
//! Browsers reach us over HTTP/1.1 (HTTP/2 needs TLS, which a proxy in front terminates).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower_service::Service;

/// A client must send its request headers within this time.
const HEADER_TIMEOUT: Duration = Duration::from_secs(30);
/// After an accept error (out of file descriptors, say), wait this long before the next.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// How each accepted socket is set up.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SocketOptions {
    /// The kernel's send buffer per socket, if not the system default.
    pub(crate) send_buffer: Option<usize>,
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
    loop {
        let (tcp, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot accept a connection");
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
            _ = stop.cancelled() => break,
        };
        tune(&tcp, options);
        connections.spawn(serve_connection(tcp, remote, router.clone(), stop.clone()));
    }
    connections.close();
    if tokio::time::timeout(grace, connections.wait()).await.is_err() {
        tracing::warn!("some HTTP connections did not finish in time");
    }
}

fn tune(tcp: &TcpStream, options: SocketOptions) {
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

async fn serve_connection(tcp: TcpStream, remote: SocketAddr, router: Router, stop: CancellationToken) {
    let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
        req.extensions_mut().insert(ConnectInfo(remote));
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
