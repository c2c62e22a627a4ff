//! `evr-bot-client`: argument handling; the work is in the library.

use anyhow::{Context, Result, bail};
use evr_bot::{Bot, BotConfig, Level};
use evr_bot_client::{Invite, join, parse_server, play_seat};

const USAGE: &str = "\
evr-bot-client — a computer player for an EvR Online server

USAGE:
    evr-bot-client --invite URL [--level easy|normal|hard] [--seed N] [--games N]
    evr-bot-client --server http://HOST:PORT --room CODE --token TOKEN [--level …] [--seed N] [--games N]

The first form takes the free seat with an invite link (quote it: it contains '#'); the second plays a
seat whose token you have. --games N asks for rematches until N games are played (default 1).
";

struct Args {
    invite: Option<String>,
    server: Option<String>,
    room: Option<String>,
    token: Option<String>,
    level: Level,
    seed: u64,
    games: u32,
}

fn parse(args: &[String]) -> Result<Args> {
    let mut a = Args {
        invite: None,
        server: None,
        room: None,
        token: None,
        level: Level::Normal,
        seed: 1,
        games: 1,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().with_context(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--invite" => a.invite = Some(value()?.clone()),
            "--server" => a.server = Some(value()?.clone()),
            "--room" => a.room = Some(value()?.clone()),
            "--token" => a.token = Some(value()?.clone()),
            "--level" => {
                let v = value()?;
                a.level = Level::parse(v).with_context(|| format!("unknown level {v:?}"))?;
            }
            "--seed" => a.seed = value()?.parse().context("--seed takes a number")?,
            "--games" => a.games = value()?.parse().context("--games takes a number")?,
            "-h" | "--help" => bail!("help"),
            other => bail!("unknown argument {other:?}"),
        }
    }
    Ok(a)
}

#[tokio::main]
async fn main() -> Result<()> {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let args = match parse(&raw) {
        Ok(a) if a.invite.is_some() || (a.server.is_some() && a.room.is_some() && a.token.is_some()) => a,
        Ok(_) | Err(_) if raw.iter().any(|a| a == "-h" || a == "--help") => {
            print!("{USAGE}");
            return Ok(());
        }
        Ok(_) => bail!("give --invite, or --server, --room and --token\n\n{USAGE}"),
        Err(e) => bail!("{e}\n\n{USAGE}"),
    };
    let (server, room, token) = match &args.invite {
        Some(url) => {
            let invite = Invite::parse(url)?;
            let seat = join(&invite).await?;
            eprintln!("joined room {} as {:?}", invite.code, seat.faction);
            (invite.server, invite.code, seat.token)
        }
        None => (
            parse_server(args.server.as_deref().unwrap_or_default())?,
            args.room.clone().unwrap_or_default(),
            args.token.clone().unwrap_or_default(),
        ),
    };
    let mut bot = Bot::new(BotConfig::new(args.level, args.seed));
    let summary = play_seat(server, &room, &token, &mut bot, args.games).await?;
    println!(
        "games {} won {} actions {} reconnects {}",
        summary.games, summary.won, summary.actions, summary.reconnects
    );
    Ok(())
}
