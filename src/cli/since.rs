//! `--since`: where the part of the log that `report` and `suggest` read starts.

use anyhow::Result;
use chrono::{DateTime, NaiveDate, SecondsFormat, Utc};

use super::usage;

/// The start of `--since`: `7d` (the last 7 days: today and the 6 before, from midnight
/// UTC), `12h` (hours back from now), or a day `2026-12-01` (from its midnight, UTC). An
/// RFC 3339 time.
pub fn parse_since(text: &str, now: DateTime<Utc>) -> Result<String> {
    let wrong = |why: &str| -> Result<String> {
        Err(usage(format!("--since {text:?}: {why}; give a number of days (`7d`), of hours (`12h`) or a day (`2026-12-01`)")))
    };
    let t = text.trim();
    if let Ok(day) = NaiveDate::parse_from_str(t, "%Y-%m-%d") {
        return Ok(format!("{}T00:00:00.000Z", day.format("%Y-%m-%d")));
    }
    let (number, unit) = t.split_at(t.len().saturating_sub(1));
    let hours_per = match unit {
        "d" => 24,
        "h" => 1,
        _ if t.contains('-') => return wrong("not a day of the form YYYY-MM-DD"),
        _ => return wrong("not a duration or a day"),
    };
    let n: i64 = match number.parse() {
        Ok(n) if n >= 1 => n,
        Ok(_) => return wrong("the duration must be at least 1"),
        Err(_) => return wrong("the number before the unit is not a whole number"),
    };
    if unit == "d" {
        // N dates, today the last.
        let Some(day) =
            chrono::TimeDelta::try_days(n - 1).and_then(|d| now.date_naive().checked_sub_signed(d))
        else {
            return wrong("the duration is too long");
        };
        return Ok(format!("{}T00:00:00.000Z", day.format("%Y-%m-%d")));
    }
    let Some(start) = n
        .checked_mul(hours_per)
        .and_then(chrono::TimeDelta::try_hours)
        .and_then(|d| now.checked_sub_signed(d))
    else {
        return wrong("the duration is too long");
    };
    Ok(start.to_rfc3339_opts(SecondsFormat::Millis, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn since() {
        let now = DateTime::parse_from_rfc3339("2026-12-08T12:00:00Z")
            .expect("time")
            .with_timezone(&Utc);
        let ok = [
            // The last 7 days are 7 dates: the 2nd to the 8th.
            ("7d", "2026-12-02T00:00:00.000Z"),
            ("1d", "2026-12-08T00:00:00.000Z"),
            ("12h", "2026-12-08T00:00:00.000Z"),
            ("2026-11-30", "2026-11-30T00:00:00.000Z"),
        ];
        for (text, want) in ok {
            assert_eq!(parse_since(text, now).expect(text), want);
        }
        for bad in [
            "",
            "7",
            "0d",
            "-3d",
            "7w",
            "2026-13-01",
            "x d",
            "99999999999999d",
        ] {
            let e = parse_since(bad, now).expect_err(bad).to_string();
            assert!(e.contains("give a number of days"), "{bad}: {e}");
        }
    }
}
