//! The `evr-server` binary: with flags only, parse settings, set up logs and serve until SIGTERM
//! or Ctrl-C; `backup` and `restore` copy the SQLite database out of and into a data directory.

use anyhow::Context;
use clap::Parser;
use evr_server::Config;
use evr_server::commands::{self, Cli, Command};
use tokio_util::sync::CancellationToken;
use tracing_subscriber::EnvFilter;

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        None => tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .context("starting the runtime")?
            .block_on(serve(cli.serve)),
        Some(Command::Backup(args)) => {
            let report = commands::backup(&args).context("backup failed")?;
            println!("backed up {}", commands::describe(&report));
            Ok(())
        }
        Some(Command::Restore(args)) => {
            let report = commands::restore(&args).context("restore failed")?;
            println!("restored {}", commands::describe(&report));
            Ok(())
        }
    }
}

async fn serve(config: Config) -> anyhow::Result<()> {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    if config.log_json {
        tracing_subscriber::fmt().json().with_env_filter(filter).init();
    } else {
        tracing_subscriber::fmt().with_env_filter(filter).init();
    }
    let listener = tokio::net::TcpListener::bind(config.bind)
        .await
        .with_context(|| format!("binding {}", config.bind))?;
    let shutdown = CancellationToken::new();
    let signal = shutdown.clone();
    tokio::spawn(async move {
        wait_for_signal().await;
        tracing::info!("shutting down");
        signal.cancel();
    });
    evr_server::run(listener, config, shutdown)
        .await
        .context("server failed")
}

async fn wait_for_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        if let Ok(mut term) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            tokio::select! {
                _ = ctrl_c => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = ctrl_c.await;
}
