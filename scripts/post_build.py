#!/usr/bin/env python3
"""Trunk post-build hook: finishes dist/ for offline, sub-path and CSP use.

1. The Analyse page (and the annotator's reader of ratings files, `juror-ratings`, hashed the
   same way, its name written into index.html as `<meta name="juror-ratings">`): Trunk builds its wasm (`juror-analyse`, the second `rel="rust"` link of
   index.html) but loads it nowhere. This renames its two files with a hash of their content
   (so a new deployment is never mixed with a cached old one) and writes analyse.html from
   assets/analyse.template.html, with index.html's stylesheet and icon.
2. Content-Security-Policy: each page has one inline module script that starts its wasm, and
   index.html one classic script that starts the study's request beside the wasm; the module
   script's SHA-256 goes into the page's policy, so that only it and same-origin files run.
   analyse.html carries the policy as a meta tag. index.html sets it from its classic script,
   moved first, before that script asks for the study (and before any other script runs, any
   style applies or the page asks for anything else):
   Chrome's preload scanner stops at a policy in the HTML, and the wasm is then requested only
   once the main thread has parsed the page, 40–90 ms later on a slowed phone
   (docs/decisions.md, "The policy set from a script"). Right after that script come the
   preloads of the wasm and its scripts, the wasm first.
3. Service worker: writes sw.js from assets/sw.template.js with the build's version (a hash of
   every file of the build), the list of the annotator's app-shell files to precache (not
   the Analyse page's: annotators never load it), the SHA-256 of index.html (the worker's
   install refuses an index.html that is not this build's) and the Analyse page's bundle name
   (older ones are pruned from the runtime cache).

0. The annotator's wasm, split (first, since it changes files index.html names): Trunk builds
   `juror-app` with the `split` feature, linked with its relocations; this splits that wasm
   (`wasm-split-cli`) into the main module, which the welcome page needs, and the later pages
   (src/boot/later.rs), loaded while the annotator reads it; runs wasm-bindgen on the main
   module again (keeping the exports the later module links to) and wasm-opt on each (the
   first at -Os, the others at -O1); and writes them over Trunk's files, under Trunk's hashed name (a function of the same
   build), with the loader `NAME_split.js` and the pages `NAME_later.wasm` beside them, and the
   `integrity` of index.html's preloads updated and the loader preloaded too. In a release build, the two scripts are
   minified (terser) and the stylesheet and index.html lose their comments. Both scripts start
   with Chrome's compile hint (`//# allFunctionsCalledOnLoad`).

4. The studies: every `.json` file under studies/ is compiled over itself
   (`juror compile --in-place`, docs/compiled.md), because the annotator's page plays compiled
   studies only; a file already compiled is checked and kept. The command is $JUROR, else
   `cargo run -q --locked -p juror-cli --` (native, in the workspace's target folder).

Runs in Trunk's staging directory (TRUNK_STAGING_DIR); uses only the standard library.
"""
import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib

staging = os.environ.get("TRUNK_STAGING_DIR") or (sys.argv[1] if len(sys.argv) > 1 else "dist")
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
index_path = os.path.join(staging, "index.html")
analyse_path = os.path.join(staging, "analyse.html")
APP = "juror-app"
ANALYSE = "juror-analyse"
RATINGS = "juror-ratings"
# V8's explicit compile hint for a whole file (Chrome 136 and later): the first line of a script.
COMPILE_HINT = "//# allFunctionsCalledOnLoad\n"


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def submit_origins():
    """Origins the annotator's page may send finished ratings files to, by request
    (connect-src) or by a form (form-action: MTurk's externalSubmit, https://www.mturk.com or
    https://workersandbox.mturk.com): the build's JUROR_SUBMIT_ORIGINS, space-separated
    (https://host[:port], or http:// to 127.0.0.1 or localhost for a local test). Unset: none,
    and no request leaves the site's origin."""
    origins = os.environ.get("JUROR_SUBMIT_ORIGINS", "").split()
    for o in origins:
        ok = re.fullmatch(r"https://[A-Za-z0-9.-]+(:[0-9]+)?", o) or re.fullmatch(
            r"http://(127\.0\.0\.1|localhost)(:[0-9]+)?", o
        )
        if not ok:
            sys.exit(f"post_build: JUROR_SUBMIT_ORIGINS: {o!r} is not an origin (https://host[:port])")
    # Google Apps Script answers every POST with a redirect to its echo page on
    # script.googleusercontent.com, whose body is doPost's answer: the page follows it to read the
    # receipt that proves delivery (a redirect alone does not: a sign-in wall redirects too).
    if "https://script.google.com" in origins and APPS_SCRIPT_ECHO not in origins:
        origins.append(APPS_SCRIPT_ECHO)
    return origins


APPS_SCRIPT_ECHO = "https://script.googleusercontent.com"


def sha256_source(text):
    """A CSP source allowing the inline script `text`, byte for byte."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def with_policy(html, name, connect=(), classic_run_before=False):
    """The page with a CSP meta tag that allows its one inline module script (the wasm's
    start-up, first) and its inline classic scripts, unless they run before the policy is set
    (`classic_run_before`: index.html's, `policy_by_script`)."""
    scripts = re.findall(r"<script type=\"module\">(.*?)</script>", html, flags=re.S)
    if len(scripts) != 1:
        sys.exit(f"post_build: expected one inline module script in {name}, found {len(scripts)}")
    digest = sha256_source(scripts[0])[len("'sha256-"):-1]
    classic = [] if classic_run_before else re.findall(r"<script>(.*?)</script>", html, flags=re.S)
    sources = " ".join(sha256_source(s) for s in [scripts[0], *classic])
    policy = "; ".join(
        [
            "default-src 'none'",
            f"script-src 'self' 'wasm-unsafe-eval' {sources}",
            "style-src 'self'",
            "img-src 'self' data: blob:",
            "media-src 'self' blob:",
            "font-src 'self'",
            " ".join(["connect-src 'self'", *connect]),
            "worker-src 'self'",
            "manifest-src 'self'",
            "base-uri 'self'",
            " ".join(["form-action 'self'", *connect]),
            "object-src 'none'",
        ]
    )
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy}" />'
    if re.search(r'<meta http-equiv="Content-Security-Policy"[^>]*>', html):
        return re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', meta, html), digest
    return html.replace('<meta charset="utf-8" />', '<meta charset="utf-8" />\n    ' + meta, 1), digest


def policy_by_script(html):
    """The page with its CSP meta tag (`with_policy`) replaced by its first classic script (the
    early study request), moved there and opened by a statement that puts the same tag into
    <head>. The browser applies a policy meta tag when it is inserted, by the parser or by a
    script, and from then on: nothing before it runs or is fetched but the page's own preloads
    (which the policy allows anyway), and the study's request after it is held to the policy.
    A policy written in the HTML turns off Chrome's preload scanner for the whole page, so the
    wasm's request waited for the main thread to parse the page; without one in the HTML the
    scanner asks for the wasm while the page is still being committed. One script rather than
    two: each costs the parser 10–15 ms on a slowed phone before the study is asked for."""
    found = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)" />', html)
    if not found:
        sys.exit("post_build: index.html has no Content-Security-Policy")
    policy = found.group(1)
    if '"' in policy or "<" in policy or "\\" in policy:
        sys.exit("post_build: the Content-Security-Policy cannot be written into a script")
    early = re.search(r"\n?[ \t]*<script>(.*?)</script>", html, flags=re.S)
    if not early or "fetch(" not in early.group(1):
        sys.exit("post_build: index.html has no early request for the study")
    html = html.replace(early.group(0), "", 1)
    script = (
        "<script>\n"
        "      // The page's Content-Security-Policy (scripts/post_build.py), in force from here on.\n"
        "      document.head.prepend(\n"
        '        Object.assign(document.createElement("meta"), {\n'
        '          httpEquiv: "Content-Security-Policy",\n'
        f'          content: "{policy}",\n'
        "        })\n"
        "      );"
        f"{early.group(1).rstrip()}\n"
        "    </script>"
    )
    return html.replace(found.group(0), script, 1)


def hashed(name):
    """Renames Trunk's unhashed NAME.js and NAME_bg.wasm (a "worker" link, loaded nowhere) with
    a hash of their content, so that a new deployment is never mixed with a cached old one;
    returns the new stem."""
    js, wasm = os.path.join(staging, f"{name}.js"), os.path.join(staging, f"{name}_bg.wasm")
    if not (os.path.isfile(js) and os.path.isfile(wasm)):
        sys.exit(f"post_build: {name}.js and {name}_bg.wasm are missing from {staging}")
    h = hashlib.sha256()
    for path in (js, wasm):
        with open(path, "rb") as f:
            h.update(f.read())
    stem = f"{name}-{h.hexdigest()[:16]}"
    os.replace(js, os.path.join(staging, f"{stem}.js"))
    os.replace(wasm, os.path.join(staging, f"{stem}_bg.wasm"))
    return stem


def tool(name):
    """A pinned tool: npm's (wasm-opt) first, then PATH (Trunk's own lookup)."""
    local = os.path.join(root, "node_modules", ".bin", name)
    found = local if os.path.isfile(local) else shutil.which(name)
    if not found:
        sys.exit(f"post_build: {name} is missing: run scripts/setup")
    return found


def run(command):
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"post_build: {' '.join(command)} failed:\n{done.stdout}{done.stderr}")


def sri(path):
    """The integrity value Trunk writes for a file (SHA-384)."""
    with open(path, "rb") as f:
        return "sha384-" + base64.b64encode(hashlib.sha384(f.read()).digest()).decode("ascii")


def cargo_wasm(bin_name):
    """The wasm cargo linked for BIN_NAME in this build (before wasm-bindgen)."""
    target = os.environ.get("CARGO_TARGET_DIR")
    if not target:
        meta = subprocess.run(
            ["cargo", "metadata", "--format-version", "1", "--no-deps", "--offline"],
            cwd=root, capture_output=True, text=True,
        )
        if meta.returncode != 0:
            sys.exit(f"post_build: cargo metadata failed:\n{meta.stderr}")
        target = json.loads(meta.stdout)["target_directory"]
    # Trunk.toml's cargo_profile (Trunk passes it to every build, release or not), else cargo's.
    with open(os.path.join(root, "Trunk.toml"), "rb") as f:
        profile = tomllib.load(f).get("build", {}).get("cargo_profile")
    if not profile:
        profile = "release" if os.environ.get("TRUNK_PROFILE") == "release" else "debug"
    path = os.path.join(target, "wasm32-unknown-unknown", profile, f"{bin_name}.wasm")
    if not os.path.isfile(path):
        sys.exit(f"post_build: {path} is missing (Trunk should have built it)")
    return path


def split_app(html):
    """Step 0: the annotator's wasm split in two; returns index.html with the new integrity."""
    found = [n for n in os.listdir(staging) if re.fullmatch(rf"{APP}-[0-9a-f]+_bg\.wasm", n)]
    if len(found) != 1:
        sys.exit(f"post_build: expected one {APP}-*_bg.wasm in {staging}, found {found}")
    stem = found[0][: -len("_bg.wasm")]
    release = os.environ.get("TRUNK_PROFILE") == "release"
    with tempfile.TemporaryDirectory() as work:
        parts, bound = os.path.join(work, "split"), os.path.join(work, "bindgen")
        run([tool("wasm-split-cli"), "--out-name", stem, cargo_wasm(APP), parts])
        run([tool("wasm-bindgen"), "--target", "web", "--no-typescript", "--keep-lld-exports",
             "--no-demangle", "--out-name", stem, "--out-dir", bound, os.path.join(parts, f"{stem}.wasm")])
        # The main module imports its loader of the later pages by this build's name.
        js = read(os.path.join(bound, f"{stem}.js"))
        # (once per split point: the session's and the pages for no study)
        specifier = 'from "./__wasm_split.js"'
        if js.count(specifier) == 0:
            sys.exit(f"post_build: {stem}.js does not import ./__wasm_split.js")
        write(os.path.join(staging, f"{stem}.js"), js.replace(specifier, f'from "./{stem}_split.js"'))
        loader = read(os.path.join(parts, "__wasm_split.js"))
        modules = [(os.path.join(bound, f"{stem}_bg.wasm"), f"{stem}_bg.wasm")]
        for name in sorted(os.listdir(parts)):
            if name.endswith(".wasm") and name != f"{stem}.wasm":
                # split_juror_later.wasm -> NAME_later.wasm (chunk_N.wasm, code two splits share,
                # -> NAME_chunk_N.wasm)
                new = f"{stem}_{re.sub(r'^split_juror_', '', name)}"
                if loader.count(f'"./{name}"') != 1:
                    sys.exit(f"post_build: the loader does not name {name} once")
                loader = loader.replace(f'"./{name}"', f'"./{new}"')
                modules.append((os.path.join(parts, name), new))
        if len(modules) < 2:
            sys.exit("post_build: the annotator's wasm was not split (is the `split` feature on?)")
        write(os.path.join(staging, f"{stem}_split.js"), loader)
        if release:
            # The two scripts every annotator downloads, minified (names the page calls from
            # outside, its exports, are kept: they are an ES module's).
            for name in (f"{stem}.js", f"{stem}_split.js"):
                path = os.path.join(staging, name)
                run([tool("terser"), path, "--module", "--compress", "--mangle", "--output", path])
        # Both scripts start with Chrome's explicit compile hint: most of their functions are
        # called while the welcome page is built, so V8 compiles them all as the file streams
        # in, off the main thread, instead of one by one on first call on the main thread
        # (other browsers read a comment). With the CPU slowed 4×, the welcome page comes about
        # 20 ms sooner (docs/decisions.md, "Chrome's compile hint").
        for name in (f"{stem}.js", f"{stem}_split.js"):
            path = os.path.join(staging, name)
            write(path, COMPILE_HINT + read(path))
        # JUROR_WASM_NAMES=1 keeps the functions' names (for a profiler: docs/benchmarks.md,
        # "Profiling").
        names = ["--debuginfo"] if os.environ.get("JUROR_WASM_NAMES") else []
        for source, name in modules:
            out = os.path.join(staging, name)
            if release:
                # The first module at -Os: 0.8 KB gzip smaller than at -O1 and 15% fewer
                # functions (each is compiled on its first call); the later ones gzip larger at
                # -Os (the session's by 3 KB), so they stay at -O1 (docs/decisions.md, "wasm-opt
                # levels per module").
                level = "-Os" if name == f"{stem}_bg.wasm" else "-O1"
                strip = ["--strip-producers", "--strip-target-features"]
                run([tool("wasm-opt"), level, *strip, *names, f"--output={out}", source])
            else:
                shutil.copyfile(source, out)
        if release:
            # The glue's 228 imports under short names (7 KB gzip less to download first).
            short_imports(os.path.join(staging, f"{stem}_bg.wasm"), os.path.join(staging, f"{stem}.js"))
    # The loader is imported by the glue: preloaded beside it, it costs no round trip of its own
    # before the wasm can start (one round trip is half a second on a slow mobile network).
    glue = re.search(rf'<link rel="modulepreload" href="\./{re.escape(stem)}\.js"[^>]*>', html)
    if not glue:
        sys.exit(f"post_build: index.html has no modulepreload of {stem}.js")
    loader_link = glue.group(0).replace(f"./{stem}.js", f"./{stem}_split.js")
    html = html.replace(glue.group(0), glue.group(0) + loader_link, 1)
    return with_integrity(html, (f"{stem}.js", f"{stem}_split.js", f"{stem}_bg.wasm"))


def leb128(data, at):
    """The unsigned LEB128 number at `at` in `data`, and where it ends."""
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def to_leb128(value):
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def short_imports(wasm_path, glue_path):
    """The functions the main module imports from its glue renamed `$0`, `$1`, … in both files
    (wasm-bindgen names each one `__wbg_NAME_HASH`, 228 of them): −4.2 KB gzip of wasm and
    −2.9 KB of glue, which annotators download first. Imports from other modules (the split's
    loader) keep their names. Each name must be an object key of the glue exactly once."""
    with open(wasm_path, "rb") as f:
        wasm = f.read()
    with open(glue_path, encoding="utf-8") as f:
        glue = f.read()
    glue_module = "./" + os.path.basename(glue_path)[: -len(".js")] + "_bg.js"
    out, at, renamed = bytearray(wasm[:8]), 8, {}
    while at < len(wasm):
        section, start = wasm[at], at
        size, body = leb128(wasm, at + 1)
        end = body + size
        if section != 2:  # not the import section: kept as it is
            out += wasm[start:end]
            at = end
            continue
        count, i = leb128(wasm, body)
        imports = bytearray(to_leb128(count))
        for _ in range(count):
            names = []
            for _ in range(2):  # module, then field
                length, i = leb128(wasm, i)
                names.append(wasm[i : i + length].decode("utf-8"))
                i += length
            kind_start, kind = i, wasm[i]
            i += 1
            if kind == 0:  # function: type index
                _, i = leb128(wasm, i)
            elif kind == 1:  # table: element type, limits
                flags, i = leb128(wasm, i + 1)
                _, i = leb128(wasm, i)
                if flags & 1:
                    _, i = leb128(wasm, i)
            elif kind == 2:  # memory: limits
                flags, i = leb128(wasm, i)
                _, i = leb128(wasm, i)
                if flags & 1:
                    _, i = leb128(wasm, i)
            elif kind == 3:  # global: value type, mutability
                i += 2
            else:
                sys.exit(f"post_build: unexpected import kind {kind} in {wasm_path}")
            module, field = names
            if module == glue_module and kind == 0:
                field = renamed.setdefault(field, f"${len(renamed):x}")
            for name in (module, field):
                encoded = name.encode("utf-8")
                imports += to_leb128(len(encoded)) + encoded
            imports += wasm[kind_start:i]
        if i != end:
            sys.exit(f"post_build: {wasm_path}'s import section did not read to its end")
        out += bytes([2]) + to_leb128(len(imports)) + imports
        at = end
    if not renamed:
        sys.exit(f"post_build: {wasm_path} imports nothing from {glue_module}")
    for old, new in renamed.items():
        key = re.compile(rf'(?<![\w$"]){re.escape(old)}(?=:)')
        glue, n = key.subn(new, glue)
        if n != 1 or old in glue:
            sys.exit(f"post_build: {os.path.basename(glue_path)} names the import {old} {n} times as a key")
    with open(wasm_path, "wb") as f:
        f.write(out)
    write(glue_path, glue)


def with_integrity(html, names):
    """index.html with the `integrity` of its links to NAMES (rewritten here) recomputed."""
    for name in names:
        link = re.compile(rf'(<link [^>]*href="\./{re.escape(name)}"[^>]*integrity=")[^"]*(")')
        html, n = link.subn(lambda m: m.group(1) + sri(os.path.join(staging, name)) + m.group(2), html)
        if n != 1:
            sys.exit(f"post_build: index.html has no link to {name} with an integrity")
    return html


def preloads_first(html):
    """index.html with the preloads of the wasm and its scripts first in <head>, right after the
    policy's script (Trunk puts them last): the browser requests them as it meets them, one
    after the other, and the wasm is the largest file before the welcome page. On 4G with the
    CPU slowed 4×, each request costs the parser 5–12 ms, so first, the wasm's starts 40–50 ms
    earlier, and the welcome page comes 50–70 ms sooner (docs/decisions.md, "The study taken at
    once, the wasm's preload first")."""
    links = re.findall(r'<link rel="(?:modulepreload|preload)"[^>]*>', html)
    if not any(".wasm" in link for link in links):
        sys.exit("post_build: index.html has no preload of the wasm")
    for link in links:
        html = html.replace(link, "", 1)
    links.sort(key=lambda link: ".wasm" not in link)
    policy = re.search(r"<script>\n\s*// The page's Content-Security-Policy.*?</script>", html, flags=re.S)
    if not policy:
        sys.exit("post_build: index.html has no Content-Security-Policy")
    at = policy.end()
    return html[:at] + "".join("\n    " + link for link in links) + html[at:]


def lean_css(html):
    """The stylesheet without its comments and indentation (what an annotator downloads; the
    source keeps them); returns index.html with the stylesheet's new integrity."""
    found = [n for n in os.listdir(staging) if re.fullmatch(r"main-[0-9a-f]+\.css", n)]
    if len(found) != 1:
        sys.exit(f"post_build: expected one main-*.css in {staging}, found {found}")
    path = os.path.join(staging, found[0])
    css = re.sub(r"/\*.*?\*/", "", read(path), flags=re.S)
    write(path, re.sub(r"\n\s*", "\n", css).strip() + "\n")
    return with_integrity(html, found)


html = read(index_path)

# 0. The annotator's wasm, split; its stylesheet and its page without comments (in release).
html = split_app(html)
if os.environ.get("TRUNK_PROFILE") == "release":
    html = lean_css(html)
    # HTML comments (the source's notes; none is inside a script).
    html = re.sub(r"\n?[ \t]*<!--.*?-->", "", html, flags=re.S)

# 1. The Analyse page.
stem = hashed(ANALYSE)
links = "\n    ".join(re.findall(r'<link rel="(?:stylesheet|icon)"[^>]*>', html))
page = read(os.path.join(root, "assets", "analyse.template.html"))
page = page.replace("__LINKS__", links).replace("__STEM__", stem)
page, analyse_digest = with_policy(page, "analyse.html")
if '<meta http-equiv="Content-Security-Policy"' not in page:
    sys.exit("post_build: analyse.html has no Content-Security-Policy (is <meta charset> missing?)")
write(analyse_path, page)

# 2. The annotator's page, told the hashed name of its reader of ratings files.
ratings_stem = hashed(RATINGS)
meta = f'<meta name="juror-ratings" content="{ratings_stem}" />'
html = re.sub(r'\s*<meta name="juror-ratings"[^>]*>', "", html)
html = html.replace("<title>", meta + "\n    <title>", 1)
html, digest = with_policy(html, "index.html", submit_origins(), classic_run_before=True)
html = preloads_first(policy_by_script(html))
write(index_path, html)

# 3. The not-found page GitHub Pages serves for any missing path (assets/404.html): its one
# inline script and one style block, by hash, and nothing else.
not_found_path = os.path.join(staging, "404.html")
if os.path.isfile(not_found_path):
    page = read(not_found_path)
    scripts = re.findall(r"<script>(.*?)</script>", page, flags=re.S)
    styles = re.findall(r"<style>(.*?)</style>", page, flags=re.S)
    policy = "; ".join(
        [
            "default-src 'none'",
            "script-src " + " ".join(sha256_source(s) for s in scripts) if scripts else "script-src 'none'",
            "style-src " + " ".join(sha256_source(s) for s in styles) if styles else "style-src 'none'",
            "base-uri 'none'",
            "form-action 'none'",
            "object-src 'none'",
        ]
    )
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy}" />'
    page = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>\s*', "", page)
    page = page.replace('<meta charset="utf-8" />', '<meta charset="utf-8" />\n    ' + meta, 1)
    write(not_found_path, page)

# 4. The studies the site serves, compiled for the annotator's page (before the build's version
# is hashed: the compiled files are what is served).
studies = os.path.join(staging, "studies")
study_files = sorted(
    os.path.join(d, n) for d, _, names in os.walk(studies) for n in names if n.endswith(".json")
)
if study_files:
    juror = os.environ.get("JUROR")
    command = [juror] if juror else ["cargo", "run", "-q", "--locked", "-p", "juror-cli", "--"]
    # The native CLI, whatever Trunk set for the wasm build.
    env = {k: v for k, v in os.environ.items() if k not in ("RUSTFLAGS", "CARGO_BUILD_TARGET", "CARGO_ENCODED_RUSTFLAGS")}
    done = subprocess.run(
        command + ["compile", "--in-place", *study_files], cwd=root, env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        sys.exit(f"post_build: compiling the studies failed:\n{done.stdout}{done.stderr}")

# The app shell: everything at the top of the build but the service worker itself, plus the
# icons. Studies, their media and the schemas are cached when first fetched instead.
shell = ["./", "index.html"]
for name in sorted(os.listdir(staging)):
    path = os.path.join(staging, name)
    annotators = name not in ("sw.js", "index.html", "404.html", "analyse.html")
    # The reader of ratings files is not precached: annotators who never continue from a file
    # never download it (the runtime cache keeps it once loaded).
    if os.path.isfile(path) and annotators and not name.startswith((ANALYSE, RATINGS)):
        shell.append(name)
icons = os.path.join(staging, "icons")
if os.path.isdir(icons):
    shell += [f"icons/{n}" for n in sorted(os.listdir(icons))]

h = hashlib.sha256()
for dirpath, _, files in sorted(os.walk(staging)):
    for name in sorted(files):
        if name == "sw.js":
            continue
        path = os.path.join(dirpath, name)
        h.update(os.path.relpath(path, staging).encode())
        with open(path, "rb") as f:
            h.update(f.read())
version = h.hexdigest()[:16]

with open(os.path.join(root, "assets", "sw.template.js"), encoding="utf-8") as f:
    sw = f.read()
with open(index_path, "rb") as f:
    index_sha256 = hashlib.sha256(f.read()).hexdigest()
sw = (
    sw.replace("'__VERSION__'", json.dumps(version))
    .replace("__PRECACHE__", json.dumps(shell))
    .replace("'__INDEX_SHA256__'", json.dumps(index_sha256))
    .replace("'__ANALYSE_BUNDLE__'", json.dumps(stem))
    .replace("'__RATINGS_BUNDLE__'", json.dumps(ratings_stem))
)
if re.search(r"__(VERSION|PRECACHE|INDEX_SHA256|ANALYSE_BUNDLE|RATINGS_BUNDLE)__", sw):
    sys.exit("post_build: sw.js still has a placeholder")
with open(os.path.join(staging, "sw.js"), "w", encoding="utf-8") as f:
    f.write(sw)
print(
    f"post_build: CSP sha256-{digest} (index.html), sha256-{analyse_digest} (analyse.html, "
    f"{stem}); sw.js version {version}, {len(shell)} shell files; {len(study_files)} studies compiled"
)
