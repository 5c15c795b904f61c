//! `games` and `rules`: what the engine knows, straight from the kernel's catalogs.

use crate::error::CliError;
use crate::output;
use arbiter_engine::{dispatch, game_ids, games as all_games, Game, GameVisitor, ParamKind};
use std::process::ExitCode;

/// The games, as text or as JSON (`schemas/games.json`: `{"games": [{id, name,
/// rules_version, rulebook}]}`).
pub fn games(json: bool) -> Result<ExitCode, CliError> {
    if json {
        let games: Vec<_> = all_games()
            .iter()
            .map(|g| {
                serde_json::json!({
                    "id": g.id, "name": g.name, "rules_version": g.rules_version, "rulebook": g.rulebook,
                })
            })
            .collect();
        output::print_json(&format!("{:#}\n", serde_json::json!({ "games": games })))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = String::new();
    for g in all_games() {
        text.push_str(&format!(
            "{:<18} {} (rules version {}, rulebook {})\n",
            g.id, g.name, g.rules_version, g.rulebook
        ));
    }
    output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}

pub fn rules(game: &str, json: bool) -> Result<ExitCode, CliError> {
    let text = dispatch(game, RulesText { json }).ok_or_else(|| unknown_game(game))?;
    if json {
        output::print_json(&text)?;
    } else {
        output::print(&text)?;
    }
    Ok(ExitCode::SUCCESS)
}

pub fn unknown_game(game: &str) -> CliError {
    CliError::input(format!(
        "unknown game `{}` (known games: {})",
        arbiter_verify::shown(game),
        game_ids().join(", ")
    ))
    .with_kind("unknown-game")
}

/// A parameter's accepted values for `rules --json`: the closed list (`allowed`), or, for a
/// parameter that takes any value the game checks itself, a description (`accepts`), never
/// the two mixed in one array.
fn accepted(allowed: &[&str]) -> (Option<Vec<String>>, Option<String>) {
    match allowed.first() {
        None => (None, Some("any value".to_string())),
        Some(first) if first.starts_with('<') => {
            (None, Some(first.trim_start_matches('<').trim_end_matches('>').to_string()))
        }
        Some(_) => (Some(allowed.iter().map(|s| s.to_string()).collect()), None),
    }
}

struct RulesText {
    json: bool,
}

impl GameVisitor for RulesText {
    type Output = String;
    fn visit<G: Game>(self) -> String {
        let info = G::info();
        if self.json {
            let rules: Vec<_> = G::rules()
                .iter()
                .map(|r| serde_json::json!({"id": r.id, "text": r.text, "section": r.section}))
                .collect();
            let params: Vec<_> = G::params()
                .iter()
                .map(|p| {
                    let (allowed, accepts) = accepted(p.allowed);
                    serde_json::json!({
                        "name": p.name,
                        "kind": match p.kind { ParamKind::Setup => "setup", ParamKind::Interpretation => "interpretation" },
                        "allowed": allowed, "accepts": accepts, "default": p.default, "doc": p.doc, "section": p.section,
                    })
                })
                .collect();
            let doc = serde_json::json!({
                "game": info.id, "name": info.name, "rules_version": info.rules_version,
                "rulebook": info.rulebook, "rules": rules, "params": params,
            });
            return format!("{doc:#}\n");
        }
        let mut out = format!(
            "{} ({}), rules version {}; sections refer to {}\n\nRules\n",
            info.name, info.id, info.rules_version, info.rulebook
        );
        for r in G::rules() {
            out.push_str(&format!("  {:<44} {}  [{}]\n", r.id, r.text, r.section));
        }
        for (kind, title) in
            [(ParamKind::Setup, "Setup parameters"), (ParamKind::Interpretation, "Interpretations")]
        {
            out.push_str(&format!("\n{title}\n"));
            for p in G::params().iter().filter(|p| p.kind == kind) {
                out.push_str(&format!(
                    "  {}={}  (allowed: {})  [{}]\n      {}\n",
                    p.name,
                    p.default,
                    p.allowed.join(", "),
                    p.section,
                    p.doc
                ));
            }
        }
        out
    }
}
