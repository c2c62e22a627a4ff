//! A mail as sent: plain text (UTF-8), with the headers that let mail programs offer "unsubscribe"
//! (RFC 2369 `List-Unsubscribe`, RFC 8058 `List-Unsubscribe-Post`: a POST to the link stops the
//! mails without a page) and `Auto-Submitted` (RFC 3834: no auto-replies to a machine's mail).

use lettre::Message;
use lettre::message::Mailbox;
use lettre::message::header::{ContentType, Header, HeaderName, HeaderValue};

use super::{MailError, Mailer};

type BoxError = Box<dyn std::error::Error + Send + Sync>;

#[derive(Clone)]
struct ListUnsubscribe(String);

impl Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }
    fn parse(s: &str) -> Result<Self, BoxError> {
        Ok(ListUnsubscribe(s.to_string()))
    }
    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), format!("<{}>", self.0))
    }
}

#[derive(Clone)]
struct ListUnsubscribePost;

impl Header for ListUnsubscribePost {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }
    fn parse(_: &str) -> Result<Self, BoxError> {
        Ok(ListUnsubscribePost)
    }
    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".to_string())
    }
}

#[derive(Clone)]
struct AutoSubmitted;

impl Header for AutoSubmitted {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("Auto-Submitted")
    }
    fn parse(_: &str) -> Result<Self, BoxError> {
        Ok(AutoSubmitted)
    }
    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "auto-generated".to_string())
    }
}

/// A plain-text mail to `to` with its unsubscribe link in the headers (the body has it too).
pub(super) fn build(
    mailer: &Mailer,
    to: &str,
    subject: String,
    body: String,
    unsubscribe: &str,
) -> Result<Message, MailError> {
    let to: Mailbox = to
        .parse()
        .map_err(|_| MailError::Build("the stored address is not a mailbox".into()))?;
    Message::builder()
        .from(mailer.from().clone())
        .to(to)
        .subject(subject)
        .message_id(Some(mailer.message_id()?))
        .header(ContentType::TEXT_PLAIN)
        .header(ListUnsubscribe(unsubscribe.to_string()))
        .header(ListUnsubscribePost)
        .header(AutoSubmitted)
        .body(body)
        .map_err(|e| MailError::Build(e.to_string()))
}

/// A plain-text mail to `to` that answers a request of its reader (a confirmation, a sign-in
/// link): no list headers, since no list sent it.
pub(crate) fn transactional(mailer: &Mailer, to: &str, subject: String, body: String) -> Result<Message, MailError> {
    let to: Mailbox = to
        .parse()
        .map_err(|_| MailError::Build("the address is not a mailbox".into()))?;
    Message::builder()
        .from(mailer.from().clone())
        .to(to)
        .subject(subject)
        .message_id(Some(mailer.message_id()?))
        .header(ContentType::TEXT_PLAIN)
        .header(AutoSubmitted)
        .body(body)
        .map_err(|e| MailError::Build(e.to_string()))
}
