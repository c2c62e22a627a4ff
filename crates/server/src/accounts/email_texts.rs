//! The words of the accounts' mails, in English, 繁體中文 and 日本語: the link that confirms an
//! address for sign-in links, and a sign-in link. Neither says anything of the account's games.

use evr_protocol::MailLanguage;

/// The confirmation mail of an account's address: subject and body.
pub(super) fn confirm_address(lang: MailLanguage, username: &str, link: &str) -> (String, String) {
    match lang {
        MailLanguage::En => (
            "Confirm your address for EvR Online".to_string(),
            format!(
                "The EvR Online account “{username}” gave this address for sign-in links.\n\n\
                 If it was you, confirm it on this page (the link works for 24 hours):\n{link}\n\n\
                 If it was not you, do nothing: the address will not be used."
            ),
        ),
        MailLanguage::ZhHant => (
            "確認你在 EvR Online 的電子郵件地址".to_string(),
            format!(
                "EvR Online 帳號「{username}」填寫了這個地址，用來接收登入連結。\n\n\
                 如果是你，請在這個頁面確認（連結 24 小時內有效）：\n{link}\n\n\
                 如果不是你，什麼都不用做：這個地址不會被使用。"
            ),
        ),
        MailLanguage::Ja => (
            "EvR Online のメールアドレスの確認".to_string(),
            format!(
                "EvR Online のアカウント「{username}」が、ログイン用リンクの送り先としてこのアドレスを登録しました。\n\n\
                 ご本人の場合は、このページで確認してください（リンクの有効期限は24時間です）：\n{link}\n\n\
                 心当たりがない場合は何もしないでください。このアドレスは使われません。"
            ),
        ),
    }
}

/// A sign-in link: subject and body.
pub(super) fn sign_in(lang: MailLanguage, username: &str, link: &str) -> (String, String) {
    match lang {
        MailLanguage::En => (
            "Your sign-in link for EvR Online".to_string(),
            format!(
                "Someone asked to sign in to the EvR Online account “{username}” with this address.\n\n\
                 If it was you, open this page and press its button (the link works once, for 15 minutes):\n{link}\n\n\
                 If it was not you, do nothing: nobody is signed in without this link."
            ),
        ),
        MailLanguage::ZhHant => (
            "你的 EvR Online 登入連結".to_string(),
            format!(
                "有人要求用這個地址登入 EvR Online 帳號「{username}」。\n\n\
                 如果是你，請開啟這個頁面並按下按鈕（連結只能使用一次，15 分鐘內有效）：\n{link}\n\n\
                 如果不是你，什麼都不用做：沒有這個連結就無法登入。"
            ),
        ),
        MailLanguage::Ja => (
            "EvR Online のログイン用リンク".to_string(),
            format!(
                "このアドレスで EvR Online のアカウント「{username}」にログインする依頼がありました。\n\n\
                 ご本人の場合は、このページを開いてボタンを押してください（リンクは1回限り、15分間有効です）：\n{link}\n\n\
                 心当たりがない場合は何もしないでください。このリンクがなければ誰もログインできません。"
            ),
        ),
    }
}
