//! Display names: what a player (at a seat) or a spectator (in the chat) is called. Names are text
//! that other people read, so they are checked here once for every use: trimmed, 1 to
//! `MAX_NAME_CHARS` characters, at least one of them visible, and nothing that other readers would
//! not see as it was meant (`unfit`: controls, characters that reorder the text around them,
//! invisible ones, line separators, private use). The chat's free text obeys the same
//! characters (`crate::chat`), line breaks apart.
//!
//! Unicode's own data decides (`icu_properties`, the Unicode Consortium's ICU4X, already built for
//! `idna`): general category, `Default_Ignorable_Code_Point`, `Bidi_Control`, and the emoji
//! properties that let the invisible joiners of an emoji sequence through.

use evr_protocol::MAX_NAME_CHARS;
use icu_properties::props::{
    BidiControl, DefaultIgnorableCodePoint, Emoji, EmojiModifier, ExtendedPictographic, GeneralCategory,
};
use icu_properties::{CodePointMapData, CodePointSetData};

/// Why a character may not be in text that other people read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unfit {
    /// A control character (C0, C1: tab, NUL, escape; a line feed where the text is one line).
    Control,
    /// Unicode's bidirectional controls (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069): the
    /// text after them reads backwards (`gg \u{202E}exe.evil` shows as "gg live.exe").
    Reorders,
    /// A character that shows nothing: format characters (general category Cf: U+200B, U+2060,
    /// U+FEFF…), Unicode's default-ignorable code points (U+3164 and the other Hangul fillers,
    /// variation selectors out of an emoji…) and blank look-alikes ([`BLANKS`]). A name made of them
    /// looks empty, and one with them looks like another name (`Ana\u{200B}` beside `Ana`).
    Invisible,
    /// U+2028, U+2029: a line break that is no line feed, where the text should be one line (a
    /// name) or breaks with `\n` only (the chat).
    Separator,
    /// Private use (U+E000–U+F8FF, planes 15 and 16): meaningful only by private agreement, shown
    /// as a vendor's logo on one system and as nothing or a box on another.
    PrivateUse,
}

/// Blank look-alikes that Unicode does not call ignorable (they are symbols), so no property names
/// them: the braille blank (U+2800, a whole empty braille cell) and the musical null notehead
/// (U+1D159), both drawn as empty space by common fonts and used for "invisible" names.
const BLANKS: [char; 2] = ['\u{2800}', '\u{1D159}'];

const ZERO_WIDTH_JOINER: char = '\u{200D}';

/// The variation selectors that choose an emoji's look (text or colour). A character of their own,
/// after an emoji only.
fn emoji_style(c: char) -> bool {
    matches!(c, '\u{FE0E}' | '\u{FE0F}')
}

/// Why `c` may not be in text other people read (`None`: it may), `before` and `after` being its
/// neighbours: an emoji's variation selector and the joiner inside an emoji sequence (`❤️`,
/// `👩‍💻`) are invisible characters, allowed only there, where they are part of one visible picture.
/// `line_breaks`: whether `\n` is allowed (the chat's free text).
pub(crate) fn unfit(c: char, before: Option<char>, after: Option<char>, line_breaks: bool) -> Option<Unfit> {
    let category = CodePointMapData::<GeneralCategory>::new().get(c);
    if c == '\n' && line_breaks {
        return None;
    }
    if category == GeneralCategory::Control {
        return Some(Unfit::Control);
    }
    if CodePointSetData::new::<BidiControl>().contains(c) {
        return Some(Unfit::Reorders);
    }
    if matches!(
        category,
        GeneralCategory::LineSeparator | GeneralCategory::ParagraphSeparator
    ) {
        return Some(Unfit::Separator);
    }
    if category == GeneralCategory::PrivateUse {
        return Some(Unfit::PrivateUse);
    }
    let pictograph = |c: Option<char>| c.is_some_and(|c| CodePointSetData::new::<ExtendedPictographic>().contains(c));
    let in_emoji = if emoji_style(c) {
        before.is_some_and(|b| CodePointSetData::new::<Emoji>().contains(b))
    } else if c == ZERO_WIDTH_JOINER {
        // joins two pictographs; the one before may carry its skin tone or colour selector
        let joined = before.is_some_and(|b| {
            pictograph(Some(b)) || CodePointSetData::new::<EmojiModifier>().contains(b) || b == '\u{FE0F}'
        });
        joined && pictograph(after)
    } else {
        false
    };
    let invisible = category == GeneralCategory::Format
        || CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(c)
        || BLANKS.contains(&c);
    (invisible && !in_emoji).then_some(Unfit::Invisible)
}

/// The first reason `text` may not be shown to other people, if any ([`unfit`] for each character
/// with its neighbours).
pub(crate) fn first_unfit(text: &str, line_breaks: bool) -> Option<Unfit> {
    let chars: Vec<char> = text.chars().collect();
    (0..chars.len()).find_map(|i| {
        let before = i.checked_sub(1).and_then(|b| chars.get(b)).copied();
        unfit(chars[i], before, chars.get(i + 1).copied(), line_breaks)
    })
}

/// Whether `text` shows something: a character that is neither whitespace nor one of those
/// [`unfit`] calls invisible (nor a variation selector or joiner, invisible even inside an emoji).
pub(crate) fn has_visible(text: &str) -> bool {
    text.chars().any(|c| {
        !c.is_whitespace()
            && !emoji_style(c)
            && c != ZERO_WIDTH_JOINER
            && unfit(c, None, None, false) != Some(Unfit::Invisible)
    })
}

/// `raw` as a display name (trimmed), or `None` if it is not one.
pub fn display_name(raw: &str) -> Option<String> {
    let name = raw.trim();
    let chars = name.chars().count();
    let fit = first_unfit(name, false).is_none() && has_visible(name);
    ((1..=MAX_NAME_CHARS).contains(&chars) && fit).then(|| name.to_string())
}

/// Why a name was refused, for people.
pub const REFUSED: &str = "a name is 1 to 24 characters on one line, something visible, with no invisible, formatting or private-use characters";

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
        for bad in [
            "a\nb",
            "a\tb",
            "a\u{0}b",
            "\u{202E}evil",
            "a\u{2067}b",
            "x\u{200F}",
            "a\u{85}b",
        ] {
            assert_eq!(display_name(bad), None, "{bad:?}");
        }
        // markup is text like any other: the clients show it as text
        assert_eq!(
            display_name("<img src=x onerror=f()>").as_deref(),
            Some("<img src=x onerror=f()>")
        );
    }

    #[test]
    fn a_name_shows_something_and_nothing_invisible() {
        let invisible = [
            "\u{200B}",         // zero width space (Cf)
            "\u{2060}",         // word joiner (Cf)
            "\u{FEFF}",         // byte order mark (Cf)
            "\u{00AD}",         // soft hyphen (Cf)
            "\u{3164}",         // Hangul filler (Lo, default-ignorable)
            "\u{115F}\u{1160}", // Hangul choseong and jungseong fillers
            "\u{FFA0}",         // halfwidth Hangul filler
            "\u{FE0F}",         // a variation selector alone
            "\u{E0101}",        // an ideographic variation selector alone
            "\u{2800}",         // braille blank (So): drawn as nothing
            "\u{1D159}",        // musical null notehead
            "\u{034F}",         // combining grapheme joiner
            "\u{180E}",         // Mongolian vowel separator
            "\u{E0041}",        // a tag character
            "\u{2800}\u{2800}\u{3164}",
        ];
        for bad in invisible {
            assert_eq!(display_name(bad), None, "{bad:?} alone");
            assert_eq!(
                display_name(&format!("Ana{bad}")),
                None,
                "Ana{bad:?}, a look-alike of Ana"
            );
            assert_eq!(display_name(&format!("A{bad}na")), None, "A{bad:?}na");
        }
        for bad in [
            "a\u{2028}b",
            "a\u{2029}b",
            "\u{E000}",
            "Ana\u{F8FF}",
            "\u{F0000}",
            "a\u{10FFFD}",
        ] {
            assert_eq!(display_name(bad), None, "{bad:?}: separators and private use");
        }
        assert_eq!(first_unfit("a\u{2028}b", true), Some(Unfit::Separator));
        assert_eq!(first_unfit("Ana\u{200B}", false), Some(Unfit::Invisible));
        assert_eq!(first_unfit("\u{E000}", false), Some(Unfit::PrivateUse));
        assert_eq!(first_unfit("a\u{202E}b", false), Some(Unfit::Reorders));
        assert_eq!(first_unfit("a\nb", false), Some(Unfit::Control));
        assert_eq!(first_unfit("a\nb", true), None);
        // visible text of every kind, spaces inside it included
        for good in ["Ana Bea", "Zoë", "ルーク", "김민준", "Ж", "🙂", "a\u{3000}b", "é"] {
            assert_eq!(display_name(good).as_deref(), Some(good), "{good:?}");
        }
    }

    #[test]
    fn the_invisible_parts_of_an_emoji_pass_inside_it_only() {
        for emoji in [
            "❤\u{FE0F}",                        // red heart, emoji style
            "Ana ❤\u{FE0F}",                    // after a name
            "#\u{FE0F}\u{20E3}",                // keycap
            "👩\u{200D}💻",                     // woman technologist
            "👩\u{1F3FD}\u{200D}💻",            // with a skin tone
            "🏳\u{FE0F}\u{200D}🌈",              // rainbow flag
            "👨\u{200D}👩\u{200D}👧\u{200D}👦", // family
        ] {
            assert_eq!(display_name(emoji).as_deref(), Some(emoji), "{emoji:?}");
        }
        for bad in [
            "a\u{FE0F}",
            "Ana\u{200D}",
            "a\u{200D}b",
            "\u{200D}💻",
            "👩\u{200D}",
            "❤\u{FE0F}\u{FE0F}",
        ] {
            assert_eq!(display_name(bad), None, "{bad:?}");
        }
        assert!(!has_visible("\u{FE0F}\u{200D}"));
    }
}
