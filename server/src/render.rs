//! Reports written exactly as the command line writes them: `format=json` is the bytes of
//! the command's `--json` output, `format=text` the bytes it prints for people, and the
//! `Arbiter-Exit-Code` header its exit status. A client that prints the body and exits with
//! the header (`arbiter --server URL ...`) is indistinguishable from a local run.

use crate::error::ApiError;
use crate::extract::Format;
use arbiter_verify::{
    escape_controls, Context, Finding, FindingSink, LogEntry, LogReport, LogSink, Source, VerifyError,
    VerifyOptions, VerifyReport,
};
use axum::http::{header, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::fmt::Display;

/// The header carrying the command's exit status (0 clean, 1 findings or a split).
pub const EXIT_HEADER: HeaderName = HeaderName::from_static("arbiter-exit-code");

/// A command's output and exit status.
#[derive(Debug, Clone)]
pub struct Rendered {
    pub body: String,
    pub exit: i32,
    pub format: Format,
}

impl Rendered {
    pub fn text(body: String, exit: i32) -> Rendered {
        Rendered { body: escape_controls(&body, true).into_owned(), exit, format: Format::Text }
    }
}

impl IntoResponse for Rendered {
    fn into_response(self) -> Response {
        let kind = match self.format {
            Format::Json => "application/json",
            Format::Text => "text/plain; charset=utf-8",
        };
        let mut response = (StatusCode::OK, self.body).into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
        headers.insert(EXIT_HEADER, HeaderValue::from(self.exit));
        response
    }
}

/// A whole report: pretty JSON, or its `Display`.
pub fn report<T: Serialize + Display>(report: &T, format: Format, exit: i32) -> Result<Rendered, ApiError> {
    match format {
        Format::Json => {
            let text = serde_json::to_string_pretty(report)
                .map_err(|e| ApiError::internal(format!("could not write the report as JSON: {e}")))?;
            Ok(Rendered { body: format!("{text}\n"), exit, format })
        }
        Format::Text => Ok(Rendered::text(report.to_string(), exit)),
    }
}

/// Collects a streamed `verify` as the command line prints it.
struct VerifyText {
    out: String,
    json: bool,
    findings: u64,
    head_written: bool,
}

impl FindingSink for VerifyText {
    fn head(&mut self, report: &VerifyReport) -> Result<(), VerifyError> {
        self.head_written = true;
        self.out.push_str(&if self.json { report.json_head() } else { report.head_text() });
        Ok(())
    }

    fn finding(&mut self, finding: &Finding) -> Result<(), VerifyError> {
        if self.json {
            self.out.push_str(if self.findings == 0 { "\n" } else { ",\n" });
            self.out.push_str(&serde_json::to_string(finding).unwrap_or_default());
        } else {
            self.out.push_str(&finding.to_string());
        }
        self.findings += 1;
        Ok(())
    }
}

/// `arbiter verify`.
pub fn verify(
    ctx: &Context<'_>,
    source: &Source,
    options: &VerifyOptions,
    format: Format,
) -> Result<Rendered, ApiError> {
    let json = format == Format::Json;
    let mut sink = VerifyText { out: String::new(), json, findings: 0, head_written: false };
    match arbiter_verify::verify_streaming(ctx, source, options, &mut sink) {
        Ok(report) => {
            if json {
                sink.out.push_str(&format!("\n{}\n", report.json_tail()));
                Ok(Rendered { body: sink.out, exit: report.exit_code, format })
            } else {
                sink.out.push_str(&report.tail_text());
                Ok(Rendered::text(sink.out, report.exit_code))
            }
        }
        Err(e) => {
            let error = ApiError::from(e);
            if !sink.head_written {
                return Err(error);
            }
            // The command line closes a started JSON document with the error; so does this.
            if json {
                let fatal = serde_json::json!({ "error": crate::error::one_sentence(&error.message), "kind": error.kind, "exit_code": 2 });
                sink.out.push_str(&format!("\n],\"fatal\":{fatal},\"exit_code\":2}}\n"));
            }
            Err(error.with_partial(sink.out))
        }
    }
}

/// Collects `arbiter log` as the command line prints it.
struct LogText {
    out: String,
    json: bool,
    entries: u64,
    head_written: bool,
}

impl LogSink for LogText {
    fn head(&mut self, report: &LogReport) -> Result<(), VerifyError> {
        if self.json {
            self.head_written = true;
            let head = serde_json::json!({ "source": report.source, "game": report.game }).to_string();
            self.out.push_str(&format!("{},\"entries\":[", head.strip_suffix('}').unwrap_or(&head)));
        }
        Ok(())
    }

    fn entry(&mut self, entry: &LogEntry) -> Result<(), VerifyError> {
        if self.json {
            self.out.push_str(if self.entries == 0 { "\n" } else { ",\n" });
            self.out.push_str(&serde_json::to_string(entry).unwrap_or_default());
        } else {
            self.out.push_str(&entry.line_text());
        }
        self.entries += 1;
        Ok(())
    }
}

/// `arbiter log`.
pub fn log(ctx: &Context<'_>, source: &Source, format: Format) -> Result<Rendered, ApiError> {
    let json = format == Format::Json;
    let mut sink = LogText { out: String::new(), json, entries: 0, head_written: false };
    match arbiter_verify::log_streaming(ctx, source, &mut sink) {
        Ok(_) if json => {
            sink.out.push_str("\n]}\n");
            Ok(Rendered { body: sink.out, exit: 0, format })
        }
        Ok(_) => Ok(Rendered::text(sink.out, 0)),
        Err(e) => {
            let error = ApiError::from(e);
            if json && sink.head_written {
                let fatal = serde_json::json!({ "error": crate::error::one_sentence(&error.message), "kind": error.kind, "exit_code": 2 });
                sink.out.push_str(&format!("\n],\"fatal\":{fatal}}}\n"));
                return Err(error.with_partial(sink.out));
            }
            if sink.out.is_empty() {
                Err(error)
            } else {
                Err(error.with_partial(sink.out))
            }
        }
    }
}
