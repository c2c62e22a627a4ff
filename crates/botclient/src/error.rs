//! Why talking to a server failed.

use evr_protocol::{ApiErrorBody, ErrorCode};

/// A failure of the client side of the protocol.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("network: {0}")]
    Io(#[from] std::io::Error),
    #[error("websocket: {0}")]
    WebSocket(#[from] tokio_tungstenite::tungstenite::Error),
    #[error("the server sent something that is not the protocol: {0}")]
    Protocol(#[from] serde_json::Error),
    #[error("the server answered {status} without a JSON error body: {body}")]
    Http { status: u16, body: String },
    /// The server refused an HTTP request with one of the protocol's error codes.
    #[error("refused ({status}): {} — {}", .body.code, .body.message)]
    Api { status: u16, body: ApiErrorBody },
    /// The server refused the connection for good (a fatal code): retrying cannot help.
    #[error("refused: {code} — {message}")]
    Refused { code: ErrorCode, message: String },
    #[error("{0}")]
    BadUrl(String),
    #[error("the connection closed")]
    Closed,
    #[error("timed out")]
    Timeout,
}

impl ClientError {
    /// Whether trying again (reconnecting) may succeed.
    pub fn is_retryable(&self) -> bool {
        match self {
            ClientError::Refused { code, .. } => !code.is_fatal(),
            ClientError::Api { body, .. } => !body.code.is_fatal(),
            ClientError::BadUrl(_) | ClientError::Protocol(_) => false,
            _ => true,
        }
    }
}
