//! Playing against the computer: it holds the other seat from the start, acts on its own (its
//! decisions come from its seat's view only), accepts rematches, and spectators can watch.

use anyhow::{Context, Result, bail};
use evr_protocol::{ClientMsg, ComputerLevel, ErrorCode, Opponent, Role, ServerMsg};
use evr_rules::{Mode, View};
use rand::{RngExt, SeedableRng};

use crate::support::{self, Client, Welcome};

/// The person plays random legal actions until the game is over; the computer plays its side.
/// Returns the last view and how many updates the computer's moves produced.
pub(crate) async fn play_against_computer(me: &mut Client, welcome: Welcome, seed: u64) -> Result<(View, usize)> {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut seq = welcome.seq;
    let mut view = welcome.view;
    let mut acted_on = None;
    let mut mine = 0usize;
    let mut updates = 0usize;
    for _ in 0..5000 {
        if view.outcome.is_some() {
            return Ok((view, updates - mine));
        }
        let legal = &view.legal_actions;
        if !legal.is_empty() && acted_on != Some(seq) {
            let action = legal[rng.random_range(0..legal.len())];
            me.send(&support::action(seq, format!("p{seq}"), action)).await?;
            acted_on = Some(seq);
        }
        match me.recv().await? {
            ServerMsg::Update { seq: s, .. } => {
                (seq, view) = (s, me.current_view()?);
                updates += 1;
            }
            ServerMsg::Welcome { seq: s, .. } => (seq, view) = (s, me.current_view()?),
            ServerMsg::Ack { .. } => mine += 1,
            ServerMsg::Error {
                code: ErrorCode::StaleAction,
                ..
            } => acted_on = None,
            m @ ServerMsg::Error { .. } => bail!("unexpected error {m:?}"),
            _ => {}
        }
    }
    bail!("the game did not end")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_against_the_computer_with_a_spectator() -> Result<()> {
    let server = support::start("computer").await?;
    let mut options = support::options(Mode::Full);
    options.opponent = Some(Opponent::Computer {
        level: ComputerLevel::Easy,
    });
    let created = support::create_room(server.addr, &options).await?;
    assert!(created.invite_url.is_none(), "nobody else can take the computer's seat");
    let code = created.code.clone();
    let refused = support::join_room(server.addr, &code, Some("x")).await?;
    assert_eq!(refused.err().map(|(status, _)| status), Some(403));

    let (mut watcher, _) = Client::hello(server.addr, &code, None, None).await?;
    let (mut me, welcome) = Client::hello(server.addr, &code, Some(&created.token), None).await?;
    assert!(
        welcome.presence.seats[created.seat.opponent()].connected,
        "the computer is always there"
    );

    let (end, computer_moves) = play_against_computer(&mut me, welcome, 7).await?;
    assert!(
        computer_moves > 10,
        "the computer played its side ({computer_moves} moves)"
    );
    assert!(end.outcome.is_some());
    // The spectator saw the same game end.
    watcher
        .recv_until("the last update", |m| match m {
            ServerMsg::Update { changes, .. } if changes.outcome.flatten().is_some() => Some(()),
            _ => None,
        })
        .await?;
    let last = watcher.current_view()?;
    assert!(last.legal_actions.is_empty());
    // One request is enough for a rematch: the computer accepts; sides swap.
    me.send(&ClientMsg::Rematch).await?;
    let again = me.recv_welcome().await?;
    assert_eq!(again.room.game_number, 2);
    assert_eq!(again.you, Role::Seat(created.seat.opponent()));
    // And claiming a win against an ever-present computer is refused.
    me.send(&ClientMsg::ClaimWin).await?;
    assert_eq!(me.recv_error().await?, ErrorCode::CannotClaimWin);
    server.stop().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_agrees_to_reveal_the_tutorial_once_it_is_over() -> Result<()> {
    let server = support::start("computer-reveal").await?;
    let mut options = support::options(Mode::Tutorial);
    options.opponent = Some(Opponent::Computer {
        level: ComputerLevel::Easy,
    });
    let created = support::create_room(server.addr, &options).await?;
    assert!(created.join_code.is_none(), "nobody joins the computer's room");
    let (mut me, welcome) = Client::hello(server.addr, &created.code, Some(&created.token), None).await?;
    assert_eq!(
        welcome.room.reveal_agreed,
        evr_rules::ByFaction::splat(false),
        "nothing before the end"
    );
    play_against_computer(&mut me, welcome, 3).await?;
    let over = me
        .recv_until("the end's room facts", |m| match m {
            ServerMsg::Room { room } if room.fairness.as_ref().is_some_and(|f| f.seed.is_some()) => Some(room),
            _ => None,
        })
        .await?;
    let computer = created.seat.opponent();
    assert!(over.reveal_agreed[computer], "the computer agreed as the game ended");
    assert!(!over.reveal_agreed[created.seat], "the person has not");
    let path = evr_protocol::replay_path(&created.code, 1);
    let (status, _, _) = support::get_gzip(server.addr, &path, None).await?;
    assert_eq!(status, 403, "one agreement is not both");
    me.send(&ClientMsg::RevealReplay).await?;
    assert_eq!(me.recv_room().await?.reveal_agreed, evr_rules::ByFaction::splat(true));
    let (status, head, body) = support::get_gzip(server.addr, &path, None).await?;
    assert_eq!(
        status, 200,
        "the person alone could reveal their game against the computer"
    );
    let replay = evr_replay::Replay::from_json(&support::body_text(&head, &body)?)?;
    evr_replay::verify(&replay).map_err(|e| anyhow::anyhow!("{e}"))?;
    server.stop().await
}

/// The Hard computer thinks while the person does (pondering), and still answers every move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hard_computer_ponders_while_the_person_thinks() -> Result<()> {
    const PONDERED: &str = "evr_computer_ponder_iterations_total";
    let server = support::start("computer-ponder").await?;
    let mut options = support::options(Mode::Full);
    options.opponent = Some(Opponent::Computer {
        level: ComputerLevel::Hard,
    });
    let created = support::create_room(server.addr, &options).await?;
    let (mut me, welcome) = Client::hello(server.addr, &created.code, Some(&created.token), None).await?;
    // The person's random moves come from this seed, printed with any failure.
    const SEED: u64 = 11;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(SEED);
    let (mut seq, mut view) = (welcome.seq, welcome.view);
    let mut acted_on = None;
    let (mut watched, mut computer_moves) = (0, 0);
    while watched < 3 || computer_moves < 6 {
        assert!(
            view.outcome.is_none(),
            "the game ended before it was seen pondering (person's seed {SEED})"
        );
        let legal = &view.legal_actions;
        if !legal.is_empty() && acted_on != Some(seq) {
            // On the person's own struggle turn the computer has nothing to decide: it ponders.
            let my_turn = view.phase == evr_rules::PhaseName::Struggle && view.turn == Some(created.seat);
            if my_turn && view.pending.is_none() && watched < 3 {
                let before = crate::memory::counter(server.addr, PONDERED).await?;
                crate::memory::counter_reaches(server.addr, PONDERED, before + 256.0)
                    .await
                    .with_context(|| format!("person's seed {SEED}, turn {watched}"))?;
                watched += 1;
            }
            let action = legal[rng.random_range(0..legal.len())];
            me.send(&support::action(seq, format!("p{seq}"), action)).await?;
            acted_on = Some(seq);
        }
        match me.recv().await? {
            ServerMsg::Update { seq: s, .. } => {
                let before = view.legal_actions.is_empty();
                (seq, view) = (s, me.current_view()?);
                // An update while the person had nothing to do is the computer's move.
                computer_moves += usize::from(before);
            }
            ServerMsg::Error {
                code: ErrorCode::StaleAction,
                ..
            } => acted_on = None,
            m @ ServerMsg::Error { .. } => bail!("unexpected error {m:?}"),
            _ => {}
        }
    }
    server.stop().await
}
