//! The browser client, embedded: `web-client/dist` is compiled into the binary so one process
//! serves the page and the game. Unknown paths under the app's routes get `index.html` (the client
//! routes itself); a missing build gives a short notice instead of failing. The client's build
//! writes Brotli and gzip copies of its larger files (`web-client/scripts/precompress.mjs`); a
//! browser that accepts one gets it as it is, so nothing is compressed per request.

use axum::http::{HeaderMap, HeaderValue, Uri, header};
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

/// A compressed copy of a file, as the build wrote it beside the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Encoding {
    Brotli,
    Gzip,
}

impl Encoding {
    fn suffix(self) -> &'static str {
        match self {
            Encoding::Brotli => ".br",
            Encoding::Gzip => ".gz",
        }
    }

    fn header(self) -> HeaderValue {
        HeaderValue::from_static(match self {
            Encoding::Brotli => "br",
            Encoding::Gzip => "gzip",
        })
    }
}

/// Whether an `Accept-Encoding` value allows gzip (for responses compressed on the fly).
pub(crate) fn accepts_gzip(accept_encoding: &str) -> bool {
    accepted(accept_encoding).contains(&Encoding::Gzip)
}

/// The encodings an `Accept-Encoding` value allows, best first (`q=0` refuses one).
fn accepted(accept_encoding: &str) -> Vec<Encoding> {
    let allows = |name: &str| {
        accept_encoding.split(',').any(|part| {
            let mut fields = part.split(';').map(str::trim);
            let named = fields.next().is_some_and(|n| n.eq_ignore_ascii_case(name));
            let weight = fields
                .find_map(|f| f.strip_prefix("q="))
                .map_or(1.0, |q| q.trim().parse::<f32>().unwrap_or(0.0));
            named && weight > 0.0
        })
    };
    [(Encoding::Brotli, "br"), (Encoding::Gzip, "gzip")]
        .into_iter()
        .filter(|(_, name)| allows(name))
        .map(|(e, _)| e)
        .collect()
}

/// What to send for `path`: the best accepted compressed copy that exists, else the file itself.
fn pick(path: &str, accept_encoding: &str, exists: impl Fn(&str) -> bool) -> (String, Option<Encoding>) {
    accepted(accept_encoding)
        .into_iter()
        .map(|e| (format!("{path}{}", e.suffix()), Some(e)))
        .find(|(p, _)| exists(p))
        .unwrap_or_else(|| (path.to_string(), None))
}

fn file_response(path: &str, headers: &HeaderMap, mime: &str, cache: &'static str) -> Option<Response> {
    let accept = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let (served, encoding) = pick(path, accept, |p| ClientFiles::get(p).is_some());
    let file = ClientFiles::get(&served)?;
    let mut response = (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_str(mime).unwrap_or(HeaderValue::from_static("application/octet-stream")),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static(cache)),
            (header::VARY, HeaderValue::from_static("accept-encoding")),
        ],
        file.data,
    )
        .into_response();
    if let Some(e) = encoding {
        response.headers_mut().insert(header::CONTENT_ENCODING, e.header());
    }
    Some(response)
}

pub async fn serve(uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path().trim_start_matches('/');
    if let Some(file) = ClientFiles::get(path).filter(|_| !path.is_empty()) {
        let mime = file.metadata.mimetype().to_string();
        // Vite puts content hashes in asset names: those never change.
        let cache = if path.starts_with("assets/") {
            "public, max-age=31536000, immutable"
        } else {
            "no-cache"
        };
        if let Some(response) = file_response(path, &headers, &mime, cache) {
            return response;
        }
    }
    if !is_app_route(path) {
        return crate::refusal::not_found().into_response();
    }
    file_response("index.html", &headers, "text/html; charset=utf-8", "no-cache")
        .unwrap_or_else(|| Html(NOT_BUILT).into_response())
}

#[cfg(test)]
mod tests {
    use super::{Encoding, accepted, is_app_route, pick};

    #[test]
    fn the_best_accepted_encoding_that_exists_is_sent() {
        let built = |p: &str| ["app.js", "app.js.br", "app.js.gz", "style.css", "style.css.gz"].contains(&p);
        assert_eq!(
            pick("app.js", "gzip, deflate, br, zstd", built),
            ("app.js.br".into(), Some(Encoding::Brotli))
        );
        assert_eq!(
            pick("app.js", "gzip", built),
            ("app.js.gz".into(), Some(Encoding::Gzip))
        );
        assert_eq!(
            pick("style.css", "br, gzip", built),
            ("style.css.gz".into(), Some(Encoding::Gzip))
        );
        assert_eq!(pick("app.js", "", built), ("app.js".into(), None));
        assert_eq!(pick("app.js", "identity", built), ("app.js".into(), None));
    }

    #[test]
    fn accept_encoding_is_read_with_its_weights() {
        assert_eq!(accepted("br;q=1.0, gzip;q=0.8"), [Encoding::Brotli, Encoding::Gzip]);
        assert_eq!(accepted("br;q=0, gzip"), [Encoding::Gzip]);
        assert_eq!(accepted("BR"), [Encoding::Brotli]);
        assert_eq!(accepted("brotli, xgzip"), []);
    }

    #[test]
    fn app_routes_load_the_client_and_other_paths_do_not() {
        assert!(is_app_route(""));
        assert!(is_app_route("r/Q7XKMB4R2T"));
        assert!(is_app_route("r/Q7XKMB4R2T/watch"));
        assert!(!is_app_route("assets/missing.js"));
        assert!(!is_app_route("wp-admin"));
    }
}
