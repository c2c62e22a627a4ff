//! The client's own address when a trusted proxy stands in front: the PROXY protocol v2 header
//! (HAProxy's `send-proxy-v2`) that such a proxy writes before the first byte of the request.
//!
//! Only a connection from an address in `--trusted-proxies` may say whose it is: from anyone else
//! the header would be a forged address, and such a connection is taken as it comes (its bytes
//! are then not HTTP, and hyper refuses them). A trusted proxy's connection without the header (an
//! operator's `curl` on the same host) is the proxy's own. The stream stays a plain `TcpStream`
//! (the header is peeked, then read off exactly), because a WebSocket upgrade needs it back
//! (`ws/socket.rs`).

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use ppp::v2::{Addresses, Command, Header, ParseError};
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

/// A header with addresses and the few TLVs HAProxy adds fits easily; a longer one is refused.
const MAX_HEADER_BYTES: usize = 512;
/// While a header is incomplete, look again after this long (data is arriving in pieces).
const PEEK_AGAIN: Duration = Duration::from_millis(5);

/// Why a trusted proxy's connection was not taken.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ProxyHeaderError {
    #[error("the PROXY header is malformed: {0}")]
    Malformed(ParseError),
    #[error("the PROXY header is longer than {MAX_HEADER_BYTES} bytes")]
    TooLong,
    #[error("the connection closed before it sent anything")]
    Closed,
    #[error("reading the PROXY header: {0}")]
    Io(#[from] std::io::Error),
}

/// Whether `ip` is in one of `networks` (an IPv4 peer on a dual-stack socket as IPv4): the proxies
/// trusted with a PROXY header, the clients that may read `/metrics`.
pub(crate) fn is_listed(ip: IpAddr, networks: &[ipnet::IpNet]) -> bool {
    let ip = ip.to_canonical();
    networks.iter().any(|net| net.contains(&ip))
}

/// The client a trusted proxy's connection is for: the header's source address, read off the
/// stream; `peer` itself when the connection has no header or the header is the proxy's own
/// (`LOCAL`, as in its health checks). The caller bounds the time this may take.
pub(crate) async fn client_of(tcp: &mut TcpStream, peer: SocketAddr) -> Result<SocketAddr, ProxyHeaderError> {
    let mut buf = [0u8; MAX_HEADER_BYTES];
    loop {
        let seen = tcp.peek(&mut buf).await?;
        if seen == 0 {
            return Err(ProxyHeaderError::Closed);
        }
        match Header::try_from(&buf[..seen]) {
            Ok(header) => {
                let length = header.len();
                let client = source(&header).unwrap_or(peer);
                // off the stream exactly: the request follows it
                tcp.read_exact(&mut buf[..length]).await?;
                return Ok(client);
            }
            Err(ParseError::Prefix) => return Ok(peer),
            Err(ParseError::Incomplete(_) | ParseError::Partial(..)) if seen == MAX_HEADER_BYTES => {
                return Err(ProxyHeaderError::TooLong);
            }
            Err(ParseError::Incomplete(_) | ParseError::Partial(..)) => tokio::time::sleep(PEEK_AGAIN).await,
            Err(e) => return Err(ProxyHeaderError::Malformed(e)),
        }
    }
}

fn source(header: &Header<'_>) -> Option<SocketAddr> {
    if header.command == Command::Local {
        return None;
    }
    match header.addresses {
        Addresses::IPv4(a) => Some(SocketAddr::from((a.source_address, a.source_port))),
        Addresses::IPv6(a) => Some(SocketAddr::from((a.source_address, a.source_port))),
        Addresses::Unspecified | Addresses::Unix(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;
    use tokio::net::TcpListener;

    fn header(source: &str, command: u8) -> Vec<u8> {
        let source = source.parse::<SocketAddr>().unwrap();
        let destination = if source.is_ipv4() {
            "127.0.0.1:8080"
        } else {
            "[::1]:8080"
        };
        let addresses: Addresses = (source, destination.parse::<SocketAddr>().unwrap()).into();
        ppp::v2::Builder::with_addresses(0x20 | command, ppp::v2::Protocol::Stream, addresses)
            .write_tlv(ppp::v2::Type::NoOp, &[0])
            .and_then(|b| b.build())
            .unwrap()
    }

    /// What the server reads as the client and as the request, for bytes sent in `pieces`.
    async fn read(pieces: Vec<Vec<u8>>) -> (Result<SocketAddr, String>, Vec<u8>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let writer = tokio::spawn(async move {
            let mut c = TcpStream::connect(addr).await.unwrap();
            for p in pieces {
                c.write_all(&p).await.unwrap();
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            c.shutdown().await.unwrap();
        });
        let (mut tcp, peer) = listener.accept().await.unwrap();
        let client = match tokio::time::timeout(Duration::from_millis(500), client_of(&mut tcp, peer)).await {
            Ok(read) => read.map_err(|e| e.to_string()),
            Err(_) => Err("still waiting".to_string()),
        };
        let mut rest = Vec::new();
        if client.is_ok() {
            tcp.read_to_end(&mut rest).await.unwrap();
        }
        writer.await.unwrap();
        (client, rest)
    }

    #[tokio::test]
    async fn the_header_names_the_client_and_leaves_the_request_whole() {
        let mut bytes = header("203.0.113.7:5555", 1);
        bytes.extend_from_slice(b"GET /healthz HTTP/1.1\r\n\r\n");
        // in three pieces: the prefix's start, the rest of the header with the request's start, the rest
        let pieces = vec![bytes[..7].to_vec(), bytes[7..30].to_vec(), bytes[30..].to_vec()];
        let (client, rest) = read(pieces).await;
        assert_eq!(client.unwrap(), "203.0.113.7:5555".parse().unwrap());
        assert_eq!(rest, b"GET /healthz HTTP/1.1\r\n\r\n");
    }

    #[tokio::test]
    async fn ipv6_clients_and_the_proxys_own_checks() {
        let (client, _) = read(vec![header("[2001:db8::1]:4000", 1)]).await;
        assert_eq!(client.unwrap(), "[2001:db8::1]:4000".parse().unwrap());
        // LOCAL (a health check): the proxy itself
        let (client, _) = read(vec![header("203.0.113.7:5555", 0)]).await;
        assert_eq!(client.unwrap().ip(), IpAddr::from([127, 0, 0, 1]));
    }

    #[tokio::test]
    async fn a_request_without_a_header_is_the_peers_and_is_read_whole() {
        let (client, rest) = read(vec![b"GET /healthz HTTP/1.1\r\n\r\n".to_vec()]).await;
        assert_eq!(client.unwrap().ip(), IpAddr::from([127, 0, 0, 1]));
        assert_eq!(rest, b"GET /healthz HTTP/1.1\r\n\r\n");
    }

    #[tokio::test]
    async fn a_broken_or_endless_header_is_refused() {
        let mut bad_version = header("203.0.113.7:5555", 1);
        bad_version[12] = 0x31;
        assert!(read(vec![bad_version]).await.0.is_err());
        let mut endless = header("203.0.113.7:5555", 1);
        endless[14..16].copy_from_slice(&60_000u16.to_be_bytes());
        endless.resize(MAX_HEADER_BYTES + 10, 0);
        assert!(read(vec![endless]).await.0.unwrap_err().contains("longer"));
        // a header cut short waits for the rest (the caller's deadline ends it)
        let cut = header("203.0.113.7:5555", 1)[..20].to_vec();
        assert!(read(vec![cut]).await.0.unwrap_err().contains("still waiting"));
        // and a connection closed at once is no client at all
        assert!(read(vec![]).await.0.unwrap_err().contains("closed"));
    }

    #[test]
    fn only_listed_networks_are_trusted() {
        let trusted: Vec<ipnet::IpNet> = vec!["10.0.0.0/8".parse().unwrap(), "::1/128".parse().unwrap()];
        assert!(is_listed([10, 1, 2, 3].into(), &trusted));
        assert!(!is_listed([11, 1, 2, 3].into(), &trusted));
        assert!(is_listed("::1".parse().unwrap(), &trusted));
        // an IPv4 peer on a dual-stack socket
        assert!(is_listed("::ffff:10.0.0.9".parse().unwrap(), &trusted));
    }
}
