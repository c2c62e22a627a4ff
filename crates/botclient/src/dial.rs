//! Where a client's connections come from. Normally the system picks the local address; a load
//! generator with thousands of sockets spreads them over several loopback addresses
//! (127.0.0.2, 127.0.0.3, …), since each local address has only ~28,000 ephemeral ports.

use std::io;
use std::net::{IpAddr, SocketAddr};

use tokio::net::{TcpSocket, TcpStream};

/// Opens TCP connections, from `source` if given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dialer {
    pub source: Option<IpAddr>,
}

impl Dialer {
    pub async fn connect(&self, addr: SocketAddr) -> io::Result<TcpStream> {
        let Some(ip) = self.source else {
            return TcpStream::connect(addr).await;
        };
        let socket = if ip.is_ipv4() {
            TcpSocket::new_v4()?
        } else {
            TcpSocket::new_v6()?
        };
        socket.bind(SocketAddr::new(ip, 0))?;
        socket.connect(addr).await
    }
}
