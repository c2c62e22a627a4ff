//! The mail tests' view of the SMTP sink (scripts/mail/smtp_sink.py, a real SMTP server started by
//! scripts/test.sh): where it listens, the mails it stored for one recipient, decoded.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use evr_server::mail::{MailNotifier, Mailer};
use evr_store::{SqliteStore, Store};
use mail_parser::MessageParser;

use crate::support;

/// The sink's port and mail directory, from the environment scripts/test.sh sets.
pub fn sink() -> Result<(u16, PathBuf)> {
    let port = std::env::var("EVR_TEST_SMTP_PORT")
        .context("EVR_TEST_SMTP_PORT is not set: run these tests with the SMTP sink (scripts/test.sh starts it)")?
        .parse()?;
    let dir = std::env::var("EVR_TEST_SMTP_DIR").context("EVR_TEST_SMTP_DIR is not set")?;
    Ok((port, PathBuf::from(dir)))
}

/// The site's origin in the mails' links (the tests follow them on the server's own address).
pub const ORIGIN: &str = "http://evr.test";

/// A server's settings with mail on, sending to the sink.
pub fn config(name: &str) -> Result<evr_server::Config> {
    let (port, _) = sink()?;
    let mut config = evr_server::Config::for_tests(support::temp_dir(name));
    config.smtp_url = format!("smtp://127.0.0.1:{port}");
    config.public_origin = ORIGIN.into();
    config.mail_from = "EvR Online <reminders@evr.test>".into();
    Ok(config)
}

/// A notifier like the server's, on the server's own database (a second connection to it).
pub fn notifier(config: &evr_server::Config) -> Result<(MailNotifier, Arc<dyn Store>)> {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&config.data_dir)?);
    let mailer = Mailer::from_config(config)?.context("mail is on")?;
    let notifier = MailNotifier::new(Arc::new(mailer), store.clone(), tokio_util::task::TaskTracker::new());
    Ok((notifier, store))
}

/// A recipient no other test writes to.
pub fn address(what: &str) -> String {
    let n = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!("{what}.{n}@example.org")
}

/// One stored mail, decoded.
#[derive(Debug)]
pub struct Mail {
    pub subject: String,
    pub body: String,
    pub list_unsubscribe: Option<String>,
    pub list_unsubscribe_post: Option<String>,
    pub from: String,
    pub raw: String,
}

impl Mail {
    /// The first link in the body that starts with `prefix` (up to the next space or line end).
    pub fn link(&self, prefix: &str) -> Result<String> {
        let start = self
            .body
            .find(prefix)
            .with_context(|| format!("no {prefix}… link in {:?}", self.body))?;
        let rest = &self.body[start..];
        let end = rest.find(|c: char| c.is_whitespace()).unwrap_or(rest.len());
        Ok(rest[..end].to_string())
    }
}

/// Every mail the sink stored for `to`, oldest first.
pub fn mails_to(to: &str) -> Result<Vec<Mail>> {
    let (_, dir) = sink()?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let raw = std::fs::read(&file)?;
        let message = MessageParser::default()
            .parse(&raw)
            .with_context(|| format!("{} is not a mail", file.display()))?;
        let rcpt = message.header_raw("X-Sink-Rcpt-To").unwrap_or_default();
        if !rcpt.split(',').any(|r| r.trim() == to) {
            continue;
        }
        out.push(Mail {
            subject: message.subject().unwrap_or_default().to_string(),
            body: message.body_text(0).map(|b| b.to_string()).unwrap_or_default(),
            list_unsubscribe: message.header_raw("List-Unsubscribe").map(|v| v.trim().to_string()),
            list_unsubscribe_post: message
                .header_raw("List-Unsubscribe-Post")
                .map(|v| v.trim().to_string()),
            from: message.header_raw("From").unwrap_or_default().trim().to_string(),
            raw: String::from_utf8_lossy(&raw).into_owned(),
        });
    }
    Ok(out)
}

/// Waits (up to a generous deadline, polling) until `to` has at least `n` mails; returns them.
pub async fn wait_for(to: &str, n: usize) -> Result<Vec<Mail>> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let mails = mails_to(to)?;
        if mails.len() >= n {
            return Ok(mails);
        }
        if Instant::now() > deadline {
            bail!("{to} has {} mails, not {n}, after 60 s", mails.len());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The path of a link on the site (`http://evr.test/mail/…` → `/mail/…`), to ask the test server.
pub fn path_of(link: &str) -> Result<String> {
    link.strip_prefix(ORIGIN)
        .map(str::to_string)
        .with_context(|| format!("{link} is not a link of the site"))
}
