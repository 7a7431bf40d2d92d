//! A TCP proxy that puts a database at a distance: every chunk of bytes,
//! each way, is held for a fixed delay before it is passed on (in order,
//! without holding up the chunks behind it), so a round trip costs twice
//! the delay more. It also counts round trips: a round trip begins each
//! time a client sends after the server last spoke (a query and its
//! answer; sqlx sends a statement's messages in one flight). A round trip
//! that is a PostgreSQL `Sync` message alone is the connection pool's check
//! that a connection is alive (sqlx's `ping`), counted apart.
//!
//! `voidmate latency-proxy --to HOST:PORT --delay-ms D` runs one by itself;
//! `voidmate bench --db postgres://... --delay-ms D` starts one in front of
//! the database and reports round trips per move.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::{Duration, Instant};

/// A running proxy: where it listens, and its round-trip count.
#[derive(Clone)]
pub struct Proxy {
    pub port: u16,
    round_trips: Arc<AtomicU64>,
    pings: Arc<AtomicU64>,
}

/// A PostgreSQL `Sync` message alone: what sqlx sends to check a
/// connection (`ping`).
const SYNC: [u8; 5] = [b'S', 0, 0, 0, 4];

impl Proxy {
    /// Listens on 127.0.0.1 (port 0: any free port) and passes every
    /// connection on to `to`, `delay` late each way.
    ///
    /// Threads, not tasks: a tokio timer counts in whole milliseconds and
    /// rounds a wait up, so 1.25 ms each way became a round trip of about
    /// 4.7 ms; a thread's sleep keeps to the delay within some 0.1 ms. Each
    /// connection has a thread reading and one writing, each way.
    pub async fn start(port: u16, to: String, delay: Duration) -> std::io::Result<Proxy> {
        let listener = TcpListener::bind(("127.0.0.1", port))?;
        let port = listener.local_addr()?.port();
        let round_trips = Arc::new(AtomicU64::new(0));
        let pings = Arc::new(AtomicU64::new(0));
        let counted = [round_trips.clone(), pings.clone()];
        thread::Builder::new()
            .name("latency-proxy".into())
            .spawn(move || {
                for client in listener.incoming() {
                    let Ok(client) = client else {
                        continue;
                    };
                    let (to, counted) = (to.clone(), counted.clone());
                    thread::spawn(move || match TcpStream::connect(&to) {
                        Ok(server) => relay(client, server, delay, counted),
                        Err(e) => eprintln!("latency-proxy: cannot reach {to}: {e}"),
                    });
                }
            })?;
        Ok(Proxy {
            port,
            round_trips,
            pings,
        })
    }

    /// Round trips through the proxy so far, over all connections, the
    /// pool's checks of its connections not counted.
    pub fn round_trips(&self) -> u64 {
        self.round_trips.load(Ordering::SeqCst)
    }

    /// The connection pools' checks that a connection is alive so far.
    pub fn pings(&self) -> u64 {
        self.pings.load(Ordering::SeqCst)
    }
}

/// Both directions of one connection, until both have ended.
fn relay(
    client: TcpStream,
    server: TcpStream,
    delay: Duration,
    [counted, pings]: [Arc<AtomicU64>; 2],
) {
    let _ = client.set_nodelay(true);
    let _ = server.set_nodelay(true);
    let (Ok(client_out), Ok(server_out)) = (client.try_clone(), server.try_clone()) else {
        return;
    };
    // Whether the server spoke last: the client's next bytes begin a round trip.
    let server_spoke = Arc::new(AtomicBool::new(true));
    let up = {
        let server_spoke = server_spoke.clone();
        pipe(client, server_out, delay, move |bytes: &[u8]| {
            if server_spoke.swap(false, Ordering::SeqCst) {
                let which = if bytes == SYNC { &pings } else { &counted };
                which.fetch_add(1, Ordering::SeqCst);
            }
        })
    };
    let down = pipe(server, client_out, delay, move |_: &[u8]| {
        server_spoke.store(true, Ordering::SeqCst)
    });
    for thread in up.into_iter().chain(down) {
        let _ = thread.join();
    }
}

/// Copies `from` to `to` on two threads of its own, each chunk `delay`
/// after it was read (in order, a chunk never holding up the ones behind it
/// for longer than their own delay); `seen` is called with each chunk as it
/// is read. Its threads, to join.
fn pipe(
    mut from: TcpStream,
    mut to: TcpStream,
    delay: Duration,
    seen: impl Fn(&[u8]) + Send + 'static,
) -> [thread::JoinHandle<()>; 2] {
    let (tx, rx) = mpsc::channel::<(Instant, Vec<u8>)>();
    let writer = thread::spawn(move || {
        while let Ok((due, bytes)) = rx.recv() {
            let now = Instant::now();
            if due > now {
                thread::sleep(due - now);
            }
            if to.write_all(&bytes).is_err() {
                break;
            }
        }
        let _ = to.shutdown(Shutdown::Write);
    });
    let reader = thread::spawn(move || {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            match from.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    seen(&buf[..n]);
                    if tx
                        .send((Instant::now() + delay, buf[..n].to_vec()))
                        .is_err()
                    {
                        break;
                    }
                }
            }
        }
    });
    [reader, writer]
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
    let mut last = (0, 0);
    loop {
        tokio::time::sleep(Duration::from_secs(5)).await;
        let now = (proxy.round_trips(), proxy.pings());
        if now != last {
            println!(
                "round trips: {} (+{}), and pool checks: {} (+{})",
                now.0,
                now.0 - last.0,
                now.1,
                now.1 - last.1
            );
            last = now;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// An echo server behind the proxy: bytes come back unchanged and in
    /// order, and three question-answer exchanges count three round trips.
    #[tokio::test]
    async fn bytes_pass_in_order_and_round_trips_are_counted() {
        let echo = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
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
        let mut c = tokio::net::TcpStream::connect(("127.0.0.1", proxy.port))
            .await
            .unwrap();
        for i in 0..3u8 {
            let question = [i; 100];
            c.write_all(&question).await.unwrap();
            let mut answer = [0u8; 100];
            c.read_exact(&mut answer).await.unwrap();
            assert_eq!(answer, question);
        }
        assert_eq!(proxy.round_trips(), 3);
        // A `Sync` alone is a pool's check of its connection: a ping.
        c.write_all(&SYNC).await.unwrap();
        let mut answer = [0u8; 5];
        c.read_exact(&mut answer).await.unwrap();
        assert_eq!((proxy.round_trips(), proxy.pings()), (3, 1));
    }
}
