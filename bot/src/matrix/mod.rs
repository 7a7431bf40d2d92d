//! The Matrix adapter: room messages in, messages and board images out.
//!
//! It only translates. In a shared room it takes what is said to the bot
//! (the prefix, `!vm e4`; a mention of the bot; a reply to one of its
//! messages); everything else goes to the core as unaddressed chatter,
//! which it takes only as a bare move by the player to move. A room of the
//! bot and one person is all for the bot, and private when Matrix marks it
//! direct (see [`timeline`]). Replies are notices, except those that must
//! reach someone, which are `m.text` with intentional mentions (see
//! [`post`]).
//!
//! Nothing is answered twice and nothing is skipped: the core records every
//! handled event id, the sync token is saved only after a sync's events
//! have been handled, and the events a limited sync leaves out are fetched
//! before the rest. Messages from before the bot joined a room are history,
//! not commands.

mod address;
mod config;
mod post;
mod timeline;

pub use config::{MatrixConfig, MatrixSection};

use crate::adapter::{self, AbortOnDrop};
use crate::game::{Core, Mentioned, Player, PlayerId, Refusal};
use anyhow::{anyhow, bail, Context, Result};
use matrix_sdk::authentication::matrix::MatrixSession;
use matrix_sdk::authentication::SessionTokens;
use matrix_sdk::config::{RequestConfig, SyncSettings};
use matrix_sdk::event_handler::Ctx;
use matrix_sdk::ruma::api::client::uiaa;
use matrix_sdk::ruma::events::room::member::StrippedRoomMemberEvent;
use matrix_sdk::ruma::events::Mentions;
use matrix_sdk::ruma::{EventId, RoomId, UserId};
use matrix_sdk::store::RoomLoadSettings;
use matrix_sdk::SessionMeta;
use matrix_sdk::{Client, Room, RoomMemberships, RoomState};

use std::sync::Arc;
use std::time::Duration;

struct Shared {
    core: Core,
    cfg: MatrixConfig,
}

/// A connected Matrix bot.
pub struct MatrixBot {
    client: Client,
    shared: Arc<Shared>,
}

const SYNC_TOKEN_KEY: &str = "matrix.sync_token";

fn joined_key(room: &RoomId) -> String {
    format!("matrix.joined_at.{room}")
}

impl MatrixBot {
    /// Logs in (or restores the saved session) and prepares the handlers.
    pub async fn connect(core: Core, cfg: MatrixConfig) -> Result<MatrixBot> {
        // The session and the encryption keys live here: owner only.
        crate::secret::create_private_dir(&cfg.store_dir)
            .with_context(|| format!("cannot create {}", cfg.store_dir.display()))?;
        let client = Client::builder()
            .homeserver_url(&cfg.homeserver)
            .sqlite_store(cfg.store_dir.join("sdk"), None)
            // Rate-limited requests (429, M_LIMIT_EXCEEDED) are retried after
            // the delay the server asks for, for up to two minutes.
            .request_config(
                RequestConfig::new()
                    .retry_limit(10)
                    .max_retry_time(Duration::from_secs(120)),
            )
            .build()
            .await
            .context("cannot reach the homeserver")?;
        let session_file = cfg.store_dir.join("session.json");
        if let Ok(saved) = std::fs::read_to_string(&session_file) {
            let session: MatrixSession =
                serde_json::from_str(&saved).context("the saved Matrix session is damaged")?;
            client
                .matrix_auth()
                .restore_session(session, RoomLoadSettings::default())
                .await
                .context("cannot restore the Matrix session")?;
        } else if let Some((token, device)) = &cfg.access_token {
            let session = MatrixSession {
                meta: SessionMeta {
                    user_id: UserId::parse(&cfg.user)
                        .context("[matrix] user is not a Matrix user id")?,
                    device_id: device.as_str().into(),
                },
                tokens: SessionTokens {
                    access_token: token.clone(),
                    refresh_token: None,
                },
            };
            client
                .matrix_auth()
                .restore_session(session, RoomLoadSettings::default())
                .await
                .context("the Matrix access token was refused")?;
            crate::secret::write_private(
                &session_file,
                serde_json::to_string(&client.matrix_auth().session())?.as_bytes(),
            )?;
        } else {
            let Some(password) = cfg.password.clone() else {
                bail!("no saved Matrix session and no credentials: set [matrix] password_env, or access_token_env and device_id");
            };
            client
                .matrix_auth()
                .login_username(&cfg.user, &password)
                .initial_device_display_name("Voidmate")
                .send()
                .await
                .context("Matrix login failed")?;
            let session = client
                .matrix_auth()
                .session()
                .ok_or_else(|| anyhow!("no session after login"))?;
            crate::secret::write_private(
                &session_file,
                serde_json::to_string(&session)?.as_bytes(),
            )?;
            cross_sign(&client, &cfg.user, &password).await;
        }
        // Challenging the bot's own user plays its engine.
        let me = UserId::parse(cfg.user.as_str())
            .map_err(|e| anyhow!("[matrix] user {} is not a Matrix user id: {e}", cfg.user))?;
        core.add_bot(Player::new(
            PlayerId::new(PLATFORM, me.as_str()),
            me.localpart(),
        ))
        .await
        .context("cannot record the bot's identity")?;
        core.set_command_style(
            PLATFORM,
            crate::game::CommandStyle {
                prefix: format!("{} ", cfg.prefix),
                reactions: true,
                buttons: false,
                reads_chat: true,
                threads: false,
                // Rooms play slowly, over days.
                default_pool: crate::game::ratings::Pool::Correspondence,
            },
        );
        let shared = Arc::new(Shared { core, cfg });
        client.add_event_handler_context(shared.clone());
        client.add_event_handler(on_invite);
        Ok(MatrixBot { client, shared })
    }

    pub fn client(&self) -> &Client {
        &self.client
    }

    /// Syncs forever, posting deadline reminders as they fall due.
    pub async fn run(self) -> Result<()> {
        let core = self.shared.core.clone();
        let filter = timeline::filter();
        let mut token = core.adapter_value(SYNC_TOKEN_KEY).await?;
        if token.is_none() {
            // A fresh start: take the rooms as they are, answer nothing old.
            let settings = SyncSettings::default().filter(filter.clone());
            let first = self.client.sync_once(settings).await?;
            core.set_adapter_value(SYNC_TOKEN_KEY, &first.next_batch)
                .await?;
            token = Some(first.next_batch);
        }

        // matrix-sdk stores each sync's token the moment the response
        // arrives, before the bot has handled its events, and drops a later
        // response that ends at the token it has stored ("the same sync
        // response twice"). A process killed in between leaves the SDK's
        // token past events the bot never handled, and the next sync from
        // the bot's own token would come back empty: those events are
        // fetched from the rooms' history instead, and handled first.
        if let (Some(ours), Some(sdk)) = (token.clone(), sdk_sync_token(&self.client).await) {
            if ours != sdk {
                timeline::handle_unseen(&self.client, &self.shared, &sdk, &ours).await;
                core.set_adapter_value(SYNC_TOKEN_KEY, &sdk).await?;
                token = Some(sdk);
            }
        }

        let mut backoff = Duration::from_secs(1);
        // Until the bot has caught up with what happened while it was down,
        // syncs return at once and the periodic check waits: a deadline that
        // passed meanwhile must not end a game before the move sent in time
        // is read (see `timeline::handle_sync`).
        let mut ticker: Option<AbortOnDrop> = None;
        let mut catch_up_syncs = 0;
        loop {
            let wait = match ticker {
                Some(_) => Duration::from_secs(30),
                None => Duration::ZERO,
            };
            let mut settings = SyncSettings::default().timeout(wait).filter(filter.clone());
            if let Some(t) = &token {
                settings = settings.token(t.clone());
            }
            match self.client.sync_once(settings).await {
                Ok(response) => {
                    let catching_up = ticker.is_none();
                    timeline::handle_sync(
                        &self.client,
                        &self.shared,
                        &response,
                        token.as_deref(),
                        catching_up,
                    )
                    .await;
                    // Every event is handled by now: only then is the token saved.
                    core.set_adapter_value(SYNC_TOKEN_KEY, &response.next_batch)
                        .await?;
                    token = Some(response.next_batch);
                    backoff = Duration::from_secs(1);
                    self.shared.core.report("matrix", true, "syncing");
                    if catching_up {
                        catch_up_syncs += 1;
                        let quiet = response
                            .rooms
                            .joined
                            .values()
                            .all(|u| u.timeline.events.is_empty());
                        if quiet || catch_up_syncs >= 10 {
                            ticker = Some(spawn_ticker(&self.client, &self.shared));
                        }
                    }
                }
                Err(e) => {
                    tracing::warn!(?backoff, "Matrix sync failed, retrying: {e}");
                    self.shared
                        .core
                        .report("matrix", false, format!("sync failing: {e}"));
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(Duration::from_secs(60));
                }
            }
            if ticker.as_ref().is_some_and(AbortOnDrop::is_finished) {
                bail!("the deadline task stopped");
            }
        }
    }
}

/// The sync token matrix-sdk has stored: where its last response ended.
async fn sdk_sync_token(client: &Client) -> Option<String> {
    use matrix_sdk::store::{StateStoreDataKey, StateStoreDataValue};
    match client
        .state_store()
        .get_kv_data(StateStoreDataKey::SyncToken)
        .await
    {
        Ok(Some(StateStoreDataValue::SyncToken(t))) => Some(t),
        Ok(_) => None,
        Err(e) => {
            tracing::warn!("cannot read matrix-sdk's sync token: {e}");
            None
        }
    }
}

/// The periodic check: deadlines, clocks and the outbox, posted to rooms.
fn spawn_ticker(client: &Client, shared: &Arc<Shared>) -> AbortOnDrop {
    let (client, shared) = (client.clone(), shared.clone());
    let (core, tick) = (shared.core.clone(), shared.cfg.tick);
    adapter::deliver(core, tick, move |notice| {
        let (client, shared) = (client.clone(), shared.clone());
        async move {
            let Ok(room_id) = RoomId::parse(&notice.channel) else {
                return Err(Refusal::Permanent);
            };
            // A room the bot is not in (kicked, banned, left) refuses for
            // good; anything else is tried again later.
            let Some(room) = client
                .get_room(&room_id)
                .filter(|room| room.state() == matrix_sdk::RoomState::Joined)
            else {
                return Err(Refusal::Permanent);
            };
            let to = notice
                .in_reply_to
                .as_deref()
                .and_then(|id| EventId::parse(id).ok());
            match post::post(&shared.core, &room, to.as_deref(), notice.reply).await {
                Some(_) => Ok(()),
                None => Err(Refusal::Temporary { retry_after: None }),
            }
        }
    })
}

/// Signs the bot's device with its own cross-signing keys, so that encrypted
/// rooms see a verified bot. Failure is not fatal: encryption works without.
async fn cross_sign(client: &Client, user: &str, password: &str) {
    let enc = client.encryption();
    if let Err(e) = enc.bootstrap_cross_signing_if_needed(None).await {
        let Some(info) = e.as_uiaa_response() else {
            tracing::warn!("cross-signing not set up: {e}");
            return;
        };
        let localpart = user
            .trim_start_matches('@')
            .split(':')
            .next()
            .unwrap_or(user);
        let mut auth = uiaa::Password::new(
            uiaa::UserIdentifier::Matrix(uiaa::MatrixUserIdentifier::new(localpart.to_owned())),
            password.to_owned(),
        );
        auth.session = info.session.clone();
        if let Err(e) = enc
            .bootstrap_cross_signing(Some(uiaa::AuthData::Password(auth)))
            .await
        {
            tracing::warn!("cross-signing not set up: {e}");
        }
    }
}

fn allowed(cfg: &MatrixConfig, inviter: &UserId) -> bool {
    cfg.allow_invites_from.is_empty()
        || cfg
            .allow_invites_from
            .iter()
            .any(|a| a == inviter.as_str() || a == inviter.server_name().as_str())
}

async fn on_invite(
    ev: StrippedRoomMemberEvent,
    room: Room,
    client: Client,
    shared: Ctx<Arc<Shared>>,
) {
    let Some(me) = client.user_id() else { return };
    if ev.state_key != me || room.state() != RoomState::Invited {
        return;
    }
    if !allowed(&shared.cfg, &ev.sender) {
        let _ = room.leave().await;
        return;
    }
    let room_id = room.room_id().to_owned();
    let core = shared.core.clone();
    tokio::spawn(async move {
        // Synapse may not be ready for the join the moment it sends the
        // invite (matrix-org/synapse#4345), hence the retries.
        let mut delay = 1;
        while let Err(e) = room.join().await {
            if delay > 60 {
                tracing::warn!(room = %room_id, "cannot join a room: {e}");
                return;
            }
            tokio::time::sleep(Duration::from_secs(delay)).await;
            delay *= 2;
        }
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or(0);
        let _ = core
            .set_adapter_value(&joined_key(&room_id), &now.to_string())
            .await;
        // Back in the room: what was parked for it goes out again.
        core.seen_in(room_id.as_str()).await;
    });
}

/// The Matrix namespace of player ids: `matrix:@alice:example.org`.
pub const PLATFORM: &str = "matrix";

/// `user` in `room` as a player: their id, and the name the room shows.
async fn member(room: &Room, user: &UserId) -> Player {
    let name = match room.get_member_no_sync(user).await {
        Ok(Some(m)) => m.name().to_string(),
        _ => user.localpart().to_string(),
    };
    Player::new(PlayerId::new(PLATFORM, user.as_str()), name)
}

/// Whether `user` moderates `room`: may kick there, by the room's power
/// levels (Element's "Moderator" is 50, the default level to kick).
async fn moderates(room: &Room, user: &UserId) -> bool {
    room.power_levels_or_default().await.user_can_kick(user)
}

/// Who a message names: the users of its intentional mentions (pills,
/// written as their id or as the name the pill shows), and user ids typed
/// in the command, `@bob` without a server meaning the bot's server.
async fn mentioned(
    room: &Room,
    client: &Client,
    mentions: Option<&Mentions>,
    command: &str,
) -> Vec<Mentioned> {
    let mut out = Vec::new();
    if let Some(m) = mentions {
        for user in &m.user_ids {
            let who = member(room, user).await;
            for written in [user.to_string(), who.name.clone()] {
                out.push(Mentioned {
                    written,
                    who: who.clone(),
                });
            }
        }
    }
    let server = client.user_id().map(|u| u.server_name().to_owned());
    let mut members = None;
    for word in command.split_whitespace().filter(|w| w.starts_with('@')) {
        if !word.contains(':') {
            // `@bob`: the members of this room called bob (by localpart or
            // display name); the core asks which one if several are.
            let name = &word[1..];
            if members.is_none() {
                members = Some(
                    room.members(RoomMemberships::ACTIVE)
                        .await
                        .unwrap_or_default(),
                );
            }
            let mut found = false;
            for m in members.iter().flatten() {
                if m.user_id().localpart().eq_ignore_ascii_case(name)
                    || m.display_name()
                        .is_some_and(|d| d.eq_ignore_ascii_case(name))
                {
                    found = true;
                    out.push(Mentioned {
                        written: word.to_string(),
                        who: Player::new(PlayerId::new(PLATFORM, m.user_id().as_str()), m.name()),
                    });
                }
            }
            if found {
                continue;
            }
        }
        let full = match (word.contains(':'), &server) {
            (true, _) => word.to_string(),
            (false, Some(server)) => format!("{word}:{server}"),
            (false, None) => continue,
        };
        if let Ok(user) = UserId::parse(full.as_str()) {
            out.push(Mentioned {
                written: word.to_string(),
                who: member(room, &user).await,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn invitations_follow_the_allow_list() {
        let mut cfg = MatrixConfig {
            homeserver: String::new(),
            user: String::new(),
            password: None,
            access_token: None,
            store_dir: PathBuf::new(),
            prefix: "!vm".into(),
            allow_invites_from: vec![],
            tick: Duration::from_secs(1),
        };
        let alice = UserId::parse("@alice:example.org").unwrap();
        let eve = UserId::parse("@eve:elsewhere.net").unwrap();
        assert!(allowed(&cfg, &alice) && allowed(&cfg, &eve));
        cfg.allow_invites_from = vec!["example.org".into()];
        assert!(allowed(&cfg, &alice) && !allowed(&cfg, &eve));
        cfg.allow_invites_from = vec!["@eve:elsewhere.net".into()];
        assert!(!allowed(&cfg, &alice) && allowed(&cfg, &eve));
    }
}
