//! Accounts across the cluster: the store keeps sessions and ceremonies, so a passkey ceremony begun
//! on one node finishes on another, a session made on one node is valid on every node, a session
//! ended on one is refused on the others at once, and a seat kept by the account is taken on a
//! second device through the front door (the room's own node).

use anyhow::{Context, Result, ensure};
use evr_rules::Mode;
use serde_json::json;

use crate::nodes::{cluster_with, postgres_url};
use crate::support::passkey::{SoftPasskey, request};
use crate::support::{self, Client};

const ORIGIN: &str = "http://evr.test";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and HAProxy: scripts/test.sh runs it"]
async fn sessions_and_ceremonies_work_on_every_node() -> Result<()> {
    let url = support::postgres::fresh_database(&postgres_url()?, "cluster_accounts").await?;
    let (nodes, front) = cluster_with("cluster-accounts", [&url, &url, &url], &["--public-origin", ORIGIN]).await?;
    let [one, two, three] = [nodes[0].addr, nodes[1].addr, nodes[2].addr];

    // registered: begun on node 1, finished on node 2
    let begun = request(
        one,
        "POST",
        "/api/account/register/begin",
        Some(&json!({"username": "Mon"})),
        None,
    )
    .await?;
    ensure!(begun.status == 200, "{} {}", begun.status, begun.body);
    let begun = begun.json()?;
    let (mut key, credential) = SoftPasskey::create(&begun["options"], ORIGIN, "mon")?;
    let finish = json!({"ceremony": begun["ceremony"], "credential": credential});
    let done = request(two, "POST", "/api/account/register/finish", Some(&finish), None).await?;
    ensure!(done.status == 201, "{} {}", done.status, done.body);
    let laptop = done.session().context("a session")?;
    // the ceremony was used up on node 2: node 3 refuses it
    let again = request(three, "POST", "/api/account/register/finish", Some(&finish), None).await?;
    ensure!(again.status == 410, "{} {}", again.status, again.body);

    // the session is valid on every node
    for node in [one, two, three] {
        let a = request(node, "GET", "/api/account", None, Some(&laptop)).await?;
        ensure!(a.status == 200, "{node}: {} {}", a.status, a.body);
    }

    // a room played anonymously, kept on node 3; a phone signs in (begun on node 3, finished on
    // node 1) and takes the seat through the front door
    let s = support::create_and_join(front.addr, Mode::Full).await?;
    let keep = json!({"seats": [{"code": s.code, "token": s.creator_token}]});
    let kept = request(three, "POST", "/api/account/seats", Some(&keep), Some(&laptop))
        .await?
        .json()?;
    ensure!(kept["seats"][0]["outcome"] == "kept", "{kept}");
    let begun = request(three, "POST", "/api/account/sign-in/begin", Some(&json!({})), None)
        .await?
        .json()?;
    let credential = key.get(&begun["options"], ORIGIN)?;
    let finish = json!({"ceremony": begun["ceremony"], "credential": credential});
    let signed_in = request(one, "POST", "/api/account/sign-in/finish", Some(&finish), None).await?;
    ensure!(signed_in.status == 200, "{} {}", signed_in.status, signed_in.body);
    let phone = signed_in.session().context("a session")?;
    let path = format!("/api/rooms/{}/account-seat", s.code);
    let seated = request(front.addr, "POST", &path, Some(&json!({})), Some(&phone)).await?;
    ensure!(seated.status == 200, "{} {}", seated.status, seated.body);
    let token = seated.json()?["token"].as_str().context("a token")?.to_string();
    let (_, welcome) = Client::hello(front.addr, &s.code, Some(&token), None).await?;
    ensure!(welcome.you == evr_protocol::Role::Seat(s.creator), "{:?}", welcome.you);

    // the phone signs the laptop out on node 2: every node refuses the laptop at once
    let out = request(
        two,
        "POST",
        "/api/account/sessions/sign-out-others",
        Some(&json!({})),
        Some(&phone),
    )
    .await?;
    ensure!(out.status == 200, "{} {}", out.status, out.body);
    for node in [one, two, three] {
        let a = request(node, "GET", "/api/account", None, Some(&laptop)).await?;
        ensure!(
            a.status == 401,
            "{node} still takes the laptop: {} {}",
            a.status,
            a.body
        );
    }
    drop(nodes);
    drop(front);
    Ok(())
}
