//! Per-rule tests: one module per section of `docs/spec/rules.md`, each test named after the rule
//! id it guards (`r5_3_…` guards ). `tests/rule_coverage.rs` checks that every id has one.

// Test code: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

// The engine with its testing accessors, under the name every user of the engine knows.
extern crate evr_rules_testkit as evr_rules;

mod support;

mod r1;
mod r2;
mod r3;
mod r4;
mod r5;
mod r6;
mod r7;
mod r8;
mod r9;
