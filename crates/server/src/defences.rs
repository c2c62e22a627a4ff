//! What every answer tells the browser, a second line of defence behind the server's own checks:
//!
//! - `Content-Security-Policy`: the page runs only the server's own scripts and styles (no inline
//!   script, no `eval`, nothing from another site), talks only to its own origin (its API and its
//!   WebSocket), and no site may show it in a frame (`frame-ancestors 'none'`: a framed room page
//!   could be clicked through, e.g. "move to another device"; `X-Frame-Options: DENY` says the
//!   same to older browsers);
//! - `X-Content-Type-Options: nosniff`: a file is only ever what its type says;
//! - `Referrer-Policy: no-referrer`: a room's address (its code) is never sent to another site.
//!
//! The mail pages keep their one inline style sheet by its hash (`policy_allowing_style`).

use axum::http::header::{self, HeaderValue};
use axum::response::Response;
use base64::Engine;
use sha2::{Digest, Sha256};

/// The policy of the app and of every other answer. The client sets styles through the DOM
/// (`element.style`), which a policy does not restrict; it has no inline script and no `eval`.
pub const POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; \
     connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
     frame-ancestors 'none'";

/// [`POLICY`] with one inline style sheet, `css`, allowed by its SHA-256 (and no other style).
pub fn policy_allowing_style(css: &str) -> String {
    let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(css.as_bytes()));
    POLICY.replace("style-src 'self'", &format!("style-src 'sha256-{hash}'"))
}

/// Adds the headers to an answer (a policy the handler set is kept: the mail pages').
pub async fn defend(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers
        .entry(header::CONTENT_SECURITY_POLICY)
        .or_insert(HeaderValue::from_static(POLICY));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_style_is_allowed_by_its_hash_and_nothing_else_changes() {
        // sha256 of `b{}` in base64, as `printf 'b{}' | openssl dgst -sha256 -binary | base64` gives it
        let hash = "'sha256-7yqHVAesot11p6HczDsgKRipvI5UPgs97z80zNXlans='";
        assert_eq!(
            policy_allowing_style("b{}"),
            POLICY.replace("style-src 'self'", &format!("style-src {hash}"))
        );
        assert!(POLICY.contains("style-src 'self'") && POLICY.contains("frame-ancestors 'none'"));
    }
}
