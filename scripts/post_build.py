#!/usr/bin/env python3
"""Trunk post-build hook: finishes dist/ for offline, sub-path and CSP use.

1. Content-Security-Policy: Trunk writes one inline module script that starts the wasm; its
   SHA-256 goes into a CSP meta tag, so that only that script and same-origin files run.
2. Service worker: writes sw.js from assets/sw.template.js with the build's version (a hash of
   every file of the build) and the list of app-shell files to precache.

Runs in Trunk's staging directory (TRUNK_STAGING_DIR); uses only the standard library.
"""
import base64
import hashlib
import json
import os
import re
import sys

staging = os.environ.get("TRUNK_STAGING_DIR") or (sys.argv[1] if len(sys.argv) > 1 else "dist")
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
index_path = os.path.join(staging, "index.html")

with open(index_path, encoding="utf-8") as f:
    html = f.read()

scripts = re.findall(r"<script type=\"module\">(.*?)</script>", html, flags=re.S)
if len(scripts) != 1:
    sys.exit(f"post_build: expected one inline module script in index.html, found {len(scripts)}")
digest = base64.b64encode(hashlib.sha256(scripts[0].encode("utf-8")).digest()).decode("ascii")
policy = "; ".join(
    [
        "default-src 'none'",
        f"script-src 'self' 'wasm-unsafe-eval' 'sha256-{digest}'",
        "style-src 'self'",
        "img-src 'self' data: blob:",
        "media-src 'self' blob:",
        "font-src 'self'",
        "connect-src 'self'",
        "worker-src 'self'",
        "manifest-src 'self'",
        "base-uri 'self'",
        "form-action 'self'",
        "object-src 'none'",
    ]
)
meta = f'<meta http-equiv="Content-Security-Policy" content="{policy}" />'
if "Content-Security-Policy" in html:
    html = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', meta, html)
else:
    html = html.replace('<meta charset="utf-8" />', '<meta charset="utf-8" />\n    ' + meta, 1)
with open(index_path, "w", encoding="utf-8") as f:
    f.write(html)

# The app shell: everything at the top of the build but the service worker itself, plus the
# icons. Studies, their media and the schemas are cached when first fetched instead.
shell = ["./", "index.html"]
for name in sorted(os.listdir(staging)):
    path = os.path.join(staging, name)
    if os.path.isfile(path) and name not in ("sw.js", "index.html", "404.html"):
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
sw = sw.replace("'__VERSION__'", json.dumps(version)).replace("__PRECACHE__", json.dumps(shell))
with open(os.path.join(staging, "sw.js"), "w", encoding="utf-8") as f:
    f.write(sw)
print(f"post_build: CSP sha256-{digest}; sw.js version {version}, {len(shell)} shell files")
