//! Names of the Prometheus metrics, in one place.

/// Rooms in memory (loaded on first use, released when idle).
pub const ROOMS: &str = "evr_rooms";
pub const ROOMS_LOADED: &str = "evr_rooms_loaded_total";
pub const ROOMS_RELEASED: &str = "evr_rooms_released_total";
/// Rooms that gave their game back to the store while nobody was connected, and rooms woken again.
pub const ROOMS_HIBERNATED: &str = "evr_rooms_hibernated_total";
pub const ROOMS_WOKEN: &str = "evr_rooms_woken_total";
/// Rooms this server let go because another server claimed them (a shared store).
pub const ROOMS_LET_GO: &str = "evr_rooms_let_go_total";
pub const CONNECTIONS: &str = "evr_connections";
pub const ACTIONS: &str = "evr_actions_total";
pub const ERRORS: &str = "evr_errors_total";
pub const SLOW_CONSUMERS: &str = "evr_slow_consumers_total";
/// Seconds from receiving an action to queueing the resulting updates for every connection.
pub const ACTION_TO_BROADCAST: &str = "evr_action_to_broadcast_seconds";
/// Iterations the Hard computer searched while the person moved (pondering).
pub const COMPUTER_PONDER_ITERATIONS: &str = "evr_computer_ponder_iterations_total";
/// Wrong join codes typed with a room code (a rising count is someone guessing).
pub const WRONG_JOIN_CODES: &str = "evr_wrong_join_codes_total";
/// Seats moved to another device with a transfer link.
pub const SEATS_MOVED: &str = "evr_seats_moved_total";
/// Devices signed out of a seat by another of its devices.
pub const SEAT_DEVICES_SIGNED_OUT: &str = "evr_seat_devices_signed_out_total";
/// Accounts created and deleted; sign-ins by way (`by`: `passkey`, `link`); sessions ended from
/// another device.
pub const ACCOUNTS_CREATED: &str = "evr_accounts_created_total";
pub const ACCOUNTS_DELETED: &str = "evr_accounts_deleted_total";
pub const ACCOUNT_SIGN_INS: &str = "evr_account_sign_ins_total";
pub const ACCOUNT_SESSIONS_ENDED: &str = "evr_account_sessions_ended_total";
/// TCP connections the node holds (HTTP, and WebSockets upgraded from them), every second.
pub const HTTP_CONNECTIONS: &str = "evr_tcp_connections";
/// Connections answered `429` at once, by the limit they were past (`total`, `client`).
pub const CONNECTIONS_REFUSED: &str = "evr_connections_refused_total";
