//! The `evr-server` binary: with flags only, parse settings, set up logs and serve until SIGTERM
//! or Ctrl-C (a second one ends the drain early); `backup` and `restore` copy the SQLite database
//! out of and into a data directory.

use anyhow::Context;
use clap::Parser;
use evr_server::commands::{self, Cli, Command};
use evr_server::{Config, Stop};
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
    let stop = Stop::default();
    let signals = stop.clone();
    tokio::spawn(async move {
        let mut wait = Signals::new();
        wait.next().await;
        tracing::info!("shutting down");
        signals.begin.cancel();
        wait.next().await;
        tracing::info!("a second signal: stopping without the rest of the drain");
        signals.now.cancel();
    });
    evr_server::run_until(listener, config, stop)
        .await
        .context("server failed")
}

/// SIGTERM and Ctrl-C, registered once so that a second one is not missed.
struct Signals {
    #[cfg(unix)]
    term: Option<tokio::signal::unix::Signal>,
}

impl Signals {
    fn new() -> Signals {
        Signals {
            #[cfg(unix)]
            term: tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok(),
        }
    }

    async fn next(&mut self) {
        #[cfg(unix)]
        if let Some(term) = &mut self.term {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
        let _ = tokio::signal::ctrl_c().await;
    }
}
