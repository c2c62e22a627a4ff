//! Display names: what a player (at a seat) or a spectator (in the chat) is called. Names are text
//! that other people read, so they are checked here once for every use: trimmed, 1 to
//! `MAX_NAME_CHARS` characters, no control characters, and none of the invisible characters that
//! reorder the text around them (a name must not turn the line it is shown in backwards).

use evr_protocol::MAX_NAME_CHARS;

/// Characters that change the direction of the text that follows them (Unicode's bidirectional
/// embeddings, overrides and isolates): refused in a name and in a chat message.
pub(crate) fn reorders_text(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// `raw` as a display name (trimmed), or `None` if it is not one.
pub fn display_name(raw: &str) -> Option<String> {
    let name = raw.trim();
    let chars = name.chars().count();
    let clean = !name.chars().any(|c| c.is_control() || reorders_text(c));
    ((1..=MAX_NAME_CHARS).contains(&chars) && clean).then(|| name.to_string())
}

/// Why a name was refused, for people.
pub const REFUSED: &str = "a name is 1 to 24 characters, on one line";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(display_name("  Ana  ").as_deref(), Some("Ana"));
        assert_eq!(display_name("ルーク").as_deref(), Some("ルーク"));
        assert_eq!(
            display_name(&"n".repeat(MAX_NAME_CHARS)).map(|n| n.len()),
            Some(MAX_NAME_CHARS)
        );
        assert_eq!(
            display_name(&"界".repeat(MAX_NAME_CHARS)).map(|n| n.chars().count()),
            Some(MAX_NAME_CHARS)
        );
        assert_eq!(display_name(&"n".repeat(MAX_NAME_CHARS + 1)), None);
        assert_eq!(display_name("   "), None);
        assert_eq!(display_name(""), None);
    }

    #[test]
    fn names_hold_no_control_or_reordering_characters() {
        for bad in ["a\nb", "a\tb", "a\u{0}b", "\u{202E}evil", "a\u{2067}b", "x\u{200F}"] {
            assert_eq!(display_name(bad), None, "{bad:?}");
        }
        // markup is text like any other: the clients show it as text
        assert_eq!(
            display_name("<img src=x onerror=f()>").as_deref(),
            Some("<img src=x onerror=f()>")
        );
    }
}
