//! Server settings: flags and environment variables in one struct, validated once.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// How the server serves: the flags of `evr-server` without a command (`commands.rs`).
#[derive(Clone, Debug, clap::Args)]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "EVR_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,
    /// The public origin of the site (e.g. `https://evr.example`). WebSocket upgrades from browsers
    /// with another `Origin` are refused. Empty: accept any origin (development).
    #[arg(long, env = "EVR_PUBLIC_ORIGIN", default_value = "")]
    pub public_origin: String,
    /// Directory for the embedded SQLite database; created on first start.
    #[arg(long, env = "EVR_DATA_DIR", default_value = "data")]
    pub data_dir: PathBuf,
    /// Where rooms are stored: empty for the embedded SQLite database in `--data-dir` (one
    /// server), or `postgres://USER:PASSWORD@HOST:PORT/DATABASE` for PostgreSQL, which several
    /// servers behind one front door can share. TLS as with libpq: `?sslmode=` disable, prefer
    /// (the default, as in libpq: TLS if the server offers it, nothing checked), require (TLS,
    /// nothing checked), verify-ca (the certificate's chain) or verify-full (chain and host name;
    /// use it for a database across a network), and `&sslrootcert=PATH` for the CAs to trust
    /// (default: the public CAs built in).
    #[arg(long, env = "EVR_STORE", default_value = "")]
    pub store: String,
    /// Seconds a disconnected player has before the opponent may claim the win.
    #[arg(long, env = "EVR_DISCONNECT_GRACE_SECS", default_value_t = 180)]
    pub disconnect_grace_secs: u64,
    /// Messages per second a connection may send (burst: twice as many).
    #[arg(long, env = "EVR_MESSAGES_PER_SECOND", default_value_t = 20)]
    pub messages_per_second: u32,
    /// Rooms one IP address may create per minute.
    #[arg(long, env = "EVR_ROOMS_PER_MINUTE", default_value_t = 10)]
    pub rooms_per_minute: u32,
    /// Join codes one IP address may try per minute (a burst of as many, then one every
    /// 60/N seconds). Each room also takes at most `MAX_WRONG_JOIN_CODES` wrong ones.
    #[arg(long, env = "EVR_JOIN_CODES_PER_MINUTE", default_value_t = 10)]
    pub join_codes_per_minute: u32,
    /// Archives and replays (the room's games, a replay file, a replay step by step) one client
    /// may ask for per minute (a burst of as many, then one every 60/N seconds): each plays a
    /// whole game again.
    #[arg(long, env = "EVR_REPLAYS_PER_MINUTE", default_value_t = 30)]
    pub replays_per_minute: u32,
    /// Clients that may read `/metrics` (addresses or networks, comma-separated): the machine
    /// itself by default. Anyone else is answered `404 not_found`, as for an address the API does
    /// not have. Behind a proxy, the client is the one it names (`--trusted-proxies`).
    #[arg(long, env = "EVR_METRICS_FROM", value_delimiter = ',', value_parser = network, default_value = "127.0.0.0/8,::1")]
    pub metrics_from: Vec<ipnet::IpNet>,
    /// Proxies in front (addresses or networks, comma-separated, e.g. `10.0.0.0/8,::1`) whose
    /// connections may begin with a PROXY protocol v2 header naming the client (HAProxy's
    /// `send-proxy-v2`): every limit keyed on a client then counts that client, not the proxy.
    /// A header from any other peer is refused as HTTP it is not.
    #[arg(long, env = "EVR_TRUSTED_PROXIES", value_delimiter = ',', value_parser = network)]
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// TCP connections the node holds at most (HTTP and WebSockets); past it, a new one is answered
    /// `429 rate_limited` at once. Lowered at start below the process's descriptor limit, keeping
    /// a sixteenth of it (at least 64) for the node's own files.
    #[arg(long, env = "EVR_MAX_CONNECTIONS", default_value_t = 16_000)]
    pub max_connections: usize,
    /// TCP connections one client may hold at once (an IPv4 address, or an IPv6 /64): a browser
    /// holds a few per tab; a network of players behind one address (a school) many more.
    #[arg(long, env = "EVR_MAX_CONNECTIONS_PER_CLIENT", default_value_t = 256)]
    pub max_connections_per_client: usize,
    /// Messages queued for one connection before it is dropped as too slow.
    #[arg(long, env = "EVR_OUTBOUND_QUEUE", default_value_t = 64)]
    pub outbound_queue: usize,
    /// Milliseconds the computer opponent takes at least per move, so that a person can follow.
    #[arg(long, env = "EVR_COMPUTER_DELAY_MS", default_value_t = 800)]
    pub computer_delay_ms: u64,
    /// Iterations the Hard computer may search during each of a person's moves (pondering), so
    /// that its next decision starts from them; only while a core is spare (at most one pondering
    /// room per core beyond the first). 0: it never ponders.
    #[arg(long, env = "EVR_COMPUTER_PONDER_ITERATIONS", default_value_t = 8_000)]
    pub computer_ponder_iterations: u32,
    /// Kernel send buffer per connection in bytes (default: the system's). A smaller buffer
    /// bounds memory per connection and detects a client that stopped reading sooner.
    #[arg(long, env = "EVR_SOCKET_SEND_BUFFER")]
    pub socket_send_buffer: Option<usize>,
    /// A room with no connection for this many seconds leaves memory; it is loaded again from the
    /// store when someone comes back.
    #[arg(long, env = "EVR_ROOM_IDLE_SECS", default_value_t = 600)]
    pub room_idle_secs: u64,
    /// A room with no connection for this many seconds gives its game back to the store and waits
    /// in a few KiB (it is rebuilt from the store when someone comes back), until
    /// `--room-idle-secs` releases it altogether.
    #[arg(long, env = "EVR_ROOM_HIBERNATE_SECS", default_value_t = 30)]
    pub room_hibernate_secs: u64,
    /// Tests only: every game uses this seed instead of one from the operating system, so that
    /// two matches can be compared. Never set it in production.
    #[arg(long, env = "EVR_TEST_FIXED_SEED", hide = true)]
    pub test_fixed_seed: Option<u64>,
    /// Tests only: the smallest clock bank a room may ask for, in seconds (60 otherwise), so that a
    /// test can watch a clock run out.
    #[arg(long, env = "EVR_TEST_MIN_CLOCK_BANK_SECS", hide = true, default_value_t = evr_protocol::TimeControl::MIN_BANK_SECS)]
    pub min_clock_bank_secs: u32,
    /// On a shared store: how often, in milliseconds, the server checks that its rooms are still
    /// its own (another server may have claimed one). Tests raise it to play a server cut off
    /// from the others.
    #[arg(long, env = "EVR_OWNERSHIP_CHECK_MS", hide = true, default_value_t = 1000)]
    pub ownership_check_ms: u64,
    /// How often, in milliseconds, this server looks in the store for correspondence rooms whose
    /// deadline or reminder is due while no server holds them (`deadlines.rs`).
    #[arg(long, env = "EVR_DEADLINE_SWEEP_MS", default_value_t = 3000)]
    pub deadline_sweep_ms: u64,
    /// Tests only (built with the `test-days` feature, absent from the release build): the length
    /// of a correspondence "day" in seconds, so that a test sees deadlines pass.
    #[cfg(feature = "test-days")]
    #[arg(long = "day-secs", env = "EVR_TEST_DAY_SECS", hide = true, default_value_t = 86_400)]
    pub day_secs: u64,
    /// Tests only (feature `test-days`): a file each game timed out and each reminder handed over
    /// is appended to, one line each (`test_events.rs`).
    #[cfg(feature = "test-days")]
    #[arg(long = "test-event-log", env = "EVR_TEST_EVENT_LOG", hide = true)]
    pub test_event_log: Option<PathBuf>,
    /// A day, always, without the `test-days` feature (in-process tests may still shorten it).
    #[cfg(not(feature = "test-days"))]
    #[arg(skip = 86_400u64)]
    pub day_secs: u64,
    /// The SMTP server that sends reminders by email (`crate::mail`): `smtp://HOST:PORT` (no TLS:
    /// a relay on the same host), `smtp://HOST:PORT?tls=required` (STARTTLS, refused without it),
    /// `smtps://HOST:PORT` (TLS from the start), with `USER:PASSWORD@` before the host to log in
    /// (percent-encoded; never logged). Empty: no reminders are offered. Needs `--public-origin`
    /// (the links in the mails).
    #[arg(long, env = "EVR_SMTP_URL", default_value = "")]
    pub smtp_url: String,
    /// The sender of reminders, e.g. `EvR Online <reminders@evr.example>`. Empty: `EvR Online
    /// <noreply@HOST>` with the host of `--public-origin`.
    #[arg(long, env = "EVR_MAIL_FROM", default_value = "")]
    pub mail_from: String,
    /// Log as JSON lines.
    #[arg(long, env = "EVR_LOG_JSON", default_value_t = false)]
    pub log_json: bool,
    /// On SIGTERM: seconds the server keeps serving its players while it says it is not ready
    /// (`/readyz` answers 503), so that the front door takes it out of rotation before it stops
    /// accepting connections; then it tells its players to reconnect (they reach another node) and
    /// exits. At least the front door's time to notice (docker/haproxy.cfg: 2 checks 500 ms
    /// apart); 0 stops at once. A second SIGTERM ends the drain early.
    #[arg(long, env = "EVR_DRAIN_SECS", default_value_t = 2)]
    pub drain_secs: u64,
}

/// A network (`10.0.0.0/8`) or one address (`10.0.0.7`, the network of that address alone).
fn network(s: &str) -> Result<ipnet::IpNet, String> {
    let s = s.trim();
    s.parse::<ipnet::IpNet>()
        .or_else(|_| s.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
        .map_err(|_| format!("{s:?} is neither an address nor a network (10.0.0.0/8)"))
}

impl Config {
    pub fn computer_delay(&self) -> Duration {
        Duration::from_millis(self.computer_delay_ms)
    }

    pub fn room_idle(&self) -> Duration {
        Duration::from_secs(self.room_idle_secs.max(1))
    }

    pub fn room_hibernate(&self) -> Duration {
        Duration::from_secs(self.room_hibernate_secs.max(1))
    }

    /// The length of a correspondence day in milliseconds.
    pub fn day_ms(&self) -> i64 {
        (self.day_secs.max(1) as i64).saturating_mul(1000)
    }

    pub fn deadline_sweep(&self) -> Duration {
        Duration::from_millis(self.deadline_sweep_ms.max(10))
    }

    pub fn disconnect_grace(&self) -> Duration {
        Duration::from_secs(self.disconnect_grace_secs)
    }

    pub fn drain(&self) -> Duration {
        Duration::from_secs(self.drain_secs)
    }

    /// Settings for tests and load generators: a fresh data directory, permissive limits.
    pub fn for_tests(data_dir: PathBuf) -> Config {
        Config {
            bind: SocketAddr::from(([127, 0, 0, 1], 0)),
            public_origin: String::new(),
            data_dir,
            store: String::new(),
            disconnect_grace_secs: 180,
            messages_per_second: 1000,
            rooms_per_minute: 100_000,
            join_codes_per_minute: 10,
            trusted_proxies: Vec::new(),
            replays_per_minute: 100_000,
            metrics_from: vec![ipnet::IpNet::from(std::net::IpAddr::from([127, 0, 0, 1]))],
            max_connections: 16_000,
            // the tests' and load generators' players all come from 127.0.0.1
            max_connections_per_client: 100_000,
            outbound_queue: 256,
            socket_send_buffer: None,
            computer_delay_ms: 0,
            computer_ponder_iterations: 8_000,
            room_idle_secs: 600,
            room_hibernate_secs: 30,
            test_fixed_seed: None,
            min_clock_bank_secs: 1,
            ownership_check_ms: 1000,
            deadline_sweep_ms: 3000,
            day_secs: 86_400,
            #[cfg(feature = "test-days")]
            test_event_log: None,
            smtp_url: String::new(),
            mail_from: String::new(),
            log_json: false,
            drain_secs: 0,
        }
    }
}
