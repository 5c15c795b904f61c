//! The machine a run measured: what the numbers mean nothing without.

use std::process::Command;

/// `nproc`, the CPU model, rustc's version and the date, one `key: value` a line.
pub fn describe() -> Vec<(&'static str, String)> {
    let nproc = std::thread::available_parallelism().map(|n| n.to_string()).unwrap_or_else(|_| "?".into());
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into());
    let mem = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| s.lines().next().map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>().join(" ")))
        .unwrap_or_else(|| "unknown".into());
    vec![
        ("nproc", nproc),
        ("cpu", cpu),
        ("memory", mem),
        ("rustc", output("rustc", &["--version"])),
        ("date", output("date", &["-u", "+%Y-%m-%d %H:%M:%S UTC"])),
        ("kernel", output("uname", &["-sr"])),
    ]
}

fn output(cmd: &str, args: &[&str]) -> String {
    Command::new(cmd)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into())
}
