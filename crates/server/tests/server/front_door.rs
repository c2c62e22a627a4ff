//! What a node does about who is at its door: behind a trusted proxy each client is the one the
//! proxy's PROXY protocol v2 header names (and an IPv6 client its /64), so that one client's
//! limits are not everyone's; and however many slow connections one client opens, the node keeps
//! answering everyone else and lets the slow ones go in bounded time.
//!
//! Several loopback addresses stand for several clients: all of 127.0.0.0/8 is this machine.

use std::net::{IpAddr, SocketAddr};
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail, ensure};
use evr_protocol::{CREATE_ROOM_PATH, SpectatorPolicy};
use evr_rules::Mode;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::support;

/// A PROXY protocol v2 header (TCP) from `client` to `server`, written out by hand from the
/// protocol's text (HAProxy's proxy-protocol.txt, section 2.2) rather than by the crate the server
/// reads it with.
fn proxy_header(client: SocketAddr, server: SocketAddr) -> Vec<u8> {
    let mut out = b"\r\n\r\n\0\r\nQUIT\n".to_vec();
    out.push(0x21); // version 2, PROXY
    match (client, server) {
        (SocketAddr::V4(c), SocketAddr::V4(s)) => {
            out.push(0x11); // TCP over IPv4
            out.extend_from_slice(&12u16.to_be_bytes());
            out.extend_from_slice(&c.ip().octets());
            out.extend_from_slice(&s.ip().octets());
        }
        (SocketAddr::V6(c), SocketAddr::V6(s)) => {
            out.push(0x21); // TCP over IPv6
            out.extend_from_slice(&36u16.to_be_bytes());
            out.extend_from_slice(&c.ip().octets());
            out.extend_from_slice(&s.ip().octets());
        }
        _ => panic!("one family for both ends"),
    }
    out.extend_from_slice(&client.port().to_be_bytes());
    out.extend_from_slice(&server.port().to_be_bytes());
    out
}

/// `POST /api/rooms` from loopback address `from`, through a proxy header naming `client` if given.
async fn create_room(server: SocketAddr, from: IpAddr, client: Option<&str>) -> Result<(u16, String)> {
    let mut tcp = support::connect_from(from, server).await?;
    if let Some(client) = client {
        let client: SocketAddr = client.parse()?;
        let to = if client.is_ipv4() {
            server
        } else {
            "[::1]:8080".parse()?
        };
        tcp.write_all(&proxy_header(client, to)).await?;
    }
    let mut options = support::options(Mode::Full);
    options.spectators = SpectatorPolicy::Off;
    let body = serde_json::to_value(options)?;
    support::http_on(tcp, server, "POST", CREATE_ROOM_PATH, Some(&body), None).await
}

fn loopback(last: u8) -> IpAddr {
    IpAddr::from([127, 0, 0, last])
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_client_has_its_own_limits() -> Result<()> {
    let mut config = evr_server::Config::for_tests(support::temp_dir("front-door-proxy"));
    config.rooms_per_minute = 2;
    config.trusted_proxies = vec!["127.0.0.1/32".parse()?];
    let server = support::start_with(config).await?;
    let proxy = loopback(1);
    let status = |r: Result<(u16, String)>| r.map(|(s, _)| s).unwrap_or(0);

    // one client spends its two rooms a minute; the proxy's other clients create theirs
    for client in ["203.0.113.1:4000", "203.0.113.1:4001"] {
        assert_eq!(
            status(create_room(server.addr, proxy, Some(client)).await),
            201,
            "{client}"
        );
    }
    let (code, body) = create_room(server.addr, proxy, Some("203.0.113.1:4002")).await?;
    assert_eq!(code, 429, "the third room of 203.0.113.1: {body}");
    assert!(body.contains("too_many_rooms"), "{body}");
    assert_eq!(
        status(create_room(server.addr, proxy, Some("203.0.113.2:4000")).await),
        201
    );
    // the proxy's own requests (no header: an operator on its host) count as the proxy's
    assert_eq!(status(create_room(server.addr, proxy, None).await), 201);

    // an IPv6 client is its /64: any address in it shares the limit, the next /64 does not
    for client in ["[2001:db8:5:6::1]:4000", "[2001:db8:5:6:ffff::2]:4000"] {
        assert_eq!(
            status(create_room(server.addr, proxy, Some(client)).await),
            201,
            "{client}"
        );
    }
    assert_eq!(
        status(create_room(server.addr, proxy, Some("[2001:db8:5:6:1::3]:4000")).await),
        429
    );
    assert_eq!(
        status(create_room(server.addr, proxy, Some("[2001:db8:5:7::1]:4000")).await),
        201
    );

    // a peer that is not a trusted proxy cannot say who it is: its header is no HTTP
    let forged = create_room(server.addr, loopback(2), Some("203.0.113.3:4000")).await;
    ensure!(status(forged) != 201, "a header from an untrusted peer was taken");
    // and without one it is its own client, with its own limit
    assert_eq!(status(create_room(server.addr, loopback(2), None).await), 201);
    server.stop().await
}

/// The node's own process, with `nofile` descriptors at most (a common soft limit: 1,024).
struct LimitedNode {
    addr: SocketAddr,
    /// killed on drop
    _child: tokio::process::Child,
}

impl LimitedNode {
    async fn start(nofile: u32, log: &std::path::Path) -> Result<LimitedNode> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse()?;
        let data_dir = support::temp_dir("front-door-slow");
        let child = tokio::process::Command::new("prlimit")
            .arg(format!("--nofile={nofile}:{nofile}"))
            .arg(env!("CARGO_BIN_EXE_evr-server"))
            .args(["--bind", &addr.to_string()])
            .arg("--data-dir")
            .arg(&data_dir)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(log)?)
            .kill_on_drop(true)
            .spawn()
            .context("prlimit (util-linux)")?;
        for _ in 0..400 {
            if let Ok((200, _)) = support::http(addr, "GET", "/readyz", None).await {
                return Ok(LimitedNode { addr, _child: child });
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        bail!("the node did not start (log: {})", log.display())
    }
}

/// How a slow connection behaves.
#[derive(Clone, Copy)]
enum Slowness {
    /// Connects and says nothing.
    Silent,
    /// Sends its headers a byte a second.
    TrickledHeaders,
    /// Sends its headers, then its body a byte a second.
    TrickledBody,
}

/// What became of one slow connection: refused at once (429), or held and then let go by the
/// node (after so long), or still held at the end.
#[derive(Debug, PartialEq)]
enum Fate {
    Refused,
    LetGo(Duration),
    Held,
}

async fn slow_client(from: IpAddr, node: SocketAddr, slowness: Slowness, until: Instant) -> Result<Fate> {
    let mut tcp = support::connect_from(from, node).await?;
    let started = Instant::now();
    let (head, tail): (&[u8], &[u8]) = match slowness {
        Slowness::Silent => (b"", b""),
        Slowness::TrickledHeaders => (
            b"",
            b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        ),
        Slowness::TrickledBody => (
            b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 900\r\n\r\n",
            b"{\"options\":                                                                 ",
        ),
    };
    let _ = tcp.write_all(head).await;
    let mut next = tail.iter();
    let mut answer = Vec::new();
    let mut buf = [0u8; 512];
    let reset = loop {
        tokio::select! {
            read = tcp.read(&mut buf) => match read {
                Ok(0) => break false,
                Err(_) => break true,
                Ok(n) => answer.extend_from_slice(&buf[..n]),
            },
            _ = tokio::time::sleep(Duration::from_secs(1)) => {
                if Instant::now() >= until {
                    return Ok(Fate::Held);
                }
                if let Some(byte) = next.next() {
                    let _ = tcp.write_all(std::slice::from_ref(byte)).await;
                }
            }
        }
    };
    let answer = String::from_utf8_lossy(&answer);
    if answer.starts_with("HTTP/1.1 429") && answer.contains("\"code\":\"rate_limited\"") {
        return Ok(Fate::Refused);
    }
    // A refused connection that had sent its request's start is reset (bytes unread at its
    // close) and may be so before its 429 is read here; one the node held and let go was read
    // to its end (a FIN, after an answer or none).
    if reset && answer.is_empty() {
        return Ok(Fate::Refused);
    }
    Ok(Fate::LetGo(started.elapsed()))
}

/// The connections the node says it holds (`evr_tcp_connections`), asked from 127.0.0.1.
async fn connections_held(addr: SocketAddr) -> Result<u64> {
    let tcp = support::connect_from(loopback(1), addr).await?;
    let read = support::http_on(tcp, addr, "GET", "/metrics", None, None);
    let (_, metrics) = tokio::time::timeout(Duration::from_secs(5), read).await??;
    let held = metrics
        .lines()
        .find_map(|l| l.strip_prefix("evr_tcp_connections "))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .context("no evr_tcp_connections")?;
    Ok(held as u64)
}

/// 2,000 slow connections from one address against a node whose process may hold 1,024
/// descriptors: the node holds at most its share per client (256) and answers the rest `429` at
/// once; `/healthz` from another address is answered throughout; and the node lets every slow
/// connection it held go within its deadlines (headers 10 s, a body 10 s more).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_connections_from_one_client_leave_the_node_answering_everyone_else() -> Result<()> {
    const SLOW: usize = 2_000;
    let log = support::temp_dir("front-door-slow-log");
    let node = LimitedNode::start(1024, &log).await?;
    let addr = node.addr;
    let attacker = loopback(9);
    let until = Instant::now() + Duration::from_secs(40);

    let opened = Arc::new(AtomicUsize::new(0));
    let mut slow = Vec::new();
    for i in 0..SLOW {
        let slowness = [Slowness::Silent, Slowness::TrickledHeaders, Slowness::TrickledBody][i % 3];
        let opened = opened.clone();
        slow.push(tokio::spawn(async move {
            let fate = slow_client(attacker, addr, slowness, until).await;
            opened.fetch_add(1, Ordering::Relaxed);
            fate
        }));
        // at a pace the listen queue (1,024) keeps up with: past it, the kernel may complete a
        // client's handshake that the node never sees (a silent client would wait on it forever)
        if i % 50 == 49 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    // another client's health checks, every 250 ms until every slow connection has its fate, and
    // the connections the node says it holds (`evr_tcp_connections`, counted every second)
    let mut checks = 0;
    let mut failures = Vec::new();
    let mut most_held = 0u64;
    while opened.load(Ordering::Relaxed) < SLOW && Instant::now() < until {
        let get = |path: &'static str| async move {
            let tcp = support::connect_from(loopback(1), addr).await?;
            support::http_on(tcp, addr, "GET", path, None, None).await
        };
        match tokio::time::timeout(Duration::from_secs(5), get("/healthz")).await {
            Ok(Ok((200, _))) => {}
            other => failures.push(format!("{:?}", other.map(|r| r.map(|(s, _)| s)))),
        }
        most_held = most_held.max(connections_held(addr).await.unwrap_or(0));
        checks += 1;
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    // every slow connection the node held has been let go (the gauge is counted every second)
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let held_at_the_end = connections_held(addr).await?;
    let mut fates = Vec::new();
    for task in slow {
        fates.push(task.await??);
    }
    let refused = fates.iter().filter(|f| **f == Fate::Refused).count();
    let held: Vec<&Fate> = fates.iter().filter(|f| **f != Fate::Refused).collect();
    let still_held = held.iter().filter(|f| ***f == Fate::Held).count();
    let longest = held
        .iter()
        .filter_map(|f| match f {
            Fate::LetGo(d) => Some(*d),
            _ => None,
        })
        .max()
        .unwrap_or_default();
    drop(node);
    let log = std::fs::read_to_string(&log).unwrap_or_default();

    ensure!(
        failures.is_empty(),
        "{} of {checks} health checks failed: {failures:?}",
        failures.len()
    );
    ensure!(checks >= 20, "only {checks} health checks ran");
    // one client's 256 and the health checker's one or two
    ensure!(most_held <= 256 + 2, "the node held {most_held} connections at once");
    ensure!(
        most_held >= 200,
        "the node said it held {most_held} connections at most: is the gauge read?"
    );
    ensure!(
        refused >= SLOW - 256 - 20,
        "only {refused} connections were refused ({} let go)",
        held.len()
    );
    // (a client may still wait on a handshake the node never saw: the kernel's, not the node's)
    ensure!(
        held_at_the_end <= 2,
        "the node still held {held_at_the_end} connections ({still_held} clients waiting after 40 s)"
    );
    // headers within 10 s, then a body within 10 s more: let go by 20 s (and the machine's slack)
    ensure!(
        longest < Duration::from_secs(35),
        "a slow connection was held {longest:?}"
    );
    ensure!(
        log.matches("cannot accept").count() <= 3,
        "the accept errors flooded the log:\n{log}"
    );
    Ok(())
}

/// `/metrics` is the operator's: the machine itself reads it, a visitor (directly or through the
/// trusted proxy) is told there is nothing there.
#[tokio::test]
async fn metrics_answer_the_machine_and_nobody_else() -> Result<()> {
    let mut config = evr_server::Config::for_tests(support::temp_dir("front-door-metrics"));
    config.trusted_proxies = vec!["127.0.0.1/32".parse()?];
    let server = support::start_with(config).await?;
    let get = |from: u8, client: Option<&'static str>| async move {
        let mut tcp = support::connect_from(loopback(from), server.addr).await?;
        if let Some(client) = client {
            tcp.write_all(&proxy_header(client.parse()?, server.addr)).await?;
        }
        support::http_on(tcp, server.addr, "GET", "/metrics", None, None).await
    };
    // a player connected: the node has a metric to show whichever tests ran before in this process
    // (the recorder is the process's), and whatever its once-a-second gauges have counted yet
    let seats = support::create_and_join(server.addr, Mode::Full).await?;
    let (_player, _) = support::Client::hello(server.addr, &seats.code, Some(&seats.creator_token), None).await?;
    let (status, body) = get(1, None).await?;
    assert_eq!(status, 200);
    assert!(body.contains("evr_connections"), "{body}");
    for (from, client) in [(1, Some("203.0.113.5:4000")), (2, None)] {
        let (status, body) = get(from, client).await?;
        assert_eq!(status, 404, "from 127.0.0.{from} as {client:?}: {body}");
        assert!(
            body.contains("\"code\":\"not_found\"") && !body.contains("evr_"),
            "{body}"
        );
    }
    server.stop().await
}

/// Each archive and replay plays a whole game again: a client has so many a minute, and another
/// client is not counted with it.
#[tokio::test]
async fn replays_are_bounded_per_client() -> Result<()> {
    let mut config = evr_server::Config::for_tests(support::temp_dir("front-door-replays"));
    config.replays_per_minute = 3;
    let server = support::start_with(config).await?;
    let seats = support::create_and_join(server.addr, Mode::Full).await?;
    let path = format!("/api/rooms/{}/games", seats.code);
    let get = |from: u8| {
        let path = path.clone();
        async move {
            let tcp = support::connect_from(loopback(from), server.addr).await?;
            support::http_on(tcp, server.addr, "GET", &path, None, None).await
        }
    };
    for _ in 0..3 {
        assert_eq!(get(1).await?.0, 200);
    }
    let (status, body) = get(1).await?;
    assert_eq!(status, 429, "{body}");
    assert!(body.contains("\"code\":\"rate_limited\""), "{body}");
    let steps = format!("/api/rooms/{}/games/1/steps", seats.code);
    let (status, _) = support::http(server.addr, "GET", &steps, None).await?;
    assert_eq!(status, 429, "the steps of a game count with the archive");
    assert_eq!(get(2).await?.0, 200, "another client has its own");
    server.stop().await
}
