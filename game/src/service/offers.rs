//! Offers between players: draws, claims and takebacks.

use super::*;

impl Core {
    pub(super) async fn draw(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &Player,
        answer: Answer,
        game: GameRef,
    ) -> Result<Done, Failure> {
        let g = self.pick(tx, ch, me, game, true).await?;
        let color = g.player_color(&me.id).expect("own game");
        let opponent = g.player(!color);
        if self.is_bot(opponent.id.as_str()) {
            return refuse(format!(
                "I play game #{} to the end: no draw offers. You may `resign`.",
                g.row.id
            ));
        }
        let standing = g.row.draw_offer_ply == Some(g.ply());
        let offer_by = g.row.draw_offer_by.clone().filter(|_| standing);
        let id = g.row.id;
        match (answer, offer_by.as_deref()) {
            (Answer::Ask, Some(by)) if by == opponent.id.as_str() => {
                self.agree_draw(tx, ch, id, me, opponent).await
            }
            (Answer::Ask, Some(_)) => {
                refuse("You have already offered a draw; it stands until the next move.")
            }
            (Answer::Ask, None) => {
                store::set_request(tx, id, Request::Draw, Some(me.id.as_str()), g.ply()).await?;
                Ok(Done {
                    engine: None,
                    deliveries: Vec::new(),
                    direct: None,
                    thread: None,
                    text: format!(
                        "{me} offers a draw in game #{id}. {opponent}: {}.",
                        self.how_to_answer(opponent.id.platform(), "draw accept", "draw decline")
                    )
                    .into(),
                    picture: None,
                    actions: vec![Action::AnswerDraw {
                        game: id,
                        to: opponent.id.clone(),
                    }],
                    notify: vec![opponent],
                })
            }
            (Answer::Accept, Some(by)) if by == opponent.id.as_str() => {
                self.agree_draw(tx, ch, id, me, opponent).await
            }
            (Answer::Decline, Some(by)) if by == opponent.id.as_str() => {
                store::set_request(tx, id, Request::Draw, None, g.ply()).await?;
                Ok(Done {
                    engine: None,
                    deliveries: Vec::new(),
                    direct: None,
                    thread: None,
                    text: format!("{me} declines the draw in game #{id}.").into(),
                    picture: None,
                    notify: vec![opponent],
                    actions: Vec::new(),
                })
            }
            _ => refuse(format!(
                "There is no draw offer from {opponent} to answer in game #{id}."
            )),
        }
    }

    /// A draw claimed under the rules of the game (Chess 99).
    pub(super) async fn claim(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &Player,
        text: Option<String>,
        game: GameRef,
    ) -> Result<Done, Failure> {
        let g = self.pick(tx, ch, me, game, true).await?;
        let color = g.player_color(&me.id).expect("own game");
        let id = g.row.id;
        if g.pos.turn() != color {
            return refuse(format!(
                "It is not your turn in game #{id}: a draw is claimed by the player to move."
            ));
        }
        match g.pos.claimable_draw() {
            None => match g.kind() {
                GameKind::Super16 => refuse(format!(
                    "There is no draw to claim in game #{id}: in Super Chess 16x16 you may claim once 100 moves each have passed without a capture or pawn move."
                )),
                GameKind::Chess99 => refuse(format!(
                    "There is no draw to claim in game #{id}: in Chess 99 you may claim when both kings are attacked, or once your opponent has made 99 moves."
                )),
                GameKind::Standard
                | GameKind::Void
                | GameKind::Antichess
                | GameKind::SuicideVoid
                | GameKind::SuicideVoidPromotionWins
                | GameKind::BlackHoles => refuse(format!(
                    "There is nothing to claim in game #{id}: draws by repetition and the 50-move rule come by themselves here. To propose a draw, say `draw`."
                )),
            },
            Some(DrawReason::BothKingsAttacked) => {
                store::finish(tx, id, "1/2-1/2", "both kings attacked (claimed)").await?;
                Ok(Done::text(format!(
                    "{me} claims a draw in game #{id}: both kings are attacked. Drawn (1/2-1/2)."
                )))
            }
            Some(DrawReason::NinetyNineMoves) => {
                let Some(text) = text else {
                    return refuse(
                        "Claim the 99-move draw together with your move, like `claim Ke2`: the draw stands if that move leaves your king safe."
                    );
                };
                let mv = g
                    .pos
                    .parse_move(&text)
                    .map_err(|e| Failure::User(format!("{e}.")))?;
                let after = g.pos.after(&mv);
                let exposed = after
                    .board()
                    .king(color)
                    .is_some_and(|k| after.is_attacked(k, !color));
                if exposed {
                    return refuse(format!(
                        "{} leaves your king attacked, so the 99-move draw cannot be claimed with it. Nothing was played.",
                        g.pos.san(&mv)
                    ));
                }
                let san = g.pos.san(&mv);
                let mut done = self.play(tx, ch, me, g, &text, None).await?;
                if after.outcome().is_none() {
                    let result = "1/2-1/2 99-move rule (claimed)";
                    store::finish(tx, id, "1/2-1/2", "99-move rule (claimed)").await?;
                    done.text = format!(
                        "#{id}: {me} played {san} and claims the 99-move draw. Drawn (1/2-1/2)."
                    )
                    .into();
                    done.notify.clear();
                    if let Some(p) = done.picture.as_mut() {
                        if let Some(c) = p.opts.caption.as_mut() {
                            c.status = result.into();
                        }
                        if let Some(card) = p.board.as_mut() {
                            card.to_move = None;
                            card.result = Some(result.into());
                        }
                    }
                }
                Ok(done)
            }
            Some(reason) => {
                // What the game's own words are for it: "claimed under the 100-move rule".
                let words = reason.words();
                store::finish(tx, id, "1/2-1/2", words).await?;
                Ok(Done::text(format!(
                    "{me} claims a draw in game #{id}: {words}. Drawn (1/2-1/2)."
                )))
            }
        }
    }

    /// Both agree: the game ends drawn, with its final board, and the one
    /// who offered hears of it.
    pub(super) async fn agree_draw(
        &self,
        tx: &mut Tx,
        ch: &str,
        id: i64,
        me: &Player,
        opponent: Player,
    ) -> Result<Done, Failure> {
        store::finish(tx, id, "1/2-1/2", "agreement").await?;
        let text = format!("Game #{id} is drawn by agreement (1/2-1/2).");
        Ok(Done {
            notify: vec![opponent],
            ..self.final_board(tx, ch, id, me, text).await?
        })
    }

    pub(super) async fn undo(
        &self,
        tx: &mut Tx,
        ch: &str,
        me: &Player,
        answer: Answer,
        game: GameRef,
    ) -> Result<Done, Failure> {
        let mut g = self.pick(tx, ch, me, game, true).await?;
        let color = g.player_color(&me.id).expect("own game");
        let opponent = g.player(!color);
        if self.is_bot(opponent.id.as_str()) {
            return refuse(format!(
                "I do not take moves back in game #{}: play on, or `resign` and challenge me again.",
                g.row.id
            ));
        }
        let id = g.row.id;
        let standing = g.row.undo_ply == Some(g.ply());
        let request_by = g.row.undo_by.clone().filter(|_| standing);
        // Every arm but an answer to the opponent's request returns here.
        match (&answer, request_by.as_deref()) {
            (Answer::Ask | Answer::Accept, Some(by)) if by == opponent.id.as_str() => {}
            (Answer::Ask, Some(_)) => {
                return refuse(
                    "You have already asked to take back the last move; wait for an answer.",
                )
            }
            (Answer::Ask, None) => {
                let n = takeback_plies(&g, color);
                if n == 0 {
                    return refuse(format!("You have no move to take back in game #{id} yet."));
                }
                store::set_request(tx, id, Request::Undo, Some(me.id.as_str()), g.ply()).await?;
                let what = match taken_back(&g, n).as_slice() {
                    [mine] => mine.clone(),
                    [mine, reply] => format!("{mine} and {opponent}'s reply {reply}"),
                    _ => "the last moves".to_string(),
                };
                return Ok(Done {
                    engine: None,
                    deliveries: Vec::new(),
                    direct: None,
                    thread: None,
                    text: format!(
                        "{me} asks to take back {what} in game #{id}. {opponent}: {}.",
                        self.how_to_answer(opponent.id.platform(), "undo accept", "undo decline")
                    )
                    .into(),
                    picture: None,
                    actions: vec![Action::AnswerUndo {
                        game: id,
                        to: opponent.id.clone(),
                    }],
                    notify: vec![opponent],
                });
            }
            (Answer::Decline, Some(by)) if by == opponent.id.as_str() => {
                store::set_request(tx, id, Request::Undo, None, g.ply()).await?;
                return Ok(Done {
                    engine: None,
                    deliveries: Vec::new(),
                    direct: None,
                    thread: None,
                    text: format!("{me} declines the takeback in game #{id}.").into(),
                    picture: None,
                    notify: vec![opponent],
                    actions: Vec::new(),
                });
            }
            _ => {
                return refuse(format!(
                    "There is no takeback request from {opponent} to answer in game #{id}."
                ))
            }
        };
        // Rebuild the position without the requester's last move (and the
        // reply to it, if the request came on their turn).
        let n = takeback_plies(&g, !color);
        let gone = taken_back(&g, n);
        if gone.is_empty() {
            return refuse(format!("There is no move to take back in game #{id}."));
        }
        g.moves.truncate(g.moves.len() - gone.len());
        let mut pos = Position::from_fen(g.pos.shared_rules().clone(), &g.row.start_fen)
            .expect("loaded before");
        let mut prev = None;
        for m in &g.moves {
            let mv = pos.parse_move(&m.coordinate).expect("replayed before");
            pos.play_unchecked(&mv);
            prev = Some((mv.from, mv.to));
        }
        if !store::take_back_to(tx, &g.row, g.moves.len() as i64, &pos.fen()).await? {
            return refuse(format!(
                "Game #{id} changed meanwhile; look at the `board` and try again."
            ));
        }
        g.pos = pos;
        g.last = prev;
        let next = g.player(g.pos.turn());
        let picture = self.picture(tx, ch, &g, &me.id, None).await?;
        Ok(Done {
            engine: None,
            deliveries: Vec::new(),
            direct: None,
            thread: None,
            text: format!(
                "{} {} taken back in game #{id}. {next}, your move.",
                gone.join(" and "),
                if gone.len() == 1 { "is" } else { "are" }
            )
            .into(),
            picture: Some(picture),
            notify: vec![next],
            actions: Vec::new(),
        })
    }
}

/// How many plies a takeback asked by `requester` removes: their last move,
/// and the opponent's reply when the request comes on their own turn (what
/// players mean by "take back my move"). 0 when they have not moved yet.
fn takeback_plies(g: &Game, requester: Color) -> usize {
    let n = if g.pos.turn() == requester { 2 } else { 1 };
    if g.moves.len() >= n {
        n
    } else {
        0
    }
}

/// The last `n` moves, oldest first.
fn taken_back(g: &Game, n: usize) -> Vec<String> {
    g.moves[g.moves.len() - n.min(g.moves.len())..]
        .iter()
        .map(|m| m.san.clone())
        .collect()
}
