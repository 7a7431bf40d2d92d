//! A TCP proxy that puts a database at a distance: every chunk of bytes,
//! each way, is held for a fixed delay before it is passed on (in order,
//! without holding up the chunks behind it), so a round trip costs twice
//! the delay more. It also counts round trips: a round trip begins each
//! time a client sends after the server last spoke (a query and its
//! answer; sqlx sends a statement's messages in one flight).
//!
//! `voidmate latency-proxy --to HOST:PORT --delay-ms D` runs one by itself;
//! `voidmate bench --db postgres://... --delay-ms D` starts one in front of
//! the database and reports round trips per move.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::time::Instant;

/// A running proxy: where it listens, and its round-trip count.
#[derive(Clone)]
pub struct Proxy {
    pub port: u16,
    round_trips: Arc<AtomicU64>,
}

impl Proxy {
    /// Listens on 127.0.0.1 (port 0: any free port) and passes every
    /// connection on to `to`, `delay` late each way.
    pub async fn start(port: u16, to: String, delay: Duration) -> std::io::Result<Proxy> {
        let listener = TcpListener::bind(("127.0.0.1", port)).await?;
        let port = listener.local_addr()?.port();
        let round_trips = Arc::new(AtomicU64::new(0));
        let counted = round_trips.clone();
        tokio::spawn(async move {
            loop {
                let Ok((client, _)) = listener.accept().await else {
                    continue;
                };
                let (to, counted) = (to.clone(), counted.clone());
                tokio::spawn(async move {
                    match TcpStream::connect(&to).await {
                        Ok(server) => relay(client, server, delay, counted).await,
                        Err(e) => eprintln!("latency-proxy: cannot reach {to}: {e}"),
                    }
                });
            }
        });
        Ok(Proxy { port, round_trips })
    }

    /// Round trips through the proxy so far, over all connections.
    pub fn round_trips(&self) -> u64 {
        self.round_trips.load(Ordering::SeqCst)
    }
}

/// Both directions of one connection.
async fn relay(client: TcpStream, server: TcpStream, delay: Duration, counted: Arc<AtomicU64>) {
    let _ = client.set_nodelay(true);
    let _ = server.set_nodelay(true);
    let (client_read, client_write) = client.into_split();
    let (server_read, server_write) = server.into_split();
    // Whether the server spoke last: the client's next bytes begin a round trip.
    let server_spoke = Arc::new(AtomicBool::new(true));
    let up = {
        let server_spoke = server_spoke.clone();
        pipe(client_read, server_write, delay, move || {
            if server_spoke.swap(false, Ordering::SeqCst) {
                counted.fetch_add(1, Ordering::SeqCst);
            }
        })
    };
    let down = pipe(server_read, client_write, delay, move || {
        server_spoke.store(true, Ordering::SeqCst)
    });
    tokio::join!(up, down);
}

/// Copies `from` to `to`, each chunk `delay` after it was read; `seen` is
/// called as each chunk is read.
async fn pipe(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    delay: Duration,
    seen: impl Fn() + Send + 'static,
) {
    let (tx, mut rx) = mpsc::unbounded_channel::<(Instant, Vec<u8>)>();
    let writer = tokio::spawn(async move {
        while let Some((due, bytes)) = rx.recv().await {
            tokio::time::sleep_until(due).await;
            if to.write_all(&bytes).await.is_err() {
                break;
            }
        }
        let _ = to.shutdown().await;
    });
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match from.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                seen();
                if tx
                    .send((Instant::now() + delay, buf[..n].to_vec()))
                    .is_err()
                {
                    break;
                }
            }
        }
    }
    drop(tx);
    let _ = writer.await;
}

/// `voidmate latency-proxy`: runs until stopped, printing the round trips
/// every `report` (if any passed since the last report).
pub async fn run(listen: u16, to: String, delay: Duration) -> anyhow::Result<String> {
    let proxy = Proxy::start(listen, to.clone(), delay).await?;
    println!(
        "latency-proxy: 127.0.0.1:{} -> {to}, {} ms each way",
        proxy.port,
        delay.as_secs_f64() * 1000.0
    );
    let mut last = 0;
    loop {
        tokio::time::sleep(Duration::from_secs(5)).await;
        let now = proxy.round_trips();
        if now != last {
            println!("round trips: {now} (+{})", now - last);
            last = now;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An echo server behind the proxy: bytes come back unchanged and in
    /// order, and three question-answer exchanges count three round trips.
    #[tokio::test]
    async fn bytes_pass_in_order_and_round_trips_are_counted() {
        let echo = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let to = echo.local_addr().unwrap().to_string();
        tokio::spawn(async move {
            let (mut s, _) = echo.accept().await.unwrap();
            let mut buf = [0u8; 1024];
            loop {
                let n = s.read(&mut buf).await.unwrap();
                if n == 0 {
                    break;
                }
                s.write_all(&buf[..n]).await.unwrap();
            }
        });
        let proxy = Proxy::start(0, to, Duration::from_millis(2)).await.unwrap();
        let mut c = TcpStream::connect(("127.0.0.1", proxy.port)).await.unwrap();
        for i in 0..3u8 {
            let question = [i; 100];
            c.write_all(&question).await.unwrap();
            let mut answer = [0u8; 100];
            c.read_exact(&mut answer).await.unwrap();
            assert_eq!(answer, question);
        }
        assert_eq!(proxy.round_trips(), 3);
    }
}
