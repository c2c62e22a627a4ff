//! A software passkey (ES256, "none" attestation) answering the server's WebAuthn options as a
//! browser's platform authenticator would, and an HTTP client that keeps the session cookie: what
//! the account tests need to register, sign in and use a session without a browser. (The browser's
//! own, with Chromium's virtual authenticator, is in the end-to-end test.)

use std::collections::BTreeMap;
use std::net::SocketAddr;

use anyhow::{Context, Result, anyhow};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use serde_cbor_2::Value as Cbor;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::net::TcpStream;

/// A passkey on a software authenticator.
#[derive(Clone)]
pub struct SoftPasskey {
    key: SigningKey,
    pub credential_id: Vec<u8>,
    user_handle: Vec<u8>,
    rp_id: String,
    counter: u32,
}

fn text<'a>(v: &'a Value, what: &str) -> Result<&'a str> {
    v.as_str().ok_or_else(|| anyhow!("the options have no {what}"))
}

fn client_data(kind: &str, challenge: &str, origin: &str) -> Vec<u8> {
    json!({"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": false})
        .to_string()
        .into_bytes()
}

impl SoftPasskey {
    /// `navigator.credentials.create` on the options of a `…/begin` answer, for a page of `origin`:
    /// the passkey and the credential as `toJSON()` gives it.
    pub fn create(options: &Value, origin: &str, seed: &str) -> Result<(SoftPasskey, Value)> {
        let public_key = &options["publicKey"];
        let challenge = text(&public_key["challenge"], "challenge")?;
        let rp_id = text(&public_key["rp"]["id"], "rp id")?.to_string();
        let user_handle = B64.decode(text(&public_key["user"]["id"], "user id")?)?;
        let secret = Sha256::digest(format!("evr test passkey {seed}").as_bytes());
        let key = SigningKey::from_slice(&secret).map_err(|e| anyhow!("a key: {e}"))?;
        let credential_id = Sha256::digest(format!("evr test credential {seed}").as_bytes()).to_vec();
        let point = key.verifying_key().to_sec1_point(false);
        let xy = &point.as_bytes()[1..];
        let cose = Cbor::Map(BTreeMap::from([
            (Cbor::Integer(1), Cbor::Integer(2)),
            (Cbor::Integer(3), Cbor::Integer(-7)),
            (Cbor::Integer(-1), Cbor::Integer(1)),
            (Cbor::Integer(-2), Cbor::Bytes(xy[..32].to_vec())),
            (Cbor::Integer(-3), Cbor::Bytes(xy[32..].to_vec())),
        ]));
        let mut auth_data = Sha256::digest(rp_id.as_bytes()).to_vec();
        // user present, user verified, attested credential data
        auth_data.push(0x01 | 0x04 | 0x40);
        auth_data.extend_from_slice(&0u32.to_be_bytes());
        auth_data.extend_from_slice(&[0u8; 16]);
        auth_data.extend_from_slice(&u16::try_from(credential_id.len())?.to_be_bytes());
        auth_data.extend_from_slice(&credential_id);
        auth_data.extend_from_slice(&serde_cbor_2::to_vec(&cose)?);
        let attestation = Cbor::Map(BTreeMap::from([
            (Cbor::Text("fmt".into()), Cbor::Text("none".into())),
            (Cbor::Text("attStmt".into()), Cbor::Map(BTreeMap::new())),
            (Cbor::Text("authData".into()), Cbor::Bytes(auth_data)),
        ]));
        let id = B64.encode(&credential_id);
        let credential = json!({
            "id": id,
            "rawId": id,
            "type": "public-key",
            "response": {
                "clientDataJSON": B64.encode(client_data("webauthn.create", challenge, origin)),
                "attestationObject": B64.encode(serde_cbor_2::to_vec(&attestation)?),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
        });
        Ok((
            SoftPasskey {
                key,
                credential_id,
                user_handle,
                rp_id,
                counter: 0,
            },
            credential,
        ))
    }

    /// `navigator.credentials.get` on the options of a sign-in's `…/begin` answer.
    pub fn get(&mut self, options: &Value, origin: &str) -> Result<Value> {
        let challenge = text(&options["publicKey"]["challenge"], "challenge")?;
        self.counter += 1;
        let mut auth_data = Sha256::digest(self.rp_id.as_bytes()).to_vec();
        auth_data.push(0x01 | 0x04);
        auth_data.extend_from_slice(&self.counter.to_be_bytes());
        let client_data = client_data("webauthn.get", challenge, origin);
        let mut signed = auth_data.clone();
        signed.extend_from_slice(&Sha256::digest(&client_data));
        let signature: Signature = self.key.sign(&signed);
        let id = B64.encode(&self.credential_id);
        Ok(json!({
            "id": id,
            "rawId": id,
            "type": "public-key",
            "response": {
                "authenticatorData": B64.encode(&auth_data),
                "clientDataJSON": B64.encode(&client_data),
                "signature": B64.encode(signature.to_der().as_bytes()),
                "userHandle": B64.encode(&self.user_handle),
            },
            "clientExtensionResults": {},
        }))
    }
}

/// An answer: status, `Set-Cookie` headers, body.
pub struct Answer {
    pub status: u16,
    pub set_cookies: Vec<String>,
    pub body: String,
}

impl Answer {
    pub fn json(&self) -> Result<Value> {
        serde_json::from_str(&self.body).with_context(|| format!("not JSON: {}", self.body))
    }

    /// The refusal's code (`""` when the body is not a refusal).
    pub fn code(&self) -> String {
        self.json()
            .ok()
            .and_then(|v| v["code"].as_str().map(str::to_string))
            .unwrap_or_default()
    }

    /// The session id the answer sets, if any (an empty one clears it).
    pub fn session(&self) -> Option<String> {
        self.set_cookies.iter().find_map(|c| {
            c.strip_prefix("evr_session=")
                .and_then(|rest| rest.split(';').next())
                .map(str::to_string)
        })
    }
}

/// One HTTP request with the session cookie `session`, from a Chrome on Linux.
pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
    session: Option<&str>,
) -> Result<Answer> {
    request_with(addr, method, path, body, session, "").await
}

/// [`request`] with more headers (`extra`: lines ending in `\r\n`).
pub async fn request_with(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
    session: Option<&str>,
    extra: &str,
) -> Result<Answer> {
    let cookie = session
        .map(|s| format!("Cookie: evr_session={s}\r\n"))
        .unwrap_or_default();
    let headers = format!("{cookie}{extra}User-Agent: Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36\r\n");
    let (status, head, body) =
        super::exchange_on(TcpStream::connect(addr).await?, addr, method, path, body, &headers).await?;
    let set_cookies = head
        .lines()
        .filter_map(|l| l.split_once(':'))
        .filter(|(name, _)| name.eq_ignore_ascii_case("set-cookie"))
        .map(|(_, value)| value.trim().to_string())
        .collect();
    Ok(Answer {
        status,
        set_cookies,
        body,
    })
}

/// The page origin the server's passkeys are made for (`http://localhost:PORT`, no public origin).
pub fn origin(addr: SocketAddr) -> String {
    format!("http://localhost:{}", addr.port())
}

/// Registers `username` with a new passkey: the passkey and the session id.
pub async fn register(addr: SocketAddr, username: &str) -> Result<(SoftPasskey, String)> {
    register_at(addr, &origin(addr), username).await
}

/// [`register`] for a server whose public origin is `origin`.
pub async fn register_at(addr: SocketAddr, origin: &str, username: &str) -> Result<(SoftPasskey, String)> {
    let begun = request(
        addr,
        "POST",
        "/api/account/register/begin",
        Some(&json!({"username": username})),
        None,
    )
    .await?;
    anyhow::ensure!(begun.status == 200, "register/begin: {} {}", begun.status, begun.body);
    let begun = begun.json()?;
    let (passkey, credential) = SoftPasskey::create(&begun["options"], origin, username)?;
    let finish = json!({"ceremony": begun["ceremony"], "credential": credential});
    let done = request(addr, "POST", "/api/account/register/finish", Some(&finish), None).await?;
    anyhow::ensure!(done.status == 201, "register/finish: {} {}", done.status, done.body);
    let session = done.session().context("no session cookie")?;
    Ok((passkey, session))
}

/// Signs in with `passkey`: the new session id.
pub async fn sign_in(addr: SocketAddr, passkey: &mut SoftPasskey) -> Result<String> {
    let begun = request(addr, "POST", "/api/account/sign-in/begin", Some(&json!({})), None).await?;
    anyhow::ensure!(begun.status == 200, "sign-in/begin: {} {}", begun.status, begun.body);
    let begun = begun.json()?;
    let credential = passkey.get(&begun["options"], &origin(addr))?;
    let finish = json!({"ceremony": begun["ceremony"], "credential": credential});
    let done = request(addr, "POST", "/api/account/sign-in/finish", Some(&finish), None).await?;
    anyhow::ensure!(done.status == 200, "sign-in/finish: {} {}", done.status, done.body);
    done.session().context("no session cookie")
}
