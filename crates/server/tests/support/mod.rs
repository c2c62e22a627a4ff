//! Test harness: a real server on 127.0.0.1:0, a minimal HTTP client and WebSocket clients.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use futures_util::{SinkExt, StreamExt};
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_util::sync::CancellationToken;

pub struct TestServer {
    pub addr: SocketAddr,
    pub data_dir: PathBuf,
    pub shutdown: CancellationToken,
    pub task: tokio::task::JoinHandle<Result<(), evr_server::ServerError>>,
}

/// A fresh, empty data directory under the target dir.
pub fn temp_dir(name: &str) -> PathBuf {
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let n = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let dir = base.join(format!("{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

pub async fn start(name: &str) -> Result<TestServer> {
    start_with(evr_server::Config::for_tests(temp_dir(name))).await
}

pub async fn start_with(config: evr_server::Config) -> Result<TestServer> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let shutdown = CancellationToken::new();
    let data_dir = config.data_dir.clone();
    let task = tokio::spawn(evr_server::run(listener, config, shutdown.clone()));
    Ok(TestServer {
        addr,
        data_dir,
        shutdown,
        task,
    })
}

impl TestServer {
    pub async fn stop(self) -> Result<()> {
        self.shutdown.cancel();
        self.task.await??;
        Ok(())
    }
}

/// A minimal HTTP/1.1 request (no client library needed for two JSON endpoints).
pub async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> Result<(u16, String)> {
    let mut stream = TcpStream::connect(addr).await?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(req.as_bytes()).await?;
    let mut buf = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut buf)).await??;
    let text = String::from_utf8(buf)?;
    let (head, rest) = text.split_once("\r\n\r\n").ok_or_else(|| anyhow!("no HTTP head"))?;
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .ok_or_else(|| anyhow!("no status"))?
        .parse()?;
    let body = if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
        dechunk(rest)?
    } else {
        rest.to_string()
    };
    Ok((status, body))
}

fn dechunk(mut s: &str) -> Result<String> {
    let mut out = String::new();
    loop {
        let (size, rest) = s.split_once("\r\n").ok_or_else(|| anyhow!("bad chunk"))?;
        let n = usize::from_str_radix(size.trim(), 16)?;
        if n == 0 {
            return Ok(out);
        }
        out.push_str(&rest[..n]);
        s = &rest[n + 2..];
    }
}

pub async fn post_json(addr: SocketAddr, path: &str, body: Value) -> Result<(u16, Value)> {
    let (status, text) = http(addr, "POST", path, Some(&body)).await?;
    Ok((
        status,
        serde_json::from_str(&text).with_context(|| format!("body {text:?}"))?,
    ))
}

/// A created room with both seats: `(code, creator token, creator faction, guest token)`.
pub struct Seats {
    pub code: String,
    pub creator_token: String,
    pub creator: String,
    pub guest_token: String,
    pub guest: String,
}

pub async fn create_and_join(addr: SocketAddr, mode: &str) -> Result<Seats> {
    let (status, created) = post_json(
        addr,
        "/api/rooms",
        json!({"side": "random", "mode": mode, "spectators": "anyone_with_link"}),
    )
    .await?;
    if status != 201 {
        bail!("create: {status} {created}");
    }
    let code = created["code"].as_str().ok_or_else(|| anyhow!("no code"))?.to_string();
    let invite_url = created["invite_url"].as_str().ok_or_else(|| anyhow!("no invite"))?;
    let invite = invite_url
        .split_once('#')
        .ok_or_else(|| anyhow!("no fragment"))?
        .1
        .to_string();
    let (status, joined) = post_json(addr, &format!("/api/rooms/{code}/join"), json!({ "invite": invite })).await?;
    if status != 200 {
        bail!("join: {status} {joined}");
    }
    Ok(Seats {
        code,
        creator_token: created["token"].as_str().unwrap_or_default().to_string(),
        creator: created["seat"].as_str().unwrap_or_default().to_string(),
        guest_token: joined["token"].as_str().unwrap_or_default().to_string(),
        guest: joined["seat"].as_str().unwrap_or_default().to_string(),
    })
}

pub type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// A WebSocket client that records every frame it receives.
pub struct Client {
    pub ws: Ws,
    pub frames: Vec<Value>,
    pub raw: Vec<String>,
}

impl Client {
    pub async fn connect(addr: SocketAddr, code: &str) -> Result<Client> {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws/{code}")).await?;
        Ok(Client {
            ws,
            frames: Vec::new(),
            raw: Vec::new(),
        })
    }

    /// Connects and says hello; returns the welcome.
    pub async fn hello(
        addr: SocketAddr,
        code: &str,
        token: Option<&str>,
        last_seq: Option<u32>,
    ) -> Result<(Client, Value)> {
        let mut c = Client::connect(addr, code).await?;
        c.send(json!({"type": "hello", "version": 1, "token": token, "last_seq": last_seq}))
            .await?;
        let w = c.recv_type("welcome").await?;
        Ok((c, w))
    }

    pub async fn send(&mut self, v: Value) -> Result<()> {
        self.send_text(v.to_string()).await
    }

    pub async fn send_text(&mut self, t: String) -> Result<()> {
        self.ws.send(Message::text(t)).await?;
        Ok(())
    }

    /// The next frame (JSON), or an error after a timeout or close.
    pub async fn recv(&mut self) -> Result<Value> {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(10), self.ws.next())
                .await
                .map_err(|_| anyhow!("timed out waiting for a frame"))?
                .ok_or_else(|| anyhow!("connection closed"))??;
            match msg {
                Message::Text(t) => {
                    let v: Value = serde_json::from_str(t.as_str())?;
                    self.raw.push(t.to_string());
                    self.frames.push(v.clone());
                    return Ok(v);
                }
                Message::Close(_) => bail!("connection closed by server"),
                _ => continue,
            }
        }
    }

    /// Skips frames until one of type `ty` (e.g. presence updates) arrives.
    pub async fn recv_type(&mut self, ty: &str) -> Result<Value> {
        loop {
            let v = self.recv().await?;
            if v["type"] == ty {
                return Ok(v);
            }
            if v["type"] == "error" && ty != "error" {
                bail!("expected {ty}, got error {v}");
            }
        }
    }

    /// Whether the server closed the connection (within a short time).
    pub async fn is_closed(&mut self) -> bool {
        loop {
            match tokio::time::timeout(Duration::from_secs(5), self.ws.next()).await {
                Ok(None) | Ok(Some(Err(_))) | Ok(Some(Ok(Message::Close(_)))) => return true,
                Ok(Some(Ok(_))) => continue,
                Err(_) => return false,
            }
        }
    }
}

/// Plays up to `steps` seeded random legal actions with two seated clients, one action at a time
/// (whoever can act), stopping when the game is over. Each action waits for its `ack` and for both
/// seats' `update` of it. `wa` and `wb` are the seats' welcomes. Returns the last seq and both views.
pub async fn play_random(
    a: &mut Client,
    b: &mut Client,
    wa: &Value,
    wb: &Value,
    steps: usize,
    seed: u64,
) -> Result<(u64, [Value; 2])> {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut views = [wa["view"].clone(), wb["view"].clone()];
    let mut seq = wa["seq"].as_u64().unwrap_or(0).max(wb["seq"].as_u64().unwrap_or(0));
    for step in 0..steps {
        if !views[0]["outcome"].is_null() {
            break;
        }
        let Some(i) = (0..2).find(|i| views[*i]["legal_actions"].as_array().is_some_and(|l| !l.is_empty())) else {
            bail!("nobody can act at seq {seq}");
        };
        let legal = views[i]["legal_actions"].as_array().cloned().unwrap_or_default();
        let action = legal[rng.random_range(0..legal.len())].clone();
        let c = if i == 0 { &mut *a } else { &mut *b };
        c.send(json!({"type": "action", "based_on": seq, "action_id": format!("p{seed}-{step}"), "action": action}))
            .await?;
        let ack = c.recv_type("ack").await?;
        seq = ack["seq"].as_u64().ok_or_else(|| anyhow!("ack without seq"))?;
        for (k, client) in [&mut *a, &mut *b].into_iter().enumerate() {
            loop {
                let m = client.recv().await?;
                if m["type"] == "update" && m["seq"].as_u64() == Some(seq) {
                    views[k] = m["view"].clone();
                    break;
                }
            }
        }
    }
    Ok((seq, views))
}
