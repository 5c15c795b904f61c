//! `arbiter serve`: hand the database to the server (`arbiter-server`) until Ctrl-C.

use crate::error::CliError;
use crate::output;
use std::path::Path;
use std::process::ExitCode;

pub fn serve(
    db: &Path,
    listen: &str,
    token: Option<&str>,
    token_file: Option<&Path>,
) -> Result<ExitCode, CliError> {
    let config =
        arbiter_server::Config::new(db, listen, token, token_file).map_err(|e| CliError::input(e.0))?;
    let shown = db.display().to_string();
    let mut said = Ok(());
    arbiter_server::run(config, |addr| {
        said = output::print(&format!(
            "serving `{}` at http://{addr}/ (the API under /api); Ctrl-C stops\n",
            arbiter_verify::shown(&shown)
        ));
    })
    .map_err(|e| CliError::input(e.0).with_kind("io"))?;
    said?;
    Ok(ExitCode::SUCCESS)
}
