//! The one clock, and the two ways its time is written.
//!
//! Records (audit entries, workflow timestamps, session state) carry [`now`]: RFC 3339 in
//! UTC with milliseconds, which sorts as text and reads the same on every machine. File
//! names (backups, corrupt state kept aside) carry [`file_stamp`]: `YYYYmmddHHMMSS` in UTC,
//! the form `install.sh` uses too.

/// The current time for records: `2026-12-01T08:15:30.123Z`.
pub fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// The current time for file names: `20261201081530`.
pub fn file_stamp() -> String {
    chrono::Utc::now().format("%Y%m%d%H%M%S").to_string()
}
