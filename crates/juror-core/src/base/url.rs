//! URL helpers with no knowledge of studies: the origin a submission address may be sent to
//! (which the site's Content-Security-Policy must allow), percent-encoding for the links
//! Juror writes (slot links, completion links), and the e-mail address in a contact line (which
//! every page that shows the study's contact links as `mailto:`).

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

/// The first e-mail address in `text` (a study's contact line, such as `Kitchen Lab,
/// lab@example.org`), with the text before and after it: `(before, address, after)`. An address
/// is a word (between spaces, `<>`, `()`, `,` or `;`) with one `@`, something before it and a
/// dot after it; a full stop ending the sentence is not part of it.
pub fn split_email(text: &str) -> Option<(&str, &str, &str)> {
    let is_break = |c: char| c.is_whitespace() || matches!(c, '<' | '>' | '(' | ')' | ',' | ';');
    let mut start = 0;
    for word in text.split(is_break) {
        let at = start;
        start += word.len()
            + text[at + word.len()..]
                .chars()
                .next()
                .map_or(0, char::len_utf8);
        let word = word.trim_end_matches('.');
        let mut parts = word.split('@');
        if let (Some(a), Some(b), None) = (parts.next(), parts.next(), parts.next())
            && !a.is_empty()
            && b.contains('.')
        {
            return Some((&text[..at], word, &text[at + word.len()..]));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_address_in_a_contact_line_is_found_with_what_surrounds_it() {
        assert_eq!(
            split_email("Kitchen Lab, kitchen-lab@example.org"),
            Some(("Kitchen Lab, ", "kitchen-lab@example.org", ""))
        );
        assert_eq!(
            split_email("Dr Ada Lovelace <ada@example.org>"),
            Some(("Dr Ada Lovelace <", "ada@example.org", ">"))
        );
        assert_eq!(
            split_email("write to team@lab.ac.uk."),
            Some(("write to ", "team@lab.ac.uk", "."))
        );
        assert_eq!(
            split_email("Zoë Müller (zoë@exämple.org)"),
            Some(("Zoë Müller (", "zoë@exämple.org", ")"))
        );
        assert_eq!(split_email("no address here"), None);
        assert_eq!(split_email("@handle or a@b"), None);
    }

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
