//! A finished game step by step (`/api/rooms/{code}/games/{n}/steps`): each viewer's replay is,
//! step for step and byte for byte, what that viewer was sent live; a spectator's replay does not
//! depend on anything a spectator may not know; a seat's needs its token; everything needs both
//! players' agreement; nothing while the game is played; bad requests get their error codes.

use std::net::SocketAddr;

use anyhow::{Context, Result, bail, ensure};
use evr_protocol::{ClientMsg, ErrorCode, ReplayEyes, ReplaySteps, ServerMsg, replay_steps_path};
use evr_rules::{Action, Card, CardMask, Faction, Game, GameSeed, LogEntry, Mode, PhaseName, View, Viewer};
use evr_store::GameSecret;
use evr_store::{GameResult, SqliteStore, Store, WriteOp};
use rand::{RngExt, SeedableRng};

use crate::support::{self, Client, Welcome};

async fn refused(addr: SocketAddr, path: &str, token: Option<&str>) -> Result<(u16, ErrorCode)> {
    let (status, head, body) = support::get_gzip(addr, path, token).await?;
    let text = support::body_text(&head, &body)?;
    ensure!(status != 200, "{path} was served");
    Ok((status, serde_json::from_str::<evr_protocol::ApiErrorBody>(&text)?.code))
}

/// What one connection saw live: the game's start (the welcome's view and log), then each update.
#[derive(Default)]
struct Seen(Vec<(u32, View, Vec<LogEntry>)>);

impl Seen {
    fn start(w: &Welcome) -> Seen {
        Seen(vec![(w.seq, w.view.clone(), w.log.clone())])
    }

    /// Reads updates until the one with `seq`.
    async fn until(&mut self, c: &mut Client, seq: u32) -> Result<View> {
        loop {
            let (s, events) = c
                .recv_until("an update", |m| match m {
                    ServerMsg::Update { seq, events, .. } => Some((seq, events)),
                    _ => None,
                })
                .await?;
            let view = c.current_view()?;
            self.0.push((s, view.clone(), events));
            if s == seq {
                return Ok(view);
            }
        }
    }

    /// Each step as the replay gives it: the view without its round log and legal actions.
    fn as_steps(&self) -> Vec<(u32, View, Vec<LogEntry>)> {
        self.0
            .iter()
            .map(|(s, v, log)| {
                let mut v = v.clone();
                v.log.clear();
                v.legal_actions.clear();
                (*s, v, log.clone())
            })
            .collect()
    }
}

fn replayed(r: &ReplaySteps) -> Vec<(u32, View, Vec<LogEntry>)> {
    r.steps.iter().map(|s| (s.seq, s.view.clone(), s.log.clone())).collect()
}

/// Reads `room` messages until one says `sides` agreed to reveal the game.
async fn agreed(c: &mut Client, sides: &[Faction]) -> Result<()> {
    c.recv_until("the agreement", |m| match m {
        ServerMsg::Room { room } if sides.iter().all(|f| room.reveal_agreed[*f]) => Some(()),
        _ => None,
    })
    .await
}

#[tokio::test]
async fn a_finished_game_replays_step_by_step_as_each_viewer_saw_it_live() -> Result<()> {
    let server = support::start("replay-steps").await?;
    let addr = server.addr;
    let seats = support::create_and_join(addr, Mode::Full).await?;
    let (mut spectator, ws) = Client::hello(addr, &seats.code, None, None).await?;
    let (mut a, wa) = Client::hello(addr, &seats.code, Some(&seats.creator_token), None).await?;
    let (mut b, wb) = Client::hello(addr, &seats.code, Some(&seats.guest_token), None).await?;
    ensure!(wa.seq == ws.seq && wb.seq == ws.seq, "no action yet");
    let mut seen = [Seen::start(&wa), Seen::start(&wb), Seen::start(&ws)];
    let spectator_path = replay_steps_path(&seats.code, 1, ReplayEyes::Spectator);

    // nothing while the game is played, whoever asks
    assert_eq!(
        refused(addr, &spectator_path, None).await?,
        (409, ErrorCode::GameNotOver)
    );
    let seat_path = replay_steps_path(&seats.code, 1, ReplayEyes::Seat);
    assert_eq!(
        refused(addr, &seat_path, Some(&seats.creator_token)).await?,
        (409, ErrorCode::GameNotOver)
    );

    // a random game to its end, every connection recording what it is sent
    let mut rng = rand::rngs::SmallRng::seed_from_u64(2026);
    let mut views = [wa.view.clone(), wb.view.clone()];
    let mut seq = ws.seq;
    let mut actions = 0;
    while views[0].outcome.is_none() {
        let i = (0..2)
            .find(|i| !views[*i].legal_actions.is_empty())
            .context("nobody can act")?;
        let legal = &views[i].legal_actions;
        let chosen = legal[rng.random_range(0..legal.len())];
        let c = if i == 0 { &mut a } else { &mut b };
        c.send(&support::action(seq, format!("s{actions}"), chosen)).await?;
        seq += 1;
        actions += 1;
        views[0] = seen[0].until(&mut a, seq).await?;
        views[1] = seen[1].until(&mut b, seq).await?;
        seen[2].until(&mut spectator, seq).await?;
        ensure!(actions < 5000, "the game does not end");
    }

    // each viewer's replay is what it was sent, step for step
    let creator = seats.creator;
    let as_spectator = support::replay_steps(addr, &seats.code, ReplayEyes::Spectator, None).await?;
    assert_eq!(as_spectator.viewer, Viewer::Spectator);
    assert_eq!(as_spectator.your_faction, None);
    assert_eq!(as_spectator.steps.len(), actions + 1, "the start and every action");
    assert_eq!(replayed(&as_spectator), seen[2].as_steps());
    assert_eq!(as_spectator.outcome, views[0].outcome);
    let fairness = as_spectator.fairness.clone().context("fairness")?;
    assert_eq!(
        Some(fairness.commitment.clone()),
        wa.room.fairness.as_ref().map(|f| f.commitment.clone())
    );
    assert!(
        fairness.seed.is_some() && fairness.salt.is_some(),
        "over: the key is told"
    );
    for (token, faction, k) in [
        (&seats.creator_token, creator, 0),
        (&seats.guest_token, creator.opponent(), 1),
    ] {
        let own = support::replay_steps(addr, &seats.code, ReplayEyes::Seat, Some(token)).await?;
        assert_eq!(own.viewer, Viewer::Seat(faction));
        assert_eq!(own.your_faction, Some(faction));
        assert_eq!(
            replayed(&own),
            seen[k].as_steps(),
            "{faction:?}'s replay is what it saw"
        );
        // a player's token on the spectator's eyes: the same steps, and the page may offer the seat
        let watched = support::replay_steps(addr, &seats.code, ReplayEyes::Spectator, Some(token)).await?;
        assert_eq!(watched.your_faction, Some(faction));
        assert_eq!(watched.steps, as_spectator.steps);
    }
    assert_eq!(
        refused(addr, &seat_path, None).await?,
        (403, ErrorCode::BadToken),
        "a seat's replay needs its token"
    );
    assert_eq!(
        refused(addr, &seat_path, Some("0123456789abcdef0123456789abcdef")).await?,
        (403, ErrorCode::BadToken)
    );

    // everything: only once both players agreed
    let everything_path = replay_steps_path(&seats.code, 1, ReplayEyes::Everything);
    assert_eq!(
        refused(addr, &everything_path, Some(&seats.creator_token)).await?,
        (403, ErrorCode::ReplayNotRevealed)
    );
    // (the game-over `room` message may still be queued: wait for the one with the agreement)
    a.send(&ClientMsg::RevealReplay).await?;
    agreed(&mut a, &[creator]).await?;
    assert_eq!(
        refused(addr, &everything_path, None).await?,
        (403, ErrorCode::ReplayNotRevealed),
        "one player is not enough"
    );
    b.send(&ClientMsg::RevealReplay).await?;
    agreed(&mut b, &Faction::BOTH).await?;
    let all = support::replay_steps(addr, &seats.code, ReplayEyes::Everything, None).await?;
    assert_eq!(all.viewer, Viewer::Omniscient);
    assert!(all.revealed);
    assert_eq!(all.steps.len(), actions + 1);
    let seat_steps = [
        support::replay_steps(addr, &seats.code, ReplayEyes::Seat, Some(&seats.creator_token)).await?,
        support::replay_steps(addr, &seats.code, ReplayEyes::Seat, Some(&seats.guest_token)).await?,
    ];
    for (i, step) in all.steps.iter().enumerate() {
        for (k, f) in [(0, creator), (1, creator.opponent())] {
            let mine = seat_steps[k].steps[i].view.player(f);
            let told = step.view.player(f);
            // each side's secrets as its own seat knew them, and the deck's order besides
            assert_eq!(told.characters, mine.characters, "step {i}: {f:?}'s characters");
            assert_eq!(told.deck_contents, mine.deck_contents, "step {i}: {f:?}'s deck");
            assert_eq!(told.unused_strategies, mine.unused_strategies);
            let order = told.deck_order.as_ref().context("the deck's order")?;
            assert_eq!(order.len() as u32, told.deck_size);
            assert_eq!(
                CardMask::of(order.iter().copied()),
                told.deck_contents.unwrap_or(CardMask::EMPTY)
            );
            assert_eq!(mine.deck_order, None, "a seat never sees its deck's order");
        }
        if step.view.phase != PhaseName::CharacterChoice {
            assert!(step.view.rebel.characters.is_some() && step.view.imperial.characters.is_some());
        }
    }
    assert!(as_spectator.steps.iter().all(|s| s.view.rebel.deck_order.is_none()));

    // compressed: one response for the whole game
    let gz = support::get_gzip(addr, &spectator_path, None).await?.2.len();
    let gz_all = support::get_gzip(addr, &everything_path, None).await?.2.len();
    println!(
        "steps of a {actions}-action game, gzipped: {gz} bytes as a spectator, {gz_all} with everything ({} B an action)",
        gz_all / actions
    );
    assert!(
        gz_all * 60 / actions < 30 * 1024,
        "60 actions' steps are under 30 KB gzipped ({gz_all} B for {actions} actions)"
    );

    // bad requests
    let bad_eyes = format!("/api/rooms/{}/games/1/steps?eyes=god", seats.code);
    assert_eq!(refused(addr, &bad_eyes, None).await?, (400, ErrorCode::BadMessage));
    assert_eq!(
        refused(addr, &replay_steps_path(&seats.code, 7, ReplayEyes::Spectator), None).await?,
        (404, ErrorCode::GameNotFound)
    );
    assert_eq!(
        refused(addr, &replay_steps_path("ZZZZZZZZ", 1, ReplayEyes::Spectator), None).await?,
        (404, ErrorCode::RoomNotFound)
    );
    server.stop().await
}

/// A key whose first round has no planning modifier (no strategy drawn at random or shown), so
/// both worlds below plan in the same public way.
fn quiet_key() -> Result<[u8; 32]> {
    for n in 0..200u8 {
        let key = [n; 32];
        let mut game = Game::with_seed(Mode::Full, GameSeed::Key(key))?;
        for f in Faction::BOTH {
            game.apply(
                f,
                Action::ChooseCharacters {
                    characters: CardMask::of(Card::characters_of(f).take(4)),
                },
            )?;
        }
        let v = game.view(Viewer::Spectator);
        if v.rebel.modifiers == Default::default() && v.imperial.modifiers == Default::default() {
            return Ok(key);
        }
    }
    bail!("no quiet key")
}

/// The stored actions of a game in which each side chooses `pick` of its characters and the
/// strategy at `strategy` in its list of legal ones (checked legal with the engine).
fn world(key: [u8; 32], pick: &dyn Fn(Faction) -> CardMask, strategy: usize) -> Result<Vec<(Faction, Action)>> {
    let mut game = Game::with_seed(Mode::Full, GameSeed::Key(key))?;
    let mut actions = Vec::new();
    for f in Faction::BOTH {
        actions.push((f, Action::ChooseCharacters { characters: pick(f) }));
    }
    for (f, a) in &actions {
        game.apply(*f, *a)?;
    }
    ensure!(game.view(Viewer::Spectator).phase == PhaseName::Planning);
    for f in Faction::BOTH {
        let legal = game.view(Viewer::Seat(f)).legal_actions;
        let a = *legal
            .get(strategy.min(legal.len() - 1))
            .context("a strategy to choose")?;
        ensure!(matches!(a, Action::ChooseStrategy { .. }));
        game.apply(f, a)?;
        actions.push((f, a));
    }
    ensure!(game.view(Viewer::Spectator).phase == PhaseName::Struggle);
    Ok(actions)
}

#[tokio::test]
async fn a_spectators_replay_is_the_same_whatever_the_hidden_choices_were() -> Result<()> {
    // Two stored rooms with the same key (so the same public draws): their players chose other
    // characters and other strategies, then the Rebel claimed the win before any card was seen.
    let dir = support::temp_dir("replay-noninterference");
    let key = quiet_key()?;
    let secret = GameSecret::Committed { key, salt: [9; 16] };
    let first_four = |f: Faction| CardMask::of(Card::characters_of(f).take(4));
    let last_four = |f: Faction| CardMask::of(Card::characters_of(f).skip(4));
    let worlds = [
        ("KJCHM97E", world(key, &first_four, 0)?),
        ("KJCHM97F", world(key, &last_four, 4)?),
    ];
    ensure!(worlds[0].1 != worlds[1].1, "the worlds differ in their hidden choices");
    {
        let store = SqliteStore::open(&dir)?;
        for (code, actions) in &worlds {
            let code = code.to_string();
            let mut ops = vec![
                WriteOp::CreateRoom {
                    code: code.clone(),
                    options: support::options(Mode::Full),
                    invite_hash: vec![1; 32],
                    join_code_hash: None,
                    creator_hash: evr_server::secrets::hash_token("creator"),
                    creator_name: None,
                    created_at: 0,
                },
                WriteOp::SetGuest {
                    code: code.clone(),
                    guest_hash: evr_server::secrets::hash_token("guest"),
                    guest_name: None,
                },
                WriteOp::StartGame {
                    code: code.clone(),
                    game_no: 1,
                    secret,
                    creator_faction: Faction::Rebel,
                    seq: 1,
                    started_at: 0,
                },
            ];
            for (i, (seat, action)) in actions.iter().enumerate() {
                ops.push(WriteOp::AppendAction {
                    code: code.clone(),
                    game_no: 1,
                    seq: 2 + i as u32,
                    seat: *seat,
                    action: *action,
                    action_id: format!("a{i}"),
                    clock_ms: None,
                    wake: None,
                    rated: None,
                });
            }
            ops.push(WriteOp::EndGame {
                code: code.clone(),
                game_no: 1,
                result: GameResult {
                    forfeit_winner: Some(Faction::Rebel),
                    reason: Default::default(),
                },
                rated: None,
            });
            for op in ops {
                store.submit(evr_store::FIRST_EPOCH, op).await??;
            }
        }
        store.close();
    }
    let server = support::start_with(evr_server::Config::for_tests(dir)).await?;
    let addr = server.addr;
    let mut bodies = Vec::new();
    for (code, _) in &worlds {
        let (status, head, body) =
            support::get_gzip(addr, &replay_steps_path(code, 1, ReplayEyes::Spectator), None).await?;
        let text = support::body_text(&head, &body)?;
        ensure!(status == 200, "{status} {text}");
        bodies.push(text.replace(code, "<code>"));
    }
    assert_eq!(bodies[0], bodies[1], "a spectator's replay is byte for byte the same");
    let parsed: ReplaySteps = serde_json::from_str(&bodies[0])?;
    assert_eq!(parsed.steps.len(), 5);
    assert_eq!(parsed.forfeit_winner, Some(Faction::Rebel));

    // the worlds really differ: each seat's own replay shows its other choices
    for token in ["creator", "guest"] {
        let mut own = Vec::new();
        for (code, _) in &worlds {
            let r = support::replay_steps(addr, code, ReplayEyes::Seat, Some(token)).await?;
            own.push(serde_json::to_string(&r.steps)?);
        }
        assert_ne!(own[0], own[1], "{token}'s own replay differs between the worlds");
    }
    // and nothing more is shown of an unrevealed game
    for (code, _) in &worlds {
        let path = replay_steps_path(code, 1, ReplayEyes::Everything);
        assert_eq!(
            refused(addr, &path, Some("creator")).await?,
            (403, ErrorCode::ReplayNotRevealed)
        );
    }
    server.stop().await
}
