//! Voidmate, the chat bot: a platform-neutral core ([`game`]) and its
//! adapters: `console` (a terminal), `discord` and `matrix`.

pub mod adapter;
pub mod columns;
pub mod config;
pub mod console;
pub mod discord;
/// The core, its own crate (`voidmate-game`), under its old path.
pub use voidmate_game as game;
pub mod matrix;
pub mod secret;
pub mod variants;

/// What the machine's fonts cannot draw in captions, one sentence each with
/// the package to install: said once as the bot starts (`run`, `console`),
/// so that a `?` in a player's name on a board has its reason and its fix.
pub fn font_warnings() -> Vec<String> {
    voidmate_render::Renderer::shared()
        .missing_fonts()
        .into_iter()
        .map(|(what, package)| {
            format!(
                "this machine has no font for {what}: board captions show them as `?` (install it: apt-get install {package})"
            )
        })
        .collect()
}
