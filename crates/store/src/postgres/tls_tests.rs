//! Reading `sslmode` and `sslrootcert` out of a URL as libpq means them. The checks themselves
//! run against a real PostgreSQL with TLS in the server's cluster tests (`tests/cluster/tls.rs`).

// Test code: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use tokio_postgres::config::SslMode as Negotiated;

use super::{Roots, SslMode, SslParams, Target, settings, split_ssl_params};
use crate::StoreError;

fn open_error(result: Result<impl Sized, StoreError>) -> String {
    match result {
        Err(StoreError::Open(message)) => message,
        Err(other) => panic!("not an open error: {other:?}"),
        Ok(_) => panic!("accepted"),
    }
}

#[test]
fn only_the_tls_parameters_leave_the_url_the_rest_stays_as_written() {
    let (rest, ssl) = split_ssl_params(
        "postgres://evr:pw@db.example:5433/evr?application_name=a%20b&sslmode=verify-full&connect_timeout=3&sslrootcert=%2Fetc%2Fmy%20ca.pem",
    )
    .unwrap();
    assert_eq!(
        rest,
        "postgres://evr:pw@db.example:5433/evr?application_name=a%20b&connect_timeout=3"
    );
    assert_eq!(
        ssl,
        SslParams {
            mode: Some(SslMode::VerifyFull),
            root_cert: Some("/etc/my ca.pem".into()),
        }
    );
    // nothing else in the query: no `?` left behind
    let (rest, ssl) = split_ssl_params("postgresql://evr@db/evr?sslmode=require").unwrap();
    assert_eq!(rest, "postgresql://evr@db/evr");
    assert_eq!(ssl.mode, Some(SslMode::Require));
    // no query, or not a URL: untouched
    for url in ["postgres://evr:pw@db/evr", "host=db user=evr sslmode=require"] {
        let (rest, ssl) = split_ssl_params(url).unwrap();
        assert_eq!(rest, url);
        assert_eq!(ssl, SslParams::default());
    }
}

#[test]
fn a_question_mark_in_the_password_is_not_the_query() {
    // tokio-postgres reads the user and password up to the first `@`, so does the split
    let url = "postgres://evr:p?ss=w&rd@db:5432/evr?sslmode=disable";
    let (rest, ssl) = split_ssl_params(url).unwrap();
    assert_eq!(rest, "postgres://evr:p?ss=w&rd@db:5432/evr");
    assert_eq!(ssl.mode, Some(SslMode::Disable));
    let (config, mode, _) = settings(url).unwrap();
    assert_eq!(config.get_password(), Some(&b"p?ss=w&rd"[..]));
    assert_eq!(mode, SslMode::Disable);
}

#[test]
fn the_last_sslmode_counts_as_in_tokio_postgres() {
    let (_, ssl) = split_ssl_params("postgres://db/evr?sslmode=disable&sslmode=verify-ca").unwrap();
    assert_eq!(ssl.mode, Some(SslMode::VerifyCa));
}

#[test]
fn each_mode_makes_the_checks_libpq_documents() {
    let cases: [(&str, SslMode, Negotiated, Option<Roots>); 9] = [
        // libpq's default: TLS if offered, nothing checked
        ("", SslMode::Prefer, Negotiated::Prefer, None),
        ("?sslmode=disable", SslMode::Disable, Negotiated::Disable, None),
        (
            "?sslmode=disable&sslrootcert=/ca.pem",
            SslMode::Disable,
            Negotiated::Disable,
            None,
        ),
        ("?sslmode=require", SslMode::Require, Negotiated::Require, None),
        // libpq: require with a root file behaves as verify-ca
        (
            "?sslmode=require&sslrootcert=/ca.pem",
            SslMode::Require,
            Negotiated::Require,
            Some(Roots::File(PathBuf::from("/ca.pem"))),
        ),
        (
            "?sslmode=verify-ca",
            SslMode::VerifyCa,
            Negotiated::Require,
            Some(Roots::Public),
        ),
        (
            "?sslmode=verify-full",
            SslMode::VerifyFull,
            Negotiated::Require,
            Some(Roots::Public),
        ),
        (
            "?sslmode=verify-full&sslrootcert=/ca.pem",
            SslMode::VerifyFull,
            Negotiated::Require,
            Some(Roots::File(PathBuf::from("/ca.pem"))),
        ),
        // libpq 16: the system's CAs, and verify-full unless said otherwise
        (
            "?sslrootcert=system",
            SslMode::VerifyFull,
            Negotiated::Require,
            Some(Roots::Public),
        ),
    ];
    for (query, mode, negotiated, roots) in cases {
        let (config, m, r) = settings(&format!("postgres://evr:pw@db/evr{query}")).unwrap();
        assert_eq!((m, &r), (mode, &roots), "{query}");
        assert_eq!(config.get_ssl_mode(), negotiated, "{query}");
    }
    // a key=value string keeps tokio-postgres's own sslmode
    let (_, mode, roots) = settings("host=db user=evr sslmode=require").unwrap();
    assert_eq!((mode, roots), (SslMode::Require, None));
}

#[test]
fn refusals_name_the_problem_and_never_the_password() {
    let secret = "s3cret-pw";
    for (query, expected) in [
        (
            "sslmode=verify-everything",
            "sslmode=\"verify-everything\" is not one this server knows",
        ),
        ("sslmode=allow", "sslmode=\"allow\" is not one this server knows"),
        (
            "sslmode=require&sslrootcert=system",
            "sslmode=require may not be used with sslrootcert=system",
        ),
        (
            "sslmode=verify-ca&sslrootcert=system",
            "sslmode=verify-ca may not be used with sslrootcert=system",
        ),
        ("sslcert=/client.pem", "unknown option `sslcert`"),
    ] {
        let said = open_error(settings(&format!("postgres://evr:{secret}@db/evr?{query}")));
        assert!(said.contains(expected), "{query}: {said}");
        assert!(!said.contains(secret), "{query}: {said}");
    }
}

#[test]
fn a_root_file_that_is_missing_or_holds_no_certificate_is_refused_by_name() {
    let dir = std::env::temp_dir().join(format!("evr-store-tls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("missing.pem");
    let empty = dir.join("empty.pem");
    std::fs::write(&empty, "not a certificate\n").unwrap();
    let broken = dir.join("broken.pem");
    std::fs::write(
        &broken,
        "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
    )
    .unwrap();
    for (file, expected) in [
        (&missing, "No such file"),
        (&empty, "holds no PEM certificate"),
        (&broken, "a certificate that cannot be a CA"),
    ] {
        let url = format!(
            "postgres://evr:s3cret-pw@db/evr?sslmode=verify-full&sslrootcert={}",
            file.display()
        );
        let said = open_error(Target::parse(&url));
        assert!(said.contains(&file.display().to_string()), "{said}");
        assert!(said.contains(expected), "{said}");
        assert!(!said.contains("s3cret-pw"), "{said}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_public_cas_are_loaded_for_verify_modes_without_a_file() {
    let target = Target::parse("postgres://evr@db/evr?sslmode=verify-full").unwrap();
    assert_eq!(target.roots, Some(Roots::Public));
    assert_eq!(
        target.describe_tls(),
        "sslmode=verify-full: TLS, certificate's chain and host name checked against the public CAs"
    );
    assert!(super::load_roots(&Roots::Public).unwrap().len() > 100);
}
