//! Keeping one bad event from taking the bot down.
//!
//! Every event is handled inside [`isolated`]: a panic anywhere below (a
//! reader of player text, the renderer, a bug of ours) unwinds to here, is
//! logged with the event, and becomes an apology to the author, while the
//! process and every other room go on. The transaction the event had open is
//! dropped during the unwind, so SQLite rolls it back: nothing half-done is
//! stored.

use futures_util::FutureExt;
use std::any::Any;
use std::future::Future;
use std::panic::AssertUnwindSafe;

/// What the author is told when handling their message failed on our side.
pub const APOLOGY: &str =
    "Sorry, something went wrong on my side with that message, so I could not act on it. It has been logged for the developers.";

/// Runs `work`; a panic inside it comes back as its message.
///
/// `AssertUnwindSafe` is sound here: after a panic the caller only logs and
/// answers, it reads none of the state the future was changing (the
/// database transaction rolls back when dropped).
pub async fn isolated<T>(work: impl Future<Output = T>) -> Result<T, String> {
    AssertUnwindSafe(work)
        .catch_unwind()
        .await
        .map_err(|panic| panic_message(panic.as_ref()))
}

/// The text a panic was raised with, when it has one.
pub fn panic_message(panic: &(dyn Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_panic_becomes_its_message_and_work_goes_on() {
        let caught = isolated(async {
            let text = "éé@a1";
            // The kind of slip that once took the bot down.
            let _ = &text[1..];
            1
        })
        .await;
        let why = caught.unwrap_err();
        assert!(why.contains("char boundary"), "{why}");
        assert_eq!(isolated(async { 2 }).await, Ok(2));
        let formatted = isolated(async { panic!("game #{} broke", 7) }).await;
        assert_eq!(formatted, Err::<(), _>("game #7 broke".to_string()));
    }
}
