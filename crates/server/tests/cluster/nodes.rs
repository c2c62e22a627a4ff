//! The processes of a test cluster: `evr-server` nodes on a fresh PostgreSQL database and HAProxy
//! in front of them with the repository's own configuration. Every process is killed when its
//! handle is dropped, so a failing test leaves nothing running.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use anyhow::{Context, Result, bail};

use crate::support;

pub fn free_port() -> Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// The PostgreSQL server the tests may create databases on.
pub fn postgres_url() -> Result<String> {
    std::env::var("EVR_TEST_POSTGRES")
        .ok()
        .filter(|u| !u.is_empty())
        .context("EVR_TEST_POSTGRES is not set: run these tests through scripts/test.sh")
}

/// Waits until `GET path` on `addr` answers 200.
pub async fn wait_ready(addr: SocketAddr, path: &str) -> Result<()> {
    for _ in 0..400 {
        if let Ok((200, _)) = support::http(addr, "GET", path, None).await {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    bail!("{addr}{path} did not become ready")
}

/// One `evr-server` process (started again after a kill on the same port).
pub struct Node {
    pub addr: SocketAddr,
    store: String,
    extra: Vec<String>,
    log: PathBuf,
    child: Option<Child>,
}

impl Node {
    pub fn new(store: &str, extra: &[&str], logs: &std::path::Path, name: &str) -> Result<Node> {
        Ok(Node {
            addr: format!("127.0.0.1:{}", free_port()?).parse()?,
            store: store.to_string(),
            extra: extra.iter().map(|s| s.to_string()).collect(),
            log: logs.join(format!("{name}.log")),
            child: None,
        })
    }

    pub async fn start(&mut self) -> Result<()> {
        let log = std::fs::OpenOptions::new().create(true).append(true).open(&self.log)?;
        let child = Command::new(env!("CARGO_BIN_EXE_evr-server"))
            .args(["--bind", &self.addr.to_string(), "--store", &self.store])
            // scripted players act far faster than people, and all come from 127.0.0.1
            .args([
                "--messages-per-second",
                "10000",
                "--max-connections-per-client",
                "100000",
                // the tests check games' replays by the hundred
                "--replays-per-minute",
                "1000000",
            ])
            // a test may set the room limit itself
            .args(
                ["--rooms-per-minute", "100000"]
                    .iter()
                    .filter(|_| !self.extra.iter().any(|a| a == "--rooms-per-minute")),
            )
            // HAProxy (docker/haproxy.cfg) says who each client is, from 127.0.0.1
            .args(["--trusted-proxies", "127.0.0.1"])
            .args(&self.extra)
            // the server logs to stdout; EVR_NODE_LOG=info (or debug) tells more when a test fails
            .env("RUST_LOG", std::env::var("EVR_NODE_LOG").unwrap_or("warn".into()))
            .stdout(log.try_clone()?)
            .stderr(log)
            .spawn()?;
        self.child = Some(child);
        wait_ready(self.addr, "/readyz").await
    }

    /// SIGKILL: no goodbye, no flush.
    pub fn kill(&mut self) -> Result<()> {
        if let Some(mut c) = self.child.take() {
            c.kill()?;
            c.wait()?;
        }
        Ok(())
    }

    pub fn is_running(&self) -> bool {
        self.child.is_some()
    }

    /// SIGTERM, as an operator stops a node: it starts to drain (a second one ends the drain).
    pub fn sigterm(&self) -> Result<()> {
        let child = self.child.as_ref().context("the node is not running")?;
        let sent = Command::new("kill").args(["-TERM", &child.id().to_string()]).status()?;
        anyhow::ensure!(sent.success(), "kill -TERM {}", child.id());
        Ok(())
    }

    /// Whether the node's process has not exited (yet).
    pub fn still_running(&mut self) -> Result<bool> {
        match &mut self.child {
            Some(child) => Ok(child.try_wait()?.is_none()),
            None => Ok(false),
        }
    }

    /// Waits (at most `within`) until the node has exited; its exit status.
    pub async fn exited(&mut self, within: Duration) -> Result<std::process::ExitStatus> {
        let mut child = self.child.take().context("the node is not running")?;
        let deadline = std::time::Instant::now() + within;
        loop {
            if let Some(status) = child.try_wait()? {
                return Ok(status);
            }
            if std::time::Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                bail!("{} did not exit within {within:?}", self.addr);
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.kill();
    }
}

/// Three nodes started on `urls` (one store URL each) and HAProxy in front of them, logging
/// into a fresh directory named after `test`.
pub async fn cluster(test: &str, urls: [&str; 3]) -> Result<([Node; 3], Front)> {
    cluster_with(test, urls, &[]).await
}

/// [`cluster`], each node started with the flags `extra` too.
pub async fn cluster_with(test: &str, urls: [&str; 3], extra: &[&str]) -> Result<([Node; 3], Front)> {
    let logs = support::temp_dir(test);
    std::fs::create_dir_all(&logs)?;
    let mut nodes = [
        Node::new(urls[0], extra, &logs, "node1")?,
        Node::new(urls[1], extra, &logs, "node2")?,
        Node::new(urls[2], extra, &logs, "node3")?,
    ];
    for n in &mut nodes {
        n.start().await?;
    }
    let front = Front::start(&nodes, &logs).await?;
    Ok((nodes, front))
}

/// The value of the metric line starting with `name` on `node` (0 while it was never recorded:
/// a counter or gauge appears with its first change).
pub async fn metric(node: &Node, name: &str) -> Result<u64> {
    let (_, metrics) = support::http(node.addr, "GET", "/metrics", None).await?;
    Ok(metrics
        .lines()
        .find(|l| l.starts_with(name))
        .and_then(|l| l.split_whitespace().last())
        .and_then(|v| v.parse::<f64>().ok())
        .map_or(0, |v| v as u64))
}

/// A node's seated players connected now.
pub const PLAYERS: &str = "evr_connections{role=\"player\"}";

/// HAProxy with `docker/haproxy.cfg` in front of three nodes.
pub struct Front {
    pub addr: SocketAddr,
    child: Child,
    log: PathBuf,
}

impl Front {
    pub async fn start(nodes: &[Node; 3], logs: &std::path::Path) -> Result<Front> {
        let config = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docker/haproxy.cfg");
        let addr: SocketAddr = format!("127.0.0.1:{}", free_port()?).parse()?;
        let child = Command::new("haproxy")
            .args(["-db", "-f"])
            .arg(&config)
            .env("EVR_HAPROXY_BIND", addr.to_string())
            .env("EVR_NODE1", nodes[0].addr.to_string())
            .env("EVR_NODE2", nodes[1].addr.to_string())
            .env("EVR_NODE3", nodes[2].addr.to_string())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(logs.join("haproxy.log"))?)
            .spawn()
            .context("starting haproxy (is it installed? scripts/test.sh installs it)")?;
        let front = Front {
            addr,
            child,
            log: logs.join("haproxy.log"),
        };
        wait_ready(addr, "/readyz").await?;
        Ok(front)
    }
}

impl Front {
    /// How many times HAProxy has said that `node` (node1…node3) went `state` (`UP` or `DOWN`):
    /// it logs every change of a server's state, on stderr.
    pub fn times_marked(&self, node: usize, state: &str) -> Result<usize> {
        let log = std::fs::read_to_string(&self.log)?;
        let line = format!("Server nodes/node{node} is {state}");
        // (each change is written twice: with and without its "[WARNING] (pid)" prefix)
        Ok(log
            .lines()
            .filter(|l| l.starts_with("[WARNING]") && l.contains(&line))
            .count())
    }
}

impl Drop for Front {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
