//! The browser client, embedded: `web-client/dist` is compiled into the binary so one process
//! serves the page and the game. Unknown paths under the app's routes get `index.html` (the client
//! routes itself); a missing build gives a short notice instead of failing.

use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{Html, IntoResponse, Response};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "$CARGO_MANIFEST_DIR/../../web-client/dist"]
#[allow_missing = true]
struct ClientFiles;

const NOT_BUILT: &str = "<!doctype html><meta charset=utf-8><title>EvR Online</title>\
<p>The browser client is not built into this server. Build it with <code>npm ci && npm run build</code> \
in <code>web-client/</code>, then rebuild the server.</p>";

/// Paths the client handles itself (a reload there must load the app).
fn is_app_route(path: &str) -> bool {
    path.is_empty() || path == "index.html" || path.starts_with("r/")
}

pub async fn serve(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if let Some(file) = ClientFiles::get(path).filter(|_| !path.is_empty()) {
        let mime = file.metadata.mimetype();
        // Vite puts content hashes in asset names: those never change.
        let cache = if path.starts_with("assets/") {
            "public, max-age=31536000, immutable"
        } else {
            "no-cache"
        };
        return (
            [
                (
                    header::CONTENT_TYPE,
                    HeaderValue::from_str(mime).unwrap_or(HeaderValue::from_static("application/octet-stream")),
                ),
                (header::CACHE_CONTROL, HeaderValue::from_static(cache)),
            ],
            file.data,
        )
            .into_response();
    }
    if !is_app_route(path) {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    }
    match ClientFiles::get("index.html") {
        Some(index) => (
            [
                (
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("text/html; charset=utf-8"),
                ),
                (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            ],
            index.data,
        )
            .into_response(),
        None => Html(NOT_BUILT).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::is_app_route;

    #[test]
    fn app_routes_load_the_client_and_other_paths_do_not() {
        assert!(is_app_route(""));
        assert!(is_app_route("r/Q7XKMB4R2T"));
        assert!(is_app_route("r/Q7XKMB4R2T/watch"));
        assert!(!is_app_route("assets/missing.js"));
        assert!(!is_app_route("wp-admin"));
    }
}
