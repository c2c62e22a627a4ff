//! TLS to PostgreSQL as libpq's users know it: `sslmode` and `sslrootcert` in the URL's query.
//!
//! tokio-postgres knows `sslmode=disable|prefer|require` and checks no certificate; libpq also has
//! `verify-ca` and `verify-full` and reads `sslrootcert`. So both are taken out of the URL here
//! (tokio-postgres would refuse them), the rest of the URL goes to tokio-postgres unchanged, and the
//! checks the mode asks for are made by a rustls verifier of our own ([`Checks`]) on the
//! connection that `tokio-postgres-rustls` opens. What each mode checks (libpq's documentation):
//!
//! | `sslmode` | TLS | the chain to a trusted CA | the host name |
//! |---|---|---|---|
//! | `disable` | never | – | – |
//! | `prefer` (default) | if the server offers it | only with a `sslrootcert` file | no |
//! | `require` | always | only with a `sslrootcert` file (then as `verify-ca`) | no |
//! | `verify-ca` | always | yes | no |
//! | `verify-full` | always | yes | yes |
//!
//! The trusted CAs are the `sslrootcert` file's, else the public CAs compiled in (`webpki-roots`,
//! Mozilla's list: the server's image has no CA bundle, and managed offers with a public CA need
//! nothing else). `sslrootcert=system` (libpq 16) means those public CAs and makes `verify-full`
//! the default and any weaker mode an error, as in libpq.
//!
//! Where this differs from libpq: libpq in `prefer` mode tries again without TLS after a failed
//! handshake (a certificate its `sslrootcert` does not trust); this store refuses instead, since
//! a check the URL asked for must not quietly become no encryption at all. libpq's default file
//! `~/.postgresql/root.crt` and its `PGSSLMODE`/`PGSSLROOTCERT` variables are not read: only the
//! URL counts. Client certificates (`sslcert`, `sslkey`) are not supported (tokio-postgres refuses
//! them as unknown options).

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::{verify_server_cert_signed_by_trust_anchor, verify_server_name};
use rustls::crypto::{CryptoProvider, verify_tls12_signature, verify_tls13_signature};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::server::ParsedCertificate;
use rustls::{DigitallySignedStruct, RootCertStore, SignatureScheme};
use tokio_postgres::config::SslMode as Negotiated;
use tokio_postgres_rustls::MakeRustlsConnect;

use crate::StoreError;

/// libpq's `sslmode`, with the two modes tokio-postgres does not know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SslMode {
    Disable,
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

impl SslMode {
    fn parse(value: &str) -> Result<SslMode, StoreError> {
        Ok(match value {
            "disable" => SslMode::Disable,
            "prefer" => SslMode::Prefer,
            "require" => SslMode::Require,
            "verify-ca" => SslMode::VerifyCa,
            "verify-full" => SslMode::VerifyFull,
            other => {
                return Err(StoreError::Open(format!(
                    "--store: sslmode={other:?} is not one this server knows: use disable, prefer, require, verify-ca \
                     or verify-full"
                )));
            }
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            SslMode::Disable => "disable",
            SslMode::Prefer => "prefer",
            SslMode::Require => "require",
            SslMode::VerifyCa => "verify-ca",
            SslMode::VerifyFull => "verify-full",
        }
    }
}

/// Which CAs a verifying mode trusts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Roots {
    /// The public CAs compiled in (no `sslrootcert`, or `sslrootcert=system`).
    Public,
    /// The certificates in this PEM file.
    File(PathBuf),
}

/// How the store connects: tokio-postgres's settings (the URL less `sslmode` and `sslrootcert`),
/// the mode, and the TLS connector that makes the mode's checks.
#[derive(Clone)]
pub struct Target {
    pub config: tokio_postgres::Config,
    pub mode: SslMode,
    /// `None`: the certificate is not checked (`prefer` and `require` without a file).
    pub roots: Option<Roots>,
    pub tls: MakeRustlsConnect,
}

impl Target {
    /// Reads `url`. Fails (without repeating the URL, which holds the password) on a URL
    /// tokio-postgres refuses, an unknown `sslmode`, a weak mode with `sslrootcert=system`, or a
    /// `sslrootcert` file that cannot be read or holds no certificate.
    pub fn parse(url: &str) -> Result<Target, StoreError> {
        let (config, mode, roots) = settings(url)?;
        let checks = Checks {
            roots: roots.as_ref().map(load_roots).transpose()?.map(Arc::new),
            host_name: mode == SslMode::VerifyFull,
            provider: Arc::new(rustls::crypto::ring::default_provider()),
        };
        let tls = rustls::ClientConfig::builder_with_provider(checks.provider.clone())
            .with_safe_default_protocol_versions()
            .map_err(|e| StoreError::Open(format!("TLS settings: {e}")))?
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(checks))
            .with_no_client_auth();
        Ok(Target {
            config,
            mode,
            roots,
            tls: MakeRustlsConnect::new(tls),
        })
    }

    /// What the connection's TLS is, for messages: `sslmode=verify-full: TLS, certificate and host
    /// name checked against the CAs in /etc/evr/ca.pem`.
    pub fn describe_tls(&self) -> String {
        let tls = match self.mode {
            SslMode::Disable => return "sslmode=disable: no TLS".to_string(),
            SslMode::Prefer => "TLS if the server offers it",
            _ => "TLS",
        };
        let checked = match &self.roots {
            None => "certificate not checked".to_string(),
            Some(roots) => {
                let what = if self.mode == SslMode::VerifyFull {
                    "chain and host name"
                } else {
                    "chain (not the host name)"
                };
                match roots {
                    Roots::Public => format!("certificate's {what} checked against the public CAs"),
                    Roots::File(path) => format!("certificate's {what} checked against the CAs in {}", path.display()),
                }
            }
        };
        format!("sslmode={}: {tls}, {checked}", self.mode.name())
    }
}

/// What to do about a certificate this store refused, when the error is one of the two a person
/// meets first: a CA not trusted here, or a certificate for another name.
pub fn hint(e: &tokio_postgres::Error) -> Option<&'static str> {
    let io = std::error::Error::source(e)?.downcast_ref::<std::io::Error>()?;
    match io.get_ref()?.downcast_ref::<rustls::Error>()? {
        rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer) => {
            Some("the certificate is not signed by a CA trusted here: give its CA with sslrootcert=PATH")
        }
        rustls::Error::InvalidCertificate(
            rustls::CertificateError::NotValidForName | rustls::CertificateError::NotValidForNameContext { .. },
        ) => Some(
            "the certificate does not name the host connected to: connect by a name it holds, or check the chain \
             only with sslmode=verify-ca",
        ),
        _ => None,
    }
}

/// The URL's settings for tokio-postgres (its `sslmode` set to what the mode needs on the wire),
/// the mode, and the CAs the mode checks against (`None`: no check).
fn settings(url: &str) -> Result<(tokio_postgres::Config, SslMode, Option<Roots>), StoreError> {
    let (rest, ssl) = split_ssl_params(url)?;
    let mut config: tokio_postgres::Config = rest.parse().map_err(|e: tokio_postgres::Error| {
        StoreError::Open(format!("--store is not a PostgreSQL URL: {}", super::describe(&e)))
    })?;
    let system = ssl.root_cert.as_deref() == Some("system");
    let mode = match ssl.mode {
        Some(mode) => mode,
        // libpq 16: the system's CAs are meant to be checked, and fully
        None if system => SslMode::VerifyFull,
        // a key=value string (not a URL) keeps tokio-postgres's reading of its sslmode
        None => match config.get_ssl_mode() {
            Negotiated::Disable => SslMode::Disable,
            Negotiated::Require => SslMode::Require,
            _ => SslMode::Prefer,
        },
    };
    if system && mode != SslMode::VerifyFull {
        return Err(StoreError::Open(format!(
            "--store: sslmode={} may not be used with sslrootcert=system (use verify-full, as libpq requires)",
            mode.name()
        )));
    }
    let roots = match (mode, ssl.root_cert) {
        (SslMode::Disable, _) => None,
        (_, Some(file)) if file != "system" => Some(Roots::File(PathBuf::from(file))),
        (SslMode::VerifyCa | SslMode::VerifyFull, _) => Some(Roots::Public),
        // prefer and require without a file (sslrootcert=system is verify-full, above)
        _ => None,
    };
    config.ssl_mode(match mode {
        SslMode::Disable => Negotiated::Disable,
        SslMode::Prefer => Negotiated::Prefer,
        SslMode::Require | SslMode::VerifyCa | SslMode::VerifyFull => Negotiated::Require,
    });
    Ok((config, mode, roots))
}

/// The TLS parameters taken out of a URL's query.
#[derive(Debug, Default, PartialEq, Eq)]
struct SslParams {
    mode: Option<SslMode>,
    root_cert: Option<String>,
}

/// `url` without its `sslmode` and `sslrootcert` parameters, and their values (percent-decoded;
/// the last one counts when repeated, as in tokio-postgres). Everything else is left as written,
/// in its order. A string that is not a `postgres://` URL is returned as it is.
fn split_ssl_params(url: &str) -> Result<(Cow<'_, str>, SslParams), StoreError> {
    let Some(after_scheme) = ["postgres://", "postgresql://"]
        .iter()
        .find_map(|scheme| url.strip_prefix(scheme))
    else {
        return Ok((Cow::Borrowed(url), SslParams::default()));
    };
    // where tokio-postgres's own parser sees the query: the first `?` after the user and password
    // (which end at the first `@`; a password may hold a `?`)
    let authority_at = after_scheme.find('@').map_or(0, |at| at + 1);
    let Some(question) = after_scheme[authority_at..].find('?') else {
        return Ok((Cow::Borrowed(url), SslParams::default()));
    };
    let query_at = url.len() - after_scheme.len() + authority_at + question;
    let (head, query) = (&url[..query_at], &url[query_at + 1..]);
    let mut params = SslParams::default();
    let mut kept = Vec::new();
    for piece in query.split('&') {
        let ours = piece.split_once('=').and_then(|(key, value)| {
            let key = percent_encoding::percent_decode_str(key).decode_utf8().ok()?;
            matches!(&*key, "sslmode" | "sslrootcert").then(|| (key.into_owned(), value))
        });
        let Some((key, value)) = ours else {
            kept.push(piece);
            continue;
        };
        let value = percent_encoding::percent_decode_str(value)
            .decode_utf8()
            .map_err(|_| StoreError::Open(format!("--store: the value of {key} is not UTF-8")))?;
        if key == "sslmode" {
            params.mode = Some(SslMode::parse(&value)?);
        } else {
            params.root_cert = Some(value.into_owned());
        }
    }
    let rest = if kept.is_empty() {
        head.to_string()
    } else {
        format!("{head}?{}", kept.join("&"))
    };
    Ok((Cow::Owned(rest), params))
}

/// The trusted CAs: every certificate of a PEM file, or the public ones.
fn load_roots(roots: &Roots) -> Result<RootCertStore, StoreError> {
    let path = match roots {
        Roots::Public => {
            return Ok(RootCertStore {
                roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
            });
        }
        Roots::File(path) => path,
    };
    let bad = |why: String| StoreError::Open(format!("--store: sslrootcert {}: {why}", path.display()));
    let mut store = RootCertStore::empty();
    for cert in CertificateDer::pem_file_iter(path).map_err(|e| bad(e.to_string()))? {
        let cert = cert.map_err(|e| bad(format!("not a PEM certificate file ({e})")))?;
        store
            .add(cert)
            .map_err(|e| bad(format!("a certificate that cannot be a CA ({e})")))?;
    }
    if store.is_empty() {
        return Err(bad("holds no PEM certificate (-----BEGIN CERTIFICATE-----)".into()));
    }
    Ok(store)
}

/// The checks of one mode on the server's certificate. Without roots nothing is checked (but
/// the handshake's signatures are, so the session is still bound to the key that was presented).
#[derive(Debug)]
struct Checks {
    roots: Option<Arc<RootCertStore>>,
    host_name: bool,
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for Checks {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let Some(roots) = &self.roots else {
            return Ok(ServerCertVerified::assertion());
        };
        let cert = ParsedCertificate::try_from(end_entity)?;
        // the chain (signatures, validity dates, CA flags, the server-auth purpose) to a root
        verify_server_cert_signed_by_trust_anchor(
            &cert,
            roots,
            intermediates,
            now,
            self.provider.signature_verification_algorithms.all,
        )?;
        if self.host_name {
            verify_server_name(&cert, server_name)?;
        }
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(message, cert, dss, &self.provider.signature_verification_algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(message, cert, dss, &self.provider.signature_verification_algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider.signature_verification_algorithms.supported_schemes()
    }
}

#[cfg(test)]
#[path = "tls_tests.rs"]
mod tests;
