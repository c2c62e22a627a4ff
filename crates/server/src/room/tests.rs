//! "Commit before broadcast", tested without sockets: a room actor driven through its mailbox, its
//! connections played by plain channels, on a store that can be told to refuse writes. When a
//! write fails the sender gets `storage_failed`, nobody else hears anything and `seq` does not
//! move — for an action, a join, a rematch and a claimed win — and once the store works again the
//! same request succeeds.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use evr_protocol::{ErrorCode, RoomOptions, ServerMsg, SideChoice, SpectatorPolicy};
use evr_rules::{Faction, Mode};
use tokio::sync::oneshot;
use tokio_util::task::TaskTracker;

use super::{Command, ConnId, Connect, Join, Joined, PlayerAction, Registry, Room, RoomHandle};
use crate::config::Config;
use crate::outbox::{OutboxReceiver, outbox};
use evr_store::{Store, StoreError, StoredGame, StoredRoom, WriteOp};

/// An in-memory store that keeps what it committed and refuses every write while `failing`.
#[derive(Default)]
pub(crate) struct SwitchableStore {
    failing: AtomicBool,
    committed: Mutex<Vec<WriteOp>>,
}

impl SwitchableStore {
    pub(crate) fn fail(&self, failing: bool) {
        self.failing.store(failing, Ordering::SeqCst);
    }

    pub(super) fn committed(&self) -> usize {
        self.committed.lock().map(|c| c.len()).unwrap_or(0)
    }
}

impl Store for SwitchableStore {
    fn submit(&self, _epoch: evr_store::Epoch, op: WriteOp) -> oneshot::Receiver<Result<(), StoreError>> {
        let (tx, rx) = oneshot::channel();
        let result = if self.failing.load(Ordering::SeqCst) {
            Err(StoreError::Write("the test switched the store off".into()))
        } else {
            self.committed
                .lock()
                .map(|mut c| c.push(op))
                .map_err(|_| StoreError::Closed)
        };
        let _ = tx.send(result);
        rx
    }

    fn load_room(&self, _code: &str) -> Result<Option<StoredRoom>, StoreError> {
        Ok(None)
    }

    fn claim_room(&self, _code: &str) -> Result<Option<StoredRoom>, StoreError> {
        Ok(None)
    }

    fn epochs(&self, _codes: &[String]) -> Result<Vec<(String, evr_store::Epoch)>, StoreError> {
        Ok(Vec::new())
    }

    fn load_game(&self, _code: &str, _game_no: u32) -> Result<Option<StoredGame>, StoreError> {
        Ok(None)
    }

    fn game_numbers(&self, _code: &str) -> Result<Vec<u32>, StoreError> {
        Ok(Vec::new())
    }

    fn due_rooms(&self, _now_ms: i64, _limit: usize) -> Result<Vec<String>, StoreError> {
        Ok(Vec::new())
    }

    fn load_deadlines(&self, _code: &str, _game_no: u32) -> Result<evr_store::StoredDeadlines, StoreError> {
        Ok(evr_store::StoredDeadlines::default())
    }
}

/// A configuration whose data directory is never used (the store is in memory).
fn config() -> Config {
    Config::for_tests(std::env::temp_dir().join("evr-room-tests-unused"))
}

const INVITE: &str = "invite-secret";
const CREATOR_TOKEN: &str = "creator-token";

/// One connection of the room: what the room queues for it.
pub(super) struct Peer {
    pub(super) conn: ConnId,
    rx: OutboxReceiver,
}

impl Peer {
    /// Every message queued for this connection so far.
    pub(super) fn drain(&mut self) -> Vec<ServerMsg> {
        let mut out = Vec::new();
        while let Some(text) = self.rx.try_recv() {
            out.push(serde_json::from_slice(&text).expect("the room sends server messages"));
        }
        out
    }
}

pub(super) struct Fixture {
    pub(super) store: Arc<SwitchableStore>,
    guest_token: String,
    pub(super) room: RoomHandle,
    pub(super) creator: Peer,
    pub(super) guest: Peer,
    pub(super) spectator: Peer,
}

impl Fixture {
    /// A room with both seats taken (the creator plays the Rebels) and a spectator; every
    /// connection's welcome and presence messages already read.
    pub(super) async fn seated(disconnect_grace_secs: u64) -> Fixture {
        let store = Arc::new(SwitchableStore::default());
        let mut config = config();
        config.disconnect_grace_secs = disconnect_grace_secs;
        config.test_fixed_seed = Some(42);
        let options = RoomOptions {
            side: SideChoice::Rebel,
            mode: Mode::Full,
            spectators: SpectatorPolicy::AnyoneWithLink,
            opponent: None,
            reveal_at_end: false,
            clock: None,
            rated: false,
        };
        let room = Room::create(
            new_room("ROOMCODE00", options, Faction::Rebel),
            store.clone(),
            Arc::new(config),
        )
        .await
        .expect("the room is created");
        let room = room.spawn(&TaskTracker::new(), Arc::new(Registry::default()));
        let joined = join(&room, INVITE).await.expect("the guest joins");
        let creator = connect(&room, 1, Some(CREATOR_TOKEN)).await;
        let guest = connect(&room, 2, Some(&joined.token)).await;
        let spectator = connect(&room, 3, None).await;
        let mut f = Fixture {
            store,
            guest_token: joined.token,
            room,
            creator,
            guest,
            spectator,
        };
        f.settle().await;
        f.drain_all();
        f
    }

    /// Waits until the room has handled every command sent before: the room answers commands in
    /// order, so the answer to a join (refused: wrong secret) comes after all of them.
    pub(super) async fn settle(&self) {
        assert_eq!(
            join(&self.room, "not-the-invite").await.err(),
            Some(ErrorCode::BadToken)
        );
    }

    fn drain_all(&mut self) {
        self.creator.drain();
        self.guest.drain();
        self.spectator.drain();
    }

    async fn send(&self, cmd: Command) {
        self.room.tx.send(cmd).await.expect("the room is running");
        self.settle().await;
    }

    /// The room's `seq`, as a fresh spectator's welcome tells it.
    async fn seq(&self) -> u32 {
        let mut probe = connect(&self.room, 99, None).await;
        let seq = probe
            .drain()
            .into_iter()
            .find_map(|m| match m {
                ServerMsg::Welcome { seq, .. } => Some(seq),
                _ => None,
            })
            .expect("a welcome");
        self.room
            .tx
            .send(Command::Disconnect { conn: 99 })
            .await
            .expect("the room is running");
        self.settle().await;
        seq
    }
}

/// A room to create: `code`, with the test's invite and creator token and join code `123456`.
fn new_room(code: &str, options: RoomOptions, creator_faction: Faction) -> super::NewRoom {
    super::NewRoom {
        code: code.into(),
        options,
        creator_faction,
        invite: INVITE.into(),
        join_code: Some("123456".into()),
        creator_token: CREATOR_TOKEN.into(),
        creator_name: None,
    }
}

async fn join(room: &RoomHandle, invite: &str) -> Result<Joined, ErrorCode> {
    let (reply, answer) = oneshot::channel();
    room.tx
        .send(Command::Join(Box::new(Join {
            by: super::JoinBy::Invite(invite.into()),
            name: None,
            reply,
        })))
        .await
        .expect("the room is running");
    answer.await.expect("the room answers")
}

async fn connect(room: &RoomHandle, conn: ConnId, token: Option<&str>) -> Peer {
    let (out, rx) = outbox(256);
    let (reply, answer) = oneshot::channel();
    room.tx
        .send(Command::Connect(Box::new(Connect {
            conn,
            token: token.map(str::to_string),
            last_seq: None,
            out,
            reply,
        })))
        .await
        .expect("the room is running");
    answer
        .await
        .expect("the room answers")
        .expect("the connection is taken");
    Peer { conn, rx }
}

fn storage_failed(msgs: &[ServerMsg]) -> bool {
    matches!(
        msgs,
        [ServerMsg::Error {
            code: ErrorCode::StorageFailed,
            ..
        }]
    )
}

#[tokio::test]
async fn a_refused_action_write_is_storage_failed_and_nothing_is_broadcast() {
    let mut f = Fixture::seated(180).await;
    let seq = f.seq().await;
    let committed = f.store.committed();
    // The Rebel's first decision: any legal one, as its own welcome offers it.
    let mut probe = connect(&f.room, 98, Some(CREATOR_TOKEN)).await;
    let action = probe
        .drain()
        .into_iter()
        .find_map(|m| match m {
            ServerMsg::Welcome { view, .. } => view.legal_actions.first().copied(),
            _ => None,
        })
        .expect("the Rebel has something to do");
    f.send(Command::Disconnect { conn: 98 }).await;
    f.drain_all();

    f.store.fail(true);
    let creator = f.creator.conn;
    let act = || {
        Command::Action(Box::new(PlayerAction {
            conn: creator,
            based_on: seq,
            action_id: "a1".into(),
            action,
        }))
    };
    f.send(act()).await;
    let to_creator = f.creator.drain();
    assert!(storage_failed(&to_creator), "the sender is told: {to_creator:?}");
    assert!(f.guest.drain().is_empty(), "the opponent hears nothing");
    assert!(f.spectator.drain().is_empty(), "spectators hear nothing");
    f.store.fail(false);
    assert_eq!(f.seq().await, seq, "seq did not move");
    assert_eq!(f.store.committed(), committed, "nothing was stored");

    // The same action, once the store works: acknowledged and broadcast as the next seq.
    f.drain_all();
    f.send(act()).await;
    let acked = f.creator.drain();
    assert!(
        acked
            .iter()
            .any(|m| matches!(m, ServerMsg::Ack { seq: s, .. } if *s == seq + 1)),
        "{acked:?}"
    );
    for peer in [&mut f.guest, &mut f.spectator] {
        let got = peer.drain();
        assert!(
            matches!(got.as_slice(), [ServerMsg::Update { seq: s, .. }] if *s == seq + 1),
            "{got:?}"
        );
    }
}

#[tokio::test]
async fn a_refused_join_write_leaves_the_seat_free_and_tells_nobody() {
    let store = Arc::new(SwitchableStore::default());
    let options = RoomOptions {
        side: SideChoice::Imperial,
        mode: Mode::Full,
        spectators: SpectatorPolicy::AnyoneWithLink,
        opponent: None,
        reveal_at_end: false,
        clock: None,
        rated: false,
    };
    let room = Room::create(
        new_room("ROOMCODE01", options, Faction::Imperial),
        store.clone(),
        Arc::new(config()),
    )
    .await
    .expect("the room is created");
    let room = room.spawn(&TaskTracker::new(), Arc::new(Registry::default()));
    let mut creator = connect(&room, 1, Some(CREATOR_TOKEN)).await;
    creator.drain();

    store.fail(true);
    assert_eq!(join(&room, INVITE).await.err(), Some(ErrorCode::StorageFailed));
    assert!(creator.drain().is_empty(), "no presence change was announced");

    store.fail(false);
    let joined = join(&room, INVITE).await.expect("the seat is still free");
    assert_eq!(joined.faction, Faction::Rebel);
    let presence = creator.drain();
    assert!(
        presence
            .iter()
            .any(|m| matches!(m, ServerMsg::Presence { presence } if presence.seats.rebel.taken)),
        "{presence:?}"
    );
}

#[tokio::test]
async fn a_refused_claim_write_ends_nothing_and_tells_nobody() {
    let mut f = Fixture::seated(0).await;
    f.send(Command::Disconnect { conn: f.guest.conn }).await;
    tokio::time::sleep(Duration::from_millis(20)).await;
    f.drain_all();

    f.store.fail(true);
    f.send(Command::ClaimWin { conn: f.creator.conn }).await;
    assert!(storage_failed(&f.creator.drain()));
    assert!(f.spectator.drain().is_empty(), "spectators hear nothing");

    f.store.fail(false);
    f.send(Command::ClaimWin { conn: f.creator.conn }).await;
    let seen = f.spectator.drain();
    assert!(
        seen.iter()
            .any(|m| matches!(m, ServerMsg::Room { room } if room.forfeit_winner == Some(Faction::Rebel))),
        "the claim is announced once stored: {seen:?}"
    );
}

#[tokio::test]
async fn a_refused_rematch_write_starts_no_game_and_tells_nobody() {
    let mut f = Fixture::seated(0).await;
    // End the game (the guest leaves, the creator claims the win), then the guest comes back.
    f.send(Command::Disconnect { conn: f.guest.conn }).await;
    tokio::time::sleep(Duration::from_millis(20)).await;
    f.send(Command::ClaimWin { conn: f.creator.conn }).await;
    f.guest = connect(&f.room, 5, Some(&f.guest_token)).await;
    f.send(Command::Rematch { conn: f.creator.conn }).await;
    let seq = f.seq().await;
    f.drain_all();

    f.store.fail(true);
    f.send(Command::Rematch { conn: f.guest.conn }).await;
    assert!(storage_failed(&f.guest.drain()), "the guest is told");
    assert!(f.creator.drain().is_empty(), "the creator hears nothing");
    assert!(f.spectator.drain().is_empty(), "spectators hear nothing");
    f.store.fail(false);
    assert_eq!(f.seq().await, seq, "seq did not move");

    f.drain_all();
    f.send(Command::Rematch { conn: f.guest.conn }).await;
    for peer in [&mut f.creator, &mut f.guest, &mut f.spectator] {
        let got = peer.drain();
        assert!(
            got.iter().any(|m| matches!(
                m,
                ServerMsg::Welcome { room, seq: s, .. } if room.game_number == 2 && *s == seq + 1
            )),
            "the new game is announced once stored: {got:?}"
        );
    }
}
