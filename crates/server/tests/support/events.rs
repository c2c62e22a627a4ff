//! A page's account event stream (`GET /api/account/events`) as a test reads it: the raw
//! Server-Sent Events, counted by name.

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, Result, bail, ensure};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Far longer than an event takes on one node (milliseconds).
const WITHIN: Duration = Duration::from_secs(10);
/// The events `count`, `until` and `settled` count; `*_of` count another.
const CHALLENGES: &str = "challenges";

/// An open event stream, as a page's `EventSource` holds it.
pub struct Events {
    tcp: TcpStream,
    /// Everything read after the head.
    pub read: String,
}

impl Events {
    /// Opens the stream of the session's account, which must be taken.
    pub async fn signed_in(addr: SocketAddr, session: &str) -> Result<Events> {
        Events::open(addr, Some(session)).await?.map_err(anyhow::Error::msg)
    }

    /// Opens the stream of the session's account: `Err` with the answer when refused.
    pub async fn open(addr: SocketAddr, session: Option<&str>) -> Result<std::result::Result<Events, String>> {
        let mut tcp = TcpStream::connect(addr).await?;
        let cookie = session
            .map(|s| format!("Cookie: evr_session={s}\r\n"))
            .unwrap_or_default();
        let head =
            format!("GET /api/account/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n{cookie}\r\n");
        tcp.write_all(head.as_bytes()).await?;
        let mut read = String::new();
        let mut buf = [0u8; 4096];
        let head_end = loop {
            if let Some(i) = read.find("\r\n\r\n") {
                break i;
            }
            let n = tokio::time::timeout(WITHIN, tcp.read(&mut buf))
                .await
                .context("no answer")??;
            ensure!(n > 0, "closed before an answer: {read}");
            read.push_str(&String::from_utf8_lossy(&buf[..n]));
        };
        if !read.starts_with("HTTP/1.1 200") {
            return Ok(Err(read));
        }
        ensure!(read[..head_end].contains("text/event-stream"), "{read}");
        let rest = read[head_end + 4..].to_string();
        Ok(Ok(Events { tcp, read: rest }))
    }

    /// The `challenges` events told so far.
    pub fn count(&self) -> usize {
        self.count_of(CHALLENGES)
    }

    /// The events named `name` told so far.
    pub fn count_of(&self, name: &str) -> usize {
        self.read.matches(&format!("event: {name}\n")).count()
    }

    /// Waits until the stream has told `n` `challenges` events in all.
    pub async fn until(&mut self, n: usize) -> Result<()> {
        self.until_of(CHALLENGES, n).await
    }

    /// Waits until the stream has told `n` events named `name` in all.
    pub async fn until_of(&mut self, name: &str, n: usize) -> Result<()> {
        let deadline = tokio::time::Instant::now() + WITHIN;
        let mut buf = [0u8; 4096];
        while self.count_of(name) < n {
            let read = tokio::time::timeout_at(deadline, self.tcp.read(&mut buf)).await;
            match read {
                Ok(Ok(0)) => bail!(
                    "the stream ended after {} {name} events: {}",
                    self.count_of(name),
                    self.read
                ),
                Ok(Ok(k)) => self.read.push_str(&String::from_utf8_lossy(&buf[..k])),
                Ok(Err(e)) => return Err(e.into()),
                Err(_) => bail!(
                    "{} {name} events in {} s, {n} expected: {:?}",
                    self.count_of(name),
                    WITHIN.as_secs(),
                    self.read
                ),
            }
        }
        Ok(())
    }

    /// The `challenges` events told so far, after reading what arrived within `settle`.
    pub async fn settled(&mut self, settle: Duration) -> Result<usize> {
        self.read_for(settle).await?;
        Ok(self.count())
    }

    /// Reads what arrives within `settle`.
    pub async fn read_for(&mut self, settle: Duration) -> Result<()> {
        let mut buf = [0u8; 4096];
        while let Ok(read) = tokio::time::timeout(settle, self.tcp.read(&mut buf)).await {
            match read? {
                0 => break,
                k => self.read.push_str(&String::from_utf8_lossy(&buf[..k])),
            }
        }
        Ok(())
    }
}
