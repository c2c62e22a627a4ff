//! A WebSocket connection to a room that speaks the protocol's types: [`ClientMsg`] out,
//! [`ServerMsg`] in.

use std::net::SocketAddr;

use evr_protocol::{ClientMsg, PROTOCOL_VERSION, ServerMsg, websocket_path};
use evr_rules::View;
use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::{ClientError, Dialer};

/// One connection to room `code`.
pub struct Connection {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The view as of the latest welcome or update (a welcome's, with each update's changes).
    view: Option<View>,
}

impl Connection {
    /// Opens the room's WebSocket (nothing is sent yet).
    pub async fn open(server: SocketAddr, code: &str) -> Result<Connection, ClientError> {
        Connection::open_via(Dialer::default(), server, code).await
    }

    /// [`Connection::open`] over a TCP connection from `dialer`.
    pub async fn open_via(dialer: Dialer, server: SocketAddr, code: &str) -> Result<Connection, ClientError> {
        let tcp = dialer.connect(server).await?;
        let url = format!("ws://{server}{}", websocket_path(code));
        let (ws, _) = tokio_tungstenite::client_async(url, MaybeTlsStream::Plain(tcp)).await?;
        Ok(Connection { ws, view: None })
    }

    /// Opens the connection and says hello: with a seat token to play, without to watch;
    /// `last_seq` to catch up after a reconnect.
    pub async fn hello(
        server: SocketAddr,
        code: &str,
        token: Option<&str>,
        last_seq: Option<u32>,
    ) -> Result<Connection, ClientError> {
        Connection::hello_via(Dialer::default(), server, code, token, last_seq).await
    }

    /// [`Connection::hello`] over a TCP connection from `dialer`.
    pub async fn hello_via(
        dialer: Dialer,
        server: SocketAddr,
        code: &str,
        token: Option<&str>,
        last_seq: Option<u32>,
    ) -> Result<Connection, ClientError> {
        let mut c = Connection::open_via(dialer, server, code).await?;
        c.send(&ClientMsg::Hello {
            version: PROTOCOL_VERSION,
            token: token.map(str::to_string),
            last_seq,
        })
        .await?;
        Ok(c)
    }

    pub async fn send(&mut self, msg: &ClientMsg) -> Result<(), ClientError> {
        self.ws.send(Message::text(serde_json::to_string(msg)?)).await?;
        Ok(())
    }

    /// The next text frame as it came, or `None` once the server closed the connection.
    pub async fn recv_text(&mut self) -> Result<Option<String>, ClientError> {
        while let Some(msg) = self.ws.next().await {
            match msg? {
                Message::Text(t) => return Ok(Some(t.to_string())),
                Message::Close(_) => return Ok(None),
                _ => {}
            }
        }
        Ok(None)
    }

    /// The next server message, or `None` once the server closed the connection. A welcome or an
    /// update also moves [`Connection::view`] on.
    pub async fn recv(&mut self) -> Result<Option<ServerMsg>, ClientError> {
        let Some(text) = self.recv_text().await? else {
            return Ok(None);
        };
        let msg: ServerMsg = serde_json::from_str(&text)?;
        match &msg {
            ServerMsg::Welcome { view, .. } => self.view = Some((**view).clone()),
            ServerMsg::Update { changes, .. } => {
                if let Some(v) = &mut self.view {
                    v.apply_changes((**changes).clone());
                }
            }
            _ => {}
        }
        Ok(Some(msg))
    }

    /// The view as of the latest welcome or update received (`None` before the welcome).
    pub fn view(&self) -> Option<&View> {
        self.view.as_ref()
    }

    /// Closes the connection politely.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}
