//! TLS to PostgreSQL, `sslmode` and `sslrootcert` as libpq means them, against a real PostgreSQL
//! with `ssl=on` (`postgres_tls_start` in scripts/cluster/services.sh: a certificate for
//! `localhost` only, signed by a CA made for the run, and a second CA that signed nothing). Each
//! setting either serves (its connections seen encrypted, or not, in `pg_stat_ssl` from a second
//! connection) or stops `evr-server` at start with a message that names the problem and never the
//! password.

use std::net::SocketAddr;
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail, ensure};
use evr_rules::Mode;

use crate::nodes::{Node, free_port, postgres_url};
use crate::support::{self, Client};

/// The TLS server of scripts/test.sh: its URL (host `localhost`, no sslmode) and the CAs.
struct TlsServer {
    url: String,
    ca: String,
    other_ca: String,
}

fn tls_server() -> Result<TlsServer> {
    let var = |name: &str| {
        std::env::var(name)
            .ok()
            .filter(|v| !v.is_empty())
            .with_context(|| format!("{name} is not set: run these tests through scripts/test.sh (postgres_tls_start)"))
    };
    Ok(TlsServer {
        url: var("EVR_TEST_POSTGRES_TLS")?,
        ca: var("EVR_TEST_POSTGRES_TLS_CA")?,
        other_ca: var("EVR_TEST_POSTGRES_TLS_OTHER_CA")?,
    })
}

/// The password of `url` (`postgres://USER:PASSWORD@…`), to check that no message repeats it.
fn password(url: &str) -> Result<String> {
    let login = url
        .strip_prefix("postgres://")
        .and_then(|rest| rest.split_once('@'))
        .map(|(login, _)| login)
        .context("a URL with a user")?;
    let (_, password) = login.split_once(':').context("a URL with a password")?;
    ensure!(password.len() >= 8, "a password long enough not to appear by chance");
    Ok(password.to_string())
}

/// `url` (no query of its own) reached by 127.0.0.1, a name the server's certificate lacks.
fn by_ip(url: &str) -> Result<String> {
    ensure!(
        url.contains("@localhost:"),
        "the TLS server's URL names localhost: {url}"
    );
    Ok(url.replacen("@localhost:", "@127.0.0.1:", 1))
}

/// Starts `evr-server --store url`: it must exit with an error whose output contains each of
/// `expected` and not `password`. A server that starts anyway (it answers `/readyz`) is stopped
/// and fails the test at once, rather than hanging it.
async fn refuses(url: &str, expected: &[&str], password: &str) -> Result<()> {
    let dir = support::temp_dir("cluster-tls-refused");
    std::fs::create_dir_all(&dir)?;
    let output = dir.join("output.log");
    let addr: SocketAddr = format!("127.0.0.1:{}", free_port()?).parse()?;
    let log = std::fs::File::create(&output)?;
    let mut child = Command::new(env!("CARGO_BIN_EXE_evr-server"))
        .args(["--bind", &addr.to_string(), "--store", url])
        .stdout(log.try_clone()?)
        .stderr(log)
        .spawn()?;
    // a refusal comes once the connection fails (10 s at most for one that is not answered)
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        let ready = matches!(support::http(addr, "GET", "/readyz", None).await, Ok((200, _)));
        if ready || Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            bail!("the server started on {url} (ready: {ready}) instead of stopping at start");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let said = std::fs::read_to_string(&output)?;
    ensure!(!status.success(), "the server exited successfully on {url}: {said}");
    for part in expected {
        ensure!(said.contains(part), "the message names the problem ({part:?}): {said}");
    }
    ensure!(!said.contains(password), "the message repeats the password: {said}");
    Ok(())
}

/// A node serving on `url` (its readiness needs the store), and the log it writes.
async fn serves(url: &str, name: &str) -> Result<(Node, std::path::PathBuf)> {
    let logs = support::temp_dir(&format!("cluster-tls-{name}"));
    std::fs::create_dir_all(&logs)?;
    let mut node = Node::new(url, &[], &logs, name)?;
    node.start()
        .await
        .with_context(|| format!("a node on {url} (log in {})", logs.display()))?;
    Ok((node, logs.join(format!("{name}.log"))))
}

/// How many of the connections named `application` the server has, and how many of them are
/// encrypted, as PostgreSQL itself says (`pg_stat_ssl`), asked over a plain connection.
async fn connections(plain_url: &str, application: &str) -> Result<(i64, i64)> {
    let (client, connection) = tokio_postgres::connect(plain_url, tokio_postgres::NoTls).await?;
    let driver = tokio::spawn(connection);
    let row = client
        .query_one(
            "SELECT count(*), count(*) FILTER (WHERE s.ssl) FROM pg_stat_activity a JOIN pg_stat_ssl s USING (pid) \
             WHERE a.application_name = $1",
            &[&application],
        )
        .await?;
    drop(client);
    let _ = driver.await;
    Ok((row.get(0), row.get(1)))
}

/// Serves on `url` + `params` (with an `application_name` of its own) and returns how many of the
/// node's connections are encrypted, after checking it has its two (a writer and a reader).
async fn serves_with(db_url: &str, params: &str, name: &str) -> Result<(Node, i64)> {
    let url = format!("{db_url}?{params}&application_name=evr-tls-{name}");
    let (node, log) = serves(&url, name).await?;
    let (all, encrypted) = connections(db_url, &format!("evr-tls-{name}")).await?;
    ensure!(all >= 2, "{name}: the node's writer and reader are connected: {all}");
    let written = std::fs::read_to_string(&log)?;
    ensure!(
        !written.contains(&password(db_url)?),
        "{name}: the node's log repeats the password"
    );
    ensure!(
        encrypted == 0 || encrypted == all,
        "{name}: {encrypted} of {all} encrypted"
    );
    Ok((node, encrypted))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL with TLS: scripts/test.sh runs it"]
async fn verify_full_with_the_right_ca_serves_games_over_encrypted_connections() -> Result<()> {
    let tls = tls_server()?;
    let db = support::postgres::fresh_database(&tls.url, "cluster_tls_full").await?;
    let params = format!("sslmode=verify-full&sslrootcert={}", tls.ca);
    let (node, encrypted) = serves_with(&db, &params, "full").await?;
    ensure!(encrypted >= 2, "verify-full: the node's connections are encrypted");

    // a game played and stored through the node
    let seats = support::create_and_join(node.addr, Mode::Full).await?;
    let (mut p1, w1) = Client::hello(node.addr, &seats.code, Some(&seats.creator_token), None).await?;
    let (mut p2, w2) = Client::hello(node.addr, &seats.code, Some(&seats.guest_token), None).await?;
    let (seq, _) = support::play_random(&mut p1, &mut p2, &w1, &w2, 8, 24).await?;
    // and read back by a store of this test's own, over verify-full too
    let url = format!("{db}?{params}");
    let code = seats.code.clone();
    let game = tokio::task::spawn_blocking(move || -> Result<_> {
        let store = evr_store::PostgresStore::open(&url)?;
        Ok(evr_store::Store::load_game(&store, &code, 1)?)
    })
    .await??
    .context("game 1 is stored")?;
    ensure!(
        game.actions.len() == 8 && game.actions.last().map(|a| a.seq) == Some(seq),
        "the 8 actions up to seq {seq} are stored: {:?}",
        game.actions.iter().map(|a| a.seq).collect::<Vec<_>>()
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL with TLS: scripts/test.sh runs it"]
async fn verify_ca_checks_the_chain_and_verify_full_also_the_host_name() -> Result<()> {
    let tls = tls_server()?;
    let db = support::postgres::fresh_database(&tls.url, "cluster_tls_names").await?;
    let password = password(&db)?;
    // by 127.0.0.1: the certificate names only localhost
    let by_ip = by_ip(&db)?;
    let (_node, encrypted) = serves_with(&by_ip, &format!("sslmode=verify-ca&sslrootcert={}", tls.ca), "ca").await?;
    ensure!(encrypted >= 2, "verify-ca: encrypted");
    refuses(
        &format!("{by_ip}?sslmode=verify-full&sslrootcert={}", tls.ca),
        &[
            "sslmode=verify-full",
            "certificate not valid for name \"127.0.0.1\"",
            "check the chain only with sslmode=verify-ca",
        ],
        &password,
    )
    .await?;
    // the same name, the right CA: verify-full serves (the test above); a CA that signed nothing
    // of the server's is refused in every mode that checks, require with a file included (libpq)
    for mode in ["verify-full", "verify-ca", "require", "prefer"] {
        refuses(
            &format!("{db}?sslmode={mode}&sslrootcert={}", tls.other_ca),
            &[
                &format!("sslmode={mode}: "),
                "invalid peer certificate: UnknownIssuer",
                "give its CA with sslrootcert=PATH",
            ],
            &password,
        )
        .await?;
    }
    // without sslrootcert the public CAs are trusted, and the test CA is not one
    refuses(
        &format!("{db}?sslmode=verify-full"),
        &["against the public CAs", "invalid peer certificate: UnknownIssuer"],
        &password,
    )
    .await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL with and without TLS: scripts/test.sh runs it"]
async fn require_and_prefer_encrypt_without_checking_disable_never_does() -> Result<()> {
    let tls = tls_server()?;
    let db = support::postgres::fresh_database(&tls.url, "cluster_tls_modes").await?;
    // a certificate for another name from an unknown CA: nothing is checked, but all is encrypted
    let by_ip = by_ip(&db)?;
    let (_require, encrypted) = serves_with(&by_ip, "sslmode=require", "require").await?;
    ensure!(encrypted >= 2, "require: encrypted");
    // no sslmode: libpq's default, prefer, takes the TLS the server offers
    let (_prefer, encrypted) = serves_with(&by_ip, "connect_timeout=5", "default").await?;
    ensure!(encrypted >= 2, "the default (prefer): encrypted");
    let (_disable, encrypted) = serves_with(&by_ip, "sslmode=disable", "disable").await?;
    ensure!(encrypted == 0, "disable: not encrypted");

    // a server without TLS: require stops the node, disable and the default serve
    let plain = support::postgres::fresh_database(&postgres_url()?, "cluster_tls_plain").await?;
    let password = password(&plain)?;
    refuses(
        &format!("{plain}?sslmode=require"),
        &["server does not support TLS"],
        &password,
    )
    .await?;
    refuses(
        &format!("{plain}?sslmode=verify-full&sslrootcert={}", tls.ca),
        &["server does not support TLS"],
        &password,
    )
    .await?;
    let (_disable, encrypted) = serves_with(&plain, "sslmode=disable", "plain-disable").await?;
    ensure!(encrypted == 0, "disable on a plain server: not encrypted");
    let (_prefer, encrypted) = serves_with(&plain, "connect_timeout=5", "plain-default").await?;
    ensure!(encrypted == 0, "the default on a plain server: plain");
    Ok(())
}

#[tokio::test]
#[ignore = "needs PostgreSQL with TLS: scripts/test.sh runs it"]
async fn bad_tls_settings_stop_the_server_at_start_by_name() -> Result<()> {
    let tls = tls_server()?;
    let password = password(&tls.url)?;
    let url = &tls.url;
    refuses(
        &format!("{url}?sslmode=verify-everything"),
        &["sslmode=\"verify-everything\" is not one this server knows"],
        &password,
    )
    .await?;
    refuses(
        &format!("{url}?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem"),
        &["sslrootcert /nonexistent/ca.pem", "No such file"],
        &password,
    )
    .await?;
    refuses(
        &format!("{url}?sslmode=require&sslrootcert=system"),
        &["sslmode=require may not be used with sslrootcert=system"],
        &password,
    )
    .await?;
    // a scheme that is not PostgreSQL's: named, the rest (with the password) not repeated
    refuses(
        &url.replacen("postgres://", "postgresql+ssl://", 1),
        &["a postgresql+ssl:// URL is not a store"],
        &password,
    )
    .await?;
    Ok(())
}
