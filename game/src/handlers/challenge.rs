//! Challenges: to a person or to the bot's engine, accepting and declining.

use crate::command::{ChallengeOptions, ColorChoice, ProgramMode, TimeControl};
use crate::contract::{Player, PlayerId, Text};
use crate::ctx::Ctx;
use crate::done::Done;
use crate::error::{refuse, Failure};
use crate::handlers::info;
use crate::handlers::play::opening;
use crate::handlers::ratings::both_now;
use crate::ratings::Pool;
use crate::record::{ChallengeRecord, ChallengeStatus};
use crate::reply::{Action, GameThread};
use crate::store;
use voidmate_rules::{variants, ByColor, Color, GameKind, Position};

/// The challenges waiting in this channel (one that does not read is
/// refused, naming it).
pub(crate) async fn pending(cx: &mut Ctx<'_>) -> Result<Vec<ChallengeRecord>, Failure> {
    Ok(store::pending_challenges(cx.tx, cx.channel).await?)
}

pub(crate) async fn challenge(
    cx: &mut Ctx<'_>,
    opponent: &Player,
    options: ChallengeOptions,
) -> Result<Done, Failure> {
    let me = cx.author;
    let ChallengeOptions {
        variant,
        time,
        color,
        level,
        mode,
        thread,
        rated,
    } = options;
    if thread == Some(true) && !cx.core.command_style(cx.platform()).threads {
        return refuse(
            "Games in threads of their own are for Discord; here every game is played in the room. Challenge without `thread`.",
        );
    }
    if opponent == me {
        return refuse(
            "You cannot challenge yourself. Challenge another player with `challenge @name`.",
        );
    }
    let picked = variant.is_none();
    let kind = variant.unwrap_or(GameKind::DEFAULT);
    if !kind.playable_in(cx.community()) {
        return info::unknown_game(cx.community(), kind.name());
    }
    let rules = kind.rules();
    let mode = mode.unwrap_or(ProgramMode::Default);
    if mode != ProgramMode::Default && !variants::programmable(rules) {
        return refuse(format!(
            "{} has no programmable pieces; `{}` is for Super Chess 16x16: `challenge @{opponent} super16 {}`.",
            rules.title(),
            mode.code(),
            mode.code()
        ));
    }
    if cx.core.is_bot(&opponent.id) {
        if mode != ProgramMode::Default {
            return refuse(
                "I play Super Chess 16x16 in the default mode only: the rules engine that judges the game would also know a private program, so I do not play programmed games.",
            );
        }
        let options = ChallengeOptions {
            variant: Some(kind),
            time,
            color,
            level,
            mode: None,
            thread,
            rated,
        };
        return play_the_bot(cx, opponent, options).await;
    }
    if level.is_some() {
        let bot = cx
            .core
            .bot_on(me.id.platform())
            .map(|b| b.name)
            .unwrap_or_else(|| "voidmate".into());
        return refuse(format!(
            "A level is for games against me: `challenge @{bot} {} 3`.",
            rules.name()
        ));
    }
    // Challenges may wait for several people at once; one at a time for
    // each.
    for c in pending(cx).await? {
        if &c.challenger == me && &c.challenged == opponent {
            return refuse(format!(
                "You already have a challenge waiting for {} here. Wait for an answer, or withdraw it with `decline @{}`.",
                c.challenged, c.challenged
            ));
        }
        if &c.challenger == opponent && &c.challenged == me {
            return refuse(format!(
                "{opponent} has already challenged you here: say `accept` to play."
            ));
        }
    }
    let time = time.unwrap_or(TimeControl::None);
    let my_side = match color.unwrap_or(ColorChoice::White) {
        ColorChoice::White => Color::White,
        ColorChoice::Black => Color::Black,
    };
    let challenge = store::insert_challenge(
        cx.tx,
        cx.channel,
        &me.id,
        &opponent.id,
        kind,
        &time,
        my_side,
        mode,
    )
    .await?;
    store::set_challenge_thread(cx.tx, challenge, thread).await?;
    let terms = terms(cx, rated, opponent, kind, &time).await?;
    store::set_challenge_rating(cx.tx, challenge, terms.community.as_deref(), terms.wish).await?;
    let side = match (kind.has_numbered_players(), my_side) {
        (true, Color::White) => "Player 1 and move first".to_string(),
        (true, Color::Black) => "Player 2; you would move first".to_string(),
        (false, side) => kind.side_name(side).to_string(),
    };
    let mut text = Text::new().mention(opponent).say(format!(
        ", {me} challenges you to {} ({time}, {}{}{}); {me} would play {side}.{}",
        rules.title(),
        terms.label,
        match mode {
            ProgramMode::Default => "",
            ProgramMode::Symmetric => ", one programmed roster for both",
            ProgramMode::Private => ", private programs",
        },
        match thread {
            Some(true) => ", in a thread of its own",
            Some(false) | None => "",
        },
        terms.ratings,
    ));
    match mode {
        ProgramMode::Default => {}
        ProgramMode::Symmetric => {
            text.push_str(&format!(
                " Both sides would use one reprogrammed roster: {me}, write it with `program N: jump 2,1 ...` (`help program`); "
            ));
            text.push_mention(opponent);
            text.push_str(", your `accept` agrees to it.");
        }
        ProgramMode::Private => text.push_str(
            " Each side would program its own pieces, in secret, after the challenge is accepted.",
        ),
    }
    let how = if opponent.name.contains(char::is_whitespace) {
        "someone".to_string()
    } else {
        format!("@{}", opponent.name)
    };
    let named = if picked {
        format!(
            " No game was named, so it is {}, our flagship, on a {} board (`variants` lists the others; `challenge {how} standard` for chess).",
            rules.title(),
            rules.size()
        )
    } else {
        String::new()
    };
    let answer = cx
        .core
        .how_to_answer(opponent.id.platform(), "accept", "decline");
    Ok(
        Done::text(text.say(format!("{named} Answer with {answer}.")))
            .asking(vec![Action::AnswerChallenge {
                challenger: me.clone(),
                to: opponent.id.clone(),
            }])
            .notifying(vec![opponent.clone()]),
    )
}

/// A challenge to the bot: the game starts at once, and if the bot has the
/// first move it plays it in the same reply.
async fn play_the_bot(
    cx: &mut Ctx<'_>,
    bot: &Player,
    options: ChallengeOptions,
) -> Result<Done, Failure> {
    let me = cx.author;
    let kind = options.variant.unwrap_or(GameKind::DEFAULT);
    let level = options
        .level
        .unwrap_or(cx.core.engine_cfg.default_level)
        .clamp(1, 5);
    let time = options.time.unwrap_or(TimeControl::None);
    let seats = if options.color == Some(ColorChoice::Black) {
        ByColor {
            white: bot,
            black: me,
        }
    } else {
        ByColor {
            white: me,
            black: bot,
        }
    };
    // Games against the bot are never rated.
    let venue = store::Venue {
        at_ms: cx.now_ms,
        channel: cx.channel,
        community: cx.community(),
        rated: false,
    };
    let first = &seats[Position::new(kind.rules()).turn()];
    // The engine moves first: its turn is queued with the game.
    let engine = (first != &me).then(|| {
        let claim = cx.core.searches_here().then(|| cx.core.engine_claim());
        (cx.now_ms, claim)
    });
    let start = Start {
        venue,
        engine_level: Some(level),
        mode: ProgramMode::Default,
        programs: ByColor::default(),
        opening: Some(opening(cx, &time)),
        engine,
    };
    let id = new_game(cx, start, kind, seats, &time).await?;
    let Some(g) = cx.reload(id).await? else {
        return refuse(format!("Game #{id} is gone."));
    };
    let picture = cx.picture(&g, &me.id, None).await?;
    let thread = game_thread(cx, options.thread, id, seats, kind).await?;
    let intro = format!(
        "Game #{id} begins: {}, {} ({}) vs {} ({}), {time}, casual (games against me are not rated); I play at level {level}.",
        kind.title(),
        seats.white,
        g.side(Color::White),
        seats.black,
        g.side(Color::Black),
    );
    if engine.is_none() {
        return Ok(Done::board(format!("{intro} {me}, your move."), picture)
            .notifying(vec![me.clone()])
            .in_thread(thread));
    }
    Ok(Done::board(intro, picture)
        .engine_moves(id)
        .in_thread(thread))
}

pub(crate) async fn accept(cx: &mut Ctx<'_>, from: Option<Player>) -> Result<Done, Failure> {
    let me = cx.author;
    let waiting: Vec<ChallengeRecord> = pending(cx)
        .await?
        .into_iter()
        .filter(|c| &c.challenged == me && from.as_ref().is_none_or(|f| &c.challenger == f))
        .collect();
    let c = match waiting.as_slice() {
        [] => {
            return refuse(match &from {
                Some(f) => format!("{f} has not challenged you here."),
                None => "No challenge is waiting for you here.".to_string(),
            })
        }
        [one] => one.clone(),
        many => {
            let names: Vec<String> = many.iter().map(|c| c.challenger.name.clone()).collect();
            return refuse(format!(
                "Several players challenged you: {}. Say which, like `accept @{}`, or use the buttons.",
                names.join(", "),
                names[0]
            ));
        }
    };
    let (white, black) = match c.challenger_color {
        Color::Black => (me.clone(), c.challenger.clone()),
        Color::White => (c.challenger.clone(), me.clone()),
    };
    let seats = ByColor {
        white: &white,
        black: &black,
    };
    let mut rated = c.rated && c.community.is_some();
    if let (true, Some(community)) = (rated, &c.community) {
        // Several challenges may have waited at once: the day's limit
        // holds when they are accepted.
        let pool = Pool::of(&c.clock);
        rated = rated_today(cx, community, &white.id, &black.id, pool).await? < RATED_PER_DAY;
    }
    let venue = store::Venue {
        at_ms: cx.now_ms,
        channel: cx.channel,
        community: c.community.as_deref(),
        rated,
    };
    // Symmetric: what the challenger proposed, or the default pieces if
    // nothing was written. Private: each sends theirs; play begins then.
    let roster = c.program.clone().unwrap_or_else(|| "default".into());
    let programs = match c.mode {
        ProgramMode::Symmetric => ByColor {
            white: Some(roster.as_str()),
            black: Some(roster.as_str()),
        },
        ProgramMode::Default | ProgramMode::Private => ByColor::default(),
    };
    let start = Start {
        venue,
        engine_level: None,
        mode: c.mode,
        programs,
        opening: (c.mode != ProgramMode::Private).then(|| opening(cx, &c.clock)),
        engine: None,
    };
    let id = new_game(cx, start, c.kind, seats, &c.clock).await?;
    store::close_challenge(cx.tx, c.id, ChallengeStatus::Accepted, Some(id)).await?;
    let rating = match (&c.community, rated) {
        (Some(community), true) => {
            let pool = Pool::of(&c.clock);
            let now = both_now(cx, community, seats, c.kind, pool).await?;
            format!(", rated ({now})")
        }
        (Some(_), false) if c.rated => format!(
            ", casual: you have played {RATED_PER_DAY} rated {} games against each other in the last 24 hours",
            Pool::of(&c.clock).name()
        ),
        _ => ", casual".to_string(),
    };
    let programs = match c.mode {
        ProgramMode::Symmetric => format!(" Both sides play with this roster: {roster}."),
        ProgramMode::Default | ProgramMode::Private => String::new(),
    };
    let Some(g) = cx.reload(id).await? else {
        return refuse(format!("Game #{id} is gone."));
    };
    let title = c.kind.title();
    let time = &c.clock;
    let names = format!(
        "{white} ({}) vs {black} ({})",
        g.side(Color::White),
        g.side(Color::Black)
    );
    // Drawn from the side of the player to move first, as every board
    // with that side to move is (Black, placing Suicide Void's void).
    let first_mover = g.player(g.pos.turn()).id;
    let picture = cx.picture(&g, &first_mover, None).await?;
    let thread = game_thread(cx, c.thread, id, seats, c.kind).await?;
    if c.mode == ProgramMode::Private {
        let text = format!(
            "Game #{id} is set: {title}, {names}, {time}, private programs. {white} and {black}: each send me your program privately, in a direct message to me (`dm` opens one; on Discord `/program` also answers only you): `program #{id} N: jump 2,1 ...`, or `program #{id} default` to keep your pieces. `help program` explains the vectors. The game begins when both are in; neither of you will see the other's."
        );
        return Ok(Done::board(text, picture)
            .notifying(vec![white.clone(), black.clone()])
            .in_thread(thread));
    }
    // Usually White; in Suicide Void Chess Black places the void first,
    // and is told how.
    let first = g.player(g.pos.turn());
    let places_void = g
        .pos
        .legal_moves()
        .iter()
        .any(|m| m.kind == voidmate_rules::MoveKind::PlaceVoid);
    let how = if places_void {
        format!(
            " {} places the void first, on any empty square: write `@e5` (or `V@e5`, or `void e5`) for e5.",
            g.name(g.pos.turn())
        )
    } else {
        String::new()
    };
    let text = format!(
        "Game #{id} begins: {title}, {names}, {time}{rating}.{programs}{how} {first}, your move."
    );
    Ok(Done::board(text, picture)
        .notifying(vec![first])
        .in_thread(thread))
}

/// The thread a game that begins is to get: where the platform has threads,
/// and the challenge asked for one or (saying nothing) the channel's
/// setting does.
async fn game_thread(
    cx: &mut Ctx<'_>,
    asked: Option<bool>,
    game: i64,
    seats: ByColor<&Player>,
    kind: GameKind,
) -> Result<Option<GameThread>, Failure> {
    if !cx.core.command_style(cx.platform()).threads {
        return Ok(None);
    }
    let wanted = match asked {
        Some(wanted) => wanted,
        None => store::settings(cx.tx, cx.channel)
            .await?
            .is_some_and(|s| s.threads),
    };
    Ok(wanted.then(|| GameThread::new(game, &seats.white.name, &seats.black.name, kind.title())))
}

pub(crate) async fn decline(cx: &mut Ctx<'_>, other: Option<Player>) -> Result<Done, Failure> {
    let me = cx.author;
    let mine: Vec<ChallengeRecord> = pending(cx)
        .await?
        .into_iter()
        .filter(|c| &c.challenged == me || &c.challenger == me)
        .filter(|c| {
            other
                .as_ref()
                .is_none_or(|o| &c.challenger == o || &c.challenged == o)
        })
        .collect();
    let c = match mine.as_slice() {
        [] => return refuse("There is no challenge here for you to decline or withdraw."),
        [one] => one.clone(),
        _ => {
            return refuse(
                "You have several challenges here; name the player, like `decline @bob`.",
            )
        }
    };
    if &c.challenger == me {
        store::close_challenge(cx.tx, c.id, ChallengeStatus::Withdrawn, None).await?;
        Ok(Done::text(format!(
            "{me} withdraws the challenge to {}.",
            c.challenged
        )))
    } else {
        store::close_challenge(cx.tx, c.id, ChallengeStatus::Declined, None).await?;
        Ok(
            Done::text(format!("{me} declines {}'s challenge.", c.challenger))
                .notifying(vec![c.challenger]),
        )
    }
}

/// How a new game begins, beside its players and rules.
struct Start<'a> {
    venue: store::Venue<'a>,
    engine_level: Option<u8>,
    mode: ProgramMode,
    programs: ByColor<Option<&'a str>>,
    opening: Option<store::Opening>,
    engine: Option<(i64, Option<store::Claim<'a>>)>,
}

/// Stores a new game of `kind` from its start, with everything it begins
/// with; its id.
async fn new_game(
    cx: &mut Ctx<'_>,
    start: Start<'_>,
    kind: GameKind,
    seats: ByColor<&Player>,
    time: &TimeControl,
) -> Result<i64, sqlx::Error> {
    let fen = Position::new(kind.rules()).fen();
    let game = store::NewGame {
        venue: start.venue,
        kind,
        seats: ByColor {
            white: &seats.white.id,
            black: &seats.black.id,
        },
        start_fen: &fen,
        time,
        engine_level: start.engine_level,
        mode: start.mode,
        programs: start.programs,
        opening: start.opening,
        engine: start.engine,
    };
    store::start_game(cx.tx, &game).await
}

/// How many rated games two players may play each other in a day in one
/// pool; the next are casual (so ratings cannot be farmed).
const RATED_PER_DAY: usize = 3;

/// How many rated games `a` and `b` began against each other in `pool`
/// here in the last 24 hours.
async fn rated_today(
    cx: &mut Ctx<'_>,
    community: &str,
    a: &PlayerId,
    b: &PlayerId,
    pool: Pool,
) -> Result<usize, Failure> {
    let since = cx.now_ms.div_euclid(1000) - 24 * 3600;
    Ok(store::rated_between(cx.tx, community, a, b, since)
        .await?
        .into_iter()
        .filter_map(Result::ok)
        .filter(|g| Pool::of(&g.clock) == pool)
        .count())
}

/// Whether a challenge's game is rated, and what the challenge says of it.
struct Terms {
    community: Option<String>,
    /// Whether rated is asked for (not said: yes) where ratings exist: kept
    /// with the challenge, so that its acceptance says why a game over the
    /// day's limit is casual (the limit is checked again then).
    wish: bool,
    /// `rated`, `casual`, with the reason a wish for rated is not granted.
    label: String,
    /// ` Ratings: alice 1500?, bob 1623.` where there is a community.
    ratings: String,
}

/// The terms of a challenge between the author and `opponent`: rated when
/// asked (or not said) in a community, unless they have played their
/// rated games of the day in this pool.
async fn terms(
    cx: &mut Ctx<'_>,
    asked: Option<bool>,
    opponent: &Player,
    kind: GameKind,
    time: &TimeControl,
) -> Result<Terms, Failure> {
    let me = cx.author;
    let pool = Pool::of(time);
    let Some(community) = cx.community().map(str::to_string) else {
        let label = match asked {
            Some(true) => "casual: games in direct conversations are not rated",
            Some(false) | None => "casual",
        };
        return Ok(Terms {
            community: None,
            wish: false,
            label: label.into(),
            ratings: String::new(),
        });
    };
    let seats = ByColor {
        white: me,
        black: opponent,
    };
    let ratings = format!(
        " Ratings ({}, {}): {}.",
        kind.title(),
        pool.name(),
        both_now(cx, &community, seats, kind, pool).await?
    );
    if asked == Some(false) {
        return Ok(Terms {
            community: Some(community),
            wish: false,
            label: "casual".into(),
            ratings,
        });
    }
    let today = rated_today(cx, &community, &me.id, &opponent.id, pool).await?;
    let label = if today >= RATED_PER_DAY {
        format!(
                "casual: you have played {RATED_PER_DAY} rated {} games against each other in the last 24 hours",
            pool.name()
        )
    } else {
        "rated".to_string()
    };
    Ok(Terms {
        community: Some(community),
        wish: true,
        label,
        ratings,
    })
}
