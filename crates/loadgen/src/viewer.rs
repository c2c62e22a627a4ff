//! One of a match's three connections (a seat's or the spectator's) and what it reads of each
//! frame; with `--reconnect`, how it connects again after a drop: the browser's delays, its last
//! `seq` in the hello, the connection made by a task of its own (so that the other viewers'
//! frames meanwhile never cancel a half-made connection).

use std::net::SocketAddr;
use std::time::Instant;

use anyhow::{Result, anyhow, bail};
use evr_bot_client::{Connection, Dialer};
use evr_protocol::ErrorCode;
use evr_rules::Action;
use tokio::task::JoinHandle;

/// The few fields of a server message the players need, read straight from the frame; the rest
/// (whole views, log entries) is skipped, not built.
#[derive(serde::Deserialize)]
pub struct Frame {
    #[serde(rename = "type")]
    pub kind: String,
    pub seq: Option<u64>,
    pub code: Option<ErrorCode>,
    pub message: Option<String>,
    /// An ack's (or a refusal's) action.
    pub action_id: Option<String>,
    /// A welcome's whole view.
    pub view: Option<ViewLite>,
    /// An update's changes to it.
    pub changes: Option<ChangesLite>,
}

#[derive(serde::Deserialize, Default)]
pub struct ViewLite {
    pub legal_actions: Vec<Action>,
    pub outcome: Option<serde::de::IgnoredAny>,
}

/// What an update changed of the two fields the players read (absent: unchanged).
#[derive(serde::Deserialize, Default)]
pub struct ChangesLite {
    legal_actions: Option<Vec<Action>>,
    #[serde(default, deserialize_with = "present")]
    outcome: Option<Option<serde::de::IgnoredAny>>,
}

/// `Some` whenever the field is present, even as `null` (it became empty).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<serde::de::IgnoredAny>>, D::Error> {
    serde::Deserialize::deserialize(d).map(Some)
}

impl ViewLite {
    pub fn apply(&mut self, changes: ChangesLite) {
        if let Some(legal) = changes.legal_actions {
            self.legal_actions = legal;
        }
        if let Some(outcome) = changes.outcome {
            self.outcome = outcome;
        }
    }
}

pub fn parse(text: Option<String>) -> Result<Frame> {
    let text = text.ok_or_else(|| anyhow!("closed by the server"))?;
    Ok(serde_json::from_str(&text)?)
}

/// Connects and says hello (with `last_seq` after a drop); returns the connection and its welcome.
pub async fn connect(
    dialer: Dialer,
    addr: SocketAddr,
    code: String,
    token: Option<String>,
    last_seq: Option<u32>,
) -> Result<(Connection, Frame)> {
    let mut ws = Connection::hello_via(dialer, addr, &code, token.as_deref(), last_seq).await?;
    loop {
        let frame = parse(ws.recv_text().await?)?;
        match frame.kind.as_str() {
            "welcome" => return Ok((ws, frame)),
            "error" => bail!("hello refused: {:?} {:?}", frame.code, frame.message),
            _ => {}
        }
    }
}

/// Where a viewer connects.
#[derive(Clone)]
pub struct Target {
    pub dialer: Dialer,
    pub addr: SocketAddr,
    pub code: String,
}

/// A connection's state.
pub enum Link {
    /// (boxed: a connection is ~1 kB, the other states a few words)
    Up(Box<Connection>),
    /// Lost: connect again at `at`, after `failures` failed attempts in a row.
    Down { at: Instant, failures: u32 },
    /// Connecting.
    Dialing {
        task: JoinHandle<Result<(Connection, Frame)>>,
        failures: u32,
    },
}

impl Drop for Link {
    fn drop(&mut self) {
        if let Link::Dialing { task, .. } = self {
            task.abort();
        }
    }
}

/// What happened on a viewer's connection.
pub enum Event {
    Frame(Frame),
    /// The connection dropped (closed, reset, or a frame that is not JSON).
    Lost(String),
    /// Connected again: the connection and its welcome.
    Resumed(Box<Connection>, Frame),
    /// A new connection failed; `failures` in a row so far.
    DialFailed {
        why: String,
        failures: u32,
    },
}

/// A seat (with its token) or the spectator.
pub struct Viewer {
    pub token: Option<String>,
    pub link: Link,
    pub seq: u64,
    pub view: ViewLite,
    /// Connections lost (and made again).
    pub reconnects: u32,
}

impl Viewer {
    pub fn new(token: Option<String>, ws: Connection, welcome: Frame) -> Viewer {
        Viewer {
            token,
            link: Link::Up(Box::new(ws)),
            seq: welcome.seq.unwrap_or(0),
            view: welcome.view.unwrap_or_default(),
            reconnects: 0,
        }
    }

    pub fn is_up(&self) -> bool {
        matches!(self.link, Link::Up(_))
    }

    /// The next thing that happens on this viewer's connection (cancel-safe: dropped before it
    /// is ready, it loses nothing).
    pub async fn next_event(&mut self, target: &Target) -> Event {
        loop {
            match &mut self.link {
                Link::Up(ws) => {
                    return match ws.recv_text().await {
                        Ok(Some(text)) => match serde_json::from_str(&text) {
                            Ok(frame) => Event::Frame(frame),
                            Err(e) => Event::Lost(format!("a frame that is not a message: {e}")),
                        },
                        Ok(None) => Event::Lost("closed by the server".into()),
                        Err(e) => Event::Lost(e.to_string()),
                    };
                }
                Link::Down { at, failures } => {
                    let (at, failures) = (*at, *failures);
                    tokio::time::sleep_until(at.into()).await;
                    let task = tokio::spawn(connect(
                        target.dialer,
                        target.addr,
                        target.code.clone(),
                        self.token.clone(),
                        u32::try_from(self.seq).ok(),
                    ));
                    self.link = Link::Dialing { task, failures };
                }
                Link::Dialing { task, failures } => {
                    let failures = *failures;
                    let why = match task.await {
                        Ok(Ok((ws, welcome))) => return Event::Resumed(Box::new(ws), welcome),
                        Ok(Err(e)) => format!("{e:#}"),
                        Err(e) => e.to_string(),
                    };
                    return Event::DialFailed {
                        why,
                        failures: failures + 1,
                    };
                }
            }
        }
    }

    /// Connects again after `delay`.
    pub fn retry_in(&mut self, delay: std::time::Duration, failures: u32) {
        self.link = Link::Down {
            at: Instant::now() + delay,
            failures,
        };
    }

    /// Takes the welcome of a new connection.
    pub fn resume(&mut self, ws: Box<Connection>, welcome: Frame) {
        self.link = Link::Up(ws);
        self.seq = welcome.seq.unwrap_or(self.seq);
        self.view = welcome.view.unwrap_or_default();
    }

    pub async fn send(&mut self, msg: &evr_protocol::ClientMsg) -> Result<()> {
        match &mut self.link {
            Link::Up(ws) => Ok(ws.send(msg).await?),
            _ => bail!("not connected"),
        }
    }
}
