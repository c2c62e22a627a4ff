//! A request that changes something (any method but `GET`, `HEAD` and `OPTIONS`), and a WebSocket,
//! is refused with `403 origin_not_allowed` when a browser says it comes from a page of another site.
//! A page of any site may send a simple `POST` (a form, or `fetch` with `text/plain`) without asking
//! first; without this check such a page could create rooms, spend a seat's join codes or confirm a
//! mail on its visitors' behalf.
//!
//! A browser names the page's origin in `Origin` on every such request. It must be the server's
//! `--public-origin`, or, when that is not set (a server on a developer's machine), the origin of the
//! address the request was sent to (its `Host`). A request without `Origin` is not from a browser's
//! page (a program, a test): it is let through, as what it can do needs no victim's browser.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use evr_protocol::ErrorCode;

use crate::app::App;
use crate::refusal::ApiError;

/// Whether `headers` come from a page this server may serve: no `Origin`, or the allowed one.
pub fn allowed(headers: &HeaderMap, public_origin: &str) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    // Our pages' referrer policy is `no-referrer` (defences.rs), with which a browser sends
    // `Origin: null` for a form the page posts (the mail pages' buttons). So does a sandboxed frame
    // of any site; the browser's `Sec-Fetch-Site`, which no page can set, tells them apart.
    if origin.as_bytes() == b"null" {
        return headers
            .get("sec-fetch-site")
            .is_some_and(|site| site.as_bytes() == b"same-origin");
    }
    let public = public_origin.trim_end_matches('/');
    if !public.is_empty() {
        return origin.as_bytes() == public.as_bytes();
    }
    // the page's host and port against the address the request was sent to
    let authority = origin
        .to_str()
        .ok()
        .and_then(|o| o.split_once("://"))
        .map(|(_, authority)| authority);
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    matches!((authority, host), (Some(a), Some(h)) if a.eq_ignore_ascii_case(h))
}

/// The refusal of a request from a page of another site.
pub fn refused() -> ApiError {
    ApiError::new(
        ErrorCode::OriginNotAllowed,
        "pages of another site may not change anything here",
    )
}

/// Middleware: refuses a state-changing request whose `Origin` is not allowed.
pub async fn check(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    let safe = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if !safe && !allowed(req.headers(), &app.config.public_origin) {
        return refused().into_response();
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(origin: Option<&str>, host: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_str(host).unwrap());
        if let Some(o) = origin {
            h.insert(header::ORIGIN, HeaderValue::from_str(o).unwrap());
        }
        h
    }

    #[test]
    fn the_public_origin_decides_when_it_is_set() {
        let public = "https://evr.example/";
        assert!(allowed(&headers(Some("https://evr.example"), "node-1:8080"), public));
        assert!(!allowed(&headers(Some("https://evil.example"), "evr.example"), public));
        assert!(!allowed(&headers(Some("http://evr.example"), "evr.example"), public));
        assert!(allowed(&headers(None, "evr.example"), public), "not a browser's page");
    }

    #[test]
    fn without_it_the_page_must_be_the_address_the_request_went_to() {
        assert!(allowed(&headers(Some("http://localhost:5173"), "localhost:5173"), ""));
        assert!(allowed(&headers(Some("http://LOCALHOST:5173"), "localhost:5173"), ""));
        assert!(!allowed(&headers(Some("http://localhost:5174"), "localhost:5173"), ""));
        assert!(!allowed(&headers(Some("https://evil.example"), "127.0.0.1:8080"), ""));
        assert!(!allowed(&headers(Some("null"), "127.0.0.1:8080"), ""));
    }

    #[test]
    fn a_null_origin_is_our_own_form_only_when_the_browser_says_same_origin() {
        let with_site = |site: &str| {
            let mut h = headers(Some("null"), "evr.example");
            h.insert("sec-fetch-site", HeaderValue::from_str(site).unwrap());
            h
        };
        for public in ["", "https://evr.example"] {
            assert!(allowed(&with_site("same-origin"), public), "our mail page's form");
            assert!(
                !allowed(&with_site("cross-site"), public),
                "a sandboxed frame of another site"
            );
            assert!(!allowed(&with_site("same-site"), public));
            assert!(
                !allowed(&headers(Some("null"), "evr.example"), public),
                "no word from the browser"
            );
        }
    }
}
