//! How many connections the node holds, in all and per client, so that no client (and no crowd)
//! can take the descriptors every other player needs: a connection past either limit is answered
//! `429 rate_limited` at once and closed, before any of its request is read.
//!
//! The total is taken at accept (a connection holds a descriptor from then on); the client's share
//! once its address is known (behind a proxy, after the PROXY header). Both are given back when
//! the last holder of the [`Permit`] lets go: the HTTP connection, or the WebSocket it became.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The descriptors a node keeps for itself below the process's limit (its database, its log, the
/// runtime's own, a mail connection), however low the limit: `max(RESERVED_MIN, limit / 16)`.
const RESERVED_MIN: u64 = 64;

/// The client a limit counts: an IPv4 address, or the /64 of an IPv6 one (one subscriber's
/// network: a client may take any address in it). IPv4 addresses written as IPv6 are IPv4.
pub(crate) fn client_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(bits.into())
        }
        v4 => v4,
    }
}

/// The most connections a node may hold: `wanted`, lowered below the descriptor limit
/// `nofile` (the process's soft limit) so that the node keeps descriptors for its own work.
pub(crate) fn connection_cap(wanted: usize, nofile: u64) -> usize {
    let reserved = RESERVED_MIN.max(nofile / 16);
    let room = usize::try_from(nofile.saturating_sub(reserved)).unwrap_or(usize::MAX);
    wanted.min(room).max(1)
}

/// Connections held per client.
type Held = Arc<Mutex<HashMap<IpAddr, usize>>>;

/// The node's connection limits.
pub(crate) struct Admission {
    total: Arc<Semaphore>,
    per_client: usize,
    held: Held,
}

/// One connection's place, given back on drop.
pub(crate) struct Permit {
    _total: OwnedSemaphorePermit,
    client: Option<(IpAddr, Held)>,
}

impl Admission {
    pub(crate) fn new(total: usize, per_client: usize) -> Admission {
        Admission {
            total: Arc::new(Semaphore::new(total)),
            per_client: per_client.max(1),
            held: Arc::default(),
        }
    }

    /// A place among all connections, if one is free.
    pub(crate) fn accept(&self) -> Option<Permit> {
        let total = self.total.clone().try_acquire_owned().ok()?;
        Some(Permit {
            _total: total,
            client: None,
        })
    }

    /// The permit, now counted for `client` too, if its share is not full.
    pub(crate) fn for_client(&self, mut permit: Permit, client: IpAddr) -> Option<Permit> {
        let key = client_key(client);
        {
            let mut held = self.held.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            let count = held.entry(key).or_insert(0);
            if *count >= self.per_client {
                return None;
            }
            *count += 1;
        }
        permit.client = Some((key, self.held.clone()));
        Some(permit)
    }

    /// Connections held now.
    pub(crate) fn open(&self, cap: usize) -> usize {
        cap.saturating_sub(self.total.available_permits())
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        if let Some((key, held)) = self.client.take() {
            let mut held = held.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            if let Some(count) = held.get_mut(&key) {
                *count -= 1;
                if *count == 0 {
                    held.remove(&key);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ipv6_client_is_its_64_and_ipv4_is_itself() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:ffff:ffff:ffff:ffff".parse().unwrap();
        let other: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(client_key(a), client_key(b));
        assert_ne!(client_key(a), client_key(other));
        assert_eq!(
            client_key("203.0.113.9".parse().unwrap()),
            "203.0.113.9".parse::<IpAddr>().unwrap()
        );
        assert_eq!(
            client_key("::ffff:203.0.113.9".parse().unwrap()),
            "203.0.113.9".parse::<IpAddr>().unwrap()
        );
    }

    #[test]
    fn the_cap_stays_below_the_descriptor_limit() {
        assert_eq!(connection_cap(16_000, 20_000), 16_000);
        assert_eq!(connection_cap(100_000, 20_000), 20_000 - 1_250);
        assert_eq!(connection_cap(16_000, 1_024), 1_024 - 64);
        assert_eq!(connection_cap(16_000, 10), 1);
    }

    #[test]
    fn each_client_has_its_share_and_gets_it_back() {
        let admission = Admission::new(3, 2);
        let a: IpAddr = [10, 0, 0, 1].into();
        let b: IpAddr = [10, 0, 0, 2].into();
        let a1 = admission.for_client(admission.accept().unwrap(), a).unwrap();
        let a2 = admission.for_client(admission.accept().unwrap(), a).unwrap();
        // a's share is full; the place taken for the attempt is given back
        assert!(admission.for_client(admission.accept().unwrap(), a).is_none());
        let b1 = admission.for_client(admission.accept().unwrap(), b).unwrap();
        // all three places are held
        assert!(admission.accept().is_none());
        assert_eq!(admission.open(3), 3);
        drop(a1);
        let a3 = admission.for_client(admission.accept().unwrap(), a).unwrap();
        drop((a2, a3, b1));
        assert_eq!(admission.open(3), 0);
        assert!(admission.held.lock().unwrap().is_empty());
    }
}
