//! Today's date for the archive's `Date` tag, without a calendar crate.

use std::time::{SystemTime, UNIX_EPOCH};

/// The UTC date as PDN writes it: `YYYY.MM.DD`.
pub fn utc_date(now: SystemTime) -> String {
    let days = now
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    let (year, month, day) = civil_from_days(days);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Howard Hinnant's days-to-civil algorithm (proleptic Gregorian calendar).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn check(secs: u64, expect: &str) {
        assert_eq!(utc_date(UNIX_EPOCH + Duration::from_secs(secs)), expect);
    }

    #[test]
    fn known_dates() {
        check(0, "1970.01.01");
        check(951_782_400, "2000.02.29");
        check(1_709_164_800, "2024.02.29");
        check(1_796_083_199, "2026.11.30");
    }
}
