//! Who a command names: a player the adapter resolved (a mention, a slash
//! command's user option), the bot, or someone seen before on the author's
//! platform under that name.

use crate::command::Someone;
use crate::contract::Player;
use crate::ctx::Ctx;
use crate::error::{refuse, Failure};
use crate::store;
use crate::words::or_list;

impl Ctx<'_> {
    /// The player `who` names; refused when nobody or several fit.
    pub async fn resolve(&mut self, who: &Someone) -> Result<Player, Failure> {
        let written = match who {
            Someone::Known(p) => return Ok(p.clone()),
            Someone::Named(w) => w.as_str(),
        };
        if written.is_empty() {
            return refuse("Challenge whom? For example: `challenge @bob void`.");
        }
        let bare = written.trim_start_matches('@');
        let mut named: Vec<&Player> = Vec::new();
        for m in self.event.map(|e| e.mentions.as_slice()).unwrap_or(&[]) {
            if (m.written == written || m.written.trim_start_matches('@') == bare)
                && !named.iter().any(|p| p.id == m.who.id)
            {
                named.push(&m.who);
            }
        }
        match named.as_slice() {
            [one] => return Ok((*one).clone()),
            [] => {}
            several => {
                let list: Vec<String> = several
                    .iter()
                    .map(|p| format!("{} ({})", p.name, p.id.local()))
                    .collect();
                return refuse(format!(
                    "`{written}` could be {}. Mention the one you mean (type @ and pick them), or write their full id.",
                    or_list(&list)
                ));
            }
        }
        let platform = self.author.id.platform();
        if let Some(bot) = self.core.bot_named(platform, written) {
            return Ok(bot);
        }
        match store::players_named(self.tx, platform, bare).await?.as_slice() {
            [one] => Ok(one.clone()),
            [] => refuse(format!(
                "I do not know who `{bare}` is. Mention them (type @ and pick them) so that I know whom you mean."
            )),
            _ => refuse(format!(
                "Several people here go by `{bare}`. Mention the one you mean (type @ and pick them)."
            )),
        }
    }

    /// [`Ctx::resolve`] for someone a command may name; someone nobody
    /// knows is refused with `unknown`'s words.
    pub async fn resolve_if_named(
        &mut self,
        who: Option<Someone>,
        unknown: impl Fn(&Someone) -> String,
    ) -> Result<Option<Player>, Failure> {
        match who {
            None => Ok(None),
            Some(who) => match self.resolve(&who).await {
                Ok(p) => Ok(Some(p)),
                Err(Failure::Storage(e)) => Err(Failure::Storage(e)),
                Err(_) => Err(Failure::Refused(unknown(&who))),
            },
        }
    }
}
