//! `arbiter verify --all` through the server: every session of the database it holds
//! audited, compared with the verdicts of the previous audit and (unless told not to) those
//! verdicts replaced, in the file the command line keeps beside the same database
//! (`arbiter_verify::verdicts_path`), so an audit here and one through the server compare
//! with each other.
//!
//! Saving the verdicts writes a file, so it takes the token as every write does; an audit
//! that keeps them (`save: false`, `--no-save`) only reads. The answer carries what the
//! command prints, its exit status and, when asked, the JUnit report the client writes
//! where its `--junit FILE` says (a file stays on the machine that names it).

use crate::app::{blocking, Shared};
use crate::error::ApiError;
use crate::extract::{JsonBody, Params};
use crate::guard::Authorized;
use arbiter_verify::{AuditOptions, Context, Verdicts};
use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditBody {
    /// `NAME=VALUE` interpretations replayed under (`--variant`).
    #[serde(default)]
    pub variants: Vec<String>,
    #[serde(default)]
    pub strict: bool,
    /// Replace the stored verdicts with this audit's (the command line's default).
    #[serde(default = "yes")]
    pub save: bool,
    /// Print the report as JSON (`--json`, schemas/audit.json).
    #[serde(default)]
    pub json: bool,
    /// Also answer the JUnit report (`--junit FILE`).
    #[serde(default)]
    pub junit: bool,
}

fn yes() -> bool {
    true
}

/// What `verify --all` prints and writes.
#[derive(Debug, Serialize)]
pub struct Audited {
    /// What the command prints on standard output.
    pub stdout: String,
    /// What it prints on standard error (warnings), without the `arbiter: ` prefix.
    pub stderr: Vec<String>,
    /// The JUnit report, when asked for.
    pub junit: Option<String>,
    /// The command's exit status.
    pub exit_code: i32,
}

/// `arbiter verify --all`.
pub async fn audit(
    State(app): State<Shared>,
    authorized: Result<Authorized, ApiError>,
    params: Params,
    JsonBody(body): JsonBody<AuditBody>,
) -> Result<Json<Audited>, ApiError> {
    params.only(&[])?;
    if body.save {
        authorized?;
    }
    let variants = arbiter_verify::parse_variants(&body.variants)?;
    blocking(move || {
        let ctx = Context::new(&app.journal);
        let path = arbiter_verify::verdicts_path(&app.db_path);
        let mut stderr = Vec::new();
        let previous = arbiter_verify::load_verdicts(&path).unwrap_or_else(|warning| {
            stderr.push(format!("warning: {warning}"));
            Verdicts::new()
        });
        let options = AuditOptions { variants, strict: body.strict };
        let report = arbiter_verify::audit(&ctx, &options, &previous, &|_| {})?;
        let junit = body.junit.then(|| arbiter_verify::audit_junit(&report));
        if body.save {
            arbiter_verify::save_verdicts(&path, &report.verdicts(&previous))?;
        }
        let mut stdout = if body.json {
            let text = serde_json::to_string_pretty(&report)
                .map_err(|e| ApiError::internal(format!("could not write the report as JSON: {e}")))?;
            format!("{text}\n")
        } else {
            report.to_string()
        };
        if !body.json && !body.save {
            stdout.push_str("(--no-save: the stored verdicts were kept as they were)\n");
        }
        Ok(Json(Audited { stdout, stderr, junit, exit_code: report.exit_code }))
    })
    .await
}
