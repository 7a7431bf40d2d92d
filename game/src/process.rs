//! What this process reports about itself (its kind, its role, how each
//! part is): kept by the core, written by `health` every few seconds.

/// What this process reports about itself.
#[derive(Debug, Default)]
pub(crate) struct Status {
    /// What it is: `run`, `engine-worker`, `console` (empty: `bot`).
    pub kind: String,
    /// What it stands for in the deployment (`Core::set_process_role`).
    pub role: String,
    /// Each part (an adapter, the engine) with whether it is well.
    pub parts: std::collections::BTreeMap<String, (bool, String)>,
    /// When it last wrote its report (the core's clock).
    pub reported_ms: i64,
}
