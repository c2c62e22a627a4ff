// The wire, defined once in Rust (crates/protocol) and generated into ../../../proto/ts: every
// WebSocket message both ways, the HTTP bodies, the error codes with their fatality, the protocol
// constants. Never edit those files; regenerate them (proto/README.md).
import type { ErrorCode } from "../../../proto/ts/ErrorCode";
import { FATAL_CODES } from "../../../proto/ts/errorCodes";

export type { AccountDetails } from "../../../proto/ts/AccountDetails";
export type { AccountRooms } from "../../../proto/ts/AccountRooms";
export type { Action } from "../../../proto/ts/Action";
export type { ApiErrorBody } from "../../../proto/ts/ApiErrorBody";
export type { Card } from "../../../proto/ts/Card";
export type { CardMask } from "../../../proto/ts/CardMask";
export type { CardRef } from "../../../proto/ts/CardRef";
export type { CeremonyStart } from "../../../proto/ts/CeremonyStart";
export type { Challenge } from "../../../proto/ts/Challenge";
export type { ChallengeAccepted } from "../../../proto/ts/ChallengeAccepted";
export type { ChallengeList } from "../../../proto/ts/ChallengeList";
export type { ChatBody } from "../../../proto/ts/ChatBody";
export type { ChatChannel } from "../../../proto/ts/ChatChannel";
export type { ChatMessage } from "../../../proto/ts/ChatMessage";
export type { Choice } from "../../../proto/ts/Choice";
export type { ClientMsg } from "../../../proto/ts/ClientMsg";
export type { ClockView } from "../../../proto/ts/ClockView";
export type { CreatedRoom } from "../../../proto/ts/CreatedRoom";
export type { CreateRoom } from "../../../proto/ts/CreateRoom";
export {
  JOIN_CODE_DIGITS,
  MAX_NAME_CHARS,
  MAX_SEATS_KEPT_AT_ONCE,
  MAX_USERNAME_CHARS,
  MIN_USERNAME_CHARS,
  PROTOCOL_VERSION,
} from "../../../proto/ts/constants";
export type { ErrorCode } from "../../../proto/ts/ErrorCode";
export type { EventCard } from "../../../proto/ts/EventCard";
export type { EventEffect } from "../../../proto/ts/EventEffect";
export type { EventOrder } from "../../../proto/ts/EventOrder";
export type { Faction } from "../../../proto/ts/Faction";
export type { Fairness } from "../../../proto/ts/Fairness";
export type { ForfeitReason } from "../../../proto/ts/ForfeitReason";
export type { FriendAdded } from "../../../proto/ts/FriendAdded";
export type { FriendList } from "../../../proto/ts/FriendList";
export type { GameArchive } from "../../../proto/ts/GameArchive";
export type { GameSummary } from "../../../proto/ts/GameSummary";
export type { HeadToHead } from "../../../proto/ts/HeadToHead";
export type { HeldSeat } from "../../../proto/ts/HeldSeat";
export type { JoinedRoom } from "../../../proto/ts/JoinedRoom";
export type { JoinRequest } from "../../../proto/ts/JoinRequest";
export type { KeptSeats } from "../../../proto/ts/KeptSeats";
export type { Leaderboard } from "../../../proto/ts/Leaderboard";
export type { LogEntry } from "../../../proto/ts/LogEntry";
export type { MailLanguage } from "../../../proto/ts/MailLanguage";
export type { MailStatus } from "../../../proto/ts/MailStatus";
export type { Mode } from "../../../proto/ts/Mode";
export type { Modifier } from "../../../proto/ts/Modifier";
export type { NewChallenge } from "../../../proto/ts/NewChallenge";
export type { NewInvite } from "../../../proto/ts/NewInvite";
export type { Opponent } from "../../../proto/ts/Opponent";
export type { Outcome } from "../../../proto/ts/Outcome";
export type { PasskeyInfo } from "../../../proto/ts/PasskeyInfo";
export type { PendingView } from "../../../proto/ts/PendingView";
export type { Phrase } from "../../../proto/ts/Phrase";
export type { PlayerPage } from "../../../proto/ts/PlayerPage";
export type { PlayerView } from "../../../proto/ts/PlayerView";
export type { Presence } from "../../../proto/ts/Presence";
export type { RatedGame } from "../../../proto/ts/RatedGame";
export type { RatingShown } from "../../../proto/ts/RatingShown";
export type { ReminderSettings } from "../../../proto/ts/ReminderSettings";
export type { RemindersSet } from "../../../proto/ts/RemindersSet";
export type { ReplayEyes } from "../../../proto/ts/ReplayEyes";
export type { ReplaySteps } from "../../../proto/ts/ReplaySteps";
export type { Role } from "../../../proto/ts/Role";
export type { RoomInfo } from "../../../proto/ts/RoomInfo";
export type { RoomStatus } from "../../../proto/ts/RoomStatus";
export type { RoundResult } from "../../../proto/ts/RoundResult";
export type { SeatDevice } from "../../../proto/ts/SeatDevice";
export type { SeatDevices } from "../../../proto/ts/SeatDevices";
export type { SeatSummary } from "../../../proto/ts/SeatSummary";
export type { SeatTransfer } from "../../../proto/ts/SeatTransfer";
export type { ServerMsg } from "../../../proto/ts/ServerMsg";
export type { SessionInfo } from "../../../proto/ts/SessionInfo";
export type { SessionState } from "../../../proto/ts/SessionState";
export type { SetReminders } from "../../../proto/ts/SetReminders";
export type { SideChoice } from "../../../proto/ts/SideChoice";
export type { SideEdge } from "../../../proto/ts/SideEdge";
export type { SignedOut } from "../../../proto/ts/SignedOut";
export type { SignedOutSessions } from "../../../proto/ts/SignedOutSessions";
export type { SpectatorPolicy } from "../../../proto/ts/SpectatorPolicy";
export type { Strategy } from "../../../proto/ts/Strategy";
export type { TakeSeat } from "../../../proto/ts/TakeSeat";
export type { TimeControl } from "../../../proto/ts/TimeControl";
export type { View } from "../../../proto/ts/View";
export type { WhoMayChallenge } from "../../../proto/ts/WhoMayChallenge";

/** Codes the client gives a failure itself; the server never sends them. */
export type LocalErrorCode =
  /** the server could not be reached (fetch failed) */
  | "network"
  /** the server's answer was not what the protocol says (e.g. a proxy's error page) */
  | "bad_response";

/** Every code a refusal or failure shown to the player can carry. */
export type ClientErrorCode = ErrorCode | LocalErrorCode;

/** The server closes the connection after this error and connecting again cannot succeed. A code
 *  this client does not know is not fatal: retrying is the safe default. */
export function isFatal(code: string): boolean {
  return FATAL_CODES.includes(code as ErrorCode);
}

export const FACTIONS = ["rebel", "imperial"] as const;

export function otherFaction(f: "rebel" | "imperial"): "rebel" | "imperial" {
  return f === "rebel" ? "imperial" : "rebel";
}
