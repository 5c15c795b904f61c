//! `arbiter record` at the table: a line editor (rustyline) over the recorder.
//!
//! Arrow keys edit the line and walk the session's history; Tab completes from the game's
//! notation (its event words, `Game::notation_summary`), the names a line may use now
//! (`Game::names`: the catalog's cards, the seats at the table) and the consequence the
//! rules require next (`Game::next_consequence`), which is also shown greyed after the cursor
//! as a hint (Right arrow takes it). `help` prints the notation, `board` the table, `undo`
//! retracts the last event, `quit` (or Ctrl-D, or Ctrl-C) ends, saying what was stored.
//! Several lines pasted at once are entered one by one, in order, as if typed.
//!
//! **History** is kept per session beside the database, never in it: `PATH.history/SESSION`
//! (`arbiter.db.history/friday`), one line a typed entry, appended as each is entered. It is
//! what was typed, mistakes included; the session is what was stored. Recording through a
//! server (`--server`), there is no database here: the history is kept in the user's state
//! directory instead (`crate::remote::history_path`).
//!
//! The editor works on any [`Recording`]: the journal's recorder, or a server's.

use super::recording::Recording;
use crate::error::CliError;
use crate::output;
use arbiter_verify::ErrorKind;
use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{Config, Context, Editor, Helper};
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The words the recorder itself reads, beside the game's events.
const COMMANDS: [&str; 4] = ["help", "board", "undo", "quit"];

/// What completion and hints offer, refreshed after every line.
#[derive(Debug, Default, Clone)]
pub struct Assist {
    /// The game's event words, then the recorder's commands.
    words: Vec<String>,
    /// Names a line may use now.
    names: Vec<String>,
    /// The consequence the rules require next, in notation.
    next: Option<String>,
    color: bool,
}

impl Assist {
    fn of(recorder: &dyn Recording, color: bool) -> Assist {
        let mut words = recorder.event_words();
        words.extend(COMMANDS.iter().map(|c| c.to_string()));
        Assist { words, names: recorder.names(), next: recorder.next_consequence(), color }
    }

    /// The completions of the line up to the cursor: where the replaced text starts, and the
    /// candidates. The rules' next consequence comes first (the rest of its line), then event
    /// words and commands for the first word, names for the others; once the words typed
    /// agree with the next consequence, the rest of it is the only candidate.
    pub fn candidates(&self, before: &str) -> (usize, Vec<Pair>) {
        let word_start = before.rfind(char::is_whitespace).map_or(0, |i| i + 1);
        let word = &before[word_start..];
        let done: Vec<&str> = before[..word_start].split_whitespace().collect();
        let mut out: Vec<Pair> = Vec::new();
        let mut add = |text: &str| {
            if !out.iter().any(|p| p.replacement == text) {
                out.push(Pair { display: text.to_string(), replacement: text.to_string() });
            }
        };
        if let Some(next) = &self.next {
            let tokens: Vec<&str> = next.split_whitespace().collect();
            if tokens.len() > done.len()
                && tokens[..done.len()] == done[..]
                && tokens[done.len()].starts_with(word)
            {
                add(&tokens[done.len()..].join(" "));
                // Past the first word the line agrees with what the rules require: that is
                // the one completion (a player who means another types it).
                if !done.is_empty() {
                    return (word_start, out);
                }
            }
        }
        let pool = if done.is_empty() { &self.words } else { &self.names };
        for w in pool.iter().filter(|w| w.starts_with(word)) {
            add(w);
        }
        (word_start, out)
    }
}

impl Completer for Assist {
    type Candidate = Pair;
    fn complete(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> rustyline::Result<(usize, Vec<Pair>)> {
        Ok(self.candidates(&line[..pos]))
    }
}

impl Hinter for Assist {
    type Hint = String;
    /// The rest of the rules' next consequence, while the line is a beginning of it.
    fn hint(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> Option<String> {
        let next = self.next.as_ref()?;
        if pos < line.len() {
            return None;
        }
        let rest = next.strip_prefix(line.trim_start())?;
        (!rest.is_empty()).then(|| rest.to_string())
    }
}

impl Highlighter for Assist {
    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.color {
            let dim = anstyle::Style::new().dimmed();
            Cow::Owned(format!("{dim}{hint}{dim:#}"))
        } else {
            Cow::Borrowed(hint)
        }
    }
    fn highlight_char(&self, _line: &str, _pos: usize, _kind: CmdKind) -> bool {
        false
    }
}

impl Validator for Assist {}
impl Helper for Assist {}

/// The history file of a session.
pub fn history_path(db: &Path, session: &str) -> PathBuf {
    super::beside(db, ".history").join(session)
}

/// What this sitting stored, for the word on leaving.
#[derive(Default)]
struct Sitting {
    /// The records stored, in order.
    stored: Vec<u64>,
    /// Lines typed but not stored (cannot be read or applied, refused by --strict).
    not_stored: usize,
    broke_a_rule: bool,
}

/// How the sitting ended.
enum Leaving {
    Quit,
    EndOfInput,
    Interrupted,
}

pub fn record_at_the_table(
    history: Option<&Path>,
    session: &str,
    strict: bool,
    recorder: &mut dyn Recording,
) -> Result<ExitCode, CliError> {
    let color = output::colored();
    let config = Config::builder()
        .auto_add_history(false)
        .history_ignore_space(true)
        .completion_type(rustyline::CompletionType::List)
        .bell_style(rustyline::config::BellStyle::None)
        .color_mode(if color { rustyline::ColorMode::Enabled } else { rustyline::ColorMode::Disabled })
        .behavior(rustyline::Behavior::PreferTerm)
        .build();
    let mut editor: Editor<Assist, DefaultHistory> =
        Editor::with_config(config).map_err(|e| CliError::input(format!("cannot use the terminal: {e}")))?;
    editor.set_helper(Some(Assist::of(recorder, color)));
    // A missing history (the first sitting) is normal; an unreadable one only costs recall.
    if let Some(history) = history {
        let _ = editor.load_history(history);
    }
    let first = recorder.len();
    output::print(&format!(
        "recording `{session}` ({}), {first} records so far: one event a line. Tab completes, `help` shows the notation, `board` the table, `undo` retracts the last event, `quit` or Ctrl-D ends.\n",
        recorder.game(),
    ))?;
    let mut sitting = Sitting::default();
    let leaving = 'sitting: loop {
        let prompt = format!("{session} #{}> ", recorder.len());
        let entry = match editor.readline(&prompt) {
            Ok(entry) => entry,
            Err(ReadlineError::Eof) => break Leaving::EndOfInput,
            Err(ReadlineError::Interrupted) => break Leaving::Interrupted,
            Err(ReadlineError::Signal(_)) => continue,
            Err(e) => return Err(CliError::input(format!("cannot read the terminal: {e}"))),
        };
        // A paste of several lines arrives as one entry with its line breaks (bracketed
        // paste; a terminal may send its breaks as CR): each line is entered on its own, in
        // order, as if typed one after another.
        let mut lines =
            entry.split(['\n', '\r']).filter(|l| !l.split('#').next().unwrap_or("").trim().is_empty());
        while let Some(line) = lines.next() {
            if editor.add_history_entry(line).unwrap_or(false) {
                if let Some(history) = history {
                    keep_history(&mut editor, history);
                }
            }
            let text = line.split('#').next().unwrap_or("").trim();
            if matches!(text, "quit" | "exit") {
                let unread = lines.count();
                if unread > 0 {
                    sitting.not_stored += unread;
                    eprintln!("{unread} pasted line(s) after `{text}` were not read");
                }
                break 'sitting Leaving::Quit;
            }
            if let Err(e) = enter(recorder, text, strict, &mut sitting) {
                output::print(&goodbye(session, &sitting, recorder.len(), "stopped"))?;
                return Err(e);
            }
            if let Some(assist) = editor.helper_mut() {
                *assist = Assist::of(recorder, color);
            }
        }
    };
    // The editor ends the prompt's line itself, Ctrl-D and Ctrl-C included, and the word
    // below ends with a line break: the shell's next prompt starts on a line of its own.
    let how = match leaving {
        Leaving::Quit | Leaving::EndOfInput => "done",
        Leaving::Interrupted => "interrupted",
    };
    output::print(&goodbye(session, &sitting, recorder.len(), how))?;
    Ok(if sitting.broke_a_rule { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// Enter one line of the sitting (not `quit`): a recorder command, or an event recorded.
/// A line that costs only itself (unreadable, not applicable, refused, a busy database) is
/// said and counted; an error of the journal itself ends the sitting.
fn enter(
    recorder: &mut dyn Recording,
    text: &str,
    strict: bool,
    sitting: &mut Sitting,
) -> Result<(), CliError> {
    match text {
        "help" => return output::print(&help(recorder)),
        "board" => {
            // A board a server could not send costs only the board, as a bad line does.
            match recorder.board() {
                Ok(board) => output::print(&format!("board:\n{board}"))?,
                Err(e) => eprintln!("{}", arbiter_verify::escape_controls(&e.message, false)),
            }
            return Ok(());
        }
        _ => {}
    }
    let result = if text == "undo" { recorder.undo() } else { recorder.submit(text, strict) };
    match result {
        Ok(submitted) => {
            sitting.broke_a_rule |= !submitted.violations.is_empty() || submitted.error.is_some();
            if submitted.written {
                sitting.stored.push(submitted.record.index);
            } else {
                sitting.not_stored += 1;
            }
            output::print(&submitted.to_string())?;
        }
        // At the table a busy database (another command holding it for a moment) or a
        // mistyped line costs only that line: say so and let the player type it again.
        Err(e) if e.kind == ErrorKind::Busy => {
            sitting.not_stored += 1;
            eprintln!(
                "{}; the line was not recorded: type it again",
                arbiter_verify::escape_controls(&e.message, false)
            )
        }
        Err(e) if e.kind != ErrorKind::Journal => {
            sitting.not_stored += 1;
            eprintln!("{}", arbiter_verify::escape_controls(&e.message, false))
        }
        Err(e) => return Err(e.into()),
    }
    Ok(())
}

/// Append the newest history entry to the session's history file.
fn keep_history(editor: &mut Editor<Assist, DefaultHistory>, path: &Path) {
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    // Recall is a convenience: a history that cannot be written never stops recording.
    let _ = editor.append_history(path);
}

/// `help`: the game's notation and the recorder's own words.
fn help(recorder: &dyn Recording) -> String {
    let summary = recorder.notation_summary();
    let mut out = if summary.is_empty() {
        format!(
            "{} gives no summary of its notation: docs/notation/{}.md has it.\n",
            recorder.game(),
            recorder.game()
        )
    } else {
        format!("{} notation (docs/notation/{}.md has all of it):\n", recorder.game(), recorder.game())
            + &summary.lines().map(|l| format!("  {l}\n")).collect::<String>()
    };
    out.push_str(
        "recorder: `help` this text, `board` the table, `undo` retracts the last event, `quit` (or Ctrl-D) ends; `# ...` is a comment.\n",
    );
    if let Some(next) = recorder.next_consequence() {
        out.push_str(&format!("next, the rules require: {next}\n"));
    }
    out
}

/// The word on leaving: what this sitting stored, and that it is all safe.
fn goodbye(session: &str, sitting: &Sitting, len: u64, how: &str) -> String {
    let stored = match sitting.stored.as_slice() {
        [] => "nothing was recorded this time".to_string(),
        records => format!(
            "{} record(s) stored this time (#{}), each acknowledged as it was typed",
            records.len(),
            super::recording::ranges(records.iter().copied()).replace(", ", ", #")
        ),
    };
    let refused = match sitting.not_stored {
        0 => String::new(),
        n => format!("; {n} line(s) not stored"),
    };
    format!("{how}: {stored}{refused}; `{session}` holds {len} records\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assist(next: Option<&str>) -> Assist {
        Assist {
            words: ["roll", "reroll", "recover", "wound", "help", "quit"].map(String::from).to_vec(),
            names: ["net-thrower", "pit-brawler"].map(String::from).to_vec(),
            next: next.map(str::to_string),
            color: false,
        }
    }

    fn offered(a: &Assist, before: &str) -> (usize, Vec<String>) {
        let (start, pairs) = a.candidates(before);
        (start, pairs.into_iter().map(|p| p.replacement).collect())
    }

    #[test]
    fn the_first_word_completes_from_the_notation_and_the_rules_next_consequence() {
        let a = assist(Some("wound 2 exhaust w"));
        assert_eq!(
            offered(&a, ""),
            (
                0,
                ["wound 2 exhaust w", "roll", "reroll", "recover", "wound", "help", "quit"]
                    .map(String::from)
                    .to_vec()
            )
        );
        assert_eq!(offered(&a, "re"), (0, vec!["reroll".to_string(), "recover".to_string()]));
        assert_eq!(offered(&a, "w"), (0, vec!["wound 2 exhaust w".to_string(), "wound".to_string()]));
        assert_eq!(offered(&a, "wound 2 e"), (8, vec!["exhaust w".to_string()]));
        assert_eq!(offered(&a, "wound 2 "), (8, vec!["exhaust w".to_string()]), "the rules' answer alone");
        assert_eq!(offered(&a, "wound 3 "), (8, vec!["net-thrower".to_string(), "pit-brawler".to_string()]));
        assert_eq!(offered(&a, "draw 1 p"), (7, vec!["pit-brawler".to_string()]));
        assert_eq!(offered(&assist(None), "x"), (0, Vec::<String>::new()));
    }

    #[test]
    fn the_hint_is_the_rest_of_the_next_consequence() {
        let a = assist(Some("hold 4"));
        let history = DefaultHistory::new();
        let ctx = Context::new(&history);
        assert_eq!(a.hint("", 0, &ctx).as_deref(), Some("hold 4"));
        assert_eq!(a.hint("ho", 2, &ctx).as_deref(), Some("ld 4"));
        assert_eq!(a.hint("up", 2, &ctx), None);
        assert_eq!(a.hint("hold 4", 6, &ctx), None);
        assert_eq!(a.hint("ho", 1, &ctx), None, "no hint with the cursor inside the line");
    }

    #[test]
    fn the_word_on_leaving_says_what_was_stored() {
        let sitting = Sitting { stored: vec![16, 17, 18, 20], not_stored: 1, broke_a_rule: false };
        assert_eq!(
            goodbye("friday", &sitting, 21, "done"),
            "done: 4 record(s) stored this time (#16-18, #20), each acknowledged as it was typed; 1 line(s) not stored; `friday` holds 21 records\n"
        );
        assert_eq!(
            goodbye("friday", &Sitting::default(), 16, "interrupted"),
            "interrupted: nothing was recorded this time; `friday` holds 16 records\n"
        );
    }
}
