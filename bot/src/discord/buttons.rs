//! The button-id codec: a button's id says what it answers and who may
//! press it, by user id: `vm:y:c:ALICE:BOB` (BOB accepts ALICE's
//! challenge), `vm:n:d:12:BOB` (BOB declines the draw offer in game 12),
//! `vm:y:u:12:BOB` (a takeback). At most 100 characters, as Discord allows
//! (`interactions/message-components#custom-id`): two snowflakes of at
//! most 20 digits fit.

use super::PLATFORM;
use crate::game::{Action, PlayerId};

pub fn custom_id(action: &Action, accept: bool) -> String {
    let yes = if accept { "y" } else { "n" };
    match action {
        Action::AnswerChallenge { challenger, to } => {
            format!("vm:{yes}:c:{}:{}", challenger.id.local(), to.local())
        }
        Action::AnswerOffer { kind, game, to } => {
            format!("vm:{yes}:{}:{game}:{}", kind.code(), to.local())
        }
    }
}

/// The question and the answer a button gives; `None` for an id we never
/// made (an older version's, or someone else's).
pub fn parse_custom_id(id: &str) -> Option<(Action, bool)> {
    let mut parts = id.split(':');
    if parts.next()? != "vm" {
        return None;
    }
    let accept = match parts.next()? {
        "y" => true,
        "n" => false,
        _ => return None,
    };
    let (kind, arg, to) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || to.parse::<u64>().is_err() {
        return None;
    }
    let to = PlayerId::new(PLATFORM, to);
    // A challenger is a user id here; the core's questions name players.
    let arg = match kind {
        "c" => PlayerId::new(PLATFORM, &arg.parse::<u64>().ok()?.to_string()).to_string(),
        _ => arg.to_string(),
    };
    Some((Action::from_parts(kind, &arg, None, to)?, accept))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::command::OfferKind;
    use crate::game::Player;

    #[test]
    fn button_ids_round_trip_and_fit() {
        // Snowflakes are 64-bit: the longest are 20 digits.
        let id = |n: u64| PlayerId::new(PLATFORM, &n.to_string());
        let actions = [
            Action::AnswerChallenge {
                challenger: Player::stored(id(u64::MAX).as_str(), None),
                to: id(u64::MAX - 1),
            },
            Action::AnswerOffer {
                kind: OfferKind::Draw,
                game: 123456789,
                to: id(42),
            },
            Action::AnswerOffer {
                kind: OfferKind::Takeback,
                game: i64::MAX,
                to: id(80351110224678912),
            },
        ];
        for a in actions {
            for yes in [true, false] {
                let id = custom_id(&a, yes);
                assert!(id.len() <= 100, "{id}");
                assert_eq!(parse_custom_id(&id), Some((a.clone(), yes)));
            }
        }
        // The ids buttons already posted carry keep their meaning.
        assert_eq!(
            parse_custom_id("vm:n:d:12:42"),
            Some((
                Action::AnswerOffer {
                    kind: OfferKind::Draw,
                    game: 12,
                    to: id(42)
                },
                false
            ))
        );
        assert_eq!(parse_custom_id("vm:y:x:1:bob"), None);
        assert_eq!(parse_custom_id("other:y:c:a:b"), None);
        assert_eq!(parse_custom_id("vm:y:d:notanumber:1"), None);
        assert_eq!(parse_custom_id("vm:y:d:1:2:3"), None);
        // Ids from before identities (names) are no one's: the button is
        // ignored rather than answered for whoever has that name now.
        assert_eq!(parse_custom_id("vm:y:c:alice:bob"), None);
        assert_eq!(parse_custom_id("vm:y:d:12:bob"), None);
    }
}
