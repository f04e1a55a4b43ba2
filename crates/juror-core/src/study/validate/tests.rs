//! The media check's reading of a `src` as the browser would.

use super::media::blocked_scheme;
use crate::study::raw::RawMediaKind;

#[test]
fn only_the_apps_own_files_and_data_images_are_allowed() {
    let image = RawMediaKind::Image;
    let video = RawMediaKind::Video;
    for ok in [
        "media/clock.svg",
        "./media/clock.svg",
        "../shared/figure.png",
        "/juror/studies/media/x.png",
        "figure 1: sales.png",
        "data:image/png;base64,iVBORw0KGgo=",
    ] {
        assert_eq!(blocked_scheme(ok, image), None, "{ok}");
    }
    assert_eq!(blocked_scheme("media/clip.mp4", video), None);
    let another = Some("another site".to_owned());
    assert_eq!(blocked_scheme("https://example.org/a.png", image), another);
    assert_eq!(blocked_scheme("HTTP://example.org/a.png", image), another);
    assert_eq!(blocked_scheme("//cdn.example.org/a.png", image), another);
    // Spellings the browser's URL parser reads as another host.
    for src in [
        "/\\evil.example/x.png",
        "\\\\evil.example/x.png",
        "/\t/evil.example/x.png",
        " /\n/evil.example/x.mp4",
    ] {
        assert_eq!(blocked_scheme(src, image), another, "{src:?}");
        assert_eq!(blocked_scheme(src, video), another, "{src:?}");
    }
    assert_eq!(
        blocked_scheme("ht\ttps://evil.example/x.png", image),
        another
    );
    assert_eq!(
        blocked_scheme("data:video/mp4;base64,AAAA", video),
        Some("a \"data:\" address".to_owned())
    );
    assert_eq!(
        blocked_scheme("file:///home/me/a.png", image),
        Some("a \"file:\" address".to_owned())
    );
}
