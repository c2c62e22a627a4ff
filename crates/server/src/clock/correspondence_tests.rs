use super::*;

const DAY: i64 = 10_000;
const T0: i64 = 1_790_000_000_000;
const R: Faction = Faction::Rebel;
const I: Faction = Faction::Imperial;

fn none() -> HashSet<(Faction, u32, ReminderKind)> {
    HashSet::new()
}

#[test]
fn each_decision_is_due_days_after_it_became_due_and_the_late_side_loses() {
    let mut c = CorrespondenceClock::new(2, DAY);
    assert_eq!(c.next_wake(&none()), None, "nothing due before the game starts");
    c.start(T0, 0, &[R]);
    assert_eq!(c.deadline(R), Some(T0 + 2 * DAY));
    assert_eq!(c.deadline(I), None);
    assert_eq!(c.out_of_time(T0 + 2 * DAY - 1), None);
    // the Rebel decides just in time; the Imperial owes from then
    c.after_decision(T0 + 2 * DAY - 1, 1, R, &[I]);
    assert_eq!(c.deadline(R), None);
    assert_eq!(c.deadline(I), Some(T0 + 4 * DAY - 1));
    assert_eq!(c.out_of_time(T0 + 4 * DAY - 2), None);
    assert_eq!(
        c.out_of_time(T0 + 4 * DAY - 1),
        Some(OutOfTime::Side(I)),
        "at the deadline itself"
    );
    let v = c.view(T0 + 3 * DAY);
    assert_eq!(v.deadline_unix_ms, ByFaction::new(None, Some(T0 + 4 * DAY - 1)));
    assert_eq!(v.running, ByFaction::new(false, true));
    assert_eq!(v.remaining_ms, ByFaction::new(2 * DAY as u64, (DAY - 1) as u64));
    assert_eq!(v.days_per_decision, Some(2));
}

#[test]
fn a_side_that_decides_again_owes_a_new_decision_and_a_waiting_side_keeps_its_deadline() {
    let mut c = CorrespondenceClock::new(1, DAY);
    c.start(T0, 4, &Faction::BOTH);
    assert_eq!(c.deadline(R), Some(T0 + DAY));
    assert_eq!(c.deadline(I), Some(T0 + DAY), "simultaneous: both owe");
    // the Imperial chooses; the Rebel still owes the same decision
    c.after_decision(T0 + 500, 5, I, &[R]);
    assert_eq!(c.due()[R], Some(DueDecision { at_ms: T0, seq: 4 }));
    assert_eq!(c.deadline(I), None);
    // the Rebel acts and must act again: a new decision
    c.after_decision(T0 + 900, 6, R, &[R]);
    assert_eq!(
        c.due()[R],
        Some(DueDecision {
            at_ms: T0 + 900,
            seq: 6
        })
    );
    // both due, the earlier deadline loses first
    c.after_decision(T0 + 1_000, 7, R, &Faction::BOTH);
    let mut both = CorrespondenceClock::restore(
        1,
        DAY,
        ByFaction::new(
            Some(DueDecision { at_ms: T0 + 5, seq: 1 }),
            Some(DueDecision { at_ms: T0, seq: 1 }),
        ),
    );
    assert_eq!(both.out_of_time(T0 + 2 * DAY), Some(OutOfTime::Side(I)));
    // the same deadline missed by both: nobody wins
    let mut together = CorrespondenceClock::restore(1, DAY, ByFaction::splat(Some(DueDecision { at_ms: T0, seq: 1 })));
    assert_eq!(together.out_of_time(T0 + DAY - 1), None);
    assert_eq!(together.out_of_time(T0 + DAY), Some(OutOfTime::Both));
    together.stop();
    both.stop();
    assert_eq!(both.out_of_time(T0 + 9 * DAY), None, "a finished game loses nobody");
    assert_eq!(both.next_wake(&none()), None);
}

#[test]
fn your_turn_after_two_scaled_minutes_and_running_out_at_a_fifth_left_each_once() {
    // a real day: "your turn" after 2 minutes, "running out" with 4.8 h of 24 left
    let mut c = CorrespondenceClock::new(1, REAL_DAY_MS);
    c.start(T0, 3, &[I]);
    assert!(c.reminders_due(T0 + 119_999, &none()).is_empty());
    assert_eq!(c.next_wake(&none()), Some(T0 + 120_000));
    let due = c.reminders_due(T0 + 120_000, &none());
    assert_eq!(
        due,
        vec![DueReminder {
            side: I,
            kind: ReminderKind::YourTurn,
            decision_seq: 3,
            deadline_ms: T0 + REAL_DAY_MS
        }]
    );
    let mut done: HashSet<_> = due.iter().map(DueReminder::key).collect();
    assert!(c.reminders_due(T0 + 200_000, &done).is_empty(), "at most once");
    let running_out = T0 + REAL_DAY_MS - REAL_DAY_MS / 5;
    assert_eq!(c.next_wake(&done), Some(running_out));
    let due = c.reminders_due(running_out, &done);
    assert_eq!(due.len(), 1);
    assert_eq!(due[0].kind, ReminderKind::TimeRunningOut);
    done.extend(due.iter().map(DueReminder::key));
    assert_eq!(c.next_wake(&done), Some(T0 + REAL_DAY_MS), "then only the deadline");
    assert!(
        c.reminders_due(T0 + REAL_DAY_MS, &none()).is_empty(),
        "none after the deadline"
    );

    // shortened days scale the two minutes like a day
    let mut short = CorrespondenceClock::new(1, 86_400);
    short.start(T0, 0, &[R]);
    assert_eq!(short.next_wake(&none()), Some(T0 + 120));
}

#[test]
fn a_server_back_late_sends_only_the_running_out_reminder() {
    let mut c = CorrespondenceClock::new(3, DAY);
    c.start(T0, 0, &[R]);
    let due = c.reminders_due(T0 + 3 * DAY - 1, &none());
    assert_eq!(due.len(), 1, "{due:?}");
    assert_eq!(due[0].kind, ReminderKind::TimeRunningOut);
}
