//! Timestamps: milliseconds since the Unix epoch (as the browser's `Date.now()` gives them),
//! written as RFC 3339 / ISO 8601 UTC strings in files.

/// `2026-11-22T00:15:30.123Z` for a time in milliseconds since the Unix epoch.
pub fn iso8601(ms: f64) -> String {
    let ms = ms.max(0.0) as i64;
    let (secs, millis) = (ms.div_euclid(1000), ms.rem_euclid(1000));
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The date part only: `2026-11-22`.
pub fn date(ms: f64) -> String {
    iso8601(ms)[..10].to_owned()
}

/// Howard Hinnant's `civil_from_days`: the proleptic Gregorian date of a day count.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_instants() {
        assert_eq!(iso8601(0.0), "1970-01-01T00:00:00.000Z");
        // date -u -d @951782400 → 2000-02-29 00:00:00 (a leap day).
        assert_eq!(iso8601(951_782_400_000.0), "2000-02-29T00:00:00.000Z");
        // date -u -d @1795307730.123
        assert_eq!(iso8601(1_795_307_730_123.0), "2026-11-22T00:35:30.123Z");
        assert_eq!(date(1_795_307_730_123.0), "2026-11-22");
    }
}

/// The inverse of [`iso8601`] for the strings it writes (`YYYY-MM-DDTHH:MM:SS.mmmZ`).
pub fn parse_iso8601(text: &str) -> Option<f64> {
    let b = text.as_bytes();
    if b.len() != 24
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
        || b[19] != b'.'
        || b[23] != b'Z'
    {
        return None;
    }
    let num = |r: std::ops::Range<usize>| text.get(r)?.parse::<i64>().ok();
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hh, mm, ss, ms) = (num(11..13)?, num(14..16)?, num(17..19)?, num(20..23)?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || hh > 23 || mm > 59 || ss > 60 {
        return None;
    }
    let days = days_from_civil(y, m, d);
    Some(((days * 86_400 + hh * 3600 + mm * 60 + ss) * 1000 + ms) as f64)
}

/// Howard Hinnant's `days_from_civil`.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod round_trip {
    use super::*;

    #[test]
    fn parse_inverts_format() {
        for ms in [
            0.0,
            951_782_400_000.0,
            1_795_307_730_123.0,
            4_102_444_799_999.0,
        ] {
            assert_eq!(parse_iso8601(&iso8601(ms)), Some(ms));
        }
        assert_eq!(parse_iso8601("2026-13-01T00:00:00.000Z"), None);
        assert_eq!(parse_iso8601("yesterday"), None);
    }
}
