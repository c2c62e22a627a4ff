//! A minimal HTTP/1.1 client for the server's JSON endpoints (no client library needed); the load
//! generator uses it too.

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, Result, anyhow};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

async fn request(addr: SocketAddr, method: &str, path: &str, body: &str) -> Result<(u16, String)> {
    let mut stream = TcpStream::connect(addr).await?;
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(req.as_bytes()).await?;
    let mut buf = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut buf)).await??;
    let text = String::from_utf8(buf)?;
    let (head, rest) = text.split_once("\r\n\r\n").ok_or_else(|| anyhow!("no HTTP head"))?;
    let status = head.split_whitespace().nth(1).context("no status")?.parse()?;
    Ok((status, rest.to_string()))
}

pub async fn get(addr: SocketAddr, path: &str) -> Result<(u16, String)> {
    request(addr, "GET", path, "").await
}

pub async fn post(addr: SocketAddr, path: &str, body: &Value) -> Result<(u16, Value)> {
    let (status, text) = request(addr, "POST", path, &body.to_string()).await?;
    let json = serde_json::from_str(&text).with_context(|| format!("{status}: {text}"))?;
    Ok((status, json))
}
