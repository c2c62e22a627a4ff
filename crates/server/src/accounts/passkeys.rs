//! Passkeys (WebAuthn, by webauthn-rs): registering an account with its first passkey, signing in
//! with any passkey of this site (discoverable, so the browser's autofill can offer it), adding
//! and removing passkeys. Each ceremony is two requests; its state lives in the store between
//! them ([`CEREMONY_MS`], once), so that "finish" may reach another node than "begin".

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use evr_protocol::{CeremonyFinish, CeremonyStart, ErrorCode, PasskeyInfo, RegisterBegin};
use evr_store::{AccountCreated, AccountId, NewAccount, PasskeyRemoved, StoredCeremony, StoredPasskey};
use serde::Serialize;
use serde::de::DeserializeOwned;
use webauthn_rs::prelude::{
    DiscoverableAuthentication, Passkey, PasskeyRegistration, PublicKeyCredential, RegisterPublicKeyCredential, Uuid,
};

use super::session::{new_session, required, signed_in_answer};
use super::{blocking, now_ms, offered, username};
use crate::app::App;
use crate::refusal::{ApiBody, ApiError, ApiPath, json};
use crate::secrets::{hash_token, new_token, random_bytes};

/// How long a ceremony may take between its two requests.
const CEREMONY_MS: i64 = 5 * 60 * 1000;

const REGISTER: &str = "register";
const SIGN_IN: &str = "sign_in";
const ADD_PASSKEY: &str = "add_passkey";

fn refused(why: impl std::fmt::Display) -> ApiError {
    tracing::debug!(why = %why, "a passkey's answer was refused");
    ApiError::new(
        ErrorCode::PasskeyRefused,
        "the passkey's answer did not verify, or no account has this passkey",
    )
}

fn internal(what: &'static str, e: impl std::fmt::Display) -> ApiError {
    ApiError::internal(ErrorCode::StorageFailed, what, &e)
}

/// The options as the browser's `parseCreationOptionsFromJSON` takes them, asking for a
/// discoverable credential: webauthn-rs's passkey registration leaves that to the authenticator
/// ("discouraged"), but signing in without a username, and the browser's autofill, need one.
fn discoverable(mut options: serde_json::Value) -> serde_json::Value {
    if let Some(selection) = options
        .get_mut("publicKey")
        .and_then(|p| p.get_mut("authenticatorSelection"))
        .and_then(|s| s.as_object_mut())
    {
        selection.insert("residentKey".into(), "required".into());
        selection.insert("requireResidentKey".into(), true.into());
    }
    options
}

/// Stores a ceremony of `kind` with `state`, and answers its id and `options`.
async fn begin(
    app: &App,
    kind: &'static str,
    account: Option<AccountId>,
    username: Option<String>,
    state: &impl Serialize,
    options: serde_json::Value,
) -> Result<Json<CeremonyStart>, ApiError> {
    let id = new_token().map_err(|e| internal("no randomness", e))?;
    let ceremony = StoredCeremony {
        id_hash: hash_token(&id),
        kind: kind.to_string(),
        account,
        username,
        state: serde_json::to_string(state).map_err(|e| internal("cannot keep the ceremony", e))?,
        expires_at: now_ms() + CEREMONY_MS,
    };
    blocking(app, "cannot keep the ceremony", move |store| {
        store.put_ceremony(&ceremony)
    })
    .await?;
    Ok(Json(CeremonyStart { ceremony: id, options }))
}

/// The ceremony `id` of `kind` (taken: it works once) with its state, and the browser's
/// credential; `ceremony_expired` or `passkey_refused`.
async fn finish<S: DeserializeOwned, C: DeserializeOwned>(
    app: &App,
    kind: &'static str,
    body: &ApiBody,
) -> Result<(StoredCeremony, S, C), ApiError> {
    let CeremonyFinish { ceremony, credential } = json(body)?;
    let id_hash = hash_token(&ceremony);
    let now = now_ms();
    let taken = blocking(app, "cannot read the ceremony", move |store| {
        store.take_ceremony(&id_hash, now)
    })
    .await?;
    let expired = || {
        ApiError::new(
            ErrorCode::CeremonyExpired,
            "this passkey request was finished already or took too long: begin again",
        )
    };
    let taken = taken.filter(|c| c.kind == kind).ok_or_else(expired)?;
    let state: S = serde_json::from_str(&taken.state).map_err(|e| internal("a stored ceremony is damaged", e))?;
    let credential: C = serde_json::from_value(credential).map_err(refused)?;
    Ok((taken, state, credential))
}

fn uuid(account: &AccountId) -> Uuid {
    Uuid::from_bytes(*account)
}

/// A passkey as stored.
fn stored_passkey(account: AccountId, passkey: &Passkey, headers: &HeaderMap) -> Result<StoredPasskey, ApiError> {
    let user_agent = headers
        .get(axum::http::header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    Ok(StoredPasskey {
        credential_id: AsRef::<[u8]>::as_ref(passkey.cred_id()).to_vec(),
        account,
        passkey: serde_json::to_string(passkey).map_err(|e| internal("cannot keep the passkey", e))?,
        label: super::label::device_label(user_agent),
        created_at: now_ms(),
        last_used_at: None,
    })
}

pub(crate) fn passkey_info(p: &StoredPasskey) -> PasskeyInfo {
    PasskeyInfo {
        id: URL_SAFE_NO_PAD.encode(&p.credential_id),
        label: p.label.clone(),
        created_at_ms: p.created_at,
        last_used_at_ms: p.last_used_at,
    }
}

/// Refuses a username another account has (or had).
async fn username_free(app: &App, key: String) -> Result<(), ApiError> {
    let existing = blocking(app, "cannot look the username up", move |store| {
        store.account_by_username_key(&key)
    })
    .await?;
    match existing {
        None => Ok(()),
        Some(a) if a.deleted_at.is_some() => Err(ApiError::new(
            ErrorCode::UsernameReserved,
            "this username belonged to a deleted account: it stays kept back",
        )),
        Some(_) => Err(ApiError::new(
            ErrorCode::UsernameTaken,
            "another account has this username",
        )),
    }
}

/// `POST /api/account/register/begin`.
pub async fn register_begin(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    body: ApiBody,
) -> Result<Json<CeremonyStart>, ApiError> {
    let (accounts, _) = offered(&app, addr.ip())?;
    let RegisterBegin { username } = json(&body)?;
    let name = username::checked(&username)?;
    username_free(&app, name.key.clone()).await?;
    let account: AccountId = random_bytes::<16>().map_err(|e| internal("no randomness", e))?;
    let (options, state) = accounts
        .webauthn
        .start_passkey_registration(uuid(&account), &name.shown, &name.shown, None)
        .map_err(|e| internal("cannot begin a passkey registration", e))?;
    let options = serde_json::to_value(options).map_err(|e| internal("cannot write the options", e))?;
    begin(
        &app,
        REGISTER,
        Some(account),
        Some(name.shown),
        &state,
        discoverable(options),
    )
    .await
}

/// `POST /api/account/register/finish`.
pub async fn register_finish(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: ApiBody,
) -> Result<Response, ApiError> {
    let (accounts, _) = offered(&app, addr.ip())?;
    let (ceremony, state, credential): (_, PasskeyRegistration, RegisterPublicKeyCredential) =
        finish(&app, REGISTER, &body).await?;
    let passkey = accounts
        .webauthn
        .finish_passkey_registration(&credential, &state)
        .map_err(refused)?;
    let (Some(account), Some(shown)) = (ceremony.account, ceremony.username) else {
        return Err(internal("a stored ceremony is damaged", "no account or username"));
    };
    let name = username::checked(&shown)?;
    let stored = stored_passkey(account, &passkey, &headers)?;
    let (session, id) = new_session(account, &headers)?;
    let new = NewAccount {
        id: account,
        username: name.shown.clone(),
        username_key: name.key,
        created_at: now_ms(),
    };
    let created = blocking(&app, "cannot create the account", move |store| {
        store.create_account(&new, &stored, &session)
    })
    .await?;
    match created {
        AccountCreated::Created => {
            metrics::counter!(crate::metrics_names::ACCOUNTS_CREATED).increment(1);
            Ok(signed_in_answer(accounts, &id, name.shown, StatusCode::CREATED))
        }
        AccountCreated::UsernameTaken => Err(ApiError::new(
            ErrorCode::UsernameTaken,
            "another account took this username meanwhile",
        )),
        AccountCreated::PasskeyTaken => Err(refused("the credential is registered already")),
    }
}

/// `POST /api/account/sign-in/begin`.
pub async fn sign_in_begin(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
) -> Result<Json<CeremonyStart>, ApiError> {
    let (accounts, _) = offered(&app, addr.ip())?;
    let (options, state) = accounts
        .webauthn
        .start_discoverable_authentication()
        .map_err(|e| internal("cannot begin a sign-in", e))?;
    let options = serde_json::to_value(options).map_err(|e| internal("cannot write the options", e))?;
    begin(&app, SIGN_IN, None, None, &state, options).await
}

/// `POST /api/account/sign-in/finish`.
pub async fn sign_in_finish(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: ApiBody,
) -> Result<Response, ApiError> {
    let (accounts, _) = offered(&app, addr.ip())?;
    let (_, state, credential): (_, DiscoverableAuthentication, PublicKeyCredential) =
        finish(&app, SIGN_IN, &body).await?;
    let (user, credential_id) = accounts
        .webauthn
        .identify_discoverable_authentication(&credential)
        .map_err(refused)?;
    let lookup = credential_id.to_vec();
    let found = blocking(&app, "cannot read the passkey", move |store| {
        let Some(passkey) = store.passkey(&lookup)? else {
            return Ok(None);
        };
        let account = store.account(&passkey.account)?;
        Ok(Some((passkey, account)))
    })
    .await?;
    let Some((stored, Some(account))) = found else {
        return Err(refused("no account has this passkey"));
    };
    let Some(username) = account.username.filter(|_| account.deleted_at.is_none()) else {
        return Err(refused("the passkey's account was deleted"));
    };
    if stored.account != *user.as_bytes() {
        return Err(refused("the passkey names another account"));
    }
    let mut passkey: Passkey =
        serde_json::from_str(&stored.passkey).map_err(|e| internal("a stored passkey is damaged", e))?;
    let result = accounts
        .webauthn
        .finish_discoverable_authentication_v2(&credential, state, &passkey)
        .map_err(refused)?;
    // the authenticator's counter and flags as of this sign-in
    passkey.update_credential(&result);
    let updated = serde_json::to_string(&passkey).map_err(|e| internal("cannot keep the passkey", e))?;
    let (session, id) = new_session(stored.account, &headers)?;
    let now = now_ms();
    blocking(&app, "cannot sign in", move |store| {
        store.passkey_used(&stored.credential_id, &updated, now)?;
        store.create_session(&session)
    })
    .await?;
    metrics::counter!(crate::metrics_names::ACCOUNT_SIGN_INS, "by" => "passkey").increment(1);
    Ok(signed_in_answer(accounts, &id, username, StatusCode::OK))
}

/// `POST /api/account/passkeys/begin`.
pub async fn add_begin(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Result<Json<CeremonyStart>, ApiError> {
    let (accounts, _) = offered(&app, addr.ip())?;
    let session = required(&app, &headers).await?;
    let account = session.account;
    let existing = blocking(&app, "cannot read the passkeys", move |store| store.passkeys(&account)).await?;
    // the authenticator refuses to make a second passkey where the account has one
    let exclude = existing.iter().map(|p| p.credential_id.clone()).collect::<Vec<_>>();
    let (options, state) = accounts
        .webauthn
        .start_passkey_registration(uuid(&account), &session.username, &session.username, Some(exclude))
        .map_err(|e| internal("cannot begin a passkey registration", e))?;
    let options = serde_json::to_value(options).map_err(|e| internal("cannot write the options", e))?;
    begin(&app, ADD_PASSKEY, Some(account), None, &state, discoverable(options)).await
}

/// `POST /api/account/passkeys/finish`.
pub async fn add_finish(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: ApiBody,
) -> Result<(StatusCode, Json<PasskeyInfo>), ApiError> {
    let (accounts, _) = offered(&app, addr.ip())?;
    let session = required(&app, &headers).await?;
    let (ceremony, state, credential): (_, PasskeyRegistration, RegisterPublicKeyCredential) =
        finish(&app, ADD_PASSKEY, &body).await?;
    if ceremony.account != Some(session.account) {
        return Err(ApiError::new(
            ErrorCode::CeremonyExpired,
            "this passkey request was begun by another account: begin again",
        ));
    }
    let passkey = accounts
        .webauthn
        .finish_passkey_registration(&credential, &state)
        .map_err(refused)?;
    let stored = stored_passkey(session.account, &passkey, &headers)?;
    let info = passkey_info(&stored);
    let added = blocking(&app, "cannot add the passkey", move |store| store.add_passkey(&stored)).await?;
    if !added {
        return Err(refused("the credential is registered already"));
    }
    Ok((StatusCode::CREATED, Json(info)))
}

/// `DELETE /api/account/passkeys/{id}`.
pub async fn remove(
    State(app): State<Arc<App>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
) -> Result<StatusCode, ApiError> {
    offered(&app, addr.ip())?;
    let session = required(&app, &headers).await?;
    let no_such = || ApiError::new(ErrorCode::NotFound, "the account has no such passkey");
    let credential_id = URL_SAFE_NO_PAD.decode(id.as_bytes()).map_err(|_| no_such())?;
    let removed = blocking(&app, "cannot remove the passkey", move |store| {
        store.remove_passkey(&session.account, &credential_id)
    })
    .await?;
    match removed {
        PasskeyRemoved::Removed => Ok(StatusCode::NO_CONTENT),
        PasskeyRemoved::NoSuch => Err(no_such()),
        PasskeyRemoved::LastWay => Err(ApiError::new(
            ErrorCode::LastWayToSignIn,
            "this is the account's only way to sign in: add another passkey or confirm an email address first",
        )),
    }
}
