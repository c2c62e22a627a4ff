//! An address given for reminders, checked as the mailbox it will be sent to before anything is
//! stored or counted, and the one key its limits count it by, however it is spelled.
//!
//! Refused: anything but one `local@domain` (no display name, no comment, no address literal); a
//! quoted or escaped local part (`"victim"@…`, `vi\ctim@…`: a second spelling of a mailbox, which
//! SMTP servers read in different ways and lettre's `Mailbox` does not take); whitespace and every
//! character a name may not hold (`crate::names::unfit`: controls, direction and other format
//! characters, invisible ones, private use), so an address cannot show as another.
//!
//! **Where the mail goes.** The local part as typed, at the domain in its ASCII form (IDNA,
//! lower case: `Ana+evr@Bücher.Example` → `Ana+evr@xn--bcher-kva.example`). The domain's ASCII form
//! is the same host (names in the DNS are ASCII and case-blind) and needs no SMTPUTF8 for it; the
//! local part is the receiving server's to read (RFC 5321 §2.4: case may matter to it, and a
//! `+tag` is its owner's filter), so it is sent as given.
//!
//! **What the limits count** (`email_key`, also what says "this seat's address is already
//! confirmed"): the SHA-256 of the mailbox most servers deliver to — the local part in lower case
//! without its `+tag`, at the ASCII domain. `victim@x.example`, `VICTIM@X.EXAMPLE` and
//! `victim+1@x.example` are one mailbox and share its 3 mails a day. Dots are not removed: only
//! some providers ignore them.

use std::str::FromStr;

use lettre::message::Mailbox;

/// An address reminders may be sent to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Email {
    /// Where mail goes, as stored: the local part as typed, `@`, the ASCII domain.
    pub to: String,
    /// The limits' key: SHA-256 of the canonical mailbox.
    pub key: Vec<u8>,
    /// The canonical mailbox (lower-case local part without `+tag`, ASCII domain), for tests.
    #[cfg(test)]
    pub mailbox: String,
}

/// Why an address was refused (`400 bad_email`); the address itself is never in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub(crate) enum BadEmail {
    #[error("one name@domain, without a display name")]
    Shape,
    #[error("at most 254 bytes")]
    Length,
    #[error("no spaces and no control, invisible, direction-changing or private-use characters")]
    Characters,
    #[error("no quoted or escaped name before the @")]
    Quoted,
    #[error("the domain is a name with a dot (no address literal)")]
    Domain,
}

/// `given` (trimmed) as an address reminders may be sent to, or why not.
pub(crate) fn checked_email(given: &str) -> Result<Email, BadEmail> {
    let given = given.trim();
    if given.is_empty() {
        return Err(BadEmail::Shape);
    }
    if given.len() > evr_protocol::MAX_EMAIL_BYTES {
        return Err(BadEmail::Length);
    }
    if given.chars().any(char::is_whitespace) || crate::names::first_unfit(given, false).is_some() {
        return Err(BadEmail::Characters);
    }
    let (local, domain) = given.rsplit_once('@').ok_or(BadEmail::Shape)?;
    if local.contains(['"', '\\']) {
        return Err(BadEmail::Quoted);
    }
    if local.is_empty() || local.contains('@') {
        return Err(BadEmail::Shape);
    }
    if domain.starts_with('[') {
        return Err(BadEmail::Domain);
    }
    // STD3 rules (letters, digits, hyphens) and DNS lengths: the name of a host that takes mail
    let domain = idna::domain_to_ascii_strict(domain).map_err(|_| BadEmail::Domain)?;
    if !domain.contains('.') || domain.starts_with('.') || domain.ends_with('.') {
        return Err(BadEmail::Domain);
    }
    let to = format!("{local}@{domain}");
    if to.len() > evr_protocol::MAX_EMAIL_BYTES {
        return Err(BadEmail::Length);
    }
    // the same parsing the mail's `To:` gets (message.rs): an address that passes here is sent
    lettre::Address::from_str(&to).map_err(|_| BadEmail::Shape)?;
    Mailbox::from_str(&to).map_err(|_| BadEmail::Shape)?;
    let lower = local.to_lowercase();
    let untagged = match lower.split_once('+') {
        Some((base, _)) if !base.is_empty() => base,
        _ => lower.as_str(),
    };
    let mailbox = format!("{untagged}@{domain}");
    Ok(Email {
        to,
        key: crate::secrets::hash_token(&mailbox),
        #[cfg(test)]
        mailbox,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mailbox(given: &str) -> String {
        match checked_email(given) {
            Ok(e) => e.mailbox,
            Err(e) => panic!("{given:?} refused: {e}"),
        }
    }

    #[test]
    fn one_mailbox_one_key_however_it_is_spelled() {
        let one = checked_email("victim@x.example").unwrap();
        for spelling in [
            "VICTIM@X.EXAMPLE",
            "Victim@x.Example",
            "victim+1@x.example",
            "victim+evr+2@X.example",
            "  victim@x.example ",
            "victim@ｘ.ｅｘａｍｐｌｅ", // fullwidth letters: IDNA maps them to ASCII
        ] {
            let e = checked_email(spelling).unwrap();
            assert_eq!(e.key, one.key, "{spelling:?}");
        }
        assert_ne!(checked_email("victim2@x.example").unwrap().key, one.key);
        assert_ne!(checked_email("vic.tim@x.example").unwrap().key, one.key, "dots kept");
        // a local part that is only a tag is counted as it is
        assert_eq!(mailbox("+tag@x.example"), "+tag@x.example");
    }

    #[test]
    fn mail_goes_to_the_local_part_as_typed_at_the_ascii_domain() {
        let e = checked_email("Ana+evr@Bücher.Example").unwrap();
        assert_eq!(e.to, "Ana+evr@xn--bcher-kva.example");
        assert_eq!(e.mailbox, "ana@xn--bcher-kva.example");
        assert_eq!(checked_email("VICTIM@X.EXAMPLE").unwrap().to, "VICTIM@x.example");
    }

    #[test]
    fn quoted_escaped_and_invisible_addresses_are_refused() {
        for (given, why) in [
            ("\"victim\"@x.example", BadEmail::Quoted),
            ("\"vi\\ctim\"@x.example", BadEmail::Quoted),
            ("vi\\ctim@x.example", BadEmail::Quoted),
            ("\"a b\"@x.example", BadEmail::Characters),
            ("\u{202E}victim@x.example", BadEmail::Characters),
            ("victim\u{200B}@x.example", BadEmail::Characters),
            ("victim@x\u{200B}.example", BadEmail::Characters),
            ("vic\u{FEFF}tim@x.example", BadEmail::Characters),
            ("victim\u{2028}@x.example", BadEmail::Characters),
            ("vic\ttim@x.example", BadEmail::Characters),
            ("\u{E000}@x.example", BadEmail::Characters),
            ("(comment)victim@x.example", BadEmail::Shape),
            ("victim(comment)@x.example", BadEmail::Shape),
            ("Ana <ana@x.example>", BadEmail::Characters),
            ("<ana@x.example>", BadEmail::Domain),
            ("a@b@x.example", BadEmail::Shape),
            ("ana", BadEmail::Shape),
            ("@x.example", BadEmail::Shape),
            ("", BadEmail::Shape),
            ("ana@", BadEmail::Domain),
            ("ana@localhost", BadEmail::Domain),
            ("ana@[127.0.0.1]", BadEmail::Domain),
            ("ana@x_y.example", BadEmail::Domain),
            ("ana@.x.example", BadEmail::Domain),
            ("ana@x.example.", BadEmail::Domain),
            ("a..b@x.example", BadEmail::Shape),
        ] {
            assert_eq!(checked_email(given).map(|e| e.to), Err(why), "{given:?}");
        }
        let long = format!("{}@example.org", "a".repeat(250));
        assert_eq!(checked_email(&long).map(|e| e.to), Err(BadEmail::Length));
        // within 254 bytes as typed, over them once the domain is in ASCII
        let wide = format!("{}@{}.example", "a".repeat(40), "ü".repeat(60));
        assert!(wide.len() <= 254);
        assert!(checked_email(&wide).is_err());
    }
}
