//! What both chat adapters share: the loop that posts the core's notices
//! (reminders, losses on time, answers whose direct post was never
//! confirmed), and background tasks that stop with their owner.

use crate::game::{Core, Notice, Refusal};
use std::future::Future;
use std::time::Duration;

/// A background task, stopped when this handle goes (also when the task
/// that owns it is cancelled).
pub struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl AbortOnDrop {
    pub fn spawn(work: impl Future<Output = ()> + Send + 'static) -> AbortOnDrop {
        AbortOnDrop(tokio::spawn(work))
    }

    /// Whether the task ended (it never should: a sign of a panic).
    pub fn is_finished(&self) -> bool {
        self.0.is_finished()
    }
}

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Posts the core's notices as they fall due: every `tick` the core hands
/// out what is due ([`Core::tick`]), `post` posts each, and the core hears
/// whether it went out ([`Core::delivered`]) or why not ([`Core::failed`]:
/// tried again later, or parked when refused for good).
pub fn deliver<F, Fut>(core: Core, tick: Duration, post: F) -> AbortOnDrop
where
    F: Fn(Notice) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<(), Refusal>> + Send,
{
    AbortOnDrop::spawn(async move {
        loop {
            tokio::time::sleep(tick).await;
            for notice in core.tick().await {
                let id = notice.id;
                match post(notice).await {
                    Ok(()) => core.delivered(id).await,
                    Err(refusal) => core.failed(id, refusal).await,
                }
            }
        }
    })
}
