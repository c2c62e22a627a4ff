//! The words of the challenge mail, in English, 繁體中文 and 日本語 (the game's names as
//! `docs/spec/glossary.md` gives them). An account keeps no language of its own, so the mail says
//! it in all three, English first. It names the challenger and links to the site, nothing more: no
//! secret, no room code (the challenge is answered signed in).

/// "`from` challenges you": subject and body.
pub(super) fn challenged(from: &str, link: &str) -> (String, String) {
    (
        format!("{from} challenges you to Empire vs. Rebellion"),
        format!(
            "Your friend “{from}” challenges you to a game of Empire vs. Rebellion on EvR Online.\n\
             Sign in to accept or decline it (it waits 7 days):\n{link}\n\n\
             你的好友「{from}」在 EvR Online 向你發起一局帝國軍vs反抗軍的挑戰。\n\
             請登入後接受或拒絕（挑戰保留 7 天）：\n{link}\n\n\
             フレンドの「{from}」さんから、EvR Online で帝国軍 vs. 反乱軍の対戦の申し込みが届きました。\n\
             ログインして、受けるか断るかを選んでください（申し込みは7日間有効です）：\n{link}\n\n\
             You get this mail because your account has this confirmed address. Who may challenge you is \
             set on the site (friends or nobody)."
        ),
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_mail_names_the_challenger_and_links_to_the_site_in_three_languages() {
        let (subject, body) = super::challenged("Leia", "https://evr.example/");
        assert!(subject.contains("Leia"));
        assert_eq!(body.matches("https://evr.example/").count(), 3);
        for words in ["challenges you", "帝國軍vs反抗軍", "帝国軍 vs. 反乱軍"] {
            assert!(body.contains(words), "{words}");
        }
    }
}
