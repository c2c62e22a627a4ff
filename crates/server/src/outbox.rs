//! A connection's outgoing queue: the room queues messages for the client, the connection's own
//! reader asks for a pong or a close frame, and the connection's writer takes them in order.
//!
//! Why not two tokio channels (messages, control) as before: each bounded channel allocates a
//! block of 32 slots and its own state, about 3 KiB per connection for queues that hold one or
//! two messages at a time — at 18,000 connections, 54 MiB. This queue is one small allocation
//! that grows only while messages wait.
//!
//! Like a channel, the writer learns that nobody will queue anything more when the last
//! [`Outbox`] is dropped (the room let the connection go); a [`WeakOutbox`] (held by the reader
//! once the room holds the connection) does not keep it open.

use std::collections::VecDeque;
use std::future::poll_fn;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Poll, Waker};

use bytes::Bytes;

/// One message for the client, serialized (shared by every connection of the same viewer).
pub type Outbound = Bytes;

/// Why a queue refused a message.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// The client does not keep up.
    Full,
    /// The writer ended (the client went away, or sending to it failed).
    Closed,
}

/// What the writer is to do next.
#[derive(Debug, PartialEq, Eq)]
pub enum Next {
    /// Send these messages, oldest first (the batch the writer passed in is filled).
    Messages,
    /// Answer a ping with this payload.
    Pong(Vec<u8>),
    /// Close with this code now (the client broke the protocol).
    Close(u16),
    /// Every sender is gone and everything queued was taken: close normally.
    Ended,
}

/// A sender; the writer ends once every clone is dropped.
pub struct Outbox {
    shared: Arc<Shared>,
}

/// A handle that may queue only while some [`Outbox`] lives, and asks for pongs and closes.
#[derive(Clone)]
pub struct WeakOutbox {
    shared: Arc<Shared>,
}

/// The writer's end.
pub struct OutboxReceiver {
    shared: Arc<Shared>,
}

struct Shared {
    state: Mutex<State>,
    capacity: usize,
}

#[derive(Default)]
struct State {
    queue: VecDeque<Outbound>,
    /// The latest unanswered ping's payload (a client pinging faster than we answer gets no
    /// answer to some pings).
    pong: Option<Vec<u8>>,
    close: Option<u16>,
    senders: usize,
    /// The writer has ended: nothing is accepted any more.
    receiver_gone: bool,
    /// The writer, waiting for something to do.
    waker: Option<Waker>,
}

/// A queue holding at most `capacity` messages (at least one).
pub fn outbox(capacity: usize) -> (Outbox, OutboxReceiver) {
    let shared = Arc::new(Shared {
        state: Mutex::new(State {
            senders: 1,
            ..State::default()
        }),
        capacity: capacity.max(1),
    });
    (Outbox { shared: shared.clone() }, OutboxReceiver { shared })
}

impl Shared {
    /// The state, even if a thread panicked while holding it (its fields stay consistent: every
    /// change is a single assignment or push).
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Changes the state and wakes the writer if it waits.
    fn change(&self, f: impl FnOnce(&mut State) -> Result<(), Refused>) -> Result<(), Refused> {
        let waker = {
            let mut state = self.lock();
            f(&mut state)?;
            state.waker.take()
        };
        if let Some(w) = waker {
            w.wake();
        }
        Ok(())
    }
}

impl Outbox {
    /// Queues `message`, or refuses it without waiting when the queue is full or the writer ended.
    pub fn try_send(&self, message: Outbound) -> Result<(), Refused> {
        let capacity = self.shared.capacity;
        self.shared.change(|s| {
            if s.receiver_gone {
                return Err(Refused::Closed);
            }
            if s.queue.len() >= capacity {
                return Err(Refused::Full);
            }
            s.queue.push_back(message);
            Ok(())
        })
    }

    pub fn downgrade(&self) -> WeakOutbox {
        WeakOutbox {
            shared: self.shared.clone(),
        }
    }
}

impl std::fmt::Debug for Outbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Outbox")
    }
}

impl Clone for Outbox {
    fn clone(&self) -> Outbox {
        self.shared.lock().senders += 1;
        Outbox {
            shared: self.shared.clone(),
        }
    }
}

impl Drop for Outbox {
    fn drop(&mut self) {
        let waker = {
            let mut state = self.shared.lock();
            state.senders = state.senders.saturating_sub(1);
            // the writer needs waking only to learn that it may end
            if state.senders == 0 { state.waker.take() } else { None }
        };
        if let Some(w) = waker {
            w.wake();
        }
    }
}

impl WeakOutbox {
    /// A sender, if some sender still lives.
    pub fn upgrade(&self) -> Option<Outbox> {
        let mut state = self.shared.lock();
        if state.senders == 0 {
            return None;
        }
        state.senders += 1;
        Some(Outbox {
            shared: self.shared.clone(),
        })
    }

    /// Asks the writer to answer a ping (replacing an unanswered one).
    pub fn pong(&self, payload: Vec<u8>) {
        let _ = self.shared.change(|s| {
            s.pong = Some(payload);
            Ok(())
        });
    }

    /// Asks the writer to close now with `code`.
    pub fn close(&self, code: u16) {
        let _ = self.shared.change(|s| {
            s.close = Some(code);
            Ok(())
        });
    }
}

impl OutboxReceiver {
    /// Waits for something to do: a close, then a pong, then up to `max` queued messages (moved
    /// into `batch`), and once every sender is gone and the queue is empty, [`Next::Ended`].
    pub async fn next(&mut self, batch: &mut Vec<Outbound>, max: usize) -> Next {
        poll_fn(|cx| {
            let mut state = self.shared.lock();
            if let Some(code) = state.close.take() {
                return Poll::Ready(Next::Close(code));
            }
            if let Some(payload) = state.pong.take() {
                return Poll::Ready(Next::Pong(payload));
            }
            if !state.queue.is_empty() {
                let n = state.queue.len().min(max.max(1));
                batch.extend(state.queue.drain(..n));
                return Poll::Ready(Next::Messages);
            }
            if state.senders == 0 {
                return Poll::Ready(Next::Ended);
            }
            state.waker = Some(cx.waker().clone());
            Poll::Pending
        })
        .await
    }
}

#[cfg(test)]
impl OutboxReceiver {
    /// The oldest queued message, without waiting (tests read what a room queued).
    pub fn try_recv(&mut self) -> Option<Outbound> {
        self.shared.lock().queue.pop_front()
    }
}

impl Drop for OutboxReceiver {
    fn drop(&mut self) {
        let mut state = self.shared.lock();
        state.receiver_gone = true;
        state.queue.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &'static str) -> Outbound {
        Bytes::from_static(s.as_bytes())
    }

    #[tokio::test]
    async fn messages_come_out_in_order_and_the_queue_ends_with_its_last_sender() {
        let (out, mut rx) = outbox(8);
        let second = out.clone();
        out.try_send(text("a")).expect("room");
        second.try_send(text("b")).expect("room");
        let mut batch = Vec::new();
        assert_eq!(rx.next(&mut batch, 16).await, Next::Messages);
        assert_eq!(batch, vec![text("a"), text("b")]);
        drop(out);
        second.try_send(text("c")).expect("one sender is left");
        drop(second);
        batch.clear();
        assert_eq!(
            rx.next(&mut batch, 16).await,
            Next::Messages,
            "what was queued is still sent"
        );
        assert_eq!(batch, vec![text("c")]);
        assert_eq!(rx.next(&mut batch, 16).await, Next::Ended);
    }

    #[tokio::test]
    async fn a_full_queue_refuses_and_so_does_one_whose_writer_ended() {
        let (out, rx) = outbox(2);
        out.try_send(text("a")).expect("room");
        out.try_send(text("b")).expect("room");
        assert_eq!(out.try_send(text("c")), Err(Refused::Full));
        drop(rx);
        let (out2, rx2) = outbox(2);
        drop(rx2);
        assert_eq!(out2.try_send(text("a")), Err(Refused::Closed), "the writer ended");
    }

    #[tokio::test]
    async fn a_weak_handle_queues_only_while_a_sender_lives_and_does_not_keep_the_writer() {
        let (out, mut rx) = outbox(4);
        let weak = out.downgrade();
        let upgraded = weak.upgrade().expect("the sender lives");
        drop(upgraded);
        drop(out);
        assert!(weak.upgrade().is_none(), "no sender is left");
        let mut batch = Vec::new();
        assert_eq!(
            rx.next(&mut batch, 16).await,
            Next::Ended,
            "the weak handle does not keep it open"
        );
    }

    #[tokio::test]
    async fn a_close_comes_before_a_pong_and_a_pong_before_queued_messages() {
        let (out, mut rx) = outbox(4);
        let weak = out.downgrade();
        out.try_send(text("a")).expect("room");
        weak.pong(b"1".to_vec());
        weak.pong(b"2".to_vec());
        weak.close(1002);
        let mut batch = Vec::new();
        assert_eq!(rx.next(&mut batch, 16).await, Next::Close(1002));
        assert_eq!(
            rx.next(&mut batch, 16).await,
            Next::Pong(b"2".to_vec()),
            "only the latest ping is answered"
        );
        assert_eq!(rx.next(&mut batch, 16).await, Next::Messages);
        assert_eq!(batch, vec![text("a")]);
    }

    #[tokio::test]
    async fn a_waiting_writer_is_woken_by_a_message_from_another_task() {
        let (out, mut rx) = outbox(4);
        let waiting = tokio::spawn(async move {
            let mut batch = Vec::new();
            let next = rx.next(&mut batch, 16).await;
            (next, batch)
        });
        tokio::task::yield_now().await;
        out.try_send(text("late")).expect("room");
        let (next, batch) = waiting.await.expect("the writer task");
        assert_eq!((next, batch), (Next::Messages, vec![text("late")]));
    }
}
