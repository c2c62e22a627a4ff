//! How the HTTP API says no: every refusal is the documented `{"code", "message"}` body
//! ([`ApiErrorBody`]) with its code's status (proto/PROTOCOL.md), never a framework's plain text
//! and never an internal error's own words.
//!
//! - [`ApiError`]: a refusal; [`ApiError::internal`] logs what went wrong inside and tells the
//!   client only a fixed sentence (a store's error can name tables, files or hosts).
//! - [`ApiPath`], [`ApiQuery`], [`ApiBody`]: axum's extractors with their rejections (a path that is
//!   not valid UTF-8, a body over the limit, …) turned into refusals.
//! - [`unknown_route`], [`method_not_allowed`]: the router's fallbacks, for addresses and methods
//!   the API does not have.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request};
use axum::http::request::Parts;
use axum::http::{Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use evr_protocol::{ApiErrorBody, ErrorCode, MAX_FRAME_BYTES};
use serde::de::DeserializeOwned;

/// A refused API request: its code (which gives the status) and a sentence, sent as an
/// [`ApiErrorBody`].
#[derive(Debug)]
pub struct ApiError(ErrorCode, String);

impl ApiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError(code, message.into())
    }

    /// A failure inside the server: `error` goes to the log with `message`, the client gets
    /// `code` and `message` only.
    pub fn internal(code: ErrorCode, message: &str, error: &dyn std::fmt::Display) -> ApiError {
        tracing::error!(error = %error, "{message}");
        ApiError(code, message.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let ApiError(code, message) = self;
        metrics::counter!(crate::metrics_names::ERRORS, "code" => code.as_str()).increment(1);
        let status = StatusCode::from_u16(code.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, Json(ApiErrorBody { code, message })).into_response()
    }
}

/// `Path<T>` whose rejection is a refusal: a path segment that is not valid percent-encoded UTF-8
/// (or does not fit `T`) is `bad_message`.
pub struct ApiPath<T>(pub T);

impl<T, S> FromRequestParts<S> for ApiPath<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(value)) => Ok(ApiPath(value)),
            Err(rejection) => {
                tracing::debug!(%rejection, path = %parts.uri.path(), "path refused");
                Err(ApiError::new(
                    ErrorCode::BadMessage,
                    "this address cannot be read: its path is not valid",
                ))
            }
        }
    }
}

/// `Query<T>` whose rejection is a refusal (`bad_message`).
pub struct ApiQuery<T>(pub T);

impl<T, S> FromRequestParts<S> for ApiQuery<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(value)) => Ok(ApiQuery(value)),
            Err(rejection) => {
                tracing::debug!(%rejection, "query refused");
                Err(ApiError::new(
                    ErrorCode::BadMessage,
                    "this address cannot be read: its query string is not valid",
                ))
            }
        }
    }
}

/// A request body of at most [`MAX_FRAME_BYTES`] (the routes that read one set that limit):
/// larger is `frame_too_large`, one that cannot be read is `bad_message`, and so is a body that is
/// not sent as `application/json` (the API reads nothing else; a page of another site can send
/// `text/plain` without asking first).
pub struct ApiBody(pub Bytes);

/// A request's body must arrive within this time of its headers (`listen.rs` bounds theirs).
const BODY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

impl<S: Send + Sync> FromRequest<S> for ApiBody {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let json_type = req
            .headers()
            .get(axum::http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
        // a body trickled byte by byte would hold the connection (and its descriptor) forever
        let Ok(read) = tokio::time::timeout(BODY_TIMEOUT, Bytes::from_request(req, state)).await else {
            return Err(ApiError::new(
                ErrorCode::BadMessage,
                format!("a request body must arrive within {} seconds", BODY_TIMEOUT.as_secs()),
            ));
        };
        match read {
            Ok(bytes) if !bytes.is_empty() && !json_type => Err(ApiError::new(
                ErrorCode::BadMessage,
                "send the body as JSON (Content-Type: application/json)",
            )),
            Ok(bytes) => Ok(ApiBody(bytes)),
            Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(ApiError::new(
                ErrorCode::FrameTooLarge,
                format!("a request body is at most {} KiB", MAX_FRAME_BYTES / 1024),
            )),
            Err(rejection) => {
                tracing::debug!(%rejection, "body refused");
                Err(ApiError::new(
                    ErrorCode::BadMessage,
                    "the request body could not be read",
                ))
            }
        }
    }
}

/// The JSON body as `T`, or `bad_message` saying what does not fit (serde's words are about the
/// client's own body: a missing field, an unknown variant, where the syntax broke).
pub fn json<T: DeserializeOwned>(body: &ApiBody) -> Result<T, ApiError> {
    serde_json::from_slice(&body.0)
        .map_err(|e| ApiError::new(ErrorCode::BadMessage, format!("the body is not valid: {e}")))
}

/// Fallback of the router: the browser client for `GET`/`HEAD` of any other address (it routes
/// itself; a file it does not have is `not_found` from [`crate::client::serve`]); any other method
/// on an address the API does not have is `not_found`.
pub async fn unknown_route(method: Method, uri: Uri, headers: axum::http::HeaderMap) -> Response {
    if method == Method::GET || method == Method::HEAD {
        return crate::client::serve(uri, headers).await;
    }
    not_found().into_response()
}

/// An address the server does not have.
pub fn not_found() -> ApiError {
    ApiError::new(ErrorCode::NotFound, "nothing is at this address")
}

/// Fallback of a route asked with a method it does not take (`GET` of `POST /api/rooms`, …).
pub async fn method_not_allowed(method: Method) -> ApiError {
    ApiError::new(
        ErrorCode::MethodNotAllowed,
        format!("this address does not take {method} requests"),
    )
}
