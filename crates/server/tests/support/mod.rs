//! Test harness: a real server on 127.0.0.1:0, a minimal HTTP client and WebSocket clients, all
//! speaking the protocol's own types (`evr-protocol`); raw JSON only where a test sends what is not
//! a valid message on purpose.
#![allow(dead_code)]

use std::io::Read;
pub mod events;
pub mod passkey;
pub mod postgres;
pub mod processes;
pub mod restore_check;
pub mod seats;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail, ensure};
use evr_protocol::{
    ApiErrorBody, CREATE_ROOM_PATH, ClientMsg, CreatedRoom, ErrorCode, JoinRequest, JoinedRoom, PROTOCOL_VERSION,
    Presence, ReplayEyes, ReplaySteps, Role, RoomInfo, RoomOptions, ServerMsg, SideChoice, SpectatorPolicy,
    join_room_path, replay_steps_path, websocket_path,
};
use evr_rules::{Action, Faction, LogEntry, Mode, View};
use futures_util::{SinkExt, StreamExt};
use rand::{RngExt, SeedableRng};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
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
    http_as(addr, method, path, body, None).await
}

/// [`http`] with a seat token (`Authorization: Bearer`) when given.
pub async fn http_as(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
    token: Option<&str>,
) -> Result<(u16, String)> {
    http_on(TcpStream::connect(addr).await?, addr, method, path, body, token).await
}

/// A connection to `addr` from the loopback address `local` (any of 127.0.0.0/8 is this machine):
/// to the server, another client.
pub async fn connect_from(local: std::net::IpAddr, addr: SocketAddr) -> Result<TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(local, 0))?;
    Ok(socket.connect(addr).await?)
}

/// [`http_as`] on a connection already open (made with [`connect_from`], say).
pub async fn http_on(
    stream: TcpStream,
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
    token: Option<&str>,
) -> Result<(u16, String)> {
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let (status, _, body) = exchange_on(stream, addr, method, path, body, &auth).await?;
    Ok((status, body))
}

/// One JSON request on `stream` with the header lines `headers` (each ending in `\r\n`): the
/// status, the answer's head and its body (dechunked).
pub async fn exchange_on(
    mut stream: TcpStream,
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
    headers: &str,
) -> Result<(u16, String, String)> {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{headers}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
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
    Ok((status, head.to_string(), body))
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

/// `POST path` with a JSON body that may be deliberately wrong: the status and the JSON answer.
pub async fn post_raw(addr: SocketAddr, path: &str, body: Value) -> Result<(u16, Value)> {
    let (status, text) = http(addr, "POST", path, Some(&body)).await?;
    Ok((
        status,
        serde_json::from_str(&text).with_context(|| format!("body {text:?}"))?,
    ))
}

/// A typed answer on success; on refusal the protocol's error body, whose code must give the
/// status.
pub fn answer<T: DeserializeOwned>(status: u16, text: &str) -> Result<Result<T, (u16, ApiErrorBody)>> {
    if (200..300).contains(&status) {
        return Ok(Ok(
            serde_json::from_str(text).with_context(|| format!("answer {text:?}"))?
        ));
    }
    let refusal: ApiErrorBody = serde_json::from_str(text).with_context(|| format!("error body {text:?}"))?;
    assert_eq!(
        status,
        refusal.code.http_status(),
        "the status is the code's: {refusal:?}"
    );
    Ok(Err((status, refusal)))
}

/// `POST path` with a protocol body: the typed answer on success, the protocol's error body
/// (with the status) on refusal.
pub async fn post<B: Serialize, T: DeserializeOwned>(
    addr: SocketAddr,
    path: &str,
    body: &B,
) -> Result<Result<T, (u16, ApiErrorBody)>> {
    let (status, text) = http(addr, "POST", path, Some(&serde_json::to_value(body)?)).await?;
    answer(status, &text)
}

/// Room options: a random side, spectators welcome, a friend as the opponent.
pub fn options(mode: Mode) -> RoomOptions {
    RoomOptions {
        side: SideChoice::Random,
        mode,
        spectators: SpectatorPolicy::AnyoneWithLink,
        opponent: None,
        reveal_at_end: false,
        clock: None,
        rated: false,
    }
}

/// `POST /api/rooms`, which must succeed.
pub async fn create_room(addr: SocketAddr, options: &RoomOptions) -> Result<CreatedRoom> {
    post(addr, CREATE_ROOM_PATH, options)
        .await?
        .map_err(|(status, e)| anyhow!("create: {status} {e:?}"))
}

/// `POST /api/rooms/{code}/join` with the invite secret (`None`: with no secret at all, as a
/// person who has only the room code would — which is refused).
pub async fn join_room(
    addr: SocketAddr,
    code: &str,
    invite: Option<&str>,
) -> Result<Result<JoinedRoom, (u16, ApiErrorBody)>> {
    let body = JoinRequest {
        invite: invite.map(str::to_string),
        join_code: None,
        name: None,
    };
    post(addr, &join_room_path(code), &body).await
}

/// `GET path`: the typed answer, or the protocol's error body (with the status).
pub async fn get<T: DeserializeOwned>(addr: SocketAddr, path: &str) -> Result<Result<T, (u16, ApiErrorBody)>> {
    let (status, text) = http(addr, "GET", path, None).await?;
    answer(status, &text)
}

/// The invite secret of a created room (the fragment of its invite link).
pub fn invite_secret(created: &CreatedRoom) -> Result<String> {
    let url = created.invite_url.as_deref().ok_or_else(|| anyhow!("no invite"))?;
    Ok(url.split_once('#').ok_or_else(|| anyhow!("no fragment"))?.1.to_string())
}

/// A created room with both seats taken.
#[derive(Clone, Debug)]
pub struct Seats {
    pub code: String,
    pub creator_token: String,
    pub creator: Faction,
    pub guest_token: String,
    pub guest: Faction,
}

pub async fn create_and_join(addr: SocketAddr, mode: Mode) -> Result<Seats> {
    create_and_join_with(addr, &options(mode)).await
}

/// A room with `options`, created and its free seat taken by invite.
pub async fn create_and_join_with(addr: SocketAddr, options: &RoomOptions) -> Result<Seats> {
    let created = create_room(addr, options).await?;
    let joined = join_room(addr, &created.code, Some(&invite_secret(&created)?))
        .await?
        .map_err(|(status, e)| anyhow!("join: {status} {e:?}"))?;
    Ok(Seats {
        code: created.code,
        creator_token: created.token,
        creator: created.seat,
        guest_token: joined.token,
        guest: joined.seat,
    })
}

/// An action message.
pub fn action(based_on: u32, action_id: impl Into<String>, action: Action) -> ClientMsg {
    ClientMsg::Action {
        based_on,
        action_id: action_id.into(),
        action,
    }
}

/// `hello` (with a seat token to play, without to watch).
pub fn hello(token: Option<&str>, last_seq: Option<u32>) -> ClientMsg {
    ClientMsg::Hello {
        version: PROTOCOL_VERSION,
        token: token.map(str::to_string),
        last_seq,
    }
}

/// A `welcome`, taken apart.
#[derive(Clone, Debug)]
pub struct Welcome {
    pub you: Role,
    pub room: RoomInfo,
    pub seq: u32,
    pub view: View,
    pub presence: Presence,
    pub log: Vec<LogEntry>,
    pub missed: Option<Vec<LogEntry>>,
}

pub type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// A WebSocket client that records every frame it receives, as sent (`raw`) and as read into the
/// protocol's `ServerMsg` (`frames`): every frame the server sends must be one.
pub struct Client {
    pub ws: Ws,
    pub frames: Vec<ServerMsg>,
    pub raw: Vec<String>,
    /// The view as of the latest welcome or update received: the welcome's, with every update's
    /// changes applied, as a client holds it.
    pub view: Option<View>,
}

impl Client {
    pub async fn connect(addr: SocketAddr, code: &str) -> Result<Client> {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}{}", websocket_path(code))).await?;
        Ok(Client {
            ws,
            frames: Vec::new(),
            raw: Vec::new(),
            view: None,
        })
    }

    /// Connects and says hello; returns the welcome.
    pub async fn hello(
        addr: SocketAddr,
        code: &str,
        token: Option<&str>,
        last_seq: Option<u32>,
    ) -> Result<(Client, Welcome)> {
        let mut c = Client::connect(addr, code).await?;
        c.send(&hello(token, last_seq)).await?;
        let w = c.recv_welcome().await?;
        Ok((c, w))
    }

    pub async fn send(&mut self, msg: &ClientMsg) -> Result<()> {
        self.send_text(serde_json::to_string(msg)?).await
    }

    /// Sends any text, e.g. a frame that is not a client message.
    pub async fn send_text(&mut self, t: String) -> Result<()> {
        self.ws.send(Message::text(t)).await?;
        Ok(())
    }

    /// The next message, or an error after a timeout or close.
    pub async fn recv(&mut self) -> Result<ServerMsg> {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(10), self.ws.next())
                .await
                .map_err(|_| anyhow!("timed out waiting for a frame"))?
                .ok_or_else(|| anyhow!("connection closed"))??;
            match msg {
                Message::Text(t) => {
                    let m: ServerMsg =
                        serde_json::from_str(t.as_str()).with_context(|| format!("not a server message: {t}"))?;
                    self.raw.push(t.to_string());
                    self.frames.push(m.clone());
                    match &m {
                        ServerMsg::Welcome { view, .. } => self.view = Some((**view).clone()),
                        ServerMsg::Update { changes, .. } => {
                            let view = self.view.as_mut().context("an update before any welcome")?;
                            view.apply_changes((**changes).clone());
                            // an update's log is its `events`: the view it made has none (as the
                            // engine's `view_without_log`), the welcome's log is extended apart
                            view.log.clear();
                        }
                        _ => {}
                    }
                    return Ok(m);
                }
                Message::Close(_) => bail!("connection closed by server"),
                _ => continue,
            }
        }
    }

    /// Skips messages until `pick` takes one. An error message fails the wait unless `pick` takes
    /// it.
    pub async fn recv_until<T>(&mut self, what: &str, mut pick: impl FnMut(ServerMsg) -> Option<T>) -> Result<T> {
        loop {
            let m = self.recv().await?;
            let error = matches!(m, ServerMsg::Error { .. }).then(|| format!("{m:?}"));
            if let Some(t) = pick(m) {
                return Ok(t);
            }
            if let Some(e) = error {
                bail!("expected {what}, got {e}");
            }
        }
    }

    pub async fn recv_welcome(&mut self) -> Result<Welcome> {
        self.recv_until("welcome", |m| match m {
            ServerMsg::Welcome {
                you,
                room,
                seq,
                view,
                presence,
                log,
                missed,
                ..
            } => Some(Welcome {
                you,
                room,
                seq,
                view: *view,
                presence,
                log,
                missed,
            }),
            _ => None,
        })
        .await
    }

    /// The next `update`: its seq and the view it made.
    pub async fn recv_update(&mut self) -> Result<(u32, View)> {
        let seq = self
            .recv_until("update", |m| match m {
                ServerMsg::Update { seq, .. } => Some(seq),
                _ => None,
            })
            .await?;
        Ok((seq, self.current_view()?))
    }

    /// Updates until the one with `seq`: the view it made.
    pub async fn recv_update_to(&mut self, seq: u32) -> Result<View> {
        self.recv_until("its update", |m| {
            matches!(m, ServerMsg::Update { seq: s, .. } if s == seq).then_some(())
        })
        .await?;
        self.current_view()
    }

    /// The view as of the latest welcome or update.
    pub fn current_view(&self) -> Result<View> {
        self.view.clone().context("no welcome yet")
    }

    /// The next `ack`: the seq it names.
    pub async fn recv_ack(&mut self) -> Result<u32> {
        self.recv_until("ack", |m| match m {
            ServerMsg::Ack { seq, .. } => Some(seq),
            _ => None,
        })
        .await
    }

    /// The next `error`: its code.
    pub async fn recv_error(&mut self) -> Result<ErrorCode> {
        self.recv_until("error", |m| match m {
            ServerMsg::Error { code, .. } => Some(code),
            _ => None,
        })
        .await
    }

    /// The next `room`: the room facts.
    pub async fn recv_room(&mut self) -> Result<RoomInfo> {
        self.recv_until("room", |m| match m {
            ServerMsg::Room { room } => Some(room),
            _ => None,
        })
        .await
    }

    /// Claims the win once the server allows it (the opponent away past the grace period), trying
    /// again every 200 ms while it answers `cannot_claim_win`, for 30 s at most: however long the
    /// server takes to notice the opponent's departure on a busy machine. The room facts after it.
    pub async fn claim_win_once_allowed(&mut self) -> Result<RoomInfo> {
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        loop {
            self.send(&ClientMsg::ClaimWin).await?;
            let answer = self
                .recv_until("room or error", |m| match m {
                    ServerMsg::Room { room } => Some(Ok(room)),
                    ServerMsg::Error { code, .. } => Some(Err(code)),
                    _ => None,
                })
                .await?;
            match answer {
                Ok(room) => return Ok(room),
                Err(ErrorCode::CannotClaimWin) if std::time::Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(code) => anyhow::bail!("the win could not be claimed: {code:?}"),
            }
        }
    }

    /// Presence messages until one satisfies `done`.
    pub async fn recv_presence_until(&mut self, done: impl Fn(&Presence) -> bool) -> Result<Presence> {
        self.recv_until("presence", |m| match m {
            ServerMsg::Presence { presence } if done(&presence) => Some(presence),
            _ => None,
        })
        .await
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
    wa: &Welcome,
    wb: &Welcome,
    steps: usize,
    seed: u64,
) -> Result<(u32, [View; 2])> {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut views = [wa.view.clone(), wb.view.clone()];
    let mut seq = wa.seq.max(wb.seq);
    for step in 0..steps {
        if views[0].outcome.is_some() {
            break;
        }
        let Some(i) = (0..2).find(|i| !views[*i].legal_actions.is_empty()) else {
            bail!("nobody can act at seq {seq}");
        };
        let legal = &views[i].legal_actions;
        let chosen = legal[rng.random_range(0..legal.len())];
        let c = if i == 0 { &mut *a } else { &mut *b };
        c.send(&action(seq, format!("p{seed}-{step}"), chosen)).await?;
        seq = c.recv_ack().await?;
        for (k, client) in [&mut *a, &mut *b].into_iter().enumerate() {
            views[k] = client.recv_update_to(seq).await?;
        }
    }
    Ok((seq, views))
}

/// `GET path` with `Accept-Encoding: gzip` and, when given, a seat token (`Authorization: Bearer`):
/// the status, the head (lowercase) and the body's bytes as they travelled.
pub async fn get_gzip(addr: SocketAddr, path: &str, token: Option<&str>) -> Result<(u16, String, Vec<u8>)> {
    let mut stream = TcpStream::connect(addr).await?;
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let req =
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept-Encoding: gzip, br\r\n{auth}Connection: close\r\n\r\n");
    stream.write_all(req.as_bytes()).await?;
    let mut buf = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut buf)).await??;
    let at = buf
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| anyhow!("no HTTP head"))?;
    let head = String::from_utf8(buf[..at].to_vec())?.to_ascii_lowercase();
    let status = head.split_whitespace().nth(1).context("status")?.parse()?;
    Ok((status, head, buf[at + 4..].to_vec()))
}

/// The text of a body [`get_gzip`] received (gunzipped when it came gzipped).
pub fn body_text(head: &str, body: &[u8]) -> Result<String> {
    let mut text = String::new();
    if head.contains("content-encoding: gzip") {
        flate2::read::GzDecoder::new(body).read_to_string(&mut text)?;
    } else {
        text = String::from_utf8(body.to_vec())?;
    }
    Ok(text)
}

/// Game 1 of room `code` step by step through `eyes` (with a seat token when given); it must be served.
pub async fn replay_steps(addr: SocketAddr, code: &str, eyes: ReplayEyes, token: Option<&str>) -> Result<ReplaySteps> {
    let (status, head, body) = get_gzip(addr, &replay_steps_path(code, 1, eyes), token).await?;
    let text = body_text(&head, &body)?;
    ensure!(status == 200, "{eyes:?} refused: {status} {text}");
    Ok(serde_json::from_str(&text)?)
}

/// `v` as an update carries it: without the round's log (a welcome's view has it).
pub fn without_log(v: &View) -> View {
    View {
        log: Vec::new(),
        ..v.clone()
    }
}
