//! URL helpers with no knowledge of studies: the origin a submission address may be sent to
//! (which the site's Content-Security-Policy must allow) and percent-encoding for the links
//! Juror writes (slot links, completion links).

/// The origin (`https://host[:port]`) of a submission address, if it is one Juror may send to:
/// `https://`, or `http://` to 127.0.0.1 or localhost (a local test).
pub fn origin(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    let hostname = host.rsplit_once(':').map_or(host, |(h, _)| h);
    let ok = match scheme {
        "https" => !hostname.is_empty() && !host.contains('@'),
        "http" => hostname == "127.0.0.1" || hostname == "localhost",
        _ => false,
    };
    ok.then(|| format!("{scheme}://{host}"))
}

/// Percent-encoding for a URL: RFC 3986's unreserved characters and `also` are kept, every other
/// byte is `%XX`.
pub fn percent_encode(text: &str, also: &[u8]) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) || also.contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_https_or_a_local_test_server_is_an_origin() {
        assert_eq!(
            origin("https://pipe.jspsych.org/api/data/").as_deref(),
            Some("https://pipe.jspsych.org")
        );
        assert_eq!(
            origin("https://script.google.com:443/macros/s/X/exec?a=1").as_deref(),
            Some("https://script.google.com:443")
        );
        assert_eq!(
            origin("http://127.0.0.1:8472/in").as_deref(),
            Some("http://127.0.0.1:8472")
        );
        for bad in [
            "http://example.org/in",
            "ftp://x.org",
            "https://",
            "https://user@evil.org/",
            "javascript:alert(1)",
            "//x.org",
        ] {
            assert_eq!(origin(bad), None, "{bad}");
        }
    }
}
