// The wire types, generated from the Rust crates into ../../../proto/ts (never edit those).
export type { Action } from "../../../proto/ts/Action";
export type { CardInPlay } from "../../../proto/ts/CardInPlay";
export type { CardRef } from "../../../proto/ts/CardRef";
export type { Choice } from "../../../proto/ts/Choice";
export type { ClientMsg } from "../../../proto/ts/ClientMsg";
export type { EventEffect } from "../../../proto/ts/EventEffect";
export type { EventView } from "../../../proto/ts/EventView";
export type { Faction } from "../../../proto/ts/Faction";
export type { LogEntry } from "../../../proto/ts/LogEntry";
export type { Mode } from "../../../proto/ts/Mode";
export type { Modifier } from "../../../proto/ts/Modifier";
export type { Opponent } from "../../../proto/ts/Opponent";
export type { Outcome } from "../../../proto/ts/Outcome";
export type { PendingView } from "../../../proto/ts/PendingView";
export type { PhaseName } from "../../../proto/ts/PhaseName";
export type { PlayerView } from "../../../proto/ts/PlayerView";
export type { Presence } from "../../../proto/ts/Presence";
export type { Role } from "../../../proto/ts/Role";
export type { RoomInfo } from "../../../proto/ts/RoomInfo";
export type { RoomOptions } from "../../../proto/ts/RoomOptions";
export type { RoundResult } from "../../../proto/ts/RoundResult";
export type { ServerMsg } from "../../../proto/ts/ServerMsg";
export type { SideChoice } from "../../../proto/ts/SideChoice";
export type { SpectatorPolicy } from "../../../proto/ts/SpectatorPolicy";
export type { Step } from "../../../proto/ts/Step";
export type { Strategy } from "../../../proto/ts/Strategy";
export type { View } from "../../../proto/ts/View";
export type { WinReason } from "../../../proto/ts/WinReason";
export type { Zone } from "../../../proto/ts/Zone";

/** The protocol version this client speaks (PROTOCOL.md). */
export const PROTOCOL_VERSION = 1;

/** Errors after which the server closes the connection and retrying cannot help. */
export const FATAL_CODES: readonly string[] = [
  "bad_token",
  "version_mismatch",
  "hello_expected",
  "room_not_found",
  "spectators_not_allowed",
];

export const FACTIONS = ["rebel", "imperial"] as const;

/** Index into the `[rebel, imperial]` arrays of the protocol. */
export function factionIndex(f: "rebel" | "imperial"): 0 | 1 {
  return f === "rebel" ? 0 : 1;
}

export function otherFaction(f: "rebel" | "imperial"): "rebel" | "imperial" {
  return f === "rebel" ? "imperial" : "rebel";
}
