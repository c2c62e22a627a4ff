//! Group commit on the async runtime's own thread: writes queued by rooms are committed together,
//! in one transaction, by a task that runs once every task that was ready has had its turn.
//!
//! Why not a writer thread: handing each batch to a thread and waking the runtime again for its
//! answer cost two context switches per commit — with the server on one core, a fifth of its CPU —
//! and the woken thread preempted the rooms, so batches held two writes on average. A commit in
//! WAL mode with `synchronous = NORMAL` is a write into the page cache (the `fsync`s belong to the
//! checkpointer's thread, `sqlite/checkpoint.rs`), tens of microseconds for a batch: short enough to run
//! between other tasks. Committing after the ready tasks ran gathers every write they queued, so
//! the busier the server, the larger the batch.

use std::sync::{Arc, Mutex};

use rusqlite::Connection;
use tokio::sync::oneshot;

use super::{Epoch, StoreError, Write};

/// The most writes committed in one transaction.
const MAX_BATCH: usize = 512;

type Reply = oneshot::Sender<Result<(), StoreError>>;

/// How a batch of writes becomes one transaction (all or nothing); for each write, whether it
/// was applied (`false`: fenced, nothing written for it, the others still committed).
pub(super) type CommitFn = fn(&mut Connection, &[Write]) -> Result<Vec<bool>, rusqlite::Error>;

/// The writing connection and the writes waiting for it.
pub(super) struct GroupCommit {
    conn: Mutex<Connection>,
    queue: Mutex<Queue>,
    commit: CommitFn,
}

#[derive(Default)]
struct Queue {
    ops: Vec<Write>,
    replies: Vec<Reply>,
    /// A commit task is on its way: later writes join its batch.
    scheduled: bool,
    /// `close` ran: nothing more is accepted.
    closed: bool,
}

impl GroupCommit {
    pub(super) fn new(conn: Connection, commit: CommitFn) -> Arc<GroupCommit> {
        Arc::new(GroupCommit {
            conn: Mutex::new(conn),
            queue: Mutex::new(Queue::default()),
            commit,
        })
    }

    /// Queues `op`; the receiver resolves once it is committed (or failed). On the runtime a
    /// commit task is scheduled if none is; outside one (tools, tests) it commits at once.
    pub(super) fn submit(
        self: &Arc<Self>,
        epoch: Epoch,
        op: super::WriteOp,
    ) -> oneshot::Receiver<Result<(), StoreError>> {
        let (reply, answer) = oneshot::channel();
        let Ok(mut queue) = self.queue.lock() else {
            let _ = reply.send(Err(StoreError::Closed));
            return answer;
        };
        if queue.closed {
            let _ = reply.send(Err(StoreError::Closed));
            return answer;
        }
        queue.ops.push(Write { epoch, op });
        queue.replies.push(reply);
        if queue.scheduled {
            return answer;
        }
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                queue.scheduled = true;
                drop(queue);
                runtime.spawn(commit_task(self.clone()));
            }
            Err(_) => {
                drop(queue);
                self.commit_queued();
            }
        }
        answer
    }

    /// Runs `f` on the writing connection between two commits (a write that is not a room's:
    /// a claim). Waiting for this lock is short; SQLite's own lock would make the loser sleep.
    pub(super) fn with_connection<T>(&self, f: impl FnOnce(&mut Connection) -> T) -> Result<T, StoreError> {
        let mut conn = self.conn.lock().map_err(|_| StoreError::Closed)?;
        Ok(f(&mut conn))
    }

    /// Takes no more writes and commits what is queued.
    pub(super) fn close(&self) {
        if let Ok(mut queue) = self.queue.lock() {
            queue.closed = true;
        }
        self.commit_queued();
    }

    /// Commits everything queued, a batch at a time.
    fn commit_queued(&self) {
        while let Some((ops, replies)) = self.take_batch() {
            self.commit_batch(&ops, replies);
        }
    }

    fn take_batch(&self) -> Option<(Vec<Write>, Vec<Reply>)> {
        let mut queue = self.queue.lock().ok()?;
        if queue.ops.is_empty() {
            return None;
        }
        let n = queue.ops.len().min(MAX_BATCH);
        let ops = queue.ops.drain(..n).collect();
        let replies = queue.replies.drain(..n).collect();
        Some((ops, replies))
    }

    /// Commits `ops` in one transaction. If it fails, each write is committed alone, so that only
    /// the write that fails (a stale owner's action at a `seq` already stored, say) is refused and
    /// the rooms whose writes shared its batch are not.
    fn commit_batch(&self, ops: &[Write], replies: Vec<Reply>) {
        let Ok(mut conn) = self.conn.lock() else {
            for reply in replies {
                let _ = reply.send(Err(StoreError::Write("the writing connection is unusable".into())));
            }
            return;
        };
        match (self.commit)(&mut conn, ops) {
            Ok(applied) => {
                for (applied, reply) in applied.into_iter().zip(replies) {
                    let _ = reply.send(outcome(applied));
                }
            }
            Err(e) if ops.len() == 1 => {
                for reply in replies {
                    let _ = reply.send(Err(StoreError::Write(e.to_string())));
                }
            }
            Err(_) => {
                for (op, reply) in ops.iter().zip(replies) {
                    let alone = (self.commit)(&mut conn, std::slice::from_ref(op));
                    let _ = reply.send(match alone {
                        Ok(applied) => outcome(applied.first().copied().unwrap_or(false)),
                        Err(e) => Err(StoreError::Write(e.to_string())),
                    });
                }
            }
        }
    }

    /// The end of a commit task: clears `scheduled` unless writes arrived meanwhile (then the
    /// task goes on). Under the queue's lock, so no write is left without a task.
    fn finish_or_continue(&self) -> bool {
        let Ok(mut queue) = self.queue.lock() else {
            return false;
        };
        if queue.ops.is_empty() {
            queue.scheduled = false;
            false
        } else {
            true
        }
    }
}

/// A committed write's answer: done, or fenced (nothing written for it).
pub(super) fn outcome(applied: bool) -> Result<(), StoreError> {
    if applied { Ok(()) } else { Err(StoreError::Fenced) }
}

async fn commit_task(group: Arc<GroupCommit>) {
    loop {
        // Every task that is ready now runs first (tokio defers a yielding task until the others
        // and the sockets have had their turn): their writes join this batch.
        tokio::task::yield_now().await;
        if let Some((ops, replies)) = group.take_batch() {
            group.commit_batch(&ops, replies);
        }
        if !group.finish_or_continue() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use super::*;

    thread_local! {
        /// The sizes of the batches `recording_commit` committed on this thread (each test runs
        /// its runtime on its own thread).
        static BATCHES: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
    }

    fn batches() -> Vec<usize> {
        BATCHES.with(|b| b.borrow().clone())
    }

    /// Fails a batch holding a write to room `FAIL`; a write under epoch 0 is fenced.
    fn recording_commit(_: &mut Connection, ops: &[Write]) -> Result<Vec<bool>, rusqlite::Error> {
        if ops.iter().any(|w| w.op.code() == "FAIL") {
            return Err(rusqlite::Error::InvalidQuery);
        }
        BATCHES.with(|b| b.borrow_mut().push(ops.len()));
        Ok(ops.iter().map(|w| w.epoch != 0).collect())
    }

    fn op(code: &str) -> crate::WriteOp {
        crate::WriteOp::SetGuest {
            code: code.into(),
            guest_hash: vec![1],
            guest_name: None,
        }
    }

    fn group() -> Arc<GroupCommit> {
        GroupCommit::new(Connection::open_in_memory().expect("in memory"), recording_commit)
    }

    #[tokio::test(flavor = "current_thread")]
    async fn writes_queued_by_tasks_that_were_ready_together_share_one_commit() {
        let g = group();
        // five rooms, ready at once, each queue a write and wait for it
        let rooms: Vec<_> = (0..5)
            .map(|i| {
                let g = g.clone();
                tokio::spawn(async move { g.submit(1, op(&format!("ROOM{i}"))).await })
            })
            .collect();
        for r in rooms {
            assert!(matches!(r.await, Ok(Ok(Ok(())))), "each write is committed");
        }
        assert_eq!(batches(), vec![5], "one transaction");
        // a later write gets a commit of its own
        g.submit(1, op("LATER")).await.expect("answered").expect("committed");
        assert_eq!(batches(), vec![5, 1]);
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_write_that_fails_fails_alone_and_the_others_of_its_batch_are_committed() {
        let g = group();
        let ok = g.submit(1, op("GOOD"));
        let bad = g.submit(1, op("FAIL"));
        let also_ok = g.submit(1, op("ALSO-GOOD"));
        assert!(matches!(ok.await, Ok(Ok(()))), "committed on its own");
        assert!(matches!(bad.await, Ok(Err(StoreError::Write(_)))), "refused");
        assert!(matches!(also_ok.await, Ok(Ok(()))), "committed on its own");
        assert_eq!(
            batches(),
            vec![1, 1],
            "the failed batch of 3, then each good write alone"
        );
        assert!(matches!(g.submit(1, op("AFTER")).await, Ok(Ok(()))));
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_fenced_write_is_answered_fenced_and_the_others_of_its_batch_are_committed() {
        let g = group();
        let ok = g.submit(1, op("OWNED"));
        let fenced = g.submit(0, op("LOST"));
        let also_ok = g.submit(1, op("ALSO-OWNED"));
        assert!(matches!(ok.await, Ok(Ok(()))));
        assert!(
            matches!(fenced.await, Ok(Err(StoreError::Fenced))),
            "fenced, not failed"
        );
        assert!(matches!(also_ok.await, Ok(Ok(()))));
        assert_eq!(
            batches(),
            vec![3],
            "one transaction: a fenced write does not fail its batch"
        );
    }

    #[test]
    fn outside_the_runtime_a_write_commits_at_once_and_after_close_nothing_is_taken() {
        let g = group();
        let mut answer = g.submit(1, op("NOW"));
        assert!(
            matches!(answer.try_recv(), Ok(Ok(()))),
            "committed before submit returned"
        );
        g.close();
        let mut refused = g.submit(1, op("TOO-LATE"));
        assert!(matches!(refused.try_recv(), Ok(Err(StoreError::Closed))));
    }
}
