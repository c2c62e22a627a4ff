//! The words of the mails and of the links' pages, in English, 繁體中文 and 日本語. The game's words
//! follow docs/spec/glossary.md (the sides, the game's name). A mail says whose turn it is, in
//! which room, against whom, by when — never anything of the game itself (no cards, no choices).

use evr_protocol::MailLanguage;
use evr_rules::Faction;

use crate::notify::ReminderKind;

/// The game's name (glossary).
fn game(lang: MailLanguage) -> &'static str {
    match lang {
        MailLanguage::En => "Star Wars: Empire vs. Rebellion",
        MailLanguage::ZhHant => "星際大戰：帝國軍vs反抗軍",
        MailLanguage::Ja => "スター・ウォーズ：帝国軍 vs. 反乱軍",
    }
}

/// A side's name (glossary), for an opponent without a display name.
pub(super) fn side(lang: MailLanguage, f: Faction) -> &'static str {
    match (lang, f) {
        (MailLanguage::En, Faction::Rebel) => "the Rebel player",
        (MailLanguage::En, Faction::Imperial) => "the Imperial player",
        (MailLanguage::ZhHant, Faction::Rebel) => "反抗軍玩家",
        (MailLanguage::ZhHant, Faction::Imperial) => "帝國軍玩家",
        (MailLanguage::Ja, Faction::Rebel) => "反乱軍のプレイヤー",
        (MailLanguage::Ja, Faction::Imperial) => "帝国軍のプレイヤー",
    }
}

/// An opponent's display name in quotes, as each language writes them.
pub(super) fn quoted(lang: MailLanguage, name: &str) -> String {
    match lang {
        MailLanguage::En => format!("“{name}”"),
        MailLanguage::ZhHant | MailLanguage::Ja => format!("「{name}」"),
    }
}

/// A duration as people read it, to the minute: "2 days 3 h", "3 h 5 min", "4 min".
pub(super) fn duration(lang: MailLanguage, ms: i64) -> String {
    let minutes = (ms.max(0) + 59_999) / 60_000;
    let (d, h, m) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
    let (day, days, hour, minute) = match lang {
        MailLanguage::En => (" day", " days", " h", " min"),
        MailLanguage::ZhHant => (" 天", " 天", " 小時", " 分鐘"),
        MailLanguage::Ja => ("日", "日", "時間", "分"),
    };
    let sep = if lang == MailLanguage::Ja { "" } else { " " };
    let mut parts = Vec::new();
    if d > 0 {
        parts.push(format!("{d}{}", if d == 1 { day } else { days }));
    }
    if h > 0 {
        parts.push(format!("{h}{hour}"));
    }
    if d == 0 && (m > 0 || h == 0) {
        parts.push(format!("{m}{minute}"));
    }
    parts.join(sep)
}

/// The footer of every mail: why it came, and how to stop it.
fn footer(lang: MailLanguage, unsubscribe: &str) -> String {
    match lang {
        MailLanguage::En => format!(
            "You get this because an address was given for reminders in this room. \
             Stop them (and have the address deleted): {unsubscribe}"
        ),
        MailLanguage::ZhHant => {
            format!("你收到這封信，是因為有人在這個房間留下了這個地址以接收提醒。停止提醒（並刪除地址）：{unsubscribe}")
        }
        MailLanguage::Ja => format!(
            "このルームでお知らせの送り先としてこのアドレスが入力されたため、このメールが届きました。\
             お知らせを止める（アドレスを削除する）：{unsubscribe}"
        ),
    }
}

/// Subject and body of the confirmation mail.
pub(super) fn confirmation(lang: MailLanguage, room: &str, confirm: &str, unsubscribe: &str) -> (String, String) {
    let hours = super::CONFIRM_LINK_HOURS;
    let (subject, body) = match lang {
        MailLanguage::En => (
            format!("Turn on reminders for room {room}?"),
            format!(
                "Someone asked to be reminded by email when it is their turn in room {room} of {}.\n\n\
                 If it was you, turn the reminders on (the link works for {hours} hours):\n{confirm}\n\n\
                 If it was not you, do nothing: no other mail will come, and the address is deleted.",
                game(lang)
            ),
        ),
        MailLanguage::ZhHant => (
            format!("要開啟房間 {room} 的提醒嗎？"),
            format!(
                "有人要求在{}的房間 {room} 輪到自己時以電子郵件提醒。\n\n\
                 如果是你，請開啟提醒（連結 {hours} 小時內有效）：\n{confirm}\n\n\
                 如果不是你，什麼都不用做：不會再收到其他信件，地址也會被刪除。",
                game(lang)
            ),
        ),
        MailLanguage::Ja => (
            format!("ルーム {room} のお知らせをオンにしますか？"),
            format!(
                "{}のルーム {room} で自分の手番になったらメールで知らせてほしい、という依頼がありました。\n\n\
                 ご本人の場合は、お知らせをオンにしてください（リンクの有効期限は{hours}時間です）：\n{confirm}\n\n\
                 心当たりがない場合は何もしないでください。これ以上メールは届かず、アドレスは削除されます。",
                game(lang)
            ),
        ),
    };
    (subject, format!("{body}\n\n-- \n{}\n", footer(lang, unsubscribe)))
}

/// What a reminder says: the room, the opponent, the deadline and the way back.
pub(super) struct ReminderText<'a> {
    pub(super) kind: ReminderKind,
    pub(super) room: &'a str,
    pub(super) opponent: &'a str,
    /// `2026-05-12 14:03 UTC`.
    pub(super) deadline_utc: &'a str,
    /// The time left, e.g. "1 day 23 h".
    pub(super) left: &'a str,
    pub(super) room_link: &'a str,
    pub(super) unsubscribe: &'a str,
}

/// Subject and body of a reminder. The opponent's name (a text any player chooses) is in the body
/// only: in a subject, beside the site's name, it would read as the site's own words.
pub(super) fn reminder(lang: MailLanguage, t: &ReminderText<'_>) -> (String, String) {
    let ReminderText {
        kind,
        room,
        opponent,
        deadline_utc,
        left,
        room_link,
        ..
    } = t;
    let (subject, body) = match (lang, kind) {
        (MailLanguage::En, ReminderKind::YourTurn) => (
            format!("Your turn in room {room}"),
            format!("It is your turn in room {room} of {} against {opponent}.", game(lang)),
        ),
        (MailLanguage::En, ReminderKind::TimeRunningOut) => (
            format!("Time is running out in room {room}"),
            format!(
                "Time is running out for your decision in room {room} of {} against {opponent}.",
                game(lang)
            ),
        ),
        (MailLanguage::ZhHant, ReminderKind::YourTurn) => (
            format!("房間 {room}：輪到你了"),
            format!("在{}的房間 {room}，輪到你了。對手：{opponent}。", game(lang)),
        ),
        (MailLanguage::ZhHant, ReminderKind::TimeRunningOut) => (
            format!("房間 {room}：時間快到了"),
            format!(
                "在{}的房間 {room}，你做決定的時間快到了。對手：{opponent}。",
                game(lang)
            ),
        ),
        (MailLanguage::Ja, ReminderKind::YourTurn) => (
            format!("ルーム {room}：あなたの手番です"),
            format!("{}のルーム {room} で、あなたの手番です。相手：{opponent}。", game(lang)),
        ),
        (MailLanguage::Ja, ReminderKind::TimeRunningOut) => (
            format!("ルーム {room}：残り時間がわずかです"),
            format!(
                "{}のルーム {room} で、決定までの残り時間がわずかです。相手：{opponent}。",
                game(lang)
            ),
        ),
    };
    let deadline = match lang {
        MailLanguage::En => format!("Decide by {deadline_utc} (in {left}); a missed deadline loses the game on time."),
        MailLanguage::ZhHant => format!("請在 {deadline_utc} 前（還有 {left}）做出決定；逾時即因超時輸掉這局。"),
        MailLanguage::Ja => {
            format!("{deadline_utc}まで（あと{left}）に決めてください。期限を過ぎると時間切れで負けになります。")
        }
    };
    let back = match lang {
        MailLanguage::En => {
            format!("Back to the room: {room_link}\n(It opens your seat on the device where you play this room.)")
        }
        MailLanguage::ZhHant => format!("回到房間：{room_link}\n（在你進行這個房間的裝置上開啟你的座位。）"),
        MailLanguage::Ja => {
            format!("ルームに戻る：{room_link}\n（このルームで遊んでいる端末で、あなたの席が開きます。）")
        }
    };
    (
        subject,
        format!(
            "{body}\n\n{deadline}\n\n{back}\n\n-- \n{}\n",
            footer(lang, t.unsubscribe)
        ),
    )
}

/// The words of the links' pages.
pub(super) struct PageText {
    pub(super) confirm_title: &'static str,
    pub(super) confirm_button: &'static str,
    pub(super) on: &'static str,
    pub(super) unsubscribe_title: &'static str,
    pub(super) unsubscribe_button: &'static str,
    pub(super) off: &'static str,
    pub(super) back: &'static str,
}

pub(super) fn page(lang: MailLanguage) -> PageText {
    match lang {
        MailLanguage::En => PageText {
            confirm_title: "Turn on reminders for room {room}?",
            confirm_button: "Turn reminders on",
            on: "Reminders for room {room} are on.",
            unsubscribe_title: "Stop reminders for room {room}?",
            unsubscribe_button: "Stop reminders",
            off: "Reminders for room {room} are off, and the address is deleted.",
            back: "Back to the room",
        },
        MailLanguage::ZhHant => PageText {
            confirm_title: "要開啟房間 {room} 的提醒嗎？",
            confirm_button: "開啟提醒",
            on: "房間 {room} 的提醒已開啟。",
            unsubscribe_title: "要停止房間 {room} 的提醒嗎？",
            unsubscribe_button: "停止提醒",
            off: "房間 {room} 的提醒已關閉，地址已刪除。",
            back: "回到房間",
        },
        MailLanguage::Ja => PageText {
            confirm_title: "ルーム {room} のお知らせをオンにしますか？",
            confirm_button: "お知らせをオンにする",
            on: "ルーム {room} のお知らせはオンです。",
            unsubscribe_title: "ルーム {room} のお知らせを止めますか？",
            unsubscribe_button: "お知らせを止める",
            off: "ルーム {room} のお知らせは止まり、アドレスは削除されました。",
            back: "ルームに戻る",
        },
    }
}

/// A link that leads nowhere (used, expired or replaced), in all three languages: nothing says
/// whose it was.
pub(super) const DEAD_LINK: &str = "This link no longer works: it was used, has expired, or the address was changed. \
     / 此連結已失效：已使用、已過期，或地址已更改。 / このリンクは使えません：使用済み、期限切れ、またはアドレスが変更されました。";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_people_say_them() {
        let h = 3_600_000;
        assert_eq!(duration(MailLanguage::En, 51 * h), "2 days 3 h");
        assert_eq!(duration(MailLanguage::En, 24 * h), "1 day");
        assert_eq!(duration(MailLanguage::En, 3 * h + 5 * 60_000), "3 h 5 min");
        assert_eq!(duration(MailLanguage::En, 90_000), "2 min");
        assert_eq!(duration(MailLanguage::En, 0), "0 min");
        assert_eq!(duration(MailLanguage::Ja, 51 * h), "2日3時間");
        assert_eq!(duration(MailLanguage::ZhHant, 51 * h), "2 天 3 小時");
    }
}
